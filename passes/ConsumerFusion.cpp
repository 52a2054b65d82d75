//===- ConsumerFusion.cpp - Several consumer loops of one row fused -------===//
//
// Part of Idiom. See ConsumerFusion.h.
//
//===----------------------------------------------------------------------===//
#include "ConsumerFusion.h"

#include "idiom/Constraints/GridSubscripts.h"

#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/DebugLoc.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

using namespace llvm;

namespace idiom {
namespace {

/// The header phi of \p L that is an affine recurrence of L with a
/// constant step, or null.
PHINode *counter(Loop *L, ScalarEvolution &SE, const SCEVAddRecExpr *&Rec) {
  for (PHINode &P : L->getHeader()->phis()) {
    auto *AR = P.getType()->isIntegerTy()
                   ? dyn_cast<SCEVAddRecExpr>(SE.getSCEV(&P))
                   : nullptr;
    if (AR && AR->getLoop() == L && AR->isAffine() &&
        isa<SCEVConstant>(AR->getStepRecurrence(SE))) {
      Rec = AR;
      return &P;
    }
  }
  return nullptr;
}

const SCEV *tripCountOf(Loop *L, ScalarEvolution &SE) {
  const SCEV *BTC = SE.getBackedgeTakenCount(L);
  return isa<SCEVCouldNotCompute>(BTC) ? nullptr : BTC;
}

/// "line:col" of \p I, for remarks.
std::string where(const Instruction *I) {
  if (const DebugLoc &DL = I->getDebugLoc())
    return " at line " + std::to_string(DL.getLine()) + ":" +
           std::to_string(DL.getCol());
  return "";
}

/// A subscript split as A + S * k, k the iteration number of loop L.
void split(const SCEV *Sub, const Loop *L, ScalarEvolution &SE, const SCEV *&A,
           int64_t &S) {
  auto *AR = dyn_cast<SCEVAddRecExpr>(Sub);
  if (AR && AR->getLoop() == L && AR->isAffine())
    if (auto *C = dyn_cast<SCEVConstant>(AR->getStepRecurrence(SE));
        C && C->getAPInt().getSignificantBits() <= 63) {
      A = AR->getStart();
      S = C->getAPInt().getSExtValue();
      return;
    }
  A = Sub;
  S = 0;
}

/// True when some subscript of X (in loop LX) and of Y (in loop LY) differ
/// on every pair of iterations of one row: by a non-zero constant, or, with
/// equal steps s, by a constant that is no multiple of s.
bool apartInRow(const GridSubscripts &X, const Loop *LX,
                const GridSubscripts &Y, const Loop *LY, ScalarEvolution &SE,
                bool &Same) {
  Same = true;
  bool Apart = false;
  for (unsigned J = 0; J < X.Subs.size(); ++J) {
    const SCEV *AX, *AY;
    int64_t SX, SY;
    split(X.Subs[J], LX, SE, AX, SX);
    split(Y.Subs[J], LY, SE, AY, SY);
    auto *D = dyn_cast<SCEVConstant>(SE.getMinusSCEV(AX, AY));
    if (SX != SY || !D || !D->isZero())
      Same = false;
    if (SX != SY || !D || D->getAPInt().getSignificantBits() > 63)
      continue;
    int64_t Dv = D->getAPInt().getSExtValue();
    if (SX == 0 ? Dv != 0 : Dv % SX != 0)
      Apart = true;
  }
  return Apart;
}

/// The conditions (with the successor that leads on) of the branches in
/// the row, outside its inner loops, that dominate \p To.
SmallVector<std::pair<Value *, bool>, 4> guardsOf(BasicBlock *To, Loop &Row,
                                                  DominatorTree &DT) {
  SmallVector<std::pair<Value *, bool>, 4> G;
  for (BasicBlock *BB : Row.blocks()) {
    auto *Br = dyn_cast<BranchInst>(BB->getTerminator());
    if (!Br || !Br->isConditional() || !DT.dominates(BB, To) || BB == To)
      continue;
    for (unsigned S = 0; S < 2; ++S)
      if (DT.dominates(BasicBlockEdge(BB, Br->getSuccessor(S)), To))
        G.push_back({Br->getCondition(), S == 0});
  }
  return G;
}

/// True when, after \p Prev exits, \p Next's preheader is reached on every
/// run in which the guards \p G of the first consumer held: a chain of
/// branches, each unconditional or testing one of those guards.
bool reachedAfter(Loop *Prev, Loop *Next,
                  ArrayRef<std::pair<Value *, bool>> G) {
  BasicBlock *B = Prev->getExitBlock();
  BasicBlock *To = Next->getLoopPreheader();
  for (unsigned Steps = 0; B && B != To; ++Steps) {
    auto *Br = dyn_cast<BranchInst>(B->getTerminator());
    if (!Br || Steps > 8 || B->getFirstNonPHIOrDbg() != Br)
      return false;
    if (Br->isUnconditional()) {
      B = Br->getSuccessor(0);
      continue;
    }
    auto It = llvm::find_if(G, [&](const std::pair<Value *, bool> &X) {
      return X.first == Br->getCondition();
    });
    if (It == G.end())
      return false;
    B = Br->getSuccessor(It->second ? 0 : 1);
  }
  return B == To;
}

} // namespace

bool consumersFusible(
    ArrayRef<Loop *> Consumers, Loop &Row, Loop &Root, DominatorTree &DT,
    ScalarEvolution &SE, function_ref<bool(const Instruction *)> IsTempRead,
    SmallVectorImpl<Fits> &Need,
    SmallVectorImpl<std::pair<AccessRange, AccessRange>> &Disjoint,
    std::string &Why) {
  if (Consumers.size() < 2)
    return true;
  std::string Pre = "consumer loops not fused: ";
  Loop *C1 = Consumers.front();
  const SCEVAddRecExpr *R1 = nullptr;
  PHINode *IV1 = counter(C1, SE, R1);
  const SCEV *T1 = tripCountOf(C1, SE);
  if (!IV1 || !T1) {
    Why = Pre + "the first has no induction variable with a trip count";
    return false;
  }
  auto G = guardsOf(C1->getLoopPreheader(), Row, DT);
  SmallVector<std::pair<Instruction *, Loop *>, 16> Accesses;
  for (unsigned J = 0; J < Consumers.size(); ++J) {
    Loop *C = Consumers[J];
    const SCEVAddRecExpr *R = nullptr;
    PHINode *IV = counter(C, SE, R);
    if (!IV || IV->getType() != IV1->getType() ||
        R->getStart() != R1->getStart() ||
        R->getStepRecurrence(SE) != R1->getStepRecurrence(SE) ||
        tripCountOf(C, SE) != T1) {
      Why = Pre + "their induction variables start, step or stop differently";
      return false;
    }
    if (J > 0) {
      if (C->getNumBlocks() != 1) {
        Why = Pre + "a consumer loop after the first has control flow";
        return false;
      }
      if (!DT.dominates(C1->getHeader(), C->getLoopPreheader()) ||
          !reachedAfter(Consumers[J - 1], C, G)) {
        Why = Pre + "a consumer loop may run in a row where the first does "
                    "not, or not run where it does";
        return false;
      }
      for (PHINode &P : C->getHeader()->phis())
        if (&P != IV && !IsTempRead(&P)) {
          Why = Pre + "a consumer loop carries a value from one iteration to "
                      "the next";
          return false;
        }
      Instruction *At = C1->getLoopPreheader()->getTerminator();
      for (Instruction &I : *C->getHeader()) {
        if (isa<PHINode>(I) || I.isTerminator())
          continue;
        for (User *U : I.users())
          if (!C->contains(cast<Instruction>(U))) {
            Why = Pre + "a value computed in a consumer loop is used after it";
            return false;
          }
        // Values from its preheader are recomputed in front of the first
        // consumer: pure arithmetic of the row only.
        SmallVector<Value *, 8> Work(I.op_begin(), I.op_end());
        SmallPtrSet<Value *, 8> Seen;
        while (!Work.empty()) {
          auto *Op = dyn_cast<Instruction>(Work.pop_back_val());
          if (!Op || !Seen.insert(Op).second || C->contains(Op) ||
              DT.dominates(Op, At))
            continue;
          if (IsTempRead(Op))
            continue;
          if (!(isa<GetElementPtrInst>(Op) || isa<CastInst>(Op) ||
                isa<BinaryOperator>(Op) || isa<CmpInst>(Op)) ||
              Op->mayReadOrWriteMemory() || !Row.contains(Op)) {
            Why = Pre + "a consumer loop uses a value loaded or computed "
                        "other than by arithmetic between the loops";
            return false;
          }
          Work.append(Op->op_begin(), Op->op_end());
        }
      }
    }
    for (BasicBlock *BB : C->blocks())
      for (Instruction &I : *BB)
        if ((isa<LoadInst>(I) || isa<StoreInst>(I)) && !IsTempRead(&I))
          Accesses.push_back({&I, C});
  }
  // Stores of one consumer against accesses of another.
  const DataLayout &DL = Row.getHeader()->getModule()->getDataLayout();
  SmallPtrSet<Instruction *, 16> Bounded;
  auto Range = [&](Instruction *I, AccessRange &Out) {
    Out.Size = DL.getTypeStoreSize(getLoadStoreType(I)).getFixedValue();
    return valueRange(SE.getSCEV(getLoadStorePointerOperand(I)), Root, SE,
                      Out.Lo, Out.Hi, Need);
  };
  auto Grid = [&](Instruction *I, const SCEV *Base) {
    uint64_t Size = DL.getTypeStoreSize(getLoadStoreType(I)).getFixedValue();
    const SCEV *Off =
        SE.getMinusSCEV(SE.getSCEV(getLoadStorePointerOperand(I)), Base);
    return gridSubscripts(Off, Size, SE);
  };
  // Every subscript but the outermost in its extent, at run time where
  // ScalarEvolution does not prove it.
  auto InExtent = [&](Instruction *I, const GridSubscripts &GS) {
    if (!Bounded.insert(I).second)
      return true;
    for (unsigned J = 0; J < GS.Sizes.size(); ++J) {
      const SCEV *Lo, *Hi;
      if (!valueRange(GS.Subs[J], Root, SE, Lo, Hi, Need))
        return false;
      const SCEV *Zero = SE.getZero(Lo->getType());
      const SCEV *Last = SE.getMinusSCEV(GS.Sizes[J], SE.getOne(Lo->getType()));
      if (!SE.isKnownPredicate(ICmpInst::ICMP_SLE, Zero, Lo))
        Need.push_back({Zero, Lo});
      if (!SE.isKnownPredicate(ICmpInst::ICMP_SLE, Hi, Last))
        Need.push_back({Hi, Last});
    }
    return true;
  };
  // Pairs of stores first, so that a store to an element another consumer
  // stores to is named as such (not by the load of its `+=`).
  for (bool Stores : {true, false})
    for (auto &[S, CS] : Accesses) {
      if (!isa<StoreInst>(S))
        continue;
      for (auto &[M, CM] : Accesses) {
        if (CM == CS || isa<StoreInst>(M) != Stores)
          continue;
        const Value *OS = getUnderlyingObject(getLoadStorePointerOperand(S));
        const Value *OM = getUnderlyingObject(getLoadStorePointerOperand(M));
        if (OS != OM && isIdentifiedObject(OS) && isIdentifiedObject(OM))
          continue;
        const SCEV *BS =
            SE.getPointerBase(SE.getSCEV(getLoadStorePointerOperand(S)));
        const SCEV *BM =
            SE.getPointerBase(SE.getSCEV(getLoadStorePointerOperand(M)));
        auto GS = BS == BM ? Grid(S, BS) : std::nullopt;
        auto GM = BS == BM ? Grid(M, BM) : std::nullopt;
        if (BS != BM || (GS && GM && GS->Origin != GM->Origin)) {
          // Other arrays, or other grids of one array (NAS MG's levels):
          // disjoint at run time.
          AccessRange RS, RM;
          if (!Range(S, RS) || !Range(M, RM)) {
            Why = Pre + "the ranges of two arrays that consumer loops access "
                        "are unknown (no run-time overlap check)";
            return false;
          }
          Disjoint.push_back({RM, RS});
          continue;
        }
        if (!GS || !GM || GS->Sizes != GM->Sizes ||
            getLoadStoreType(S) != getLoadStoreType(M)) {
          Why = Pre +
                "the accesses of an array by two consumer loops are not "
                "subscripts of one grid (the store" +
                where(S) + ")";
          return false;
        }
        bool Same = false;
        if (!apartInRow(*GS, CS, *GM, CM, SE, Same)) {
          if (isa<StoreInst>(M))
            Why = Pre +
                  (Same ? "two consumer loops store to the same element"
                        : "two consumer loops may store to one element") +
                  " (the stores" + where(S) + " and" + where(M) + ")";
          else
            Why = Pre +
                  "a consumer loop reads an element that another one "
                  "writes (the load" +
                  where(M) + ", the store" + where(S) + ")";
          return false;
        }
        if (!InExtent(S, *GS) || !InExtent(M, *GM)) {
          Why = Pre + "the subscripts of an array that consumer loops access "
                      "have no known range";
          return false;
        }
      }
    }
  return true;
}

void fuseConsumers(ArrayRef<Loop *> Consumers, LoopInfo &LI, DominatorTree &DT,
                   ScalarEvolution &SE) {
  Loop *C1 = Consumers.front();
  const SCEVAddRecExpr *R = nullptr;
  PHINode *IV1 = counter(C1, SE, R);
  Instruction *InBody = C1->getLoopLatch()->getTerminator();
  Instruction *InFront = C1->getLoopPreheader()->getTerminator();
  ValueToValueMapTy Hoisted;
  // A copy in front of the first consumer of a value computed between the
  // loops (pure arithmetic of the row; consumersFusible checked it).
  std::function<Value *(Value *)> Available = [&](Value *V) -> Value * {
    auto *I = dyn_cast<Instruction>(V);
    if (!I || DT.dominates(I, InFront))
      return V;
    if (Value *H = Hoisted.lookup(I))
      return H;
    Instruction *Copy = I->clone();
    for (Use &U : Copy->operands())
      U.set(Available(U.get()));
    Copy->insertBefore(InFront);
    Copy->setName(I->getName() + ".fused");
    Hoisted[I] = Copy;
    return Copy;
  };
  for (Loop *C : Consumers.drop_front()) {
    const SCEVAddRecExpr *RC = nullptr;
    PHINode *IV = counter(C, SE, RC);
    ValueToValueMapTy VM;
    VM[IV] = IV1;
    SmallVector<Instruction *, 32> Copies;
    for (Instruction &I : *C->getHeader()) {
      if (isa<PHINode>(I) || I.isTerminator() || isa<DbgInfoIntrinsic>(I))
        continue;
      Instruction *Copy = I.clone();
      Copy->insertBefore(InBody);
      Copy->setName(I.getName() + ".fused");
      VM[&I] = Copy;
      Copies.push_back(Copy);
    }
    for (Instruction *Copy : Copies) {
      RemapInstruction(Copy, VM,
                       RF_IgnoreMissingLocals | RF_NoModuleLevelChanges);
      for (Use &U : Copy->operands())
        if (auto *Op = dyn_cast<Instruction>(U.get()); Op && !C1->contains(Op))
          U.set(Available(Op));
    }
    deleteDeadLoop(C, &DT, &SE, &LI);
  }
  SE.forgetLoop(C1);
}

} // namespace idiom
