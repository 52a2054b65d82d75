//===- SpmvLifting.h - Lift a detected CSR SpMV into FunIL -------*- C++ -*-===//
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
//===----------------------------------------------------------------------===//
#ifndef IDIOM_PASSES_LIFT_SPMVLIFTING_H
#define IDIOM_PASSES_LIFT_SPMVLIFTING_H

#include "../Lifting.h"
#include <string>

namespace llvm {
class ScalarEvolution;
} // namespace llvm

namespace idiom {

/// Lifts the CSR SpMV \p M (IdiomKind::Spmv, the row loop) into a FunIL
/// program named \p Name. Parameters: buffers ptr, val, col, x (read) and y
/// (written), i64 indices (the row count, the run-time offsets nz0 and c0,
/// x's length, y's offset and stride when not literals) and loop-invariant
/// scalars; Out.Csr says how the stitched code computes the run-time
/// extents, Out.Gemm holds the STEP, INIT and POST slices for translation
/// validation. Returns false with \p Why (a sentence for the
/// -Rpass-missed=idiom-offload remark) for what it cannot express or prove: a
/// memory access other than ptr, val, col, x and the one store of y[i], a
/// condition other than the inner loop's zero-trip guard, a store that does
/// not run for every row, a value used after the loop, a counter or bounds
/// of another width or form, an update that is not a pure scalar expression.
bool liftSpmv(const IdiomMatch &M, const std::string &Name,
              llvm::ScalarEvolution &SE, LiftedIdiom &Out, std::string &Why);

} // namespace idiom

#endif // IDIOM_PASSES_LIFT_SPMVLIFTING_H
