//===- RowLanesGen.h - kernels of row reductions by lanes (private) -*- C++ -*-===//
//
// Part of Idiom.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// OpenCL C for the form of map-row-lanes (RowLanes.h; docs/Rewrite.md,
/// "Row reductions by lanes"):
///
///   join(mapWorkgroup(0, \g => mapLocal(1, \r =>
///       B[at(iterate(K, \q => toLocal(mapLocal(0, \pr => reduceSeq(c, e, pr), halves(q))),
///                    toLocal(mapLocal(0, \p => reduceSeq(f, e', p), strided(W, xs)))), 0)],
///     g), split(R, a)))
///
/// as one map kernel of a 1-D NDRange with W work-items per row (the
/// runtime launches n * W work-items, the marker's `ept=1/W`) and R * W per
/// work-group: work-item l of group G works on row i = G * R + l / W, lane
/// l % W; it folds f from e' over the row's elements lane, lane + W, ...
/// (neighbouring lanes read neighbouring elements), stores its partial sum
/// in a __local array of R * W elements, and K = log2 W halving steps
/// (lanes below s combine element l + s into l, s = W/2, ..., 1; a barrier
/// after each, outside every condition) leave the row's sum in lane 0,
/// which evaluates B (the map's function with that sum) and stores row i.
/// Rows i >= n compute nothing but take part in every barrier.
///
/// Row blocks (VariantParams::RowBlocks; the form with R = 1): the
/// load-balanced schedule of a work-group per row (CSR-Adaptive: J. L.
/// Greathouse and M. Daga, "Efficient sparse matrix-vector multiplication
/// on GPUs using the CSR storage format", SC 2014, section 4). The kernel
/// takes the runtime's row blocks (`long` boundaries, idiom_csr_row_blocks
/// in idiomrt.h) as its last parameter and runs one work-group of W per
/// block: a block of rows r0 .. r1-1 (at most W of them) gives each row w =
/// W / (r1 - r0) lanes, rounded down to a power of two, so work-item l
/// works on row r0 + l / w, lane l % w, and the halving tree is a loop of
/// log2 w steps (w is uniform in the work-group, so every work-item reaches
/// each barrier). Each row is still one work-group's, its sum reassociated
/// as the lanes' (the licence of the row lanes); a long row alone in its
/// block is the work-group per row.
///
/// With the lanes in local dimension 1 and the rows in 0 (map-row-lanes
/// with LaneDim 1: `mapLocal(0, \r => ...)` around `mapLocal(1, ...)`
/// lanes and halving steps), work-item l works on row G * R + l % R, lane
/// l / R: neighbouring work-items take neighbouring rows, and a halving
/// step combines slots l and l + s * R.
///
//===----------------------------------------------------------------------===//

#ifndef IDIOM_REWRITE_LIB_CODEGEN_ROWLANESGEN_H
#define IDIOM_REWRITE_LIB_CODEGEN_ROWLANESGEN_H

#include "Emitter.h"

namespace idiom::rewrite::codegen {

/// Emits the kernel body of the row-lanes form \p Body, storing through
/// \p Target (the program's output views), and returns true; returns false,
/// emitting nothing, when Body is not that form (W a power of two, 2^K = W,
/// R * W <= 1024, a non-bool scalar sum). The program's parameters must be
/// bound in \p Em. With a non-empty \p Blocks (the C name of the row-blocks
/// parameter, which the caller declares), the row-blocks schedule of the
/// form with R = 1 (false for other R).
bool emitRowLanes(Emitter &Em, const ExprPtr &Body, const CVal &Target,
                  const std::string &Blocks = "");

} // namespace idiom::rewrite::codegen

#endif // IDIOM_REWRITE_LIB_CODEGEN_ROWLANESGEN_H
