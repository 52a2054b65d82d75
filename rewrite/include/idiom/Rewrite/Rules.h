//===- Rules.h - the rule families ------------------------------*- C++ -*-===//
//
// Part of Idiom.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The rule families (one source file each, under rewrite/lib/rules/):
///
///  - algorithmic (seeds/004 figure 6): map fusion, split-join, map-reduce
///    fusion, join.split cancellation, split/strided over map, reduce
///    splitting (partial reduction), tuple projection.
///  - lowering (seeds/004 figure 7): map -> mapGlobal (1-D, nested 2-D),
///    map -> mapSeq and reduce -> reduceSeq inside a work-item, and the
///    two-stage work-group reduction (the derivation of seeds/004 figure 10
///    with a local-memory tree, as a macro rule).
///
///  - matmul (seeds/000, matrix multiplication): tiling into work-group
///    tiles with register blocks (macro rules), fmuladd -> fma.
///  - memory: operand tiles copied to local memory and back.
///
/// docs/Rewrite.md lists every rule with its left and right side.
///
//===----------------------------------------------------------------------===//

#ifndef IDIOM_REWRITE_RULES_H
#define IDIOM_REWRITE_RULES_H

#include "idiom/Rewrite/Rule.h"

#include <cstdint>
#include <vector>

namespace idiom::rewrite {

/// The algorithmic family (rules/algorithmic.cpp).
const std::vector<Rule> &algorithmicRules();
/// The lowering family (rules/lowering.cpp).
const std::vector<Rule> &loweringRules();
/// The vectorisation family (rules/vectorisation.cpp).
const std::vector<Rule> &vectorisationRules();
/// The matrix-product family (rules/matmul.cpp).
const std::vector<Rule> &matMulRules();
/// The memory-space family (rules/memory.cpp).
const std::vector<Rule> &memoryRules();
/// The fusion family (rules/fusion.cpp, seeds/004 figure 6f).
const std::vector<Rule> &fusionRules();
/// Rules of transpose, reorder, reorderStride, slide and pad
/// (rules/views.cpp, family "views").
const std::vector<Rule> &viewRules();
/// The coalescing family (rules/coalescing.cpp).
const std::vector<Rule> &coalescingRules();
/// The compensated-sum rule `compensate` (rules/compensation.cpp, family
/// "algorithmic"): a plain f32/f64 fadd reduction becomes a reduction over
/// (sum, compensation) pairs with Neumaier's combine, finished by `apply`.
const std::vector<Rule> &compensationRules();
/// Every registered rule: algorithmic, compensation, fusion, views,
/// lowering, vectorisation, coalescing, matmul, memory, histogram.
const std::vector<Rule> &allRules();
/// The registered rule called \p Name, or nullptr.
const Rule *findRule(const std::string &Name);

/// split-join with chunk \p N (figure 6c):
///   map(f, a) -> join(map(\r => map(f, r), split(N, a))).
/// The registered "split-join" uses N = 4. Requires N to divide the length
/// (checked when the length is a constant, assumed otherwise).
Rule splitJoinRule(int64_t N);

/// Reduction splitting with chunk \p N (figure 6d, reducePart then
/// reducePart 1 -> reduce):
///   reduce(f, z, a) -> reduce(f, z, map(\c => reduce(f, z, c), split(N, a))).
/// The registered "reduce-split" uses N = 4.
Rule reduceSplitRule(int64_t N);

/// True when \p E is an array whose elements lie at consecutive addresses:
/// a 1-D view with a literal unit stride, iota, or a zip or map of such
/// arrays (the condition for vector loads and stores).
bool isContiguousArray(const ExprPtr &E);

/// asVector for maps, width \p N (registered as "as-vector-map", N = 4):
///   map(f, a) -> join(map(\v => mapSeq(f, v), split(N, a)))
/// when a is contiguous and N divides its length if it is a constant (a
/// symbolic length is accepted: the generator completes the ragged last row
/// element by element).
Rule asVectorMapRule(int64_t N);

/// asVector for the per-work-item part of a reduction, width \p N
/// (registered as "as-vector-reduce", N = 4):
///   reduce(f, z, a) -> reduce(f, z, map(\v => reduceSeq(f, z, v), split(N, a)))
/// with the same condition; exact for any associative f with identity z
/// (the contract of reduce), which reduce-two-stage then partitions by rows.
Rule asVectorReduceRule(int64_t N);

/// The plane walk of a 3-D map, \p Planes >= 2 planes per work-item
/// (registered as "map-to-mapGlobal-3d-walk", Planes = 16): the outermost
/// map is split into chunks of Planes consecutive planes, one chunk per
/// NDRange index of dimension 2, walked in order by each work-item of a
/// 2-D tile of the plane:
///   map(\p => map(\r => map(g, e), x), a) ->
///   join(mapGlobal(2, \c => mapSeq(\p => mapGlobal(1, \r =>
///                                   mapGlobal(0, g, e), x), c),
///                  split(Planes, a)))
/// A work-item reads the planes of a stencil's z-neighbours one step
/// apart: it finds plane p + 1's load of step p in the cache at step
/// p + 1. Exact: every element is computed once, by the same g. As
/// for as-vector-map, Planes divides the plane count when that is a
/// constant; a symbolic one is accepted and the generator completes the
/// ragged last chunk plane by plane (split's last row).
Rule mapWalk3dRule(int64_t Planes);

/// `map-to-mapGlobal-2d-rows` (Rows = 16; other row counts are named
/// `map-to-mapGlobal-2d-rows-R`): a 2-D map as a 1-D NDRange of row chunks,
/// each work-item walking Rows consecutive rows with a sequential,
/// unit-stride inner loop:
///   map(\r => map(g, e), a) ->
///   join(mapGlobal(0, \c => mapSeq(\r => map(g, e), c), split(Rows, a)))
/// (the inner map becomes mapSeq in the work-item). For CPU devices: the
/// work-item's inner loop is the host loop, which the device compiler
/// vectorises along the unit stride, and a chunk of rows is one cache-
/// friendly stream per core (docs/Benchmarks.md, "Why PoCL's kernels lose
/// on 2 cores"); on a GPU it reads uncoalesced. Exact: every element is
/// computed once by the same g. Rows divides the row count when that is a
/// constant; a symbolic one is accepted and the generator completes the
/// ragged last chunk (split's last row).
Rule mapRowWalk2dRule(int64_t Rows);

/// Local memory (bytes) a rule may give the operand tiles of one
/// work-group (the OpenCL 1.2 minimum is 32 KiB; GPUs have 48 KiB or more
/// per work-group).
constexpr int64_t MaxLocalBytes = 48 * 1024;

/// True when \p Body is the canonical GEMM map of the lifting contract
/// (docs/Rewrite.md, "Matrix products"), with one or two products per step
/// (BLAS SYR2K; docs/FunIL.md, "GEMM programs with two products").
bool isCanonicalGemm(const ExprPtr &Body);

/// True when \p Body is a GEMM program (canonical or triangular) with two
/// products per step.
bool isTwoProductGemm(const ExprPtr &Body);

/// True when \p Body is a triangular GEMM program (docs/FunIL.md,
/// "Triangular GEMM programs"): the matmul rules tile it as well.
bool isTriangularGemm(const ExprPtr &Body);

/// True when \p Body is the band program of a TRMM (docs/FunIL.md, "TRMM
/// programs: a band on the reduction"; a lower triangle on the reduction
/// too): STEP keeps acc outside a band k >= E(r.2) (or k < E(r.2)) of the
/// row's index. The matmul rules tile it, each step keeping its mask.
bool isBandGemm(const ExprPtr &Body);

/// The matrix-product macro rule with TM x TN work-group tiles, K tiles of
/// TK and RM x RN register blocks per work-item (seeds/000 section 4;
/// registered: "mm-tile-2d" 8x8x4 1x1, "mm-block-1d" 16x8x4 2x1,
/// "mm-block-2d" 16x16x4 2x2; exploration instantiates larger tiles). Applies at the host to the canonical GEMM
/// map; condition: RM | TM, RN | TN, (TM/RM)(TN/RN) <= 1024 work-items.
/// Lengths that the tiles do not divide are accepted: the generator
/// completes partial tiles (the interpreter requires divisible lengths).
/// GM, GN > 0 (dividing RM, RN): a work-item's rows (columns) are groups of
/// GM (GN) consecutive ones strided by (TM/RM)*GM ((TN/RN)*GN) in the tile
/// (name suffix "-groups-GMxGN"); 0: one group (rows ly*RM..).
Rule matMulRule(int64_t TM, int64_t TN, int64_t TK, int64_t RM, int64_t RN, int64_t GM = 0,
                int64_t GN = 0);

/// Vectorisation with vector types, width \p N (registered as
/// "as-vector-lanes", N = 4):
///   map(f, a) -> asScalar(map(f', asVector(N, a)))
///   map(f, zip(a1, ..)) -> asScalar(map(f', zip(asVector(N, a1), ..)))
/// where f' is f with its parameter's scalar leaves made N-lane vectors; it
/// applies only when f' type checks to an N-lane vector (every operation on
/// the parameter is lane-wise, docs/FunIL.md) and the length is a provable
/// multiple of N. Host level only.
Rule asVectorLanesRule(int64_t N);

/// Lane-wise vector accumulators (registered as "reduce-two-stage-lanes",
/// N = 4): reduce(f, z, a) becomes the two-stage reduction of
/// reduce-two-stage whose work-items read N-lane vectors of
/// asVector(N, pad(0, p, z, a)), p = (N - n % N) % N (padding with the
/// identity z), accumulate them lane-wise with f' (f on vectors) from
/// broadcast(N, z), and fold the lanes with f before the work-group tree:
///   \c => reduceSeq(f, z, lanes(reduceSeq(f', broadcast(N, z), c)))
/// Applies when a's elements are non-bool scalars, its length is known as
/// an expression, and f' type checks to a vector (f lane-wise). Exact for
/// any associative, commutative f with identity z (the contract of reduce).
Rule reduceLanesRule(int64_t N);

/// The CPU form of a compensated sum (`compensate`'s reduce of
/// (sum, compensation) pairs with Neumaier's combine over map(\x => (g(x),
/// c), s), s contiguous): the two-stage reduction whose work-items each own
/// a contiguous block of asVector(N, pad(0, p, z, map(g, s))) (blocks, as
/// reduce-two-stage-blocks; N = 16 bytes / the element's, the alignment
/// malloc guarantees) and accumulate it into a pair of N-lane vectors,
/// the exact error of each lane's add by TwoSum (lane-wise adds and
/// subtracts), then fold the lanes with the pair combine in lane order before
/// the work-group tree. Named "as-vector-compensated-blocks"; not
/// registered (the CPU reduction variant of exploreVariants applies it,
/// docs/Rewrite.md "Compensated sums"). The result is within the compensated
/// sum's bound (docs/ARCHITECTURE.md, "Floating-point reductions: accuracy")
/// and, for a fixed geometry, the same on every run.
Rule compensatedLanesRule();

/// Reordering inside a reduction (seeds/004 figure 6d; reduce's operator is
/// commutative by contract), stride \p S (registered as
/// "reduce-reorder-stride", S = 2):
///   reduce(f, z, a) -> reduce(f, z, reorderStride(S, a))
/// when the length of a is a provable multiple of S.
Rule reduceReorderStrideRule(int64_t S);

/// Coalescing of a 1-D mapGlobal (DESIGN section 5), stride \p S
/// (registered as "coalesce-mapGlobal", S = 4):
///   mapGlobal(d, f, a) -> reorderStride(n/S, mapGlobal(d, f, reorderStride(S, a)))
/// when the length n of a is a provable multiple of S.
Rule coalesceMapRule(int64_t S);

/// Coalescing of chunked work-items ("coalesce-chunks"): work-item t of
///   join(mapGlobal(d, \r => mapSeq(f, r), split(k, a)))
/// reads a[t*k + j]; after the rule, with s = n/k chunks,
///   reorderStride(k, join(mapGlobal(d, \r => mapSeq(f, r),
///                                  split(k, reorderStride(s, a)))))
/// it reads a[t + s*j]: consecutive work-items, consecutive addresses.
Rule coalesceChunksRule();

} // namespace idiom::rewrite

#endif // IDIOM_REWRITE_RULES_H
