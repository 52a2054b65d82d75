//===- Lifting.h - Lift a detected idiom into FunIL text --------*- C++ -*-===//
//
// The lifting bridge (DESIGN.md section 2): turns an IdiomMatch into a FunIL
// program in the documented text form (docs/FunIL.md) and records, for every
// program parameter, how the stitched code computes it at the call site.
// Maps become `store views = map(f, zip(views...))` (nested maps for 2-D
// and 3-D nests, as in Lift, seeds/004 section 3); reductions become
// `return reduce(combine, identity, map(f, zip(views...)))` (seeds/000, idiom
// paper, section 7). Scalar lambdas are built from the LLVM slice.
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_PASSES_LIFTING_H
#define IDIOM_PASSES_LIFTING_H

#include "idiom/Constraints/IdiomMatch.h"
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace llvm {
class CallInst;
class Constant;
class ScalarEvolution;
class Type;
class Value;
} // namespace llvm

namespace idiom {

struct AccumSlices;
struct GemmSlice;
struct LiftedPair;

/// Run-time values that SCEV cannot give: those idiom_run_csr
/// (runtime/include/idiomrt.h) fills in for a CSR SpMV
/// (passes/lift/SpmvLifting.h) once it decides to run the kernel. A
/// parameter's SCEV is the part known before (x's gather offset), passed
/// as it is; the runtime replaces the whole value.
enum class RunTimeValue {
  None,
  CsrFirstNonzero, ///< ptr[0]: the first nonzero of the rows, in elements
  CsrEndNonzero,   ///< ptr[n]: one past the last nonzero
  CsrFirstColumn,  ///< the smallest column index
  CsrEndColumn,    ///< the largest column index plus one
  CsrColumnCount,  ///< CsrEndColumn - CsrFirstColumn
  // JDS (CsrExtent::Format IDIOM_SPARSE_JDS): the nonzeros above are the
  // positions ptr[k] + i the rows read, first and end.
  CsrNonzeroCount, ///< CsrEndNonzero - CsrFirstNonzero
  CsrDiagonals,    ///< the largest row count: ptr's extent
  CsrFirstResult,  ///< the smallest y element written, perm[i] + offset
  /// A run-time extent (RunTimeExtent): a buffer whose range, or an index
  /// parameter whose value, the stitched code computes from the result of
  /// the extent check (LiftedIdiom::ExtentCheckFunIL) before the call.
  Extent
};

/// One array whose accessed range is known only at run time (histogram
/// bins behind a pointer, the source of a gather): the elements [lo, hi]
/// of Buffer, where lo and hi are the smallest and largest index the loop
/// uses, computed by the extent check before the idiom runs
/// (docs/ARCHITECTURE.md, "Run-time extents"). The stitched code runs the
/// idiom only when 0 <= lo <= hi and hi - lo < MaxCount; it then passes
/// Buffer as [&base[lo], &base[hi + 1)), FirstParam as lo and CountParam
/// as hi - lo + 1 (elements), else the original loop runs.
struct RunTimeExtent {
  unsigned Buffer = 0;     ///< index into LiftedIdiom::Params of the buffer
  unsigned FirstParam = 0; ///< index of the Index parameter that gets lo
  unsigned CountParam = 0; ///< index of the Index parameter that gets the count
  uint64_t MaxCount = 0;   ///< largest count offloaded (elements)
  /// Narrow (8- or 16-bit) histogram bins: the range is widened to whole
  /// aligned 32-bit words (the kernel updates bins with 32-bit atomics on
  /// their word) and CountParam gets the word count.
  bool WholeWords = false;
  /// Gathers (GatherFacts.h): the load Buffer serves and its GEP index,
  /// read by translation validation; null for histogram bins.
  llvm::Value *GatherLoad = nullptr, *GatherIndex = nullptr;
  /// A gathered struct field (GatherInfo::Scale, Offset): the element read
  /// is GatherScale * index + GatherOffset.
  int64_t GatherScale = 1, GatherOffset = 0;
};

/// What the stitched code passes to idiom_run_csr in its idiom_csr struct
/// (SpMV lifts only).
struct CsrExtent {
  llvm::Value *Ptr = nullptr;            ///< base of the row pointers
  const llvm::SCEV *PtrFirst = nullptr;  ///< i64 element index of ptr[0]
  unsigned PtrBytes = 0, ColBytes = 0;   ///< element sizes (4 or 8)
  llvm::Value *Col = nullptr;            ///< base of the column indices
  unsigned Flags = 0;                    ///< enum idiom_csr_flags
  const llvm::SCEV *Rows = nullptr;      ///< n, the row count (i64)
  /// Elements of x from its base on: the object's (llvm::getObjectSize) or
  /// the access's array type, the smaller; 0 when unknown. With it, column
  /// indices (plus XOffset) outside [0, XExtent) make the runtime decline;
  /// x is passed as the range the column indices span.
  uint64_t XExtent = 0;
  int64_t XOffset = 0; ///< x is read at col[p] + XOffset
  /// enum idiom_sparse_format. For JDS, Ptr is the diagonals' starts
  /// (PtrFirst 0), and Params[CntParam] and Params[PermParam] are the
  /// buffers of the row counts and of the row permutation, from row 0's
  /// element on; y is written at perm[i] + YOffset.
  unsigned Format = 0;
  unsigned CntParam = 0, PermParam = 0;
  unsigned CntBytes = 0, PermBytes = 0;
  int64_t YOffset = 0;
  unsigned RowsPerCount = 1; ///< row i's count is cnt[i / RowsPerCount]
};

/// One parameter of the lifted FunIL program, in kernel argument order.
struct LiftedParam {
  enum class Kind {
    Buffer, ///< `[T]`: elements [Lo, Hi) of Base, in elements of ElemTy
    Scalar, ///< a loop-invariant IR value passed by value
    Index   ///< an i64 computed from a SCEV (sizes, offsets, strides)
  };
  Kind K = Kind::Scalar;
  std::string Name;
  // Buffer.
  llvm::Value *Base = nullptr;
  llvm::Type *ElemTy = nullptr;
  const llvm::SCEV *Lo = nullptr; ///< first element touched (i64 SCEV)
  const llvm::SCEV *Hi = nullptr; ///< one past the last element touched
  bool Read = false, Written = false;
  /// Written buffers of maps and GEMM's C: every element of [Lo, Hi) is
  /// stored, whole, on every run (one unconditional store with a contiguous
  /// footprint; for maps no other access to the array), so the runtime may
  /// copy the whole range back, and need not copy it in when it is not read
  /// (IDIOM_ARG_DENSE). False: it writes back only changed bytes.
  bool Dense = false;
  /// Read-only buffers: read as they were before the run, so the range may
  /// overlap the run's outputs (IDIOM_ARG_SNAPSHOT; a TRMM's operand over
  /// the array it writes, passes/lift/GemmLifting.h).
  bool Snapshot = false;
  /// Read-only buffers of maps: every load reads, in the same block and
  /// before it, the element that every store of one written buffer of the
  /// map writes (same index function and element type; NAS MG's resid,
  /// r = v - A u, called with v == r). The call may then pass a range
  /// identical to that output's (IDIOM_ARG_INPLACE).
  bool InPlace = false;
  // Scalar.
  llvm::Value *V = nullptr;
  // Index.
  const llvm::SCEV *S = nullptr;
  /// Buffer: Lo and Hi are offsets from these run-time values; Index: S is.
  RunTimeValue RtLo = RunTimeValue::None, RtHi = RunTimeValue::None;
  RunTimeValue RtS = RunTimeValue::None;
};

/// A new buffer parameter over elements of \p ElemTy from \p Base, named
/// `bN` with N the number of buffers already in \p Params (FunIL's buffer
/// names are b0, b1, ... in parameter order); range and access unset.
LiftedParam newBufferParam(const std::vector<LiftedParam> &Params,
                           llvm::Value *Base, llvm::Type *ElemTy);

/// The FunIL parameter list `b0: [f32], n0: i64, s0: f32, ...` of
/// \p Params in order: buffers as [T], indices as i64, scalars by type
/// (bool, i8 and i16 as i32: the stitched code passes them widened).
std::string funilParamList(llvm::ArrayRef<LiftedParam> Params);

/// A lifted idiom: FunIL text plus how to bind its parameters.
struct LiftedIdiom {
  std::string FunIL;
  std::vector<LiftedParam> Params;
  /// Iteration counts, outermost first (i64 SCEVs); the runtime's sizes.
  llvm::SmallVector<const llvm::SCEV *, 3> Sizes;
  /// The element function's inputs in lambda-tuple order, for translation
  /// validation: a load of the nest (its element) or an induction phi (the
  /// iteration index of its loop, from iota). InnerInputs are the components
  /// of `t`; for 2-D maps OuterInputs are those of `r` (null: a row view);
  /// for 3-D maps OuterInputs are those of the planes `p` (null: a plane
  /// view) and MiddleInputs those of the rows `r` (null: a row view).
  std::vector<llvm::Value *> InnerInputs, OuterInputs, MiddleInputs;
  /// A histogram with several updates per iteration (HistogramLift::More):
  /// the position in InnerInputs (there null) of the update number k.
  int UpdateSlot = -1;
  /// i64 SCEVs that must be >= 0 at run time for the program to be valid
  /// (e.g. a leading dimension that keeps rows apart); the stitched code
  /// tests them with the nest's guards, else the original nest runs.
  llvm::SmallVector<const llvm::SCEV *, 1> NonNegative;
  /// The errno check (funil/LibmErrno.h), when the slices call a libm
  /// function that may set errno (isErrnoLibmCall): a 1-D FunIL reduction
  /// program `return reduce(or, 0:i32, map(\t => zext.i32(cond...), zip))`
  /// over the same iteration space and inputs, whose result is non-zero
  /// when some iteration's call would set errno. Empty when none is needed.
  std::string ErrnoCheckFunIL;
  /// Indices into Params of the errno check's parameters, in its order
  /// (every parameter but the buffers it does not read).
  std::vector<unsigned> ErrnoCheckParams;
  /// The C functions the errno check covers, e.g. "sqrt, log".
  std::string ErrnoFunctions;
  /// The extent check, when the idiom has run-time extents (Extents): a
  /// 1-D FunIL reduction program over the same iteration space and inputs
  /// whose 2K i64 results are (lo_0, hi_0, lo_1, hi_1, ...), the smallest
  /// and largest index of each extent over the iterations that use it
  /// (INT64_MAX, INT64_MIN when none does). Empty when there is none.
  std::string ExtentCheckFunIL;
  /// Indices into Params of the extent check's parameters, in its order.
  std::vector<unsigned> ExtentCheckParams;
  /// The run-time extents, in the order of the extent check's results.
  std::vector<RunTimeExtent> Extents;
  /// GEMM and SpMV programs: the LLVM slices behind STEP, INIT and POST
  /// (for an SpMV, ElemA are the loads of val and ElemB those of x).
  std::shared_ptr<const GemmSlice> Gemm;
  /// A GEMM under the floating-point licence (IdiomMatch::FPContract) whose
  /// STEP, INIT or POST has an llvm.fmuladd the host does not fuse (or may
  /// not): lifted as `fma`, so the device rounds it once where the loop
  /// rounds twice (the analysis remark FPContraction).
  bool FusedMulAdd = false;
  /// Outer-loop accumulations (AccumLifting.h): the LLVM slices of F.
  std::shared_ptr<const AccumSlices> Accum;
  /// SpMV programs: the run-time extents of the sparse operands.
  std::shared_ptr<const CsrExtent> Csr;
  /// A pair of GEMVs of one nest (lift/GemmLifting.h, LiftedPair): its two
  /// programs; FunIL is then both texts, and Params and Sizes the first's
  /// followed by the second's (idiom_run_pair's arguments).
  std::shared_ptr<const LiftedPair> Pair;
};

/// FunIL spelling of a scalar LLVM type (bool, i8..i64, f32, f64), or "".
std::string funilTypeText(llvm::Type *T);
/// FunIL literal of a constant integer or float (typed: `-1:i8`), or "".
std::string funilLiteralText(llvm::Constant *C);

/// True when the lifted program of \p M runs over the flattened 2-D or 3-D
/// space (one element per iteration (k0, k1[, k2]), row-major): 2-D and 3-D
/// scalar reductions, and triangular histograms (the rectangle around the
/// triangle, masked).
bool liftsFlattened(const IdiomMatch &M);

/// FunIL text of a tuple of \p Xs: `(a, b, ...)`, or `a` for one.
std::string tupleOf(const std::vector<std::string> &Xs);
/// FunIL text of `zip(a, b, ...)`, or `a` for one array.
std::string zipOf(const std::vector<std::string> &Xs);
/// Accessor of component \p I of lambda parameter \p P with \p N
/// components (`P.I`, or `P` for one).
std::string component(const std::string &P, size_t I, size_t N);

/// FunIL name of a pure math intrinsic or library call (`sqrt`, `sin`,
/// `fmuladd`, `fmin`, ...), or "" when FunIL has none.
std::string funilCallName(const llvm::CallInst *CI);

/// The FunIL condition (a bool expression, funil/LibmErrno.h) under which
/// the libm call \p CI, which may set errno (isErrnoLibmCall), sets it, its
/// arguments printed as \p ArgTexts. "" with \p Why when an argument depends
/// on an operation of \p N the device may compute differently from the host
/// (the check would not decide as the host does) or \p CI has no errno rule.
std::string errnoConditionText(const llvm::CallInst *CI,
                               const std::vector<std::string> &ArgTexts,
                               const NestInfo &N, std::string &Why);

/// Lifts \p M into a FunIL program named \p Name. Returns false and sets
/// \p Why for a slice the lifter cannot express (an unsupported type or
/// operation, or a slice larger than 64 KiB of text).
bool liftToFunIL(const IdiomMatch &M, const std::string &Name,
                 llvm::ScalarEvolution &SE, LiftedIdiom &Out, std::string &Why);

} // namespace idiom

#endif // IDIOM_PASSES_LIFTING_H
