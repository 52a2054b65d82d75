//===- RowTemporaries.cpp - Per-row temporaries privatised ----------------===//
//
// Part of Idiom. See RowTemporaries.h.
//
//===----------------------------------------------------------------------===//
#include "RowTemporaries.h"
#include "ConsumerFusion.h"
#include "PipelinePlacement.h"
#include "SharedBases.h"

#include "idiom/Constraints/LoopFacts.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

#include <map>
#include <tuple>

using namespace llvm;

namespace idiom {
namespace {

/// A fill loop's store into a row temporary: element Start + Stride * k
/// (bytes from the array) gets the stored value at fill iteration k.
struct TempStore {
  AllocaInst *Temp = nullptr;
  StoreInst *St = nullptr;
  Loop *Fill = nullptr;
  PHINode *IV = nullptr;
  const SCEVAddRecExpr *IVRec = nullptr;
  const SCEV *Start = nullptr;
  int64_t Stride = 0;
  const SCEV *Count = nullptr; ///< trip count (i64)
  /// Address arithmetic of the expression computed in the row outside the
  /// fill loop where the consumer does not see it (the fill loop's
  /// preheader): copied too.
  SmallPtrSet<Instruction *, 4> Outside;
};

/// A read of a row temporary in the consumer loop (a load, or a phi that
/// carries the element before the one a load of the latch reads): at the
/// consumer's iteration k it reads what the fill stored at iteration Q0 + k.
struct TempRead {
  Instruction *I;
  const TempStore *Src;
  int64_t Q0;
  Loop *In = nullptr; ///< the consumer loop that reads
};

/// A privatisable nest and what the transformation needs.
struct RowNest {
  Loop *Root = nullptr, *Row = nullptr, *Consumer = nullptr;
  SmallVector<Loop *, 2> Fills;
  /// Every consumer loop, in program order (Consumer is the first); more
  /// than one are fused into the first (ConsumerFusion.h).
  SmallVector<Loop *, 4> Consumers;
  PHINode *CIV = nullptr;
  const SCEVAddRecExpr *CRec = nullptr;
  const SCEV *CCount = nullptr;
  SmallVector<TempStore, 4> Stores;
  SmallVector<TempRead, 8> Reads;
  SmallVector<LoadInst *, 4> EntryLoads; ///< feed forwarded phis only
  /// Run-time conditions: Lo <= Hi (signed), and pairs of disjoint ranges.
  SmallVector<Fits, 8> Need;
  SmallVector<std::pair<AccessRange, AccessRange>, 8> Disjoint;
  /// Roots of stores into a grid that shares its array with another one
  /// (SharedBases.h): rebased in the privatised nest.
  SmallVector<Value *, 2> GridRoots;
};

/// The source name of a local array (its debug declaration), for remarks.
std::string tempName(AllocaInst *A) {
  SmallVector<DbgVariableIntrinsic *, 2> Intrinsics;
  SmallVector<DbgVariableRecord *, 2> Records;
  findDbgUsers(Intrinsics, A, &Records);
  for (DbgVariableRecord *R : Records)
    return ("'" + R->getVariable()->getName() + "'").str();
  for (DbgVariableIntrinsic *D : Intrinsics)
    return ("'" + D->getVariable()->getName() + "'").str();
  if (A->hasName())
    return ("'" + A->getName() + "'").str();
  return "a local array";
}

/// The static local array a pointer is based on, or null.
AllocaInst *tempOf(Value *Ptr) {
  auto *A = dyn_cast<AllocaInst>(getUnderlyingObject(Ptr));
  return A && A->isStaticAlloca() ? A : nullptr;
}

const SCEV *tripCount(Loop *L, ScalarEvolution &SE) {
  const SCEV *BTC = SE.getBackedgeTakenCount(L);
  if (isa<SCEVCouldNotCompute>(BTC))
    return nullptr;
  Type *I64 = Type::getInt64Ty(L->getHeader()->getContext());
  if (BTC->getType()->getIntegerBitWidth() > 64)
    return nullptr;
  return SE.getTripCountFromExitCount(BTC, I64, L);
}

/// The header phi of L that is an affine recurrence of L with a constant
/// step; null when there is none.
PHINode *inductionOf(Loop *L, ScalarEvolution &SE,
                     const SCEVAddRecExpr *&Rec) {
  for (PHINode &P : L->getHeader()->phis()) {
    if (!P.getType()->isIntegerTy())
      continue;
    auto *AR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(&P));
    if (AR && AR->getLoop() == L && AR->isAffine() &&
        isa<SCEVConstant>(AR->getStepRecurrence(SE))) {
      Rec = AR;
      return &P;
    }
  }
  return nullptr;
}

/// The byte offset of Ptr from the start of Temp as an affine recurrence of
/// L with a constant step, or null.
const SCEVAddRecExpr *offsetIn(Value *Ptr, AllocaInst *Temp, Loop *L,
                               ScalarEvolution &SE, int64_t &Step) {
  const SCEV *Off = SE.getMinusSCEV(SE.getSCEV(Ptr), SE.getSCEV(Temp));
  auto *AR = dyn_cast<SCEVAddRecExpr>(Off);
  if (!AR || AR->getLoop() != L || !AR->isAffine())
    return nullptr;
  auto *C = dyn_cast<SCEVConstant>(AR->getStepRecurrence(SE));
  if (!C || C->getAPInt().getSignificantBits() > 63 || C->isZero())
    return nullptr;
  Step = C->getAPInt().getSExtValue();
  return AR;
}

/// Replaces each phi of L's latch whose incoming values are identical
/// instructions over values available in the latch (`i + 1` on the path
/// that skips an inner loop and on the path through it, as -O2 leaves a
/// loop whose inner loop has an invariant guard) by one such instruction,
/// so that ScalarEvolution sees L's induction variable. The values are the
/// same on every path: nothing observable changes.
bool mergeLatchIncrements(Loop &L, DominatorTree &DT, ScalarEvolution &SE) {
  BasicBlock *Latch = L.getLoopLatch();
  bool Changed = false;
  if (!Latch)
    return false;
  for (PHINode &P : make_early_inc_range(Latch->phis())) {
    auto *First = dyn_cast<BinaryOperator>(P.getIncomingValue(0));
    if (!First)
      return Changed;
    for (Value *V : P.incoming_values()) {
      auto *I = dyn_cast<Instruction>(V);
      if (!I || !I->isIdenticalTo(First))
        return Changed;
    }
    for (Value *Op : First->operands())
      if (auto *OI = dyn_cast<Instruction>(Op); OI && !DT.dominates(OI, Latch))
        return Changed;
    Instruction *One = First->clone();
    One->insertBefore(&*Latch->getFirstInsertionPt());
    One->takeName(&P);
    P.replaceAllUsesWith(One);
    P.eraseFromParent();
    SE.forgetLoop(&L);
    Changed = true;
  }
  return Changed;
}

class RowTemporaryAnalysis {
public:
  RowTemporaryAnalysis(RowNest &N, DominatorTree &DT, ScalarEvolution &SE)
      : N(N), DT(DT), SE(SE) {}

  /// Fills N for the nest around N.Row. Returns false with Why empty when
  /// the nest does not have the shape, with Why set when a condition fails.
  bool run(std::string &Why);

  /// Set when run changed the IR (merged latch increments) even if it
  /// then failed.
  bool Merged = false;

private:
  bool classify(std::string &Why);
  bool forms(std::string &Why);
  bool guardAlwaysHolds(Loop *F);
  bool fillLoop(Loop *F, std::string &Why);
  bool tempUses(const TempStore &TS, std::string &Why);
  bool inConsumer(const Instruction *I) const {
    return any_of(N.Consumers, [&](Loop *C) { return C->contains(I); });
  }
  bool consumerReads(std::string &Why);
  bool consumerReads(Loop *C, SmallPtrSetImpl<LoadInst *> &Forwarded,
                     std::string &Why);
  bool readRange(const TempRead &R, std::string &Why);
  bool nestStores(std::string &Why);
  bool range(Value *Ptr, Type *Ty, AccessRange &Out);

  RowNest &N;
  DominatorTree &DT;
  ScalarEvolution &SE;
  SmallVector<LoadInst *, 16> FillLoads;
  SmallVector<StoreInst *, 4> Stores; ///< the consumer's
  DenseMap<AllocaInst *, TempStore *> ByTemp;
  SmallPtrSet<LoadInst *, 4> EntryCandidates;
};

bool RowTemporaryAnalysis::classify(std::string &Why) {
  Loop *Row = N.Row;
  if (Row->getSubLoops().size() < 2)
    return false;
  SmallVector<Loop *, 2> Consumers;
  for (Loop *S : Row->getSubLoops()) {
    if (!S->getSubLoops().empty())
      return false;
    bool Temps = false, Other = false;
    for (BasicBlock *BB : S->blocks())
      for (Instruction &I : *BB)
        if (auto *St = dyn_cast<StoreInst>(&I))
          (tempOf(St->getPointerOperand()) ? Temps : Other) = true;
    if (Temps && !Other)
      N.Fills.push_back(S);
    else
      Consumers.push_back(S);
  }
  if (N.Fills.empty())
    return false;
  Loop *P = Row->getParentLoop();
  N.Root = P && P->getSubLoops().size() == 1 ? P : Row;
  // Consumers in program order: each header dominates the next one's.
  llvm::sort(Consumers, [&](Loop *A, Loop *B) {
    return A != B && DT.dominates(A->getHeader(), B->getHeader());
  });
  for (unsigned K = 1; K < Consumers.size(); ++K)
    if (!DT.dominates(Consumers[K - 1]->getHeader(), Consumers[K]->getHeader())) {
      Why = "the row loop's consumer loops do not run one after another";
      return false;
    }
  N.Consumers.assign(Consumers.begin(), Consumers.end());
  N.Consumer = Consumers.front();
  return true;
}

/// True when F is skipped only by a branch whose condition is invariant in
/// the row loop and holds on entry to it (`n1 > 0` in front of the fill
/// loop where the row loop runs only for n1 > 2): F then runs in every row
/// before the consumer, as far as the branch's block dominates it.
bool RowTemporaryAnalysis::guardAlwaysHolds(Loop *F) {
  BasicBlock *PH = F->getLoopPreheader();
  BasicBlock *G = PH ? PH->getSinglePredecessor() : nullptr;
  auto *Br = G ? dyn_cast<BranchInst>(G->getTerminator()) : nullptr;
  auto *Cmp = Br && Br->isConditional()
                  ? dyn_cast<ICmpInst>(Br->getCondition())
                  : nullptr;
  if (!Cmp || !N.Row->isLoopInvariant(Cmp->getOperand(0)) ||
      !N.Row->isLoopInvariant(Cmp->getOperand(1)) ||
      !DT.dominates(G, N.Consumer->getLoopPreheader()))
    return false;
  ICmpInst::Predicate Pred = Br->getSuccessor(0) == PH
                                 ? Cmp->getPredicate()
                                 : Cmp->getInversePredicate();
  if (Br->getSuccessor(0) == Br->getSuccessor(1))
    return false;
  return SE.isLoopEntryGuardedByCond(N.Row, Pred,
                                     SE.getSCEV(Cmp->getOperand(0)),
                                     SE.getSCEV(Cmp->getOperand(1)));
}

bool RowTemporaryAnalysis::forms(std::string &Why) {
  Loop *R = N.Root;
  if (!R->isLoopSimplifyForm() || !R->isLCSSAForm(DT) || !R->getExitBlock() ||
      R->getExitingBlock() != R->getLoopLatch()) {
    Why = "the nest is not in loop-simplify form with a single exit";
    return false;
  }
  SmallVector<Loop *, 4> Inner(N.Fills.begin(), N.Fills.end());
  Inner.append(N.Consumers.begin(), N.Consumers.end());
  Inner.push_back(N.Row);
  for (Loop *L : Inner)
    if (!L->isLoopSimplifyForm() || !L->getExitBlock() ||
        L->getExitingBlock() != L->getLoopLatch()) {
      Why = "a row loop is not in loop-simplify form with a single exit";
      return false;
    }
  for (Loop *F : N.Fills)
    if (!DT.dominates(F->getHeader(), N.Consumer->getLoopPreheader()) &&
        !guardAlwaysHolds(F)) {
      Why = "a loop that fills row temporaries does not run before the loop "
            "that reads them on every path through the row (its header does "
            "not dominate the reader's preheader: a value may be carried from "
            "an earlier row)";
      return false;
    }
  N.CIV = inductionOf(N.Consumer, SE, N.CRec);
  N.CCount = tripCount(N.Consumer, SE);
  if (!N.CIV || !N.CCount || !SE.isLoopInvariant(N.CCount, N.Root)) {
    Why = "the consumer loop has no induction variable with a trip count "
          "invariant in the nest";
    return false;
  }
  return true;
}

/// Pure expression instructions a fill value may be made of.
bool expressionInst(const Instruction &I) {
  if (isa<BinaryOperator>(I) || isa<UnaryOperator>(I) || isa<CastInst>(I) ||
      isa<GetElementPtrInst>(I) || isa<CmpInst>(I) || isa<SelectInst>(I))
    return true;
  if (auto *Ld = dyn_cast<LoadInst>(&I))
    return Ld->isSimple();
  return isa<CallInst>(I) && isPureCall(&I);
}

bool RowTemporaryAnalysis::fillLoop(Loop *F, std::string &Why) {
  const SCEVAddRecExpr *IVRec = nullptr;
  PHINode *IV = inductionOf(F, SE, IVRec);
  for (PHINode &P : F->getHeader()->phis())
    if (&P != IV) {
      Why = "a loop that fills row temporaries has a phi that is not its "
            "induction variable";
      return false;
    }
  const SCEV *Count = tripCount(F, SE);
  if (!IV || !Count || !SE.isLoopInvariant(Count, N.Root)) {
    Why = "a loop that fills row temporaries has no trip count invariant in "
          "the nest";
    return false;
  }
  if (IV->getType() != N.CIV->getType() ||
      IVRec->getStepRecurrence(SE) != N.CRec->getStepRecurrence(SE)) {
    Why = "a loop that fills row temporaries and the loop that reads them "
          "step differently";
    return false;
  }
  for (BasicBlock *BB : F->blocks())
    for (Instruction &I : *BB) {
      for (User *U : I.users())
        if (!F->contains(cast<Instruction>(U))) {
          Why = "a value computed in a loop that fills row temporaries is "
                "used after it";
          return false;
        }
      if (auto *St = dyn_cast<StoreInst>(&I)) {
        AllocaInst *A = tempOf(St->getPointerOperand());
        int64_t Step = 0;
        const SCEVAddRecExpr *Off =
            St->isSimple() ? offsetIn(St->getPointerOperand(), A, F, SE, Step)
                           : nullptr;
        if (!Off || !SE.isLoopInvariant(Off->getStart(), N.Root)) {
          Why = "row temporary " + tempName(A) +
                " is written at an address that is not affine in its fill "
                "loop";
          return false;
        }
        if (!DT.dominates(St->getParent(), F->getLoopLatch())) {
          Why = "row temporary " + tempName(A) +
                " is written only on some iterations of its fill loop";
          return false;
        }
        if (any_of(N.Stores, [&](const TempStore &T) { return T.Temp == A; })) {
          Why = "row temporary " + tempName(A) + " is written more than once "
                "in the row";
          return false;
        }
        TempStore TS{A, St, F, IV, IVRec, Off->getStart(), Step, Count};
        N.Stores.push_back(TS);
        continue;
      }
      if (isa<BranchInst>(I) || &I == IV)
        continue;
      if (isa<PHINode>(I)) {
        Why = "a loop that fills row temporaries has control flow (a phi "
              "besides its induction variable)";
        return false;
      }
      if (!expressionInst(I)) {
        Why = "a loop that fills row temporaries has an instruction other "
              "than pure arithmetic, loads and the temporaries' stores (" +
              std::string(I.getOpcodeName()) + ")";
        return false;
      }
      if (auto *Ld = dyn_cast<LoadInst>(&I))
        FillLoads.push_back(Ld);
    }
  return true;
}

bool RowTemporaryAnalysis::tempUses(const TempStore &TS, std::string &Why) {
  SmallVector<Value *, 8> Work{TS.Temp};
  SmallPtrSet<Value *, 16> Seen;
  std::string Name = tempName(TS.Temp);
  while (!Work.empty()) {
    Value *V = Work.pop_back_val();
    if (!Seen.insert(V).second)
      continue;
    for (User *U : V->users()) {
      auto *I = dyn_cast<Instruction>(U);
      if (!I) {
        Why = "row temporary " + Name + " is used by a constant expression";
        return false;
      }
      if (I->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(I))
        continue;
      if (isa<GetElementPtrInst>(I)) {
        Work.push_back(I);
        continue;
      }
      if (I == TS.St && TS.St->getValueOperand() != V)
        continue;
      if (auto *Ld = dyn_cast<LoadInst>(I)) {
        if (inConsumer(Ld))
          continue; // a read, consumerReads looks at it
        if (any_of(N.Fills, [&](Loop *F) { return F->contains(Ld); })) {
          Why = "a loop that fills row temporaries reads " + Name;
          return false;
        }
        if (N.Row->contains(Ld)) {
          EntryCandidates.insert(Ld);
          continue;
        }
        Why = "row temporary " + Name +
              " is read outside the nest (the last row's values would have "
              "to be written back)";
        return false;
      }
      if (isa<StoreInst>(I) && cast<StoreInst>(I)->getValueOperand() != V) {
        Why = "row temporary " + Name + " is written outside its fill loop";
        return false;
      }
      if (auto *MI = dyn_cast<MemIntrinsic>(I))
        Why = "row temporary " + Name + " is " +
              (MI->getRawDest() == V ? "written outside its fill loop ("
                                     : "copied (") +
              MI->getCalledFunction()->getName().str() + ")";
      else
        Why = "row temporary " + Name + " escapes (used by " +
              std::string(I->getOpcodeName()) + ")";
      return false;
    }
  }
  return true;
}

bool RowTemporaryAnalysis::consumerReads(std::string &Why) {
  SmallPtrSet<LoadInst *, 8> Forwarded;
  for (Loop *C : N.Consumers)
    if (!consumerReads(C, Forwarded, Why))
      return false;
  for (LoadInst *Ld : EntryCandidates)
    if (!Forwarded.count(Ld) || any_of(Ld->users(), [&](User *U) {
          auto *Phi = dyn_cast<PHINode>(U);
          return !Phi || none_of(N.Consumers, [&](Loop *C) {
            return Phi->getParent() == C->getHeader();
          });
        })) {
      Why = "row temporary " + tempName(tempOf(Ld->getPointerOperand())) +
            " is read in the row outside the consumer loop";
      return false;
    }
  return true;
}

bool RowTemporaryAnalysis::consumerReads(Loop *C,
                                         SmallPtrSetImpl<LoadInst *> &Forwarded,
                                         std::string &Why) {
  const SCEVAddRecExpr *CRec = nullptr;
  PHINode *CIV = inductionOf(C, SE, CRec);
  /// A read's array, the byte offset it reads in the consumer's first
  /// iteration, and its step.
  struct Known {
    AllocaInst *A;
    const SCEV *Start;
    int64_t Step;
  };
  DenseMap<Instruction *, Known> Res;
  auto ReadOf = [&](Instruction *I, const Known &K) {
    const TempStore *TS = ByTemp.lookup(K.A);
    auto *D = dyn_cast<SCEVConstant>(SE.getMinusSCEV(K.Start, TS->Start));
    if (K.Step != TS->Stride || !D ||
        D->getAPInt().getSignificantBits() > 63 ||
        D->getAPInt().getSExtValue() % TS->Stride) {
      Why = "row temporary " + tempName(K.A) +
            " is read at elements its fill loop does not write (another "
            "stride or offset)";
      return false;
    }
    Res[I] = K;
    N.Reads.push_back({I, TS, D->getAPInt().getSExtValue() / TS->Stride, C});
    return true;
  };
  for (BasicBlock *BB : C->blocks())
    for (Instruction &I : *BB) {
      auto *Ld = dyn_cast<LoadInst>(&I);
      AllocaInst *A = Ld ? tempOf(Ld->getPointerOperand()) : nullptr;
      if (!A || !ByTemp.count(A))
        continue;
      int64_t Step = 0;
      const SCEVAddRecExpr *Off =
          Ld->isSimple() ? offsetIn(Ld->getPointerOperand(), A, C, SE, Step)
                         : nullptr;
      if (!Off) {
        Why = "row temporary " + tempName(A) +
              " is read at an address that is not affine in the consumer "
              "loop";
        return false;
      }
      if (!ReadOf(Ld, {A, Off->getStart(), Step}))
        return false;
    }
  // Reads forwarded from the previous iteration (GVN's load PRE), also in
  // chains (t[i+1] -> t[i] -> t[i-1]): a header phi of the element before
  // the one its latch value reads, entered with a load of that element.
  SmallVector<PHINode *, 4> Pending;
  for (PHINode &P : C->getHeader()->phis())
    if (&P != CIV)
      Pending.push_back(&P);
  for (bool Progress = true; Progress;) {
    Progress = false;
    for (PHINode *&P : Pending) {
      if (!P)
        continue;
      auto *V1 = dyn_cast<Instruction>(P->getIncomingValueForBlock(C->getLoopLatch()));
      auto It = V1 ? Res.find(V1) : Res.end();
      if (It == Res.end())
        continue; // not a forwarded read (yet): the spec decides
      Known K = It->second;
      K.Start = SE.getMinusSCEV(K.Start, SE.getConstant(K.Start->getType(), K.Step));
      auto *L0 =
          dyn_cast<LoadInst>(P->getIncomingValueForBlock(C->getLoopPreheader()));
      if (!L0 || !EntryCandidates.count(L0) ||
          tempOf(L0->getPointerOperand()) != K.A ||
          SE.getMinusSCEV(SE.getSCEV(L0->getPointerOperand()),
                          SE.getSCEV(K.A)) != K.Start) {
        Why = "a read of row temporary " + tempName(K.A) +
              " forwarded from the previous iteration does not start at the "
              "element before the one read";
        return false;
      }
      if (!ReadOf(P, K))
        return false;
      N.EntryLoads.push_back(L0);
      Forwarded.insert(L0);
      P = nullptr;
      Progress = true;
    }
  }
  return true;
}

bool RowTemporaryAnalysis::readRange(const TempRead &R, std::string &Why) {
  const TempStore &TS = *R.Src;
  std::string Name = tempName(TS.Temp);
  if (R.Q0 < 0) {
    Why = "row temporary " + Name +
          " is read at an element before the first one its fill loop writes "
          "in the row (a value carried from an earlier row)";
    return false;
  }
  // The fill iteration read at the consumer's iteration k, as an offset of
  // the consumer's induction variable: x0 + s (Q0 + k) - (y0 + s k).
  const SCEV *Delta = SE.getMinusSCEV(
      SE.getAddExpr(TS.IVRec->getStart(),
                    SE.getMulExpr(SE.getConstant(TS.IVRec->getType(), R.Q0),
                                  TS.IVRec->getStepRecurrence(SE))),
      N.CRec->getStart());
  if (!isa<SCEVConstant>(Delta)) {
    Why = "row temporary " + Name +
          ": its fill loop and the consumer loop start a non-constant "
          "distance apart";
    return false;
  }
  // Every element read was written in this row: Q0 + count(C) <= count(F).
  const SCEV *Last = SE.getAddExpr(
      SE.getConstant(N.CCount->getType(), R.Q0), N.CCount);
  if (SE.isKnownPredicate(ICmpInst::ICMP_SLE, Last, TS.Count))
    return true;
  if (SE.isKnownPredicate(ICmpInst::ICMP_SGT, Last, TS.Count)) {
    Why = "row temporary " + Name +
          " is read beyond the last element its fill loop writes in the row "
          "(a value carried from an earlier row)";
    return false;
  }
  N.Need.push_back({Last, TS.Count});
  return true;
}

bool RowTemporaryAnalysis::range(Value *Ptr, Type *Ty, AccessRange &Out) {
  const DataLayout &DL = N.Root->getHeader()->getModule()->getDataLayout();
  Out.Size = DL.getTypeStoreSize(Ty).getFixedValue();
  return valueRange(SE.getSCEV(Ptr), *N.Root, SE, Out.Lo, Out.Hi, N.Need);
}

bool RowTemporaryAnalysis::nestStores(std::string &Why) {
  for (BasicBlock *BB : N.Root->blocks()) {
    bool InFill = any_of(N.Fills, [&](Loop *F) { return F->contains(BB); });
    if (InFill)
      continue;
    for (Instruction &I : *BB) {
      if (!I.mayWriteToMemory())
        continue;
      auto *St = dyn_cast<StoreInst>(&I);
      if (!St || !St->isSimple() || !inConsumer(St)) {
        Why = "the nest writes memory outside its consumer loop, or other "
              "than by plain stores";
        return false;
      }
      Stores.push_back(St);
    }
  }
  // What the fill expressions read must not change before the consumer
  // reads it in their place: disjoint from everything the nest writes.
  for (LoadInst *Ld : FillLoads)
    for (StoreInst *St : Stores) {
      const Value *OL = getUnderlyingObject(Ld->getPointerOperand());
      const Value *OS = getUnderlyingObject(St->getPointerOperand());
      if (OL != OS && isIdentifiedObject(OL) && isIdentifiedObject(OS))
        continue;
      AccessRange RL, RS;
      if (!range(Ld->getPointerOperand(), Ld->getType(), RL) ||
          !range(St->getPointerOperand(), St->getValueOperand()->getType(),
                 RS)) {
        Why = "the ranges that the row temporaries' expressions read and the "
              "nest writes are unknown (no run-time overlap check)";
        return false;
      }
      N.Disjoint.push_back({RL, RS});
    }
  return true;
}

bool RowTemporaryAnalysis::run(std::string &Why) {
  if (!classify(Why) || isFallbackLoop(*N.Root))
    return false;
  Merged |= mergeLatchIncrements(*N.Row, DT, SE);
  if (N.Root != N.Row) {
    Merged |= mergeLatchIncrements(*N.Root, DT, SE);
    // The enclosing loop belongs to the nest when it indexes the output (a
    // plane loop); a time loop around the rows does not (its buffers swap):
    // the nest is then the row loop, versioned and checked at each step.
    Loop *P = N.Root;
    auto MovesWithP = [&](const SCEV *S) {
      return SCEVExprContains(S, [&](const SCEV *X) {
        auto *AR = dyn_cast<SCEVAddRecExpr>(X);
        return AR && AR->getLoop() == P;
      });
    };
    for (Loop *C : N.Consumers)
      for (BasicBlock *BB : C->blocks())
        for (Instruction &I : *BB)
          if (auto *St = dyn_cast<StoreInst>(&I);
              St && !MovesWithP(SE.getSCEV(St->getPointerOperand())))
            N.Root = N.Row;
  }
  if (!forms(Why))
    return false;
  for (Loop *F : N.Fills)
    if (!fillLoop(F, Why))
      return false;
  for (TempStore &TS : N.Stores)
    ByTemp[TS.Temp] = &TS;
  for (TempStore &TS : N.Stores)
    if (!tempUses(TS, Why))
      return false;
  if (!consumerReads(Why))
    return false;
  // Several consumer loops: fused into the first (ConsumerFusion.h).
  SmallPtrSet<const Instruction *, 16> ReadSet;
  for (const TempRead &R : N.Reads)
    ReadSet.insert(R.I);
  auto IsTempRead = [&](const Instruction *I) {
    if (ReadSet.count(I))
      return true;
    auto *Ld = dyn_cast<LoadInst>(I);
    return Ld && ByTemp.count(tempOf(const_cast<Value *>(Ld->getPointerOperand())));
  };
  if (!consumersFusible(N.Consumers, *N.Row, *N.Root, DT, SE, IsTempRead,
                        N.Need, N.Disjoint, Why))
    return false;
  for (const TempRead &R : N.Reads)
    if (!readRange(R, Why))
      return false;
  // Values the fill expressions use from outside their loop must be
  // available in the consumer loop.
  Instruction *At = N.Consumer->getLoopPreheader()->getTerminator();
  for (TempStore &TS : N.Stores) {
    SmallVector<Instruction *, 16> Work{TS.St};
    SmallPtrSet<Instruction *, 16> Seen;
    while (!Work.empty()) {
      Instruction *I = Work.pop_back_val();
      if (!Seen.insert(I).second)
        continue;
      for (Value *Op : I == TS.St ? ArrayRef<Use>(&TS.St->getOperandUse(0), 1)
                                  : ArrayRef<Use>(I->op_begin(), I->op_end())) {
        auto *OI = dyn_cast<Instruction>(Op);
        if (!OI || OI == TS.IV)
          continue;
        if (TS.Fill->contains(OI))
          Work.push_back(OI);
        else if (!DT.dominates(OI, At) && N.Row->contains(OI) &&
                 (isa<GetElementPtrInst>(OI) || isa<CastInst>(OI) ||
                  isa<BinaryOperator>(OI)) &&
                 !OI->mayReadOrWriteMemory()) {
          TS.Outside.insert(OI);
          Work.push_back(OI);
        } else if (!DT.dominates(OI, At)) {
          Why = "an expression stored into row temporary " +
                tempName(TS.Temp) +
                " uses a value that is not available in the consumer loop";
          return false;
        }
      }
    }
  }
  if (!nestStores(Why) ||
      !findSharedBases(*N.Root, SE, N.Need, N.Disjoint, N.GridRoots, Why))
    return false;
  // The run-time checks are computed in front of the nest.
  bool Ok = rangeChecksExpandable(
      N.Need, N.Disjoint, N.Root->getLoopPreheader()->getTerminator(), SE);
  if (!Ok)
    Why = "a bound of the run-time checks for the row temporaries is not "
          "available before the nest";
  return Ok;
}

/// A copy, before At, of the expression V of TS's fill loop at the fill
/// iteration whose induction variable is IVAt.
Value *cloneAt(Value *V, const TempStore &TS, Value *IVAt, Instruction *At,
               DenseMap<Value *, Value *> &Done) {
  if (V == TS.IV)
    return IVAt;
  auto *I = dyn_cast<Instruction>(V);
  if (!I || (!TS.Fill->contains(I) && !TS.Outside.count(I)))
    return V;
  if (Value *C = Done.lookup(I))
    return C;
  Instruction *C = I->clone();
  for (Use &U : C->operands())
    U.set(cloneAt(U.get(), TS, IVAt, At, Done));
  C->insertBefore(At);
  C->setName(I->getName() + ".row");
  Done[I] = C;
  return C;
}

/// Privatises N (analysed): the version check, the unchanged copy, the
/// reads replaced, the fill loops deleted.
BranchInst *privatise(RowNest &N, LoopInfo &LI, DominatorTree &DT,
                      ScalarEvolution &SE) {
  Loop &R = *N.Root;
  BasicBlock *Check = R.getLoopPreheader();
  Value *Ok = emitRangeChecks(Check, N.Need, N.Disjoint, SE, "idiom.rowtemp");

  BasicBlock *PH = nullptr;
  Loop *Orig = copyNestBehindCheck(R, LI, DT, ".rowtemp", PH);

  // Each read becomes the fill expression at its fill iteration.
  std::map<std::tuple<Loop *, const TempStore *, int64_t>, Value *> Memo;
  for (const TempRead &Rd : N.Reads) {
    Value *&V = Memo[{Rd.In, Rd.Src, Rd.Q0}];
    if (!V) {
      Instruction *First = &*Rd.In->getHeader()->getFirstInsertionPt();
      const SCEVAddRecExpr *CRec = nullptr;
      PHINode *CIV = inductionOf(Rd.In, SE, CRec);
      const TempStore &TS = *Rd.Src;
      const SCEV *Delta = SE.getMinusSCEV(
          SE.getAddExpr(TS.IVRec->getStart(),
                        SE.getMulExpr(SE.getConstant(TS.IVRec->getType(), Rd.Q0),
                                      TS.IVRec->getStepRecurrence(SE))),
          CRec->getStart());
      IRBuilder<> CB(First);
      Value *IVAt = CB.CreateAdd(
          CIV, ConstantInt::get(CIV->getType(),
                                cast<SCEVConstant>(Delta)->getAPInt()),
          "idiom.rowtemp.iv");
      DenseMap<Value *, Value *> Done;
      V = cloneAt(TS.St->getValueOperand(), TS, IVAt, First, Done);
    }
  }
  for (const TempRead &Rd : N.Reads) {
    SE.forgetValue(Rd.I);
    Rd.I->replaceAllUsesWith(Memo[{Rd.In, Rd.Src, Rd.Q0}]);
  }
  for (const TempRead &Rd : N.Reads)
    Rd.I->eraseFromParent();
  for (LoadInst *Ld : N.EntryLoads)
    if (Ld->use_empty())
      Ld->eraseFromParent();
  for (Loop *F : N.Fills)
    deleteDeadLoop(F, &DT, &SE, &LI);
  if (N.Consumers.size() > 1)
    fuseConsumers(N.Consumers, LI, DT, SE);
  for (bool Again = true; Again;) {
    Again = false;
    for (BasicBlock *BB : R.blocks())
      if (!N.Consumer->contains(BB))
        for (Instruction &I : make_early_inc_range(reverse(*BB)))
          if (isInstructionTriviallyDead(&I)) {
            SE.forgetValue(&I);
            I.eraseFromParent();
            Again = true;
          }
  }
  SE.forgetLoop(&R);
  splitSharedBases(R, N.GridRoots, PH->getTerminator(), SE);
  markFallbackLoop(*Orig);
  Instruction *Old = Check->getTerminator(); // `br PH`, from the split
  BranchInst *Br =
      IRBuilder<>(Old).CreateCondBr(Ok, PH, Orig->getLoopPreheader());
  Old->eraseFromParent();
  return Br;
}

void visit(Loop &L, LoopInfo &LI, DominatorTree &DT, ScalarEvolution &SE,
           SmallVectorImpl<BoundVersion> &Out,
           SmallVectorImpl<RowTempMiss> &Misses, bool &Changed) {
  if (isFallbackLoop(L))
    return;
  SmallVector<Loop *, 4> Subs(L.getSubLoops().begin(), L.getSubLoops().end());
  for (Loop *S : Subs)
    visit(*S, LI, DT, SE, Out, Misses, Changed);
  RowNest N;
  N.Row = &L;
  std::string Why;
  RowTemporaryAnalysis A(N, DT, SE);
  bool Ok = A.run(Why);
  Changed |= A.Merged;
  if (!Ok) {
    if (!Why.empty())
      Misses.push_back({N.Root, Why});
    return;
  }
  Changed = true;
  Out.push_back({N.Root, privatise(N, LI, DT, SE)});
}

} // namespace

SmallVector<BoundVersion, 4>
privatiseRowTemporaries(LoopInfo &LI, DominatorTree &DT, ScalarEvolution &SE,
                        SmallVectorImpl<RowTempMiss> &Misses, bool &Changed) {
  SmallVector<BoundVersion, 4> Out;
  SmallVector<Loop *, 8> Top(LI.begin(), LI.end());
  for (Loop *L : Top)
    visit(*L, LI, DT, SE, Out, Misses, Changed);
  return Out;
}

bool declineToUnchangedCopy(const BoundVersion &V, BasicBlock *Fallback,
                            LoopInfo &LI, CallInst *Release) {
  // Stitching left: Fallback -> the privatised nest's header, whose exit
  // block calls idiom_host_end_site with the site's hint word (a constant).
  // The check's false edge enters the copy's preheader (also entered from
  // the allocation of Release when it fails).
  auto *Br = dyn_cast<BranchInst>(Fallback->getTerminator());
  BasicBlock *CheckBB = V.Check->getParent();
  BasicBlock *CopyPH = V.Check->isConditional() ? V.Check->getSuccessor(1) : nullptr;
  BasicBlock *AllocBB = Release ? Release->getParent() : nullptr;
  auto FromVersioning = [&](BasicBlock *P) {
    return P == CheckBB || P == AllocBB;
  };
  if (!Br || Br->isConditional() || Br->getSuccessor(0) != V.Nest->getHeader() ||
      !CopyPH || !is_contained(predecessors(CopyPH), CheckBB) ||
      !all_of(predecessors(CopyPH), FromVersioning) ||
      !isa<BranchInst>(CopyPH->getTerminator()) || !CopyPH->phis().empty())
    return false;
  Loop *Copy = LI.getLoopFor(CopyPH->getSingleSuccessor());
  if (!Copy || Copy->getLoopPreheader() != CopyPH || !isFallbackLoop(*Copy))
    return false;
  BasicBlock *Exiting = Copy->getExitingBlock();
  BasicBlock *Exit = Copy->getExitBlock();
  if (!Exiting || !Exit)
    return false;
  // The call that ends the measurement, in the privatised nest's exit block
  // (value names are discarded in clang's builds: found by its callee).
  CallInst *End = nullptr;
  if (BasicBlock *NestExit = V.Nest->getExitBlock())
    for (Instruction &I : *NestExit)
      if (auto *CI = dyn_cast<CallInst>(&I); CI && CI->getCalledFunction() &&
                                             CI->getCalledFunction()->getName() ==
                                                 "idiom_host_end_site")
        End = CI;
  if (!End || !isa<Constant>(End->getArgOperand(0)))
    return false;
  // The measurement ends on the copy's exit edge, in a block of its own
  // (from the check nothing is pending: the call does nothing).
  BasicBlock *Ended = SplitEdge(Exiting, Exit, nullptr, &LI);
  Ended->setName("idiom.host.end.copy");
  End->clone()->insertBefore(Ended->getTerminator());
  BasicBlock *To = CopyPH;
  if (Release) {
    // The batched nest's temporary, allocated before the call, is freed
    // on the way to the copy.
    Function *F = Fallback->getParent();
    To = BasicBlock::Create(F->getContext(), "idiom.declined.free", F, CopyPH);
    IRBuilder<> B(To);
    FunctionCallee Free = F->getParent()->getOrInsertFunction(
        "free", B.getVoidTy(), B.getPtrTy());
    B.CreateCall(Free, {Release});
    B.CreateBr(CopyPH);
    if (Loop *Parent = LI.getLoopFor(Fallback))
      Parent->addBasicBlockToLoop(To, LI);
  }
  Br->setSuccessor(0, To);
  return true;
}

} // namespace idiom
