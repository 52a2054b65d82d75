//===- Gemv.h - matrix-vector products as maps of row sums ------*- C++ -*-===//
//
// Part of Idiom.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A GEMV is lifted as the GEMM program with one row (docs/FunIL.md, "GEMM
/// programs"; `lifts gemv`):
///
///   store view(C, oC, sCi, 1, sCj, N) =
///     map(\r => map(\q => POST(reduceSeq(STEP, INIT, zip(r.0, q.0)), q.1),
///                   zip(view(B, oB, sBj, N, sBk, K), r.1)),
///         zip(view(A, oA, sAi, 1, sAk, K), view(C, oC, sCi, 1, sCj, N)))
///
/// Its N outputs are N dot products of length K: a map of row sums, the
/// shape of a CSR SpMV whose rows all have K elements. `gemvAsRowMap`
/// rewrites it into that shape (the one-row outer map applied to its only
/// row), so that the row-lanes rules (RowLanes.h) give each output W
/// work-items: the fast GEMV and GEMV^T variants of docs/Rewrite.md ("Row
/// lanes of a GEMV"). They reassociate the sums (GEMM programs are float or
/// double): offered only under the reassociation licence.
///
//===----------------------------------------------------------------------===//

#ifndef IDIOM_REWRITE_GEMV_H
#define IDIOM_REWRITE_GEMV_H

#include "idiom/FunIL/Expr.h"

#include <string>

namespace idiom::rewrite {

/// True when \p P is the GEMM program of a GEMV: a canonical GEMM whose
/// output view has the literal 1 as its row count.
bool isGemvProgram(const funil::Program &P);

/// How the matrix of GEMV program \p P is laid out along an output's sum
/// (B's strides sBk and sBj, literals only).
enum class GemvLayout {
  RowContiguous,    ///< sBk = 1: y = A x on a row-major A, a sum reads a row
  ColumnContiguous, ///< sBj = 1: s = A^T r, neighbouring outputs are neighbours
  Unknown,          ///< neither stride is the literal 1 (run-time strides)
};
GemvLayout gemvLayout(const funil::Program &P);

/// True when the sums of GEMV \p P are floating point (its lane variants
/// reassociate them).
bool gemvSumIsFloat(const funil::Program &P);

/// Rewrites GEMV program \p P (isGemvProgram) into a 1-D map of its N row
/// sums: the outer map over the one row becomes its function applied to
/// that row (`map(\r => E, [v]) = [E[r := v]]`), the 2-D views of x and the
/// output their row 0 (`view(X, o, s0, 1, s1, n)` row 0 is `view(X, o, s1,
/// n)`), and the output view alike:
///
///   store view(C, oC, sCj, N) =
///     map(\q => POST(reduceSeq(STEP, INIT, zip(view(A, oA, sAk, K), q.0)), q.1),
///         zip(view(B, oB, sBj, N, sBk, K), view(C, oC, sCj, N)))
///
/// Same elements, same order of each sum. Returns false with \p Err when
/// P is not of that form.
bool gemvAsRowMap(funil::Program &P, std::string &Err);

/// Rewrites the map of row sums of a GEMV (gemvAsRowMap's result) whose
/// sums start from the output's own value and add in floating point, the
/// in-place s[j] += sum_k A[k] B[j][k] (a GEMV^T as PolyBench's bicg
/// writes it):
///
///   store view(C, oC, sCj, N) =
///     map(\q => reduceSeq(STEP, q.1, XS[q.0]), zip(view(B, ...), view(C, oC, sCj, N)))
///
/// into a histogram reduction over (output, slice) pairs, S slices per
/// output (split-K; docs/Rewrite.md, "Split-K GEMV^T"):
///
///   store view(C, oC, sCj, N) =
///     reduceIndexed(\(a, b) => fadd(a, b), view(C, oC, sCj, N),
///       \t => (srem(t, N), reduceSeq(STEP, -0.0, at(strided(S, XS[at(view(B, ...), srem(t, N))]),
///                                                  sdiv(t, N)))),
///       iota(mul(N, S)))
///
/// Pair t is output j = t mod N and slice t div N (neighbouring pairs:
/// neighbouring outputs, so a work-group of the histogram lowering reads
/// consecutive elements of one matrix row); slice s folds the sum's
/// elements s, s + S, ... from -0.0 and the update adds the partial sum
/// into the output. Exact up to reassociation: the floating-point licence
/// only. Returns false with \p Err when P is not of that form (an integer
/// sum, a sum with a post-operation, or one that does not start from the
/// output).
bool gemvAsSplitK(funil::Program &P, unsigned S, std::string &Err);

} // namespace idiom::rewrite

#endif // IDIOM_REWRITE_GEMV_H
