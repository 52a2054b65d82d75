//===- Histogram.h - histogram (indexed) reductions -------------*- C++ -*-===//
//
// Part of Idiom.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What the rewrite system knows about the operator of a histogram
/// reduction `reduceIndexed(op, init, f, a)` (docs/FunIL.md, "Histograms";
/// DESIGN section 4, the complex reduction): which OpenCL atomic applies an
/// update (atomic_add & co. on 32-bit integers, atom_add on 64-bit ones
/// under cl_khr_int64_base_atomics, an atomic_cmpxchg loop for the rest:
/// float add, saturating add, narrow bins), and the operator's identity,
/// which privatised per-work-group bins start from. The histogram rule
/// family is rules/histogram.cpp, the kernels codegen/HistogramGen.cpp
/// (docs/Rewrite.md, "Histogram family").
///
//===----------------------------------------------------------------------===//

#ifndef IDIOM_REWRITE_HISTOGRAM_H
#define IDIOM_REWRITE_HISTOGRAM_H

#include "idiom/FunIL/Expr.h"
#include "idiom/Rewrite/Explore.h"
#include "idiom/Rewrite/Rule.h"
#include "idiom/Rewrite/Strategy.h"

#include <cstdint>
#include <vector>

namespace idiom::rewrite {

/// The update operators the generator has a dedicated atomic for.
enum class IndexedOp : uint8_t {
  Add,     ///< add(a, b) on integers
  And,     ///< and(a, b)
  Or,      ///< or(a, b)
  Xor,     ///< xor(a, b)
  SMin,    ///< smin(a, b)
  SMax,    ///< smax(a, b)
  UMin,    ///< umin(a, b)
  UMax,    ///< umax(a, b)
  FAdd,    ///< fadd(a, b) (reassociated: the lifter needs the fp licence)
  UAddSat, ///< select(icmp_ult(add(a, b), a), ~0, add(a, b)): uadd.sat
  Mul,     ///< mul(a, b) or fmul(a, b): cmpxchg loop, identity 1
  Other    ///< anything else: cmpxchg loop, no known identity
};

/// Classifies a two-parameter operator lambda `\(a: T, b: T) => body` of
/// bins of kind \p K (either operand order for the commutative forms).
IndexedOp classifyIndexedOp(const funil::ExprPtr &Op, funil::ScalarKind K);

/// The identity of \p Op on \p K as a literal (0 for add/or/xor/umax/
/// uadd.sat, all ones for and/umin, the extreme values for smin/smax, -0.0
/// for fadd, 1 for mul), or nullptr for IndexedOp::Other.
funil::ExprPtr indexedOpIdentity(IndexedOp Op, funil::ScalarKind K);

/// The bins element kind of a reduceIndexed / reduceIndexedAtomic call
/// whose init has type [T]_m, when T is a scalar; false otherwise.
bool indexedBinKind(const funil::Expr &Call, const funil::TypeEnv &Env,
                    funil::ScalarKind &K);

/// Privatised bins may take at most this many bytes of local memory per
/// work-group (4-byte slots for narrow bins); larger bin counts use global
/// atomics only.
constexpr int64_t MaxLocalBinBytes = 16384;

/// The histogram family (rules/histogram.cpp):
///  - reduce-indexed-map-fusion: reduceIndexed(op, i, f, map(g, a)) ->
///    reduceIndexed(op, i, f . g, a)
///  - reduce-indexed-to-atomic: reduceIndexed(op, i, f, a) ->
///    reduceIndexedAtomic(op, i, mapGlobal(0, f, a))
///  - reduce-indexed-to-atomic-strided: reduceIndexed(op, i, f, a) ->
///    reduceIndexedAtomic(op, i, mapGlobal(0, \r => mapSeq(f, r),
///                                         strided(globalSize(0), a)))
///  - reduce-indexed-privatise (macro): per-work-group bins in local memory,
///    merged into i with atomics (docs/Rewrite.md).
const std::vector<Rule> &histogramRules();

/// True when \p P is a histogram program: `store view = reduceIndexed(...)`
/// or its lowered form with reduceIndexedAtomic at the root.
bool isHistogramProgram(const funil::Program &P);

/// The lowering of a histogram program: reduce-indexed-map-fusion, then
/// reduce-indexed-privatise when \p LocalBins, else
/// reduce-indexed-to-atomic-strided when \p Elems > 1, else
/// reduce-indexed-to-atomic (the default lowering).
Strategy histogramStrategy(bool LocalBins, unsigned Elems);

/// The variants of histogram program \p P, at most \p Max (Explore.h):
/// global atomics (default, then work-group 256 with 8 elements per
/// work-item) and, when the bins have a constant count that fits
/// MaxLocalBinBytes and the operator a known identity, privatised bins with
/// work-groups of 256 and 128 and 16 or 64 elements per work-item.
std::vector<VariantParams> histogramVariants(const funil::Program &P, unsigned Max);

} // namespace idiom::rewrite

#endif // IDIOM_REWRITE_HISTOGRAM_H
