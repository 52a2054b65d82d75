//===- SpmvLifting.h - Lift a detected CSR or JDS SpMV into FunIL -*- C++ -*-===//
//
// The SpMV lifter (`lifts spmv`, constraints/specs/spmv.idl). A CSR row loop
//
//   for (i < n) { s = INIT; for (p = ptr[i]; p < ptr[i+1]; p++) s = STEP;
//                 y[i] = POST(s); }
//
// becomes a map over rows of a sequential reduction over the row's slice of
// val zipped with the gathered x (Lift's sparse formulation, seeds/004;
// DESIGN.md section 4):
//
//   store view(y, oY, sY, n) =
//     map(\(r: (P, P)) => POST(reduceSeq(\(acc: T, x: (V, X)) => STEP, INIT,
//           zip(view(val, ext(r.0) - nz0, 1, ext(r.1) - ext(r.0)),
//               map(\(c: C) => at(view(xs, 0, 1, nx), ext(c) - c0),
//                   view(col, ext(r.0) - nz0, 1, ext(r.1) - ext(r.0)))))),
//         zip(view(ptr, 0, 1, n), view(ptr, 1, 1, n)));
//
// One row per work-item, each row summed in the loop's order, so the result
// is the loop's bit for bit (no reassociation). The extents of val, col and
// x are not affine: the stitched code calls idiom_run_csr
// (runtime/include/idiomrt.h), which, once it decides to run the kernel,
// checks that the row pointers are monotone and finds ptr[0], ptr[n] and
// the range of the column indices; val and col are passed as [ptr[0],
// ptr[n]), x as the columns' range (nz0 and c0 are the first of each), and
// the original loop runs when the check fails or, for an x of known
// allocation size, a column lies outside it.
//
// A JDS row loop (jagged diagonal storage with a row permutation, Parboil
// spmv's CPU form; row i's count read at cnt[i] or, for blocks of D rows,
// cnt[i / D])
//
//   for (i < n) { s = INIT; for (k = 0; k < cnt[i]; k++)
//                   s = STEP(val[ptr[k] + i], x[col[ptr[k] + i]]);
//                 y[perm[i]] = POST(s); }
//
// becomes the same reduction over the row's jagged diagonals, stored
// through scatter (docs/FunIL.md):
//
//   store view(y, 0, 1, n) = scatter(\(i: i64) => ext(perm[i]) - y0,
//     map(\(i: i64) => POST(reduceSeq(\(acc: T, x: (V, X)) => STEP, INIT,
//           zip(map(\(d: P) => at(view(val, 0, 1, nnz), ext(d) + i - nz0),
//                   view(ptr, 0, 1, ext(cnt[i]))),
//               map(\(d: P) => at(view(xs, 0, 1, nx),
//                                 ext(col[ext(d) + i - nz0]) - c0),
//                   view(ptr, 0, 1, ext(cnt[i])))))), iota(n)));
//
// idiom_run_csr (idiom_csr::format IDIOM_SPARSE_JDS, runtime/lib/jds.c)
// checks that no count is negative and that perm maps the rows one-to-one
// onto n consecutive elements of y, and finds the positions' and the
// columns' ranges (nz0, nnz, c0, nx) and y's first element (y0).
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_PASSES_LIFT_SPMVLIFTING_H
#define IDIOM_PASSES_LIFT_SPMVLIFTING_H

#include "../Lifting.h"
#include <string>

namespace llvm {
class ScalarEvolution;
} // namespace llvm

namespace idiom {

/// Lifts the CSR or JDS SpMV \p M (IdiomKind::Spmv, the row loop) into a
/// FunIL program named \p Name. CSR parameters: buffers ptr, val, col, x
/// (read) and y (written), i64 indices (the row count, the run-time
/// offsets nz0 and c0, x's length, y's offset and stride when not literals)
/// and loop-invariant scalars; JDS: buffers cnt, ptr, val, col, x, perm
/// (read) and y (written), i64 indices n0, nz0, nnz, c0, nx, y0 and
/// loop-invariant scalars; Out.Csr says how the stitched code computes the run-time
/// extents, Out.Gemm holds the STEP, INIT and POST slices for translation
/// validation. Returns false with \p Why (a sentence for the
/// -Rpass-missed=idiom-offload remark) for what it cannot express or prove: a
/// memory access other than ptr, val, col, x and the one store of y[i], a
/// condition other than the inner loop's zero-trip guard, a store that does
/// not run for every row, a value used after the loop, a counter or bounds
/// of another width or form, an update that is not a pure scalar expression;
/// for JDS also a read of y, a position ptr[k] + i that may wrap (an
/// unsigned or non-nsw int sum), counts or perm not read at the row.
bool liftSpmv(const IdiomMatch &M, const std::string &Name,
              llvm::ScalarEvolution &SE, LiftedIdiom &Out, std::string &Why);

} // namespace idiom

#endif // IDIOM_PASSES_LIFT_SPMVLIFTING_H
