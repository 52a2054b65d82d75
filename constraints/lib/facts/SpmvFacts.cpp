//===- SpmvFacts.cpp - Structural facts for sparse matrix-vector ----------===//

#include "idiom/Constraints/SpmvFacts.h"
#include "idiom/Constraints/LoopFacts.h"
#include "idiom/Constraints/StencilFacts.h"
#include "idiom/Constraints/ValueText.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"

using namespace llvm;

namespace idiom {
namespace {

Value *stripIntCasts(Value *V) {
  while (isa<SExtInst>(V) || isa<ZExtInst>(V) || isa<TruncInst>(V))
    V = cast<Instruction>(V)->getOperand(0);
  return V;
}

/// Strips value casts (int and fp conversions), not pointer casts.
Value *stripValueCasts(Value *V) {
  while (auto *C = dyn_cast<CastInst>(V)) {
    if (C->getType()->isPointerTy() || C->getSrcTy()->isPointerTy())
      break;
    V = C->getOperand(0);
  }
  return V;
}

/// True when \p I lies in a loop inside \p Row.
bool inSubloop(const Loop *Row, const Instruction *I) {
  for (const Loop *Sub : Row->getSubLoops())
    if (Sub->contains(I))
      return true;
  return false;
}

/// Base, offset in bytes and element size of a simple load or store.
struct ByteAccess {
  Value *Base = nullptr;
  const SCEV *Offset = nullptr;
  uint64_t Size = 0;
};

std::optional<ByteAccess> byteAccess(Instruction *I, ScalarEvolution &SE) {
  Value *Ptr;
  Type *Ty;
  if (auto *L = dyn_cast<LoadInst>(I); L && L->isSimple()) {
    Ptr = L->getPointerOperand();
    Ty = L->getType();
  } else if (auto *S = dyn_cast<StoreInst>(I); S && S->isSimple()) {
    Ptr = S->getPointerOperand();
    Ty = S->getValueOperand()->getType();
  } else {
    return std::nullopt;
  }
  const SCEV *P = SE.getSCEV(Ptr);
  auto *B = dyn_cast<SCEVUnknown>(SE.getPointerBase(P));
  uint64_t Size = I->getModule()->getDataLayout().getTypeAllocSize(Ty);
  if (!B || !Size)
    return std::nullopt;
  return ByteAccess{B->getValue(), SE.removePointerBase(P), Size};
}

/// The index of a GEP with one index, or the last index of one whose other
/// indices are zero (an element of a global or member array); else null.
Value *lastGepIndex(Value *Ptr) {
  auto *G = dyn_cast_or_null<GEPOperator>(Ptr);
  if (!G || G->getNumIndices() == 0)
    return nullptr;
  for (unsigned I = 1; I < G->getNumIndices(); ++I)
    if (auto *C = dyn_cast<ConstantInt>(G->getOperand(I)); !C || !C->isZero())
      return nullptr;
  return G->getOperand(G->getNumIndices());
}

/// \p S as an affine recurrence of \p L with start and step invariant in
/// L, or null.
const SCEVAddRecExpr *affineIn(const SCEV *S, const Loop *L,
                               ScalarEvolution &SE) {
  auto *AR = dyn_cast<SCEVAddRecExpr>(S);
  if (AR && AR->getLoop() == L && AR->isAffine() &&
      SE.isLoopInvariant(AR->getStart(), L) &&
      SE.isLoopInvariant(AR->getStepRecurrence(SE), L))
    return AR;
  return nullptr;
}

bool isZeroPoly(const SCEV *S) {
  auto C = polynomialConstant(S);
  return C && *C == 0;
}

/// An element read once per row (see analyzeRowRead).
struct RowRead {
  Value *Base = nullptr;
  const SCEV *Offset = nullptr; ///< bytes: affine in Row, or invariant
  uint64_t Size = 0;
};

/// Analyses \p V, after integer casts, as an element read once per
/// iteration of \p Row: a load of Row outside its inner loops at an affine
/// (or invariant) address, or a header phi of Row forwarding the element its
/// latch load read one row before, seeded by a load of the element before.
std::optional<RowRead> analyzeRowRead(Value *V, Loop *Row, ScalarEvolution &SE,
                                      std::string &Why) {
  V = stripIntCasts(V);
  if (auto *L = dyn_cast<LoadInst>(V)) {
    auto A = byteAccess(L, SE);
    if (!A || !Row->contains(L) || inSubloop(Row, L)) {
      Why = "not a load of the row loop outside its inner loop: " +
            valueText(L);
      return std::nullopt;
    }
    if (auto *BI = dyn_cast<Instruction>(A->Base); BI && Row->contains(BI)) {
      Why = "base pointer is computed inside the row loop: " +
            valueText(L);
      return std::nullopt;
    }
    if (!affineIn(A->Offset, Row, SE) && !SE.isLoopInvariant(A->Offset, Row)) {
      Why = "not read at an affine index of the row: " + valueText(L);
      return std::nullopt;
    }
    return RowRead{A->Base, A->Offset, A->Size};
  }
  auto *P = dyn_cast<PHINode>(V);
  BasicBlock *Pre = Row->getLoopPreheader(), *Latch = Row->getLoopLatch();
  if (!P || P->getParent() != Row->getHeader() || !Pre || !Latch ||
      P->getNumIncomingValues() != 2 || P->getBasicBlockIndex(Pre) < 0 ||
      P->getBasicBlockIndex(Latch) < 0) {
    Why = "not a value read from memory once per row: " + valueText(V);
    return std::nullopt;
  }
  auto *Seed = dyn_cast<LoadInst>(P->getIncomingValueForBlock(Pre));
  auto *Next = dyn_cast<LoadInst>(P->getIncomingValueForBlock(Latch));
  std::optional<ByteAccess> SA;
  if (Seed && !Row->contains(Seed))
    SA = byteAccess(Seed, SE);
  std::string W;
  std::optional<RowRead> NR;
  if (Next)
    NR = analyzeRowRead(Next, Row, SE, W);
  const SCEVAddRecExpr *AR = NR ? affineIn(NR->Offset, Row, SE) : nullptr;
  if (!SA || !AR || SA->Base != NR->Base ||
      SA->Offset->getType() != AR->getType()) {
    Why = "row loop carries a value from one row to the next: " +
          valueText(P);
    return std::nullopt;
  }
  const SCEV *Step = AR->getStepRecurrence(SE);
  const SCEV *Before = SE.getMinusSCEV(AR->getStart(), Step);
  if (!isZeroPoly(SE.getMinusSCEV(SA->Offset, Before))) {
    Why = "phi's seed does not load the element before the first one its "
          "latch load reads: " +
          valueText(P);
    return std::nullopt;
  }
  return RowRead{NR->Base,
                 SE.getAddRecExpr(Before, Step, Row, SCEV::FlagAnyWrap),
                 NR->Size};
}

/// The counter and bounds of an SpMV inner loop: IV from Start, step one,
/// while IV + 1 != End (or <).
struct SparseRange {
  PHINode *IV = nullptr;
  Value *Start = nullptr;
  Value *End = nullptr;
};

std::optional<SparseRange> analyzeSparseRange(Loop *Inner, ScalarEvolution &SE,
                                              std::string &Why) {
  BasicBlock *Pre = Inner->getLoopPreheader(), *Latch = Inner->getLoopLatch();
  if (!Inner->getSubLoops().empty() || !Pre || !Latch ||
      Inner->getExitingBlock() != Latch || !Inner->getExitBlock()) {
    Why = "inner loop is not an innermost loop with a preheader, one latch "
          "and one exit";
    return std::nullopt;
  }
  SparseRange R;
  for (PHINode &P : Inner->getHeader()->phis()) {
    if (!P.getType()->isIntegerTy())
      continue;
    auto *AR = affineIn(SE.getSCEV(&P), Inner, SE);
    if (AR && AR->getStepRecurrence(SE)->isOne()) {
      R.IV = &P;
      break;
    }
  }
  ICmpInst *Cmp = Inner->getLatchCmpInst();
  auto *Br = dyn_cast<BranchInst>(Latch->getTerminator());
  if (!R.IV || !Cmp || !Br || !Br->isConditional()) {
    Why = "inner loop has no counter stepping by one to a bound";
    return std::nullopt;
  }
  Value *IVNext = R.IV->getIncomingValueForBlock(Latch);
  Value *A = Cmp->getOperand(0), *B = Cmp->getOperand(1);
  CmpInst::Predicate Pred = Cmp->getPredicate();
  if (B == IVNext) {
    std::swap(A, B);
    Pred = CmpInst::getSwappedPredicate(Pred);
  }
  if (Br->getSuccessor(0) != Inner->getHeader())
    Pred = CmpInst::getInversePredicate(Pred);
  auto *BI = dyn_cast<Instruction>(B);
  if (A != IVNext || (BI && Inner->contains(BI)) ||
      !(Pred == CmpInst::ICMP_NE || Pred == CmpInst::ICMP_SLT ||
        Pred == CmpInst::ICMP_ULT)) {
    Why = "inner loop does not run its counter up to a bound: " +
          valueText(Cmp);
    return std::nullopt;
  }
  R.Start = R.IV->getIncomingValueForBlock(Pre);
  R.End = B;
  return R;
}

std::optional<int64_t> elementIndexDeltaImpl(Instruction *MemOp,
                                             const SCEV *Index,
                                             ScalarEvolution &SE) {
  auto A = byteAccess(MemOp, SE);
  if (!A || !Index->getType()->isIntegerTy())
    return std::nullopt;
  Type *OT = A->Offset->getType();
  unsigned IB = Index->getType()->getIntegerBitWidth();
  unsigned OB = OT->getIntegerBitWidth();
  SmallVector<const SCEV *, 2> Cands;
  if (IB == OB)
    Cands.push_back(Index);
  else if (IB < OB)
    Cands = {SE.getSignExtendExpr(Index, OT), SE.getZeroExtendExpr(Index, OT)};
  for (const SCEV *X : Cands) {
    const SCEV *D = SE.getMinusSCEV(
        A->Offset, SE.getMulExpr(SE.getConstant(OT, A->Size), X));
    auto C = polynomialConstant(D);
    if (C && *C % (int64_t)A->Size == 0)
      return *C / (int64_t)A->Size;
  }
  // SCEV keeps an extension of a narrow sum (sext(c - 1)) whole: compare
  // the index of a one-index GEP, below its casts, in its own type.
  auto *G = dyn_cast<GEPOperator>(getLoadStorePointerOperand(MemOp));
  if (!G || G->getNumIndices() != 1 ||
      MemOp->getModule()->getDataLayout().getTypeAllocSize(
          G->getSourceElementType()) != A->Size)
    return std::nullopt;
  Value *Idx = stripIntCasts(G->getOperand(1));
  const SCEV *Ptr = SE.getSCEV(G->getPointerOperand());
  auto *PB = dyn_cast<SCEVUnknown>(SE.getPointerBase(Ptr));
  if (!PB || PB->getValue() != A->Base || !SE.isSCEVable(Idx->getType()) ||
      Idx->getType() != Index->getType())
    return std::nullopt;
  auto BaseOff = polynomialConstant(SE.removePointerBase(Ptr));
  auto D = polynomialConstant(SE.getMinusSCEV(SE.getSCEV(Idx), Index));
  if (!BaseOff || !D || *BaseOff % (int64_t)A->Size)
    return std::nullopt;
  return *D + *BaseOff / (int64_t)A->Size;
}

/// True when \p MemOp accesses element \p Index (+ 0) of its array.
bool atIndex(Instruction *MemOp, Value *Index, ScalarEvolution &SE) {
  if (!SE.isSCEVable(Index->getType()))
    return false;
  auto D = elementIndexDeltaImpl(MemOp, SE.getSCEV(Index), SE);
  return D && *D == 0;
}

/// Loads of \p Row outside its inner loops, in block order.
SmallVector<LoadInst *, 8> rowLoads(Loop *Row) {
  SmallVector<LoadInst *, 8> Out;
  for (BasicBlock *BB : Row->blocks())
    for (Instruction &I : *BB)
      if (auto *L = dyn_cast<LoadInst>(&I); L && !inSubloop(Row, L))
        Out.push_back(L);
  return Out;
}

/// True when \p R moves with the row: an affine recurrence of \p Row with a
/// step that is not zero.
bool movesWithRow(const RowRead &R, Loop *Row, ScalarEvolution &SE) {
  auto *AR = affineIn(R.Offset, Row, SE);
  return AR && !isZeroPoly(AR->getStepRecurrence(SE));
}

/// The rows per count of a JDS inner loop's bound \p End: 1 for a count
/// read once per row at an index that moves with it (analyzeRowRead), D for
/// a load of Row outside its inner loops at element i / D of an array
/// whose base is invariant in Row, i = {0,+,1} the row and D > 1 a constant
/// (Parboil's GPU form: one count per block of 32 rows, sh_zcnt[i / 32]);
/// nothing, with \p Why, otherwise.
std::optional<unsigned> rowCountRead(Value *End, Loop *Row, ScalarEvolution &SE,
                                     std::string &Why) {
  std::string W;
  if (auto E = analyzeRowRead(End, Row, SE, W); E && movesWithRow(*E, Row, SE))
    return 1u;
  auto *L = dyn_cast<LoadInst>(stripIntCasts(End));
  auto A = L ? byteAccess(L, SE) : std::nullopt;
  auto *BI = A ? dyn_cast<Instruction>(A->Base) : nullptr;
  const SCEV *Q = A ? A->Offset : nullptr;
  if (auto *M = dyn_cast_or_null<SCEVMulExpr>(Q);
      M && M->getNumOperands() == 2 && isa<SCEVConstant>(M->getOperand(0)) &&
      cast<SCEVConstant>(M->getOperand(0))->getAPInt() == A->Size)
    Q = M->getOperand(1);
  else if (A && A->Size != 1)
    Q = nullptr;
  auto *UD = dyn_cast_or_null<SCEVUDivExpr>(Q);
  auto *D = UD ? dyn_cast<SCEVConstant>(UD->getRHS()) : nullptr;
  auto *AR = UD ? affineIn(UD->getLHS(), Row, SE) : nullptr;
  if (!L || !Row->contains(L) || inSubloop(Row, L) || (BI && Row->contains(BI)) ||
      !D || !AR || !AR->getStart()->isZero() || !AR->getStepRecurrence(SE)->isOne() ||
      D->getAPInt().ule(1) || D->getAPInt().ugt(1u << 30)) {
    Why = "the inner loop does not end at a count read per row (cnt[i], or "
          "cnt[i / D] for blocks of D rows): " +
          (A ? valueText(End) : W);
    return std::nullopt;
  }
  return (unsigned)D->getAPInt().getZExtValue();
}

/// True when phi \p P, outside \p Inner, is the final value of reduction
/// \p Red: each incoming value is Red's update, its initial value (the
/// inner loop ran no iteration) or such a phi (LCSSA and merge phis), and
/// the update is among them.
bool isFinalValue(PHINode *P, const ReductionInfo &Red, Loop *Inner) {
  SmallVector<PHINode *, 4> Work{P};
  SmallPtrSet<PHINode *, 4> Seen{P};
  bool Any = false;
  while (!Work.empty()) {
    PHINode *Q = Work.pop_back_val();
    for (Value *In : Q->incoming_values()) {
      if (In == Red.Update) {
        Any = true;
        continue;
      }
      if (In == Red.Init)
        continue;
      auto *QP = dyn_cast<PHINode>(In);
      if (!QP || Inner->contains(QP) || Seen.size() > 8)
        return false;
      if (Seen.insert(QP).second)
        Work.push_back(QP);
    }
  }
  return Any;
}

} // namespace

Loop *sparseRowInner(Loop *Row, ScalarEvolution &SE, std::string &Why) {
  if (!countedLoopIV(Row, Row, SE, Why))
    return nullptr;
  if (Row->getSubLoops().size() != 1) {
    Why = "row loop does not contain exactly one loop";
    return nullptr;
  }
  Loop *Inner = Row->getSubLoops().front();
  if (!analyzeSparseRange(Inner, SE, Why))
    return nullptr;
  for (PHINode &P : Row->getHeader()->phis()) {
    if (P.getType()->isIntegerTy() && affineIn(SE.getSCEV(&P), Row, SE))
      continue;
    if (!analyzeRowRead(&P, Row, SE, Why))
      return nullptr;
  }
  return Inner;
}

std::optional<std::pair<LoadInst *, LoadInst *>>
sparseProductFactors(PHINode *Acc, Loop *Inner, ScalarEvolution &SE,
                     std::string &Why) {
  auto N = analyzeNest(Inner, SE, Why);
  if (!N || !isPlainNest(*N, Why))
    return std::nullopt;
  auto Red = analyzeReduction(Acc, *N, Why);
  if (!Red)
    return std::nullopt;
  if (!Red->Stores.empty()) {
    Why = "the accumulator is stored to memory inside the row loop";
    return std::nullopt;
  }
  if (Red->Op != ReductionOp::Add && Red->Op != ReductionOp::FAdd) {
    Why = std::string("the accumulator is not a sum but a ") +
          reductionOpName(Red->Op);
    return std::nullopt;
  }
  if (Red->Cond || Red->Operands.size() != 1) {
    Why = Red->Cond
              ? "the accumulator is updated under a condition"
              : "the accumulator adds " + std::to_string(Red->Operands.size()) +
                    " terms per iteration, not one product";
    return std::nullopt;
  }
  Value *A = Red->Operands[0], *B = Red->MulPartners[0];
  if (!B) {
    auto *M = dyn_cast<BinaryOperator>(A);
    if (!M || (M->getOpcode() != Instruction::Mul &&
               M->getOpcode() != Instruction::FMul)) {
      Why = "the accumulated term is not a product: " + valueText(A);
      return std::nullopt;
    }
    A = M->getOperand(0);
    B = M->getOperand(1);
  }
  auto *LA = dyn_cast<LoadInst>(stripValueCasts(A));
  auto *LB = dyn_cast<LoadInst>(stripValueCasts(B));
  if (!LA || !LB) {
    Why = "a factor of the accumulated product is not a load: " +
          valueText(LA ? B : A);
    return std::nullopt;
  }
  return std::make_pair(LA, LB);
}

LoadInst *indirectIndexLoad(LoadInst *X, Loop *Inner, ScalarEvolution &SE,
                            std::string &Why) {
  if (!Inner->contains(X)) {
    Why = "x is loaded outside the inner loop, once per row, not once per "
          "nonzero: " +
          valueText(X);
    return nullptr;
  }
  Loop *Scope = Inner->getParentLoop() ? Inner->getParentLoop() : Inner;
  LoadInst *Outside = nullptr;
  for (BasicBlock *BB : Scope->blocks())
    for (Instruction &I : *BB) {
      auto *L = dyn_cast<LoadInst>(&I);
      if (!L || L == X || !L->getType()->isIntegerTy() ||
          !elementIndexDeltaImpl(X, SE.getSCEV(L), SE))
        continue;
      if (Inner->contains(L))
        return L;
      Outside = Outside ? Outside : L;
    }
  if (Outside)
    Why = "x is read through " + valueText(Outside) +
          ", loaded outside the inner loop: not through the column index of "
          "each nonzero";
  else
    Why = "x is not read through an index loaded from memory (not an "
          "indirect read): " +
          valueText(X);
  return nullptr;
}

bool sameElementIndex(Instruction *A, Instruction *B, ScalarEvolution &SE) {
  auto BA = byteAccess(A, SE), BB = byteAccess(B, SE);
  if (!BA || !BB || BA->Offset->getType() != BB->Offset->getType())
    return false;
  Type *T = BA->Offset->getType();
  return isZeroPoly(
      SE.getMinusSCEV(SE.getMulExpr(SE.getConstant(T, BB->Size), BA->Offset),
                      SE.getMulExpr(SE.getConstant(T, BA->Size), BB->Offset)));
}

bool isCsrRange(Loop *Inner, Loop *Row, Instruction *V, ScalarEvolution &SE,
                std::string &Why) {
  auto R = analyzeSparseRange(Inner, SE, Why);
  if (!R)
    return false;
  if (!Inner->contains(V) || !atIndex(V, R->IV, SE)) {
    Why = "the matrix value is not read at the inner loop's counter: " +
          valueText(V);
    return false;
  }
  std::string W;
  auto S = analyzeRowRead(R->Start, Row, SE, W);
  if (!S) {
    Why = "the inner loop does not start at a row pointer read per row: " + W;
    return false;
  }
  auto E = analyzeRowRead(R->End, Row, SE, W);
  if (!E) {
    Why = "the inner loop does not end at a row pointer read per row: " + W;
    return false;
  }
  auto *AR = affineIn(S->Offset, Row, SE);
  std::optional<int64_t> Gap, Step;
  if (S->Offset->getType() == E->Offset->getType())
    Gap = polynomialConstant(SE.getMinusSCEV(E->Offset, S->Offset));
  if (AR)
    Step = polynomialConstant(AR->getStepRecurrence(SE));
  if (S->Base != E->Base || S->Size != E->Size || !Gap ||
      *Gap != (int64_t)S->Size || !Step || *Step != (int64_t)S->Size) {
    Why = "the inner loop does not run from ptr[i] to ptr[i+1] of one row "
          "pointer array ptr, i the row";
    return false;
  }
  return true;
}

bool isJdsRange(Loop *Inner, Loop *Row, Instruction *V, ScalarEvolution &SE,
                std::string &Why) {
  auto R = analyzeSparseRange(Inner, SE, Why);
  if (!R)
    return false;
  if (!SE.isSCEVable(R->Start->getType()) ||
      !isZeroPoly(SE.getSCEV(R->Start))) {
    Why = "the inner loop does not start at 0 (not a loop over the jagged "
          "diagonals of a row)";
    return false;
  }
  if (!rowCountRead(R->End, Row, SE, Why))
    return false;
  // V reads val[ptr[k] + i]: its index, after casts, is a sum of a load of
  // Inner at k and a recurrence of the row loop.
  Value *Ptr = getLoadStorePointerOperand(V);
  Value *Idx = lastGepIndex(Ptr);
  Idx = Idx ? stripIntCasts(Idx) : nullptr;
  bool Ok = Idx && Inner->contains(V) && SE.isSCEVable(Idx->getType()) &&
            atIndex(V, Idx, SE);
  auto *Sum = Ok ? dyn_cast<SCEVAddExpr>(SE.getSCEV(Idx)) : nullptr;
  Ok = false;
  for (const SCEV *Op : Sum ? Sum->operands() : ArrayRef<const SCEV *>()) {
    auto *U = dyn_cast<SCEVUnknown>(Op);
    auto *Diag = U ? dyn_cast<LoadInst>(U->getValue()) : nullptr;
    if (!Diag || !Inner->contains(Diag) || !atIndex(Diag, R->IV, SE))
      continue;
    auto *AR = affineIn(SE.getMinusSCEV(Sum, U), Row, SE);
    Ok = AR && !isZeroPoly(AR->getStepRecurrence(SE));
    break;
  }
  if (!Ok) {
    Why = "the matrix value is not read at ptr[k] + i (k the jagged diagonal, "
          "i the row): " +
          valueText(V);
    return false;
  }
  return true;
}

bool isRowResult(StoreInst *St, Loop *Row, Loop *Inner, PHINode *Acc,
                 ScalarEvolution &SE, std::string &Why) {
  if (!Row->contains(St) || Inner->contains(St)) {
    Why = "the store is not in the row loop after its inner loop";
    return false;
  }
  auto N = analyzeNest(Inner, SE, Why);
  if (N && !isPlainNest(*N, Why))
    return false;
  auto Red = N ? analyzeReduction(Acc, *N, Why) : std::nullopt;
  if (!Red)
    return false;
  if (!Red->Stores.empty()) {
    Why = "the accumulator is stored to memory inside the row loop";
    return false;
  }
  SmallVector<Value *, 8> Work{St->getValueOperand()};
  SmallPtrSet<Value *, 16> Seen;
  bool UsesAcc = false;
  while (!Work.empty()) {
    auto *I = dyn_cast<Instruction>(Work.pop_back_val());
    if (!I || !Row->contains(I) || !Seen.insert(I).second || isa<LoadInst>(I))
      continue;
    if (I == Red->Update) {
      UsesAcc = true;
      continue;
    }
    if (Inner->contains(I)) {
      Why = "the stored value uses a value of the inner loop other than the "
            "accumulator's final value: " +
            valueText(I);
      return false;
    }
    if (auto *P = dyn_cast<PHINode>(I)) {
      if (!isFinalValue(P, *Red, Inner)) {
        Why = "the stored value depends on a phi that is not the "
              "accumulator's final value: " +
              valueText(P);
        return false;
      }
      UsesAcc = true;
      continue;
    }
    if (!isPureScalarOp(I)) {
      Why = "the stored value is computed by an instruction with side "
            "effects or an unsupported operation: " +
            valueText(I);
      return false;
    }
    for (Value *Op : I->operands())
      Work.push_back(Op);
  }
  if (!UsesAcc) {
    Why = "the store does not write the accumulator's final value: " +
          valueText(St);
    return false;
  }
  return true;
}

bool isRowIndexedStore(StoreInst *St, Loop *Row, ScalarEvolution &SE,
                       std::string &Why) {
  auto A = byteAccess(St, SE);
  auto *BI = A ? dyn_cast<Instruction>(A->Base) : nullptr;
  if (!A || (BI && Row->contains(BI))) {
    Why = "the store has no base pointer invariant in the row loop: " +
          valueText(St);
    return false;
  }
  if (auto *AR = affineIn(A->Offset, Row, SE)) {
    if (!isZeroPoly(AR->getStepRecurrence(SE)))
      return true;
  }
  if (SE.isLoopInvariant(A->Offset, Row))
    Why = "every row writes the same element: " + valueText(St);
  else
    Why = "the y index is data dependent (a scatter): " + valueText(St);
  return false;
}

bool isPermutedRowStore(StoreInst *St, Loop *Row, ScalarEvolution &SE,
                        std::string &Why) {
  for (LoadInst *L : rowLoads(Row)) {
    if (!L->getType()->isIntegerTy() ||
        !elementIndexDeltaImpl(St, SE.getSCEV(L), SE))
      continue;
    std::string W;
    if (auto P = analyzeRowRead(L, Row, SE, W); P && movesWithRow(*P, Row, SE))
      return true;
  }
  Why = "y is not written at perm[i], an index read once per row: " +
        valueText(St);
  return false;
}

std::optional<CsrRowPointers> csrRowPointers(Loop *Inner, Loop *Row,
                                             ScalarEvolution &SE,
                                             std::string &Why) {
  auto R = analyzeSparseRange(Inner, SE, Why);
  if (!R)
    return std::nullopt;
  std::string W;
  auto S = analyzeRowRead(R->Start, Row, SE, W);
  auto E = S ? analyzeRowRead(R->End, Row, SE, W) : std::nullopt;
  if (!S || !E) {
    Why = "the inner loop's bounds are not row pointers read per row: " + W;
    return std::nullopt;
  }
  auto *AR = affineIn(S->Offset, Row, SE);
  if (!AR || S->Base != E->Base || S->Size != E->Size) {
    Why = "the inner loop does not run from ptr[i] to ptr[i+1]";
    return std::nullopt;
  }
  CsrRowPointers P;
  P.Base = S->Base;
  P.ElemBytes = S->Size;
  P.FirstBytes = AR->getStart();
  P.IV = R->IV;
  P.Start = R->Start;
  P.End = R->End;
  return P;
}

std::optional<JdsRows> jdsRows(Loop *Inner, Loop *Row, Instruction *V,
                               ScalarEvolution &SE, std::string &Why) {
  if (!isJdsRange(Inner, Row, V, SE, Why))
    return std::nullopt;
  auto R = analyzeSparseRange(Inner, SE, Why);
  JdsRows J;
  J.IV = R->IV;
  J.End = R->End;
  J.Count = dyn_cast<LoadInst>(stripIntCasts(R->End));
  J.RowsPerCount = *rowCountRead(R->End, Row, SE, Why);
  if (!J.Count) {
    Why = "the row's count is not loaded in the row loop: " + valueText(R->End);
    return std::nullopt;
  }
  // isJdsRange found V's index to be a sum with one operand Diag.
  J.Pos = stripIntCasts(lastGepIndex(getLoadStorePointerOperand(V)));
  const SCEV *Sum = SE.getSCEV(J.Pos);
  for (const SCEV *Op : cast<SCEVAddExpr>(Sum)->operands()) {
    auto *U = dyn_cast<SCEVUnknown>(Op);
    auto *D = U ? dyn_cast<LoadInst>(U->getValue()) : nullptr;
    if (D && Inner->contains(D) && atIndex(D, R->IV, SE)) {
      J.Diag = D;
      J.RowPart = SE.getMinusSCEV(Sum, U);
      break;
    }
  }
  return J;
}

std::optional<int64_t> gatherOffset(Instruction *X, Value *Col,
                                    ScalarEvolution &SE, bool &ZExt) {
  auto A = byteAccess(X, SE);
  if (!A || !Col->getType()->isIntegerTy() || !SE.isSCEVable(Col->getType()))
    return std::nullopt;
  Type *OT = A->Offset->getType();
  unsigned IB = Col->getType()->getIntegerBitWidth();
  unsigned OB = OT->getIntegerBitWidth();
  const SCEV *Index = SE.getSCEV(Col);
  SmallVector<std::pair<const SCEV *, bool>, 2> Cands;
  if (IB == OB)
    Cands.push_back({Index, false});
  else if (IB < OB)
    Cands = {{SE.getSignExtendExpr(Index, OT), false},
             {SE.getZeroExtendExpr(Index, OT), true}};
  for (auto [Ext, Z] : Cands) {
    const SCEV *D = SE.getMinusSCEV(
        A->Offset, SE.getMulExpr(SE.getConstant(OT, A->Size), Ext));
    auto C = polynomialConstant(D);
    if (C && *C % (int64_t)A->Size == 0) {
      ZExt = Z;
      return *C / (int64_t)A->Size;
    }
  }
  return std::nullopt;
}

} // namespace idiom
