//===- LinearAlgebraFacts.h - Facts behind the GEMM / GEMV atoms -*- C++ -*-===//
//
// Structural analyses for dense linear-algebra idioms (GEMM, GEMV): chains of
// rectangular loops of any depth (LoopFacts' analyzeNest stops at two and
// wants a perfect nest), affine accesses over such chains with the loops that
// index each matrix dimension, and the arithmetic shapes of an inner product
// (acc + x*y) and of its scaled output (alpha*sum + beta*c). The atoms of
// lib/atoms/LinearAlgebraAtoms.cpp are thin wrappers over these; the specs
// (constraints/specs/gemm.idl, gemv.idl) combine them following the
// constraint-based detection of seeds/000 (idiom paper, section 4: an idiom
// is a formula over LLVM values, solved by a custom search); here each matrix
// operand is characterised by the loops that index it.
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_CONSTRAINTS_LINEARALGEBRAFACTS_H
#define IDIOM_CONSTRAINTS_LINEARALGEBRAFACTS_H

#include "idiom/Constraints/LoopFacts.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>
#include <string>

namespace llvm {
class Instruction;
class Loop;
class LoopInfo;
class PHINode;
class SCEV;
class ScalarEvolution;
class StoreInst;
class Type;
class Value;
} // namespace llvm

namespace idiom {

/// Number of loops in the chain headed by \p L: 1, plus the chain of its
/// subloop when it has exactly one (for \p L itself, also the second of two
/// subloops after a prologue, chainPrologue, when that makes a chain of at
/// least three: GEMM-like nests only). A loop with two or more subloops
/// otherwise ends the chain (its depth counts it alone).
unsigned loopChainDepth(const llvm::Loop *L);

/// The prologue of the chain headed by \p L: of exactly two subloops of \p
/// L, the first, an innermost loop whose exit leads to the guard or
/// preheader of the other through at most four blocks (PolyBench gemm's
/// `for (j) C[i][j] *= beta;` before the loop k). Null when there is none.
llvm::Loop *chainPrologue(const llvm::Loop *L);

/// True when \p M, a memory access of the prologue of chain \p N, accesses
/// on the prologue's t-th iteration the element that \p St accesses on the
/// t-th iteration of the chain's innermost loop (at the same iterations of
/// the outermost loop): equal start addresses and steps, equal trip counts.
/// Else sets \p Why.
bool isPrologueElement(llvm::Instruction *M, llvm::StoreInst *St,
                       const NestInfo &N, llvm::ScalarEvolution &SE,
                       std::string &Why);

/// Analyses \p Outer as a rectangular chain of exactly \p Depth canonical
/// loops, outermost first: each loop but the last has exactly one subloop
/// (when \p Depth >= 3, \p Outer may also hold a prologue before it:
/// NestInfo::Prologue, canonical, with a trip count invariant in \p Outer),
/// the last has none.
/// Canonical as in LoopFacts.h (preheader, one latch that is the only
/// exiting block, one exit block, computable trip count, an integer
/// induction phi that is an affine recurrence with a constant step).
/// Rectangular: every trip count and induction start is invariant in
/// \p Outer. The path from each header to the next loop's preheader may only
/// branch on conditions invariant in \p Outer whose other side skips to the
/// latch (zero-trip guards) or, before the prologue, to the rest of the path
/// (its zero-trip guard); they are recorded in NestInfo::Guards.
///
/// Unlike analyzeNest, work outside the inner loops (the store of a dot
/// product, a hoisted load) is allowed: the specs check it. The loops are
/// checked before the depth, so a loop that is not canonical reports that
/// reason (as analyzeNest would) rather than a depth mismatch. On failure
/// returns nothing and sets \p Why.
/// With \p Triangle, one inner loop may instead be triangular (NestInfo::
/// TriLoop: its count grows by a constant on each outer iteration from a
/// positive constant, its start fixed); a prologue then may run as many
/// times as that loop.
/// With \p Band, the innermost loop may instead be a band (NestInfo::
/// BandLoop: its start advances a positive constant number of its
/// iterations on each iteration of the outermost loop, its end fixed:
/// PolyBench trmm's `for (k = i + 1; k < m; k++)`), entered under a guard
/// that varies with the outer loop only when that guard is exactly its
/// count's being positive (`i + 1 < m`); such a guard is not a NestGuard.
/// With both, an innermost loop whose start is fixed is a triangle's, one
/// whose start moves a band's (the TRMV family, `lifts trmv`). A triangle's
/// count must start at \p MinTriBase or more; at 0 (a strict lower TRMV,
/// `j < i`), its loop is entered under its count's being positive, a guard
/// that is not a NestGuard either. With \p Band, an outermost loop that
/// runs down (a negative constant step) has its rows counted from its last
/// iteration (NestInfo::RowsReversed) when that makes an inner loop a
/// triangle or a band: `for (i = n - 1; i >= 0; i--) for (k = 0; k < i;
/// k++)` is the triangle k < k0. The caller must know the rows independent.
std::optional<NestInfo> analyzeLoopChain(llvm::Loop *Outer, unsigned Depth,
                                         llvm::ScalarEvolution &SE,
                                         std::string &Why,
                                         bool Triangle = false,
                                         bool Band = false,
                                         int64_t MinTriBase = 1);

/// A load or store whose address, over a loop chain N, is
///   Base + OffsetBytes + sum_d Strides[d] * ElemSize * k_d
/// where k_d counts iterations of N.Loops[d] from 0. Strides are in elements
/// of ElemTy (i64 SCEVs invariant in the chain); OffsetBytes is invariant in
/// the chain. This generalises LoopFacts' analyzeAccess to chains deeper than
/// two and looks through sign and zero extensions of recurrences (`int`
/// indices such as `c[i*n + j]` that -O2 rewrites to `zext(i32 {0,+,n})`),
/// assuming, as the C source does, that such indices do not wrap; that
/// assumption is recorded in AssumesNoWrap.
struct ChainAccess {
  llvm::Instruction *Inst = nullptr;
  bool IsStore = false;
  llvm::Value *Base = nullptr;
  llvm::Type *ElemTy = nullptr;
  const llvm::SCEV *OffsetBytes = nullptr;
  /// OffsetBytes in elements of ElemTy; null when not a whole number of them.
  const llvm::SCEV *Offset = nullptr;
  llvm::SmallVector<const llvm::SCEV *, 3> Strides;
  bool AssumesNoWrap = false;
  /// Positions d (outermost first) of the loops with a non-zero stride.
  llvm::SmallVector<unsigned, 3> varyingLoops() const;
};

/// Analyses the address of load/store \p I over chain \p N (over a band,
/// NestInfo::BandLoop, in the rectangle's coordinates: Strides[0] is the
/// stride along k0 at a fixed index of the band loop's IV, not at a fixed
/// iteration count). On failure
/// (not a simple load/store, no single base pointer, base computed in the
/// chain, an index that is not affine in the chain's iterations, a stride that
/// is not a whole number of elements) returns nothing and sets \p Why.
std::optional<ChainAccess> analyzeChainAccess(llvm::Instruction *I,
                                              const NestInfo &N,
                                              llvm::ScalarEvolution &SE,
                                              std::string &Why);

/// Elements [Lo, Hi) (i64 SCEVs, in elements of A.ElemTy from A.Base) that
/// access \p A touches over the whole chain \p N; A.Offset must be set.
void chainAccessRange(const ChainAccess &A, const NestInfo &N,
                      llvm::ScalarEvolution &SE, const llvm::SCEV *&Lo,
                      const llvm::SCEV *&Hi);

/// True when \p A addresses a dense matrix indexed by exactly two loops of
/// \p N: one index has a stride of one element, the other a leading
/// dimension that is symbolic (a run-time `lda`; BLAS requires lda >= rows)
/// or a constant of magnitude at least 2 and at least the trip count of the
/// unit-stride loop when that is constant. So `a[i*lda+k]`, `a[k*lda+i]`,
/// `A[i][k]` and `A[k][i]` qualify and `a[i+k]` (a convolution: rows overlap)
/// does not. Sets \p Row and \p Col to the positions in N of the loops with
/// the leading-dimension stride and the unit stride. Sets \p Why otherwise.
bool isMatrixAccess(const ChainAccess &A, const NestInfo &N, unsigned &Row,
                    unsigned &Col, std::string &Why);

/// One way of reading \p V as Acc + X*Y.
struct MulAddParts {
  llvm::Value *X = nullptr, *Y = nullptr, *Acc = nullptr;
};

/// Every way of reading \p V as Acc + X*Y: `llvm.fmuladd(X, Y, Acc)`,
/// `llvm.fma(X, Y, Acc)`, `fadd(Acc, fmul(X, Y))` and the integer `add`/`mul`
/// forms, with the operands of the add and of the multiply in either order
/// (both X*Y and Y*X are listed: the product commutes). Empty when none.
llvm::SmallVector<MulAddParts, 4> matchMulAdd(llvm::Value *V);

/// The loads \p Ld such that \p V is Ld, -Ld (fneg), Ld*s or s*Ld (fmul or mul) with s
/// invariant in \p Outer (defined outside it: a constant, an argument, a
/// value computed before the loop), in operand order.
llvm::SmallVector<llvm::Value *, 2> scaledLoadsOf(llvm::Value *V,
                                                  const llvm::Loop *Outer);

/// True when \p V is the value of the header phi \p Sum after its loop
/// exits, seen from outside that loop: Sum's latch value, an LCSSA phi of it,
/// or a phi outside the loop merging such values with Sum's initial value
/// (the path that skips a zero-trip loop). Looks through at most 4 phis.
bool isFinalValueOf(llvm::Value *V, llvm::PHINode *Sum, llvm::LoopInfo &LI);

/// isFinalValueOf with Sum's loop \p L given (the header of \p L holds Sum).
bool isFinalValueOf(llvm::Value *V, llvm::PHINode *Sum, const llvm::Loop *L);

/// True when load or store \p M reads or writes the element that store
/// \p St writes: same element type and the same pointer (or pointer SCEV).
bool accessesSameElement(llvm::Instruction *M, llvm::StoreInst *St,
                         llvm::ScalarEvolution &SE);

/// Checks that \p V is alpha*S' or alpha*S' + beta*C, summed in either order
/// with fadd/add or folded into an fmuladd: S' is the final value of the
/// reduction phi \p Sum (isFinalValueOf), C a load of the element \p St
/// stores, alpha and beta optional factors invariant in \p Outer. This is the
/// output update `C[i][j] = alpha*sum + beta*C[i][j]` of GEMM and GEMV.
/// When \p St is inside Sum's loop (GVN forwards the load of `y[i]` in
/// `y[i] += a*x` to a phi and leaves the store in the loop), its address must
/// be invariant in that loop and V = alpha*S' with S' Sum's latch value (no C
/// term: it would read back the running sum). Sets \p Why on failure.
bool isScaledSum(llvm::Value *V, llvm::PHINode *Sum, llvm::StoreInst *St,
                 const llvm::Loop *Outer, llvm::LoopInfo &LI,
                 llvm::ScalarEvolution &SE, std::string &Why);

} // namespace idiom

#endif // IDIOM_CONSTRAINTS_LINEARALGEBRAFACTS_H
