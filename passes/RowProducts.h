//===- RowProducts.h - A per-row product through a temporary, batched -*- C++ -*-===//
//
// Part of Idiom. PolyBench doitgen (issue 13) computes, for every row (r, q)
// of a 3-D array, a vector-matrix product into a temporary and copies it
// back over the row it read:
//
//   for (r ...) for (q ...) {
//     for (p = 0; p < np; p++) {                 // the fill loop
//       sum[p] = 0;
//       for (s = 0; s < np; s++) sum[p] += A[r][q][s] * C4[s][p];
//     }
//     for (p = 0; p < np; p++) A[r][q][p] = sum[p];   // the copy (a memcpy
//   }                                                 // after -O2)
//
// Row by row it is a GEMV; over all rows it is one GEMM of the flattened
// rows, (R*Q x S) * (S x P), whose result replaces A's rows. This file
// expands the temporary into one row per (r, q) (array expansion, the
// inverse of privatisation: Kennedy and Allen, "Optimizing Compilers for
// Modern Architectures", sec. 5.13) and splits the nest in two, behind a
// run-time check:
//
//   T = malloc(R*Q * rowbytes);
//   for (i = 0; i < R*Q; i++)                   // one loop over the rows
//     for (p ...) { acc = 0; for (s ...) acc += A'[i][s] * C4[s][p];
//                   T[i][p] = acc; }            // the fill loop, cloned
//   for (i = 0; i < R*Q; i++) memcpy(row (i / Q, i % Q), T[i], rowbytes);
//   memcpy(sum, T[R*Q - 1], rowbytes);           // what the nest leaves
//   free(T);
//
// so that the gemm spec (constraints/specs/gemm.idl) takes the first loop
// as an ordinary out-of-place GEMM. The fill loop is cloned instruction for
// instruction (the same operations in the same order: the same values bit
// for bit); values of the row loops it uses are rewritten from their affine
// form in r and q, start + r*dR + q*dQ, as start + i*dQ (the rows flatten
// when dR = Q*dQ); row indices that do not flatten themselves (A[r][q][s]
// with constant sizes) are allowed when every use is an address that
// flattens, which the clone computes at the first row and moves by i*dQ.
// The copy is a memcpy (or memmove) or a loop of one load of the
// temporary's element and one store of it; the sum may be kept in a
// register (one store after the inner loop) or in the temporary's element
// (`sum[p] = 0; for s: sum[p] += ...`, where the temporary may alias A).
//
// Legality, each proven at compile time, checked at run time in front of
// the nest (the unchanged nest runs otherwise), or refused with a missed
// remark naming the reason: the fill loop's only side effects are stores
// of the temporary's element p, on every iteration, and it reads that
// element only after writing it in the row; the row loops do nothing but
// the fill loop and then the copy of that row, on every row (a branch on
// a condition computed before the nest that skips them, a `n > 0` guard,
// becomes a run-time condition); the copy's length is the row's; no value
// of the nest is used after it; every read of the fill loop either lies in
// its own row of the copies' destination at a non-negative offset, with
// the destination rows disjoint and increasing in (r, q) order (so no row
// reads what an earlier row wrote), or is disjoint from every destination
// row; the temporary is disjoint from every read and every destination
// row; the rows flatten; the block's size does not wrap; malloc succeeds.
// A declined run frees the temporary and runs the unchanged copy: the
// expanded nest on the host wrote a fresh block of R*Q rows (page faults:
// nas-parboil/doitgen.c's two 1.9 MB blocks cost 20 ms a run on PoCL's
// machine, 0.835x) and copied it back.
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_PASSES_ROWPRODUCTS_H
#define IDIOM_PASSES_ROWPRODUCTS_H

#include "BoundVersioning.h"

#include <string>

namespace llvm {
class CallInst;
} // namespace llvm

namespace idiom {

/// A nest of per-row products through a temporary that was not batched,
/// and why.
struct RowProductMiss {
  llvm::Loop *Nest;
  std::string Why;
};

/// Batches every nest of \p LI with the shape above (one or two row loops,
/// a fill loop with one inner loop, a copy of the temporary's row): the
/// returned version's Nest is the loop over the flattened rows, its Check
/// picks the expanded nest (true) or an unchanged copy marked as a
/// fallback loop; drop an unused one with dropBoundVersion. Nests of the
/// shape that fail a condition are listed in \p Misses with the reason.
/// Keeps \p LI and \p DT up to date, forgets what \p SE knew of changed
/// loops; sets \p Changed when the IR changed.
llvm::SmallVector<BoundVersion, 4>
batchRowProducts(llvm::LoopInfo &LI, llvm::DominatorTree &DT,
                 llvm::ScalarEvolution &SE,
                 llvm::SmallVectorImpl<RowProductMiss> &Misses,
                 bool &Changed);

/// The temporary of a version that batchRowProducts returned: its malloc
/// call, in the block that the check's true edge enters; null when the
/// blocks are no longer as it left them. A decline frees it and runs the
/// unchanged copy (declineToUnchangedCopy, RowTemporaries.h).
llvm::CallInst *rowProductTemporary(const BoundVersion &V);

} // namespace idiom

#endif // IDIOM_PASSES_ROWPRODUCTS_H
