//===- GemmLifting.h - Lift a detected GEMM into FunIL ----------*- C++ -*-===//
//
// The GEMM lifter (`lifts gemm`, constraints/specs/gemm.idl). It analyses the
// chain of three loops of an IdiomMatch of kind Gemm on its own (which loops
// are i, j and k, which loads are A, B and the output element C, which form
// the update has) and writes the canonical GEMM map program of docs/FunIL.md
// ("GEMM programs"):
//
//   store view(C, oC, sCi, M, sCj, N) =
//     map(\(r: ([T]_K, [T]_N)) =>
//       map(\(q: ([T]_K, T)) =>
//         POST(reduceSeq(\(acc: T, x: (T, T)) => STEP, INIT, zip(r.0, q.0)), q.1),
//         zip(view(B, oB, sBj, N, sBk, K), r.1)),
//       zip(view(A, oA, sAi, M, sAk, K), view(C, oC, sCi, M, sCj, N)));
//
// the matrix product written with map and a sequential reduction, as in
// Lift's matrix multiplication (seeds/000, "rewrite-based matrix
// multiplication"; seeds/004, section 3). j is the loop with C's unit stride
// (consecutive work-items write consecutive elements), i the other loop of C,
// k the third loop; A is the operand indexed by {i, k}, B by {k, j}.
//
// Two products per step (BLAS SYR2K, constraints/specs/gemm.idl `syr2k`:
// `C[i][j] += A[j][k]*alpha*B[i][k] + B[j][k]*alpha*A[i][k]`): the update reads
// two elements indexed by {i, k} (A, then A2) and two by {k, j} (B, B2); the
// rows zip view(A2, ...) and the columns view(B2, ...) as their last
// component, and STEP reads x: (T, T, T, T), x.2 and x.3 the second pair
// (docs/FunIL.md, "GEMM programs with two products").
//
// A TRMM (`lifts trmm`, constraints/specs/trmm.idl: PolyBench trmm's `for
// (k = i + 1; k < m; k++) B[i][j] += A[k][i] * B[k][j]; B[i][j] *= alpha`)
// is a chain whose loop k is a band (NestInfo::BandLoop: its start advances
// a rows per row, its end fixed): the program reduces over the rectangle
// around the band zipped with iota(K), STEP is select(icmp_slt(x.2, a r.2),
// acc, STEP') with the rows zipped with iota(M) (docs/FunIL.md, "TRMM
// programs: a band on the reduction"), and an operand over C's array is an
// IN buffer read from a snapshot (LiftedParam::Snapshot), refused where it
// may meet the output element within one (i, j). The store of the running
// sum that LLVM leaves in the loop k, overwritten after it, is ignored.
//
// A GEMV (`lifts gemv`, constraints/specs/gemv.idl: a chain of two loops) is
// the same program with one row: M = 1 and C's and A's row strides 0; j is
// the loop that indexes the output vector y, k the other loop, A the vector x
// (indexed by k) and B the matrix (indexed by j and k). Either loop order:
// the row form y[i] = sum_j A[i][j] x[j] and the transposed in-place form
// s[j] += A[i][j] r[i] with i outer (a map over j of a reduction over i in
// i order).
//
// A TRMV (`lifts trmv`, constraints/specs/triangular.idl: `for (i) { s = 0;
// for (j <= i) s += L[i][j] * x[j]; y[i] = s; }` and its upper, strict and
// in-place forms) is that GEMV over the rectangle around the triangle with
// a mask on its reduction: its columns (y's elements, the outer loop) zip
// iota(N), the reduction iota(K), and STEP is select(MASK, acc, STEP'),
// MASK `icmp_slt(x.2, q.2)` for a band (upper: the inner loop's start
// advances with the row, NestInfo::BandLoop); for a triangle (lower: its
// count is b + s i, NestInfo::TriLoop, GemmSlice::TriangleOnReduction) STEP
// is select(icmp_slt(x.2, add(b, mul(s, q.2))), STEP', acc), the product
// added inside the triangle only. Its operands are checked apart from y as
// a GEMV's (no snapshot).
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_PASSES_LIFT_GEMMLIFTING_H
#define IDIOM_PASSES_LIFT_GEMMLIFTING_H

#include "../Lifting.h"
#include "llvm/ADT/SmallVector.h"
#include <string>

namespace llvm {
class ScalarEvolution;
class Value;
} // namespace llvm

namespace idiom {

/// The LLVM values behind STEP, INIT and POST of a lifted GEMM, for
/// translation validation (TranslationValidation.h). Each scalar function is
/// the slice rooted at its root value, read with these leaves.
struct GemmSlice {
  /// STEP's root: the sum's latch value, or the stored value (in place).
  llvm::Value *Step = nullptr;
  /// INIT's root: the sum's entry value, or the value an initialising store
  /// writes before an in-place update; null for the old C element (in place).
  llvm::Value *Init = nullptr;
  /// POST's root: the stored value; null when C receives the sum itself.
  llvm::Value *Post = nullptr;
  /// Read as `acc` in STEP: the sum phi, or the loads of C (in place).
  llvm::SmallVector<llvm::Value *, 2> Acc;
  /// Read as `x.0` and `x.1` in STEP: the loads of A's and B's elements.
  llvm::SmallVector<llvm::Value *, 2> ElemA, ElemB;
  /// Two products per step (BLAS SYR2K, spec syr2k): read as `x.2` and
  /// `x.3` in STEP, the loads of the second operands A2 (indexed by i and
  /// k) and B2 (by k and j); empty for one product.
  llvm::SmallVector<llvm::Value *, 2> ElemA2, ElemB2;
  /// Read as the reduction's result in POST: the sum after its loop (latch
  /// value, LCSSA phi, or a phi that merges it with the zero-trip path).
  llvm::SmallVector<llvm::Value *, 2> Final;
  /// Read as `q.1` in INIT and POST: loads of C's element before the update.
  llvm::SmallVector<llvm::Value *, 2> COld;
  /// A triangular GEMM (NestInfo::TriLoop): true when the triangle's loop is
  /// the program's column loop j (its rows, i, the outermost loop), false
  /// when it is the row loop i.
  bool TriangleOnColumns = false;
  /// A TRMV whose triangle is its reduction's loop (a lower triangle, `j <=
  /// i`, `j < i`: NestInfo::TriLoop is the inner loop k): STEP is
  /// select(MASK, STEP', acc) with MASK kT < TriBase + TriSlope j, the
  /// columns zip iota(N) (docs/FunIL.md, "TRMV programs").
  bool TriangleOnReduction = false;
};

/// The two programs of a GEMV pair (`lifts gemv-pair`,
/// constraints/specs/gemv-pair.idl: PolyBench bicg's `q[i] += A[i][j] *
/// p[j]` and `s[j] += r[i] * A[i][j]` in one nest), each the GEMV program
/// above with its own parameters, sizes and slices: the product whose output
/// the outer loop indexes first, named as the idiom, the other with
/// "_pair" appended. Loop fission: the stitched code runs both through
/// idiom_run_pair (runtime/include/idiomrt.h), both or neither, and the
/// runtime declines when an output overlaps any range of either program.
struct LiftedPair {
  LiftedIdiom First, Second;
};

/// Lifts the GEMM \p M (IdiomKind::Gemm, a chain of three loops; of two: a
/// GEMV; with M.GemvPair: a pair of GEMVs, Out.Pair, whose Params, Sizes and
/// NonNegative are the first's followed by the second's) into a FunIL
/// program named \p Name.
/// Parameters: buffers A, B (read) and C (written; read when INIT, STEP or
/// POST reads it), each the range [Lo, Hi) of elements its accesses touch;
/// i64 index parameters for the sizes M, N, K and non-constant offsets and
/// strides; scalar parameters for loop-invariant values (alpha, beta). Sizes
/// of \p Out are {M, N}; Out.Gemm describes the slices. When C's leading
/// dimension is not known to separate its rows, Out.NonNegative gets the
/// run-time condition (for a GEMV: y's stride not provably non-zero). A
/// second store of the output element before the innermost loop (`C = 0;`
/// or `C *= beta;` then `C += ...` in it: a chain of GEMMs through
/// temporaries, PolyBench 2mm and 3mm) is INIT; a load of C that dominates
/// it is INIT's old element (q.1). Returns false with \p Why (a sentence for
/// the -Rpass-missed=idiom-offload remark) for what it cannot express:
/// integer or mixed element types, an output that is also read at another
/// index, a load or a loop-carried value that is not part of the product, an
/// update that is not a pure scalar expression, an fmul and fadd the host may
/// contract into one fma without the licence (SliceExprRules::
/// RefuseHostContraction), another second store; a TRMV whose triangle or
/// band is in y's loop; for a
/// band (M.Nest.BandLoop, a TRMM), an update in place without a sum, two
/// products, an operand that may meet the output element within one (i, j).
bool liftGemm(const IdiomMatch &M, const std::string &Name,
              llvm::ScalarEvolution &SE, LiftedIdiom &Out, std::string &Why);

} // namespace idiom

#endif // IDIOM_PASSES_LIFT_GEMMLIFTING_H
