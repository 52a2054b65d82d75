//===- HistogramLifting.h - Lift a histogram into FunIL ---------*- C++ -*-===//
//
// The histogram part of the lifting bridge (Lifting.h; DESIGN.md section 4,
// the complex reduction): a loop `bins[idx(x_i)] = F(bins[idx(x_i)], x_i)`
// whose F is b (+) g(x) for a proved operator (+) becomes a map-ABI program
// that updates the bins in place,
//
//   store view(B, 0, 1, m) = reduceIndexed(\(a, b) => a (+) b, view(B, 0, 1, m),
//                                          \t => (idx, g), zip(inputs...));
//
// where g is F with the bin read as the identity of (+), and guards
// independent of the bin give the identity when they fail (docs/FunIL.md,
// "Histograms"). The runtime runs it as IDIOM_MAP over the elements with
// the bins an INOUT buffer, so the host's bins are the initial bins. The
// number of bins m must be known exactly: from the index's proven range
// (zext from i8 -> 256, `and` with a mask, urem by a constant, a clamp), or
// from the bins array's type. Bins behind a pointer into an object of
// unknown size get a run-time extent (Lifting.h, RunTimeExtent): the bins
// buffer is elements [lo, hi] of the bins, with lo and hi the smallest and
// largest index of the iterations that access a bin, computed by the extent
// check before the call, and the element function gives `index - lo`
// (docs/ARCHITECTURE.md, "Run-time extents").
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_PASSES_LIFT_HISTOGRAMLIFTING_H
#define IDIOM_PASSES_LIFT_HISTOGRAMLIFTING_H

#include "../Lifting.h"
#include <functional>
#include <string>
#include <vector>

namespace idiom {

/// What the lifter decided about a histogram before writing its text.
struct HistogramLift {
  const HistogramUpdate *H = nullptr; ///< the single bin update
  llvm::Value *Index = nullptr;       ///< bin index (GEP index, element units)
  uint64_t NumBins = 0;               ///< the bins are elements [0, NumBins)
  std::string CountFrom;              ///< "index range" or "array type"
  /// The bin count is known at run time only (NumBins is 0): the bins
  /// buffer is a RunTimeExtent, FirstName and CountName its index
  /// parameters (lo, and the count of bins or, for narrow bins, of words).
  bool RunTime = false;
  std::string FirstName, CountName;
  /// Further updates of the same bins with the same operator in one
  /// iteration (a scatter-add over a small neighbourhood of a grid point,
  /// its constant loop unrolled by -O2): the program runs over the pairs
  /// (iteration, update k), flattened, and the index and the value are
  /// select chains on k, whose FunIL text is Slot. MoreIndices are their
  /// bin indices.
  std::vector<const HistogramUpdate *> More;
  std::vector<llvm::Value *> MoreIndices;
  std::string Slot;
  /// A triangular nest (NestInfo::Skew): the FunIL condition under which a
  /// point of the flattened rectangle is in the triangle (k1 >= Skew k0);
  /// outside it the value is the operator's identity. Empty otherwise.
  std::string Mask;
};

/// Largest bin count offloaded (the bins buffer is copied in and out per
/// call), at compile time and at run time.
constexpr uint64_t MaxHistogramBins = uint64_t(1) << 24;

/// The bin index of the store of \p U: the index of `getelementptr T, base,
/// idx` or `getelementptr [N x T], @g, 0, idx` on the bins' base; null when
/// the address has another form.
llvm::Value *binIndexOf(const BinUpdateInfo &U);

/// Checks what the FunIL template can express (one loop or a triangular
/// nest, flattened; one bin update read and written through bins[index], or
/// several of one bins array with one operator in a single loop; affine
/// input loads; a bin count known at compile time or a run-time extent),
/// fills \p Out and appends the roots of the index, value and guard slices
/// to \p Roots. Returns false with \p Why otherwise.
bool prepareHistogramLift(const IdiomMatch &M, llvm::ScalarEvolution &SE,
                          HistogramLift &Out, std::vector<llvm::Value *> &Roots,
                          std::string &Why);

/// The bins buffer parameter: elements [0, NumBins) of the base, read and
/// written (IDIOM_ARG_BUF_INOUT), named after the buffers in \p Params; with
/// run-time bins its range is RunTimeValue::Extent (no SCEVs).
LiftedParam histogramBinsParam(const HistogramLift &H,
                               const std::vector<LiftedParam> &Params,
                               llvm::ScalarEvolution &SE);

/// The statement `store view(Bins, ...) = reduceIndexed(...);`. \p Lambda is
/// the element lambda's parameter (`t: (f32, i64)`), \p Zip the zipped
/// inputs; \p Expr prints a slice value as FunIL and \p Preset fixes the text
/// of a value (the bin read becomes the identity). Returns "" when the
/// operator or a type has no FunIL form (Expr then reports why). With
/// run-time bins the index is `sub(index, FirstName)` and the view's count
/// CountName (times 4 / bin size for narrow bins).
std::string histogramStatement(const HistogramLift &H, const std::string &Bins,
                               const std::string &Lambda, const std::string &Zip,
                               const std::function<std::string(llvm::Value *)> &Expr,
                               const std::function<void(llvm::Value *, const std::string &)>
                                   &Preset);

/// The i64 bin index as FunIL (the GEP index, sign-extended), through
/// \p Expr; minus \p First when given (run-time bins); a select chain on
/// H.Slot for several updates.
std::string histogramIndexText(const HistogramLift &H,
                               const std::function<std::string(llvm::Value *)> &Expr,
                               const std::string &First = "");

/// The condition under which an iteration accesses its bin, as FunIL (the
/// conjunction of the update's guards that do not read the bin: when they
/// hold, the loop either updates the bin or reads it to test the others),
/// or "" when every iteration does.
std::string histogramAccessCondition(const HistogramLift &H,
                                     const std::function<std::string(llvm::Value *)> &Expr);

} // namespace idiom

#endif // IDIOM_PASSES_LIFT_HISTOGRAMLIFTING_H
