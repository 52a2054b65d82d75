//===- HistogramFacts.cpp - Facts about read-modify-write updates ---------===//

#include "idiom/Constraints/ScevInt.h"
#include "idiom/Constraints/HistogramFacts.h"
#include "idiom/Constraints/ValueText.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"
#include <map>
#include <set>

using namespace llvm;

namespace idiom {

namespace {

/// The innermost loop of \p N that contains \p I.
Loop *loopOf(const Instruction *I, const NestInfo &N) {
  for (auto It = N.Loops.rbegin(); It != N.Loops.rend(); ++It)
    if ((*It)->contains(I))
      return *It;
  return nullptr;
}

bool isUpdatableType(Type *T) {
  return (T->isIntegerTy() && T->getIntegerBitWidth() <= 64) ||
         T->isFloatTy() || T->isDoubleTy();
}

/// Every store of the nest.
SmallVector<StoreInst *, 4> storesOf(const NestInfo &N) {
  SmallVector<StoreInst *, 4> Out;
  for (BasicBlock *BB : N.Loops.front()->blocks())
    for (Instruction &I : *BB)
      if (auto *S = dyn_cast<StoreInst>(&I))
        Out.push_back(S);
  return Out;
}

/// The values inside the nest that depend on \p Acc through operands
/// (the forward slice, Acc excluded), not followed through phis, stores or
/// branches; those users are returned separately.
struct ForwardSlice {
  SmallPtrSet<Instruction *, 16> Values;     ///< pure instructions
  SmallVector<Instruction *, 4> Terminators; ///< branches and other sinks
  SmallVector<Instruction *, 4> Phis;
  SmallVector<std::pair<Instruction *, unsigned>, 4> StoreUses;
  SmallVector<Instruction *, 4> Others;      ///< anything else
  bool UsedOutside = false;
};

ForwardSlice forwardSlice(Value *Acc, const NestInfo &N) {
  ForwardSlice FS;
  Loop *Outer = N.Loops.front();
  SmallVector<Value *, 16> Work{Acc};
  while (!Work.empty()) {
    Value *V = Work.pop_back_val();
    for (Use &U : V->uses()) {
      auto *I = dyn_cast<Instruction>(U.getUser());
      if (!I)
        continue;
      if (!Outer->contains(I)) {
        FS.UsedOutside = true;
        continue;
      }
      if (isa<PHINode>(I)) {
        FS.Phis.push_back(I);
        continue;
      }
      if (isa<StoreInst>(I)) {
        FS.StoreUses.push_back({I, U.getOperandNo()});
        continue;
      }
      if (I->isTerminator()) {
        FS.Terminators.push_back(I);
        continue;
      }
      if (!isPureScalarOp(I, /*AllowErrno=*/true)) {
        FS.Others.push_back(I);
        continue;
      }
      if (FS.Values.insert(I).second)
        Work.push_back(I);
    }
  }
  return FS;
}

/// The instructions of \p FS reached backwards from \p Roots through
/// instructions of FS.
SmallPtrSet<Instruction *, 8>
dependentPart(ArrayRef<Value *> Roots, const ForwardSlice &FS) {
  SmallPtrSet<Instruction *, 8> Out;
  SmallVector<Value *, 8> Work(Roots.begin(), Roots.end());
  while (!Work.empty()) {
    auto *I = dyn_cast<Instruction>(Work.pop_back_val());
    if (!I || !FS.Values.count(I) || !Out.insert(I).second)
      continue;
    for (Value *Op : I->operands())
      Work.push_back(Op);
  }
  return Out;
}

/// Guards of \p St: the conditional branches on the chain of single
/// predecessors from St's block up to its loop's header.
SmallVector<UpdateGuard, 2> guardsOf(StoreInst *St, Loop *L,
                                     SmallPtrSetImpl<Instruction *> &Branches) {
  SmallVector<UpdateGuard, 2> Out;
  BasicBlock *B = St->getParent();
  for (unsigned Steps = 0; B != L->getHeader() && Steps < 64; ++Steps) {
    BasicBlock *P = B->getSinglePredecessor();
    if (!P || !L->contains(P))
      break;
    // The exit of a loop inside L (a bisection search) is not a guard: the
    // store runs whenever that loop ends.
    if (any_of(L->getSubLoops(), [&](Loop *Sub) { return Sub->contains(P); }))
      break;
    auto *Br = dyn_cast<BranchInst>(P->getTerminator());
    if (Br && Br->isConditional() && Br->getSuccessor(0) != Br->getSuccessor(1)) {
      Out.push_back({Br->getCondition(), Br->getSuccessor(0) == B, false});
      Branches.insert(Br);
    }
    B = P;
  }
  return Out;
}

/// True when some instruction that may write memory, other than \p St, can
/// run after \p Ld and before \p St in one iteration of \p L.
bool mayWriteBetween(LoadInst *Ld, StoreInst *St, Loop *L, std::string &Why) {
  BasicBlock *From = Ld->getParent(), *To = St->getParent();
  auto Writes = [&](Instruction &I) {
    if (&I == St || !I.mayWriteToMemory())
      return false;
    Why = "an instruction between the bin load and its store may write "
          "memory: " + valueText(&I);
    return true;
  };
  if (From == To && Ld->comesBefore(St)) {
    for (Instruction *I = Ld->getNextNode(); I != St; I = I->getNextNode())
      if (Writes(*I))
        return true;
    return false;
  }
  // Blocks reachable from From without re-entering the header, and blocks
  // that reach To without leaving through the header.
  SmallPtrSet<BasicBlock *, 16> Fwd, Bwd;
  SmallVector<BasicBlock *, 16> Work{From};
  while (!Work.empty()) {
    BasicBlock *B = Work.pop_back_val();
    if (!Fwd.insert(B).second || B == To)
      continue;
    for (BasicBlock *S : successors(B))
      if (L->contains(S) && S != L->getHeader())
        Work.push_back(S);
  }
  Work.push_back(To);
  while (!Work.empty()) {
    BasicBlock *B = Work.pop_back_val();
    if (!Bwd.insert(B).second || B == From || B == L->getHeader())
      continue;
    for (BasicBlock *P : predecessors(B))
      if (L->contains(P))
        Work.push_back(P);
  }
  for (BasicBlock *B : Fwd) {
    if (!Bwd.count(B))
      continue;
    Instruction *Begin = B == From ? Ld->getNextNode() : &B->front();
    for (Instruction *I = Begin; I; I = I->getNextNode()) {
      if (B == To && I == St)
        break;
      if (Writes(*I))
        return true;
    }
  }
  return false;
}

/// The checks common to both forms once Acc, the store and the guards are
/// known: Acc feeds only the update; fills UpdateInsts and guard flags.
bool checkUpdateUses(BinUpdateInfo &U, const NestInfo &N,
                     const SmallPtrSetImpl<Instruction *> &GuardBranches,
                     std::string &Why) {
  ForwardSlice FS = forwardSlice(U.Acc, N);
  bool Bin = U.Form == UpdateForm::Bin;
  const char *What = Bin ? "bin value" : "accumulator";
  if (!FS.Others.empty()) {
    Why = std::string(What) + " is used by an instruction with side effects "
          "or an unsupported operation: " + valueText(FS.Others.front());
    return false;
  }
  if (FS.UsedOutside && Bin) {
    Why = "bin value is used after the loop";
    return false;
  }
  for (Instruction *P : FS.Phis)
    if (Bin || P != U.Acc) {
      Why = std::string(What) + " flows into a phi: " + valueText(P);
      return false;
    }
  for (auto [S, OpNo] : FS.StoreUses)
    if (S != U.Store || OpNo != 0) {
      Why = std::string(What) + " is stored elsewhere or used as an address: " +
            valueText(S);
      return false;
    }
  SmallVector<Value *, 4> Roots{U.NewValue};
  bool GuardReadsAcc = false;
  for (UpdateGuard &G : U.Guards) {
    auto *CI = dyn_cast<Instruction>(G.Cond);
    G.DependsOnAcc = G.Cond == U.Acc || (CI && FS.Values.count(CI));
    if (G.DependsOnAcc)
      Roots.push_back(G.Cond);
    GuardReadsAcc |= G.DependsOnAcc;
  }
  // The new value is computed from b (b + x), or chosen by a test of b
  // (if (x > b) b = x).
  auto *NewI = dyn_cast<Instruction>(U.NewValue);
  bool NewReadsAcc = NewI && FS.Values.count(NewI);
  if (U.NewValue == U.Acc || (!NewReadsAcc && !GuardReadsAcc)) {
    Why = U.NewValue == U.Acc
              ? "store writes back the value it read"
              : "stored value does not depend on the value read from the "
                "same element";
    return false;
  }
  for (Instruction *T : FS.Terminators)
    if (!GuardBranches.count(T)) {
      Why = std::string(What) + " decides a branch that does not guard the "
            "store: " + valueText(T);
      return false;
    }
  U.UpdateInsts = dependentPart(Roots, FS);
  for (Instruction *I : FS.Values)
    if (!U.UpdateInsts.count(I)) {
      Why = std::string(What) + " is used outside its update: " + valueText(I);
      return false;
    }
  return true;
}

} // namespace

Value *arrayBaseOf(Instruction *I, ScalarEvolution &SE) {
  Value *Ptr = getLoadStorePointerOperand(I);
  if (!Ptr || !SE.isSCEVable(Ptr->getType()))
    return nullptr;
  auto *B = dyn_cast<SCEVUnknown>(SE.getPointerBase(SE.getSCEV(Ptr)));
  return B ? B->getValue() : nullptr;
}

Value *arrayBaseInNest(Instruction *I, const NestInfo &N, ScalarEvolution &SE) {
  Value *B = arrayBaseOf(I, SE);
  if (!B)
    return nullptr;
  if (auto *BI = dyn_cast<Instruction>(B))
    if (N.contains(BI))
      return nullptr;
  return B;
}

std::optional<BinUpdateInfo> analyzeBinUpdate(StoreInst *St, const NestInfo &N,
                                              ScalarEvolution &SE,
                                              DominatorTree &DT,
                                              std::string &Why) {
  if (!St->isSimple()) {
    Why = "volatile or atomic store";
    return std::nullopt;
  }
  BinUpdateInfo U;
  U.Store = St;
  U.NewValue = St->getValueOperand();
  U.ElemTy = U.NewValue->getType();
  if (!isUpdatableType(U.ElemTy)) {
    Why = "stored element is not an integer, float or double";
    return std::nullopt;
  }
  Loop *L = loopOf(St, N);
  if (!L) {
    Why = "store is not in the loop nest";
    return std::nullopt;
  }
  U.Base = arrayBaseInNest(St, N, SE);
  if (!U.Base) {
    Why = "array base pointer is not a single pointer defined before the loop";
    return std::nullopt;
  }
  // The load of the same element that runs last before the store.
  Value *Ptr = St->getPointerOperand();
  const SCEV *PtrS = SE.getSCEV(Ptr);
  LoadInst *Ld = nullptr;
  for (BasicBlock *BB : L->blocks())
    for (Instruction &I : *BB) {
      auto *C = dyn_cast<LoadInst>(&I);
      if (!C || C->getType() != U.ElemTy || !C->isSimple() ||
          !DT.dominates(C, St))
        continue;
      Value *CP = C->getPointerOperand();
      if (CP != Ptr && SE.getSCEV(CP) != PtrS)
        continue;
      if (!Ld || DT.dominates(Ld, C))
        Ld = C;
    }
  if (!Ld) {
    Why = "stored value is not computed from a load of the same element "
          "(no load of that address runs before the store)";
    return std::nullopt;
  }
  U.Acc = Ld;
  if (mayWriteBetween(Ld, St, L, Why))
    return std::nullopt;
  SmallPtrSet<Instruction *, 4> Branches;
  U.Guards = guardsOf(St, L, Branches);
  if (!checkUpdateUses(U, N, Branches, Why))
    return std::nullopt;
  return U;
}

std::optional<BinUpdateInfo>
analyzeStoredAccumulator(StoreInst *St, const NestInfo &N, ScalarEvolution &SE,
                         DominatorTree &DT, std::string &Why) {
  if (N.depth() != 1) {
    Why = "accumulators stored every iteration are recognised in single "
          "loops only";
    return std::nullopt;
  }
  if (!St->isSimple()) {
    Why = "volatile or atomic store";
    return std::nullopt;
  }
  Loop *L = N.Loops.front();
  BinUpdateInfo U;
  U.Form = UpdateForm::StoredAccumulator;
  U.Store = St;
  U.NewValue = St->getValueOperand();
  U.ElemTy = U.NewValue->getType();
  if (!isUpdatableType(U.ElemTy)) {
    Why = "stored element is not an integer, float or double";
    return std::nullopt;
  }
  U.Base = arrayBaseInNest(St, N, SE);
  const SCEV *PtrS = SE.getSCEV(St->getPointerOperand());
  if (!U.Base || !SE.isLoopInvariant(PtrS, L)) {
    Why = "store address varies in the loop";
    return std::nullopt;
  }
  PHINode *Acc = nullptr;
  for (PHINode &P : L->getHeader()->phis())
    if (P.getNumIncomingValues() == 2 &&
        P.getIncomingValueForBlock(L->getLoopLatch()) == U.NewValue)
      Acc = &P;
  if (!Acc || isNestIV(Acc, N)) {
    Why = "stored value is not the next value of an accumulator phi";
    return std::nullopt;
  }
  U.Acc = Acc;
  if (!DT.dominates(St->getParent(), L->getLoopLatch())) {
    Why = "accumulator is not stored on every iteration";
    return std::nullopt;
  }
  for (StoreInst *O : storesOf(N)) {
    if (O == St || arrayBaseInNest(O, N, SE) != U.Base)
      continue;
    auto *D = dyn_cast<SCEVConstant>(
        SE.getMinusSCEV(SE.getSCEV(O->getPointerOperand()), PtrS));
    if (!D || D->getAPInt().isZero()) {
      Why = "another store of the loop may write the accumulator's element: " +
            valueText(O);
      return std::nullopt;
    }
  }
  SmallPtrSet<Instruction *, 4> NoBranches;
  if (!checkUpdateUses(U, N, NoBranches, Why))
    return std::nullopt;
  return U;
}

std::optional<BinUpdateInfo> analyzeUpdate(StoreInst *St, const NestInfo &N,
                                           ScalarEvolution &SE,
                                           DominatorTree &DT,
                                           std::string &Why) {
  if (auto U = analyzeBinUpdate(St, N, SE, DT, Why))
    return U;
  std::string Why2;
  if (auto U = analyzeStoredAccumulator(St, N, SE, DT, Why2)) {
    Why.clear();
    return U;
  }
  return std::nullopt;
}

bool isInputLoad(LoadInst *Ld, const NestInfo &N, ScalarEvolution &SE,
                 std::string &Why) {
  if (!Ld->isSimple()) {
    Why = "volatile or atomic load";
    return false;
  }
  Value *B = arrayBaseInNest(Ld, N, SE);
  if (!B) {
    Why = "load base pointer is not a single pointer defined before the loop";
    return false;
  }
  for (StoreInst *S : storesOf(N)) {
    Value *SB = arrayBaseInNest(S, N, SE);
    if (!SB) {
      Why = "a store of the loop has no known base pointer, so the load may "
            "read what it writes";
      return false;
    }
    if (SB == B) {
      Why = "load reads " + operandText(B) + ", which the loop also writes (an "
            "update reads another bin, an index depends on a bin, or a bin "
            "array is also read as input)";
      return false;
    }
  }
  return true;
}

bool isDataDependentIndex(StoreInst *St, const NestInfo &N,
                          ScalarEvolution &SE, std::string &Why) {
  unsigned Loads = 0;
  SmallVector<Value *, 16> Work{St->getPointerOperand()};
  SmallPtrSet<Value *, 32> Seen;
  while (!Work.empty()) {
    Value *V = Work.pop_back_val();
    if (!Seen.insert(V).second)
      continue;
    auto *I = dyn_cast<Instruction>(V);
    if (!I || !N.contains(I))
      continue;
    if (auto *P = dyn_cast<PHINode>(I)) {
      if (isNestIV(P, N))
        continue;
      if (isNestSearchResult(P, N)) { // a bin found among loaded boundaries
        ++Loads;
        continue;
      }
      Why = "bin index depends on a phi that is not an induction variable: " +
            valueText(P);
      return false;
    }
    if (auto *Ld = dyn_cast<LoadInst>(I)) {
      ++Loads;
      Work.push_back(Ld->getPointerOperand());
      continue;
    }
    if (!isPureScalarOp(I, /*AllowErrno=*/true) && !isa<GetElementPtrInst>(I)) {
      Why = "bin index is computed by an unsupported instruction: " +
            valueText(I);
      return false;
    }
    for (Value *Op : I->operands())
      Work.push_back(Op);
  }
  if (Loads == 0) {
    Why = "bin index does not depend on a loaded value (it is computed "
          "from induction variables and invariants only)";
    return false;
  }
  return true;
}

bool isOuterInvariantIndex(StoreInst *St, const NestInfo &N,
                           ScalarEvolution &SE, std::string &Why) {
  auto A = analyzeAccess(St, N, SE, Why);
  if (!A)
    return false;
  if (!A->Strides[0]->isZero()) {
    Why = N.depth() == 1
              ? "store address changes from one iteration to the next"
              : "store address changes with the outer loop";
    return false;
  }
  if (N.depth() == 2 && !A->Strides[1]->isZero()) {
    if (!isa<SCEVConstant>(A->Strides[1])) {
      Why = "store stride in the inner loop is not a constant";
      return false;
    }
    if (!isa<SCEVConstant>(N.TripCounts[1])) {
      Why = "inner trip count is not a compile-time constant";
      return false;
    }
  }
  return true;
}

bool fewElementsPerArray(const NestInfo &N, ScalarEvolution &SE, int64_t Limit,
                         std::string &Why) {
  struct Group {
    const SCEV *Off0;
    Type *Ty;
    std::set<int64_t> Elems;
  };
  std::map<Value *, Group> Groups;
  std::vector<Value *> Order;
  for (StoreInst *S : storesOf(N)) {
    auto A = analyzeAccess(S, N, SE, Why);
    if (!A)
      return false;
    auto It = Groups.find(A->Base);
    if (It == Groups.end()) {
      It = Groups.insert({A->Base, Group{A->Offset, A->ElemTy, {}}}).first;
      Order.push_back(A->Base);
    }
    Group &G = It->second;
    if (G.Ty != A->ElemTy) {
      Why = operandText(A->Base) + " is written with two element types";
      return false;
    }
    std::optional<int64_t> D = scevInt64(SE.getMinusSCEV(A->Offset, G.Off0));
    if (!D) {
      Why = "elements of " + operandText(A->Base) +
            " are not at constant distances from each other";
      return false;
    }
    int64_t Start = *D, Stride = 0, Count = 1;
    if (N.depth() == 2 && !A->Strides[1]->isZero()) {
      std::optional<int64_t> SC = scevInt64(A->Strides[1]);
      auto *TC = dyn_cast<SCEVConstant>(N.TripCounts[1]);
      if (!SC || !TC || std::abs(*SC) > (int64_t(1) << 31)) {
        Why = "number of elements written is not a compile-time constant";
        return false;
      }
      Stride = *SC;
      Count = TC->getAPInt().getLimitedValue(uint64_t(Limit) + 1);
    }
    for (int64_t K = 0; K < Count && (int64_t)G.Elems.size() < Limit; ++K)
      G.Elems.insert(Start + K * Stride);
    if ((int64_t)G.Elems.size() >= Limit) {
      Why = "the loop updates " + std::to_string(Limit) + " or more elements of " +
            operandText(A->Base) + " (a small array has fewer than " +
            std::to_string(Limit) + ")";
      return false;
    }
  }
  if (Groups.empty()) {
    Why = "loop stores nothing";
    return false;
  }
  return true;
}

std::optional<uint64_t> knownBinCount(StoreInst *St, ScalarEvolution &SE,
                                      std::string &Why) {
  constexpr uint64_t MaxRange = uint64_t(1) << 24;
  Value *Base = arrayBaseOf(St, SE);
  Type *Ty = St->getValueOperand()->getType();
  const DataLayout &DL = St->getModule()->getDataLayout();
  uint64_t Size = DL.getTypeAllocSize(Ty);
  if (!Base || Size == 0) {
    Why = "array has no base pointer";
    return std::nullopt;
  }
  std::optional<uint64_t> Count;
  // From the array itself.
  if (auto *GV = dyn_cast<GlobalVariable>(Base)) {
    uint64_t Bytes = DL.getTypeAllocSize(GV->getValueType());
    if (Bytes >= Size)
      Count = Bytes / Size;
  } else if (auto *AI = dyn_cast<AllocaInst>(Base)) {
    if (auto Bytes = AI->getAllocationSize(DL))
      if (!Bytes->isScalable() && Bytes->getFixedValue() >= Size)
        Count = Bytes->getFixedValue() / Size;
  }
  // From the value range of the index.
  const SCEV *Off = SE.removePointerBase(SE.getSCEV(St->getPointerOperand()));
  ConstantRange R = SE.getSignedRange(Off);
  if (!R.isFullSet() && !R.isEmptySet()) {
    APInt Lo = R.getSignedMin(), Hi = R.getSignedMax();
    if (Hi.sge(Lo)) {
      APInt Width = Hi - Lo;
      if (Width.ule(MaxRange * Size)) {
        uint64_t N = Width.getZExtValue() / Size + 1;
        Count = Count ? std::min(*Count, N) : N;
      }
    }
  }
  if (!Count)
    Why = "the number of bins of " + operandText(Base) +
          " is not known at compile time (a pointer indexed by an unbounded "
          "value); a lifter computes it at run time from the index's range";
  return Count;
}

std::string UpdateOperator::name() const {
  if (Saturating)
    return "uadd.sat";
  return reductionOpName(Op);
}

} // namespace idiom
