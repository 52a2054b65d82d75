//===- RowLanes.h - row reductions by groups of work-items ------*- C++ -*-===//
//
// Part of Idiom.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The row-lanes family (rules/rowlanes.cpp; docs/Rewrite.md, "Row
/// reductions by lanes"): a map whose element is a sequential sum over a
/// row of data-dependent length (a CSR SpMV row, docs/FunIL.md "SpMV
/// programs") is evaluated by W work-items per row instead of one, each
/// reading the row with stride W (neighbouring work-items read neighbouring
/// elements: coalesced on GPUs), their W partial sums combined by a halving
/// tree in local memory. This is CSR-vector (N. Bell and M. Garland,
/// "Implementing sparse matrix-vector multiplication on throughput-oriented
/// processors", SC 2009, section 4.2: a warp per row); W = the work-group
/// size gives a work-group per row, the variant for long (skewed) rows.
///
/// Two rules, in Lift's terms:
///
///  - `reduce-seq-lanes` (algorithmic, `reduceSeqLanesRule(W)`):
///      reduceSeq(f, z, xs) ->
///        c(z, reduce(c, e, map(\p => reduceSeq(f, e, p), strided(W, xs))))
///    when f(acc, x) is c(acc, h(x)) in exact arithmetic: fadd(acc, h),
///    fmuladd(a, b, acc) or fma(a, b, acc) with c = fadd, e = -0.0 (exact
///    only up to reassociation: the floating-point licence), or add(acc, h)
///    on integers with c = add, e = 0 (exact: wrapping addition is
///    associative and commutative). Each lane keeps the step f as the loop
///    wrote it (fused or not).
///  - `map-row-lanes` (lowering macro, `mapRowLanesRule(R)`): a 1-D map
///    whose element holds one reduction of the form above becomes R rows
///    per work-group and W work-items per row:
///      map(\r => B[reduce(c, e, map(\p => reduceSeq(f, e, p), strided(W, xs)))], a) ->
///      join(mapWorkgroup(0, \g => mapLocal(1, \r =>
///          B[at(iterate(log2 W, \q => toLocal(mapLocal(0, \pr => reduceSeq(c, e, pr),
///                                                     halves(q))),
///                       toLocal(mapLocal(0, \p => reduceSeq(f, e, p), strided(W, xs)))), 0)],
///        g), split(R, a)))
///    W a power of two, R * W <= 1024 work-items.
///
/// The generator emits that form as one kernel (codegen/RowLanesGen.h);
/// the runtime launches W work-items per row (the marker's `ept=1/W`,
/// runtime/include/idiomrt.h).
///
//===----------------------------------------------------------------------===//

#ifndef IDIOM_REWRITE_ROWLANES_H
#define IDIOM_REWRITE_ROWLANES_H

#include "idiom/Rewrite/Rule.h"

#include <cstdint>
#include <string>
#include <vector>

namespace idiom::rewrite {

/// reduce-seq-lanes with \p W lanes (registered: W = 4).
Rule reduceSeqLanesRule(int64_t W);

/// reduce-seq-lanes with \p W lanes over chunks of \p N consecutive
/// elements (`reduce-seq-lanes-vN-W`, N a vector width), meant for
/// contiguous rows (a row-major GEMV's rows zipped with x; the explorer
/// offers it for those only):
///   reduceSeq(f, z, xs) ->
///     c(z, reduce(c, e, map(\p => reduceSeq(\(a, v) => reduceSeq(f, a, v), e, p),
///                           strided(W, split(N, xs)))))
/// Lane p folds chunks p, p + W, ...: each complete, aligned chunk is one
/// vector load per buffer (vload-width reads by neighbouring work-items),
/// a ragged last chunk (length not a multiple of N), a misaligned chunk or
/// a row that is not contiguous element by element.
/// The same licence as reduce-seq-lanes.
Rule reduceSeqLanesVecRule(int64_t W, int64_t N);

/// map-row-lanes with \p R rows per work-group (registered: R = 2); the
/// lanes per row come from the strided(W, .) of the matched reduction.
/// \p LaneDim 0: a row's lanes are neighbouring work-items (mapLocal(0)
/// lanes, mapLocal(1) rows: CSR-vector, for rows stored contiguously);
/// 1: neighbouring work-items take neighbouring rows and a row's lanes are
/// R work-items apart (mapLocal(0) rows, mapLocal(1) lanes; named
/// `map-row-lanes-across-R`): the layout of a transposed GEMV, whose
/// outputs are contiguous in memory and whose sums walk a column, so a
/// work-group reads R consecutive elements of W matrix rows per step.
Rule mapRowLanesRule(int64_t R, int64_t LaneDim = 0);

/// The registered rules of the family: reduce-seq-lanes (W = 4),
/// reduce-seq-lanes-v4-4 (W = 4, N = 4) and map-row-lanes (R = 2).
const std::vector<Rule> &rowLanesRules();

/// True when \p Body is a 1-D map whose function holds exactly one
/// reduceSeq outside nested lambdas, with a step reduce-seq-lanes accepts:
/// an integer sum always, a floating-point sum only when \p FPReassoc (the
/// reassociation licence, -idiom-fp-reassoc).
bool hasLaneRowReduction(const ExprPtr &Body, bool FPReassoc);

/// The combine operator c of a row-sum step \p F, \(acc: T, x) => BODY,
/// when BODY is c(acc, h(x)) in exact arithmetic: "fadd" (fadd, fmuladd
/// or fma steps; reassociating them needs the licence) or "add" (integer);
/// "" otherwise. Its identity is -0.0 for fadd, 0 for add.
std::string laneCombineOp(const ExprPtr &F);

/// True when the element kind of that reduction is floating point (its
/// lane variants reassociate the row sums).
bool laneRowReductionIsFloat(const ExprPtr &Body);

} // namespace idiom::rewrite

#endif // IDIOM_REWRITE_ROWLANES_H
