//===- LoopDistribution.cpp - Parallel loops split into their parts -------===//
//
// Part of Idiom. See LoopDistribution.h.
//
//===----------------------------------------------------------------------===//
#include "LoopDistribution.h"
#include "BoundVersioning.h"
#include "PipelinePlacement.h"

#include "idiom/Constraints/Z3Checks.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

#include <memory>

using namespace llvm;

namespace idiom {
namespace {

/// A value of part P (an inner-loop result) that part P + 1 uses: it
/// reloads it from the address the straight-line store S of part P wrote
/// it to.
struct Reload {
  Instruction *V;
  StoreInst *S;
  /// Reloaded in the header of the using part's inner loop (every use is
  /// there and that loop writes nothing at S's address): the part is then
  /// a perfect nest, which the map spec takes.
  bool InInner;
};

/// A distributable loop and what the transformation needs.
struct Plan {
  Loop *L = nullptr;
  SmallVector<Loop *, 4> Subs; ///< the parts' inner loops, in order
  /// Part of each straight-line load and store of the body.
  DenseMap<Instruction *, unsigned> PartOf;
  SmallVector<Reload, 2> Reloads;
  SmallVector<Fits, 4> Need;
  SmallVector<std::pair<AccessRange, AccessRange>, 8> Disjoint;
};

/// Where the values of the loop body come from: an inner loop's values
/// (and its LCSSA phis) and the straight-line loads of a part belong to
/// that part; the induction variable, values from outside the loop and
/// pure arithmetic over those belong to no part (every copy of the loop
/// computes them where it needs them).
class Origins {
public:
  Origins(Plan &P) : P(P) {}

  int subOf(const Instruction *I) const {
    for (unsigned K = 0; K < P.Subs.size(); ++K)
      if (P.Subs[K]->contains(I))
        return K;
    return -1;
  }

  /// The parts (other than -1) that the leaves of V belong to, with the
  /// leaf of each.
  void leaves(Value *V, SmallVectorImpl<std::pair<int, Instruction *>> &Out) {
    SmallVector<Value *, 8> Work{V};
    SmallPtrSet<Value *, 16> Seen;
    while (!Work.empty()) {
      auto *I = dyn_cast<Instruction>(Work.pop_back_val());
      if (!I || !P.L->contains(I) || !Seen.insert(I).second)
        continue;
      if (int S = subOf(I); S >= 0) {
        Out.push_back({S, I});
        continue;
      }
      if (auto It = P.PartOf.find(I); It != P.PartOf.end()) {
        Out.push_back({int(It->second), I});
        continue;
      }
      if (I->getParent() == P.L->getHeader() && isa<PHINode>(I))
        continue; // the induction variable
      if (auto *Phi = dyn_cast<PHINode>(I)) {
        // An LCSSA phi of an inner loop is that loop's value.
        int S = -1;
        for (Value *In : Phi->incoming_values())
          if (auto *II = dyn_cast<Instruction>(In))
            S = std::max(S, subOf(II));
        if (S >= 0) {
          Out.push_back({S, I});
          continue;
        }
      }
      for (Value *Op : I->operands())
        Work.push_back(Op);
    }
  }

private:
  Plan &P;
};

class DistributionAnalysis {
public:
  DistributionAnalysis(Plan &P, DominatorTree &DT, ScalarEvolution &SE,
                       unsigned TimeoutMs)
      : P(P), DT(DT), SE(SE), TimeoutMs(TimeoutMs) {}

  /// Fills P for P.L. False with Why empty when the loop does not have the
  /// shape, with Why set when a condition fails.
  bool run(std::string &Why);

private:
  bool shape(std::string &Why);
  bool straightLine(std::string &Why);
  bool uses(std::string &Why);
  bool reloadable(Instruction *V, int From, int To, Instruction *UseAt,
                  std::string &Why);
  bool overlapChecks(std::string &Why);
  bool sinkable(Instruction *V, StoreInst *S, Loop *Sub);

  Plan &P;
  DominatorTree &DT;
  ScalarEvolution &SE;
  unsigned TimeoutMs;
};

std::string partName(int K) { return "part " + std::to_string(K + 1); }

bool DistributionAnalysis::shape(std::string &Why) {
  Loop &L = *P.L;
  if (L.getSubLoops().size() < 2 || isFallbackLoop(L))
    return false;
  for (Loop *S : L.getLoopsInPreorder())
    if (isFallbackLoop(*S))
      return false; // already versioned by another transformation
  P.Subs.assign(L.getSubLoops().begin(), L.getSubLoops().end());
  llvm::sort(P.Subs, [&](Loop *A, Loop *B) {
    return DT.dominates(A->getHeader(), B->getHeader());
  });
  for (unsigned K = 1; K < P.Subs.size(); ++K)
    if (!DT.dominates(P.Subs[K - 1]->getHeader(), P.Subs[K]->getHeader())) {
      Why = "its inner loops do not run one after the other (an inner loop's "
            "header does not dominate the next one's)";
      return false;
    }
  if (!L.isLoopSimplifyForm() || !L.isLCSSAForm(DT) || !L.getExitBlock() ||
      L.getExitingBlock() != L.getLoopLatch()) {
    Why = "the loop is not in loop-simplify form with a single exit";
    return false;
  }
  for (Loop *S : P.Subs)
    if (!S->getLoopPreheader() || !S->getUniqueExitBlock() ||
        !S->hasDedicatedExits()) {
      Why = "an inner loop has no preheader or no single dedicated exit";
      return false;
    }
  unsigned Phis = 0;
  for (PHINode &Phi : L.getHeader()->phis()) {
    auto *AR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(&Phi));
    if (!AR || AR->getLoop() != &L || !AR->isAffine() || ++Phis > 1) {
      Why = "the loop carries a value from one iteration to the next in a "
            "register (a header phi besides its induction variable)";
      return false;
    }
  }
  if (!L.getExitBlock()->phis().empty()) {
    Why = "a value computed in the loop is used after it";
    return false;
  }
  return true;
}

bool DistributionAnalysis::straightLine(std::string &Why) {
  Loop &L = *P.L;
  unsigned N = P.Subs.size();
  Origins O(P);
  for (BasicBlock *BB : L.blocks()) {
    if (O.subOf(&BB->front()) >= 0)
      continue;
    unsigned Pos = 0;
    for (Loop *S : P.Subs)
      Pos += DT.dominates(S->getHeader(), BB);
    for (Instruction &I : *BB) {
      if (isa<DbgInfoIntrinsic>(I) || I.isLifetimeStartOrEnd() ||
          !I.mayReadOrWriteMemory())
        continue;
      if (auto *Ld = dyn_cast<LoadInst>(&I); Ld && Ld->isSimple()) {
        P.PartOf[Ld] = std::min(Pos, N - 1);
        continue;
      }
      auto *St = dyn_cast<StoreInst>(&I);
      if (!St || !St->isSimple()) {
        Why = "its body accesses memory outside its inner loops other than by "
              "plain loads and stores (" + std::string(I.getOpcodeName()) + ")";
        return false;
      }
      // A store of an inner loop's result goes with that loop's part, any
      // other with the part whose inner loop follows it.
      unsigned Part = std::min(Pos, N - 1);
      if (Pos >= 1) {
        SmallVector<std::pair<int, Instruction *>, 4> Ls;
        O.leaves(St->getValueOperand(), Ls);
        for (auto &[K, Leaf] : Ls)
          if (K == int(Pos) - 1)
            Part = Pos - 1;
      }
      P.PartOf[St] = Part;
    }
  }
  return true;
}

bool DistributionAnalysis::reloadable(Instruction *V, int From, int To,
                                      Instruction *UseAt, std::string &Why) {
  Why = "a value computed by " + partName(From) + " (an inner loop's result "
        "or a load) is used by " + partName(To) + " and cannot be reloaded "
        "there (a value carried in a register between parts)";
  if (To != From + 1)
    return false;
  for (User *U : V->users()) {
    auto *S = dyn_cast<StoreInst>(U);
    if (!S || S->getValueOperand() != V || !P.PartOf.count(S) ||
        P.PartOf.lookup(S) != unsigned(From) || !DT.dominates(S, UseAt))
      continue;
    // Nothing of part To before S writes memory, and S's address is
    // computed by every part.
    SmallVector<std::pair<int, Instruction *>, 2> Ls;
    Origins(P).leaves(S->getPointerOperand(), Ls);
    if (!Ls.empty())
      continue;
    // The reload goes where S was: every other use of V must follow it.
    if (any_of(V->users(), [&](User *W) {
          return W != S && !DT.dominates(S, cast<Instruction>(W));
        }))
      continue;
    bool Clobbered = false;
    for (auto &[I, K] : P.PartOf)
      Clobbered |= K == unsigned(To) && isa<StoreInst>(I) &&
                   !DT.dominates(S, I);
    if (Clobbered)
      continue;
    if (none_of(P.Reloads, [&](const Reload &R) { return R.V == V; }))
      P.Reloads.push_back({V, S, sinkable(V, S, P.Subs[To])});
    Why.clear();
    return true;
  }
  return false;
}

bool DistributionAnalysis::sinkable(Instruction *V, StoreInst *S, Loop *Sub) {
  if (any_of(V->users(), [&](User *W) {
        return W != S && !Sub->contains(cast<Instruction>(W));
      }))
    return false;
  const DataLayout &DL = S->getModule()->getDataLayout();
  Value *Ptr = S->getPointerOperand();
  // The distances are taken between integer addresses: the range of a store
  // of Sub can be a umin/umax of two pointers (an inner loop whose trip
  // count may be zero or negative), whose pointer base is that min/max
  // itself, so getMinusSCEV on the pointers has no value
  // (SCEVCouldNotCompute, which has no type).
  Type *IntPtrTy = DL.getIntPtrType(Ptr->getType());
  auto Address = [&](const SCEV *X) -> const SCEV * {
    return X->getType()->isPointerTy() ? SE.getPtrToIntExpr(X, IntPtrTy) : X;
  };
  const SCEV *At = SE.getSCEV(Ptr);
  const SCEV *AtI = Address(At);
  if (isa<SCEVCouldNotCompute>(AtI))
    return false;
  for (BasicBlock *BB : Sub->blocks())
    for (Instruction &I : *BB) {
      if (!I.mayWriteToMemory())
        continue;
      auto *St = dyn_cast<StoreInst>(&I);
      if (!St)
        return false;
      Value *SP = St->getPointerOperand();
      const Value *OS = getUnderlyingObject(SP), *OR = getUnderlyingObject(Ptr);
      if (OS != OR && isIdentifiedObject(OS) && isIdentifiedObject(OR))
        continue;
      if (SE.getPointerBase(SE.getSCEV(SP)) != SE.getPointerBase(At))
        continue; // the run-time check compares the two stores' ranges
      const SCEV *Lo, *Hi;
      SmallVector<Fits, 2> Need;
      if (!valueRange(SE.getSCEV(SP), *Sub, SE, Lo, Hi, Need) || !Need.empty())
        return false;
      uint64_t SizeS = DL.getTypeStoreSize(St->getValueOperand()->getType());
      uint64_t SizeR = DL.getTypeStoreSize(V->getType());
      const SCEV *LoI = Address(Lo), *HiI = Address(Hi);
      if (isa<SCEVCouldNotCompute>(LoI) || isa<SCEVCouldNotCompute>(HiI) ||
          LoI->getType() != AtI->getType() || HiI->getType() != AtI->getType())
        return false; // not proven apart: the reload stays before Sub
      const SCEV *Below = SE.getMinusSCEV(AtI, HiI), *Above = SE.getMinusSCEV(LoI, AtI);
      if (isa<SCEVCouldNotCompute>(Below) || isa<SCEVCouldNotCompute>(Above))
        return false;
      Type *Ty = Below->getType();
      if (!SE.isKnownPredicate(ICmpInst::ICMP_SGE, Below, SE.getConstant(Ty, SizeS)) &&
          !SE.isKnownPredicate(ICmpInst::ICMP_SGE, Above, SE.getConstant(Ty, SizeR)))
        return false;
    }
  return true;
}

bool DistributionAnalysis::uses(std::string &Why) {
  Loop &L = *P.L;
  Origins O(P);
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB) {
      int Part = O.subOf(&I);
      if (Part < 0) {
        if (auto It = P.PartOf.find(&I); It != P.PartOf.end())
          Part = It->second;
        else if (!I.isTerminator())
          continue; // pure: every part computes it where it needs it
      }
      SmallVector<std::pair<int, Instruction *>, 4> Ls;
      for (Value *Op : I.operands())
        if (auto *OI = dyn_cast<Instruction>(Op);
            OI && !(Part >= 0 && P.Subs[Part]->contains(OI)))
          O.leaves(OI, Ls);
      for (auto &[K, Leaf] : Ls) {
        if (K == Part)
          continue;
        if (Part < 0) {
          Why = "the control flow of its body depends on a value computed by " +
                partName(K);
          return false;
        }
        if (K > Part || !reloadable(Leaf, K, Part, &I, Why))
          return false;
      }
    }
  return true;
}

bool DistributionAnalysis::overlapChecks(std::string &Why) {
  Loop &L = *P.L;
  const DataLayout &DL = L.getHeader()->getModule()->getDataLayout();
  SmallVector<Instruction *, 16> Acc;
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB)
      if (isa<LoadInst>(I) || isa<StoreInst>(I))
        Acc.push_back(&I);
  DenseMap<Instruction *, AccessRange> Ranges;
  auto RangeOf = [&](Instruction *I, AccessRange &R) {
    if (auto It = Ranges.find(I); It != Ranges.end()) {
      R = It->second;
      return true;
    }
    Value *Ptr = getLoadStorePointerOperand(I);
    R.Size = DL.getTypeStoreSize(getLoadStoreType(I)).getFixedValue();
    if (!valueRange(SE.getSCEV(Ptr), L, SE, R.Lo, R.Hi, P.Need))
      return false;
    Ranges[I] = R;
    return true;
  };
  for (unsigned A = 0; A < Acc.size(); ++A)
    for (unsigned B = A + 1; B < Acc.size(); ++B) {
      Instruction *X = Acc[A], *Y = Acc[B];
      if (!isa<StoreInst>(X) && !isa<StoreInst>(Y))
        continue;
      Value *PX = getLoadStorePointerOperand(X);
      Value *PY = getLoadStorePointerOperand(Y);
      if (SE.getPointerBase(SE.getSCEV(PX)) == SE.getPointerBase(SE.getSCEV(PY)))
        continue; // compared by the Z3 proof
      const Value *OX = getUnderlyingObject(PX), *OY = getUnderlyingObject(PY);
      if (OX != OY && isIdentifiedObject(OX) && isIdentifiedObject(OY))
        continue;
      AccessRange RX, RY;
      if (!RangeOf(X, RX) || !RangeOf(Y, RY)) {
        Why = "the byte range of an access through a pointer that may alias "
              "another one is unknown over the loop (no run-time overlap "
              "check)";
        return false;
      }
      P.Disjoint.push_back({RX, RY});
    }
  bool Ok = rangeChecksExpandable(
      P.Need, P.Disjoint, L.getLoopPreheader()->getTerminator(), SE);
  if (!Ok)
    Why = "a bound of the run-time overlap checks is not available before the "
          "loop";
  return Ok;
}

bool DistributionAnalysis::run(std::string &Why) {
  if (!shape(Why) || !straightLine(Why) || !uses(Why))
    return false;
  std::string Dep;
  Proof Pr = proveIndependentIterations(P.L, SE, TimeoutMs, Dep);
  if (Pr != Proof::Proven) {
    Why = "its iterations are not proven independent (" +
          (Dep.empty() ? std::string("not proven") : Dep) + ")";
    return false;
  }
  return overlapChecks(Why);
}

/// Keeps only part \p C in one copy of the loop (\p Map: the original's
/// values to the copy's; null for the original itself).
void keepPart(Plan &P, unsigned C, ValueToValueMapTy *Map, LoopInfo &LI,
              DominatorTree &DT, ScalarEvolution &SE) {
  auto M = [&](Value *V) -> Value * { return Map ? static_cast<Value *>(Map->lookup(V)) : V; };
  // Values of the part before, reloaded from where it stored them.
  for (const Reload &R : P.Reloads) {
    if (P.PartOf.lookup(R.S) + 1 != C)
      continue;
    auto *V = cast<Instruction>(M(R.V));
    auto *S = cast<StoreInst>(M(R.S));
    Instruction *At = S;
    if (R.InInner)
      At = &*cast<BasicBlock>(M(P.Subs[C]->getHeader()))->getFirstInsertionPt();
    auto *Ld = new LoadInst(V->getType(), S->getPointerOperand(),
                            "idiom.dist.reload", false, S->getAlign(), At);
    Ld->copyMetadata(*S, {LLVMContext::MD_tbaa});
    V->replaceUsesWithIf(Ld, [&](Use &U) { return U.getUser() != S; });
  }
  for (auto &[I, K] : P.PartOf)
    if (K != C) {
      auto *CI = cast<Instruction>(M(I));
      CI->replaceAllUsesWith(PoisonValue::get(CI->getType()));
      CI->eraseFromParent();
    }
  for (unsigned K = 0; K < P.Subs.size(); ++K) {
    if (K == C)
      continue;
    BasicBlock *H = cast<BasicBlock>(M(P.Subs[K]->getHeader()));
    Loop *Sub = LI.getLoopFor(H);
    for (PHINode &Phi : make_early_inc_range(Sub->getUniqueExitBlock()->phis())) {
      Phi.replaceAllUsesWith(PoisonValue::get(Phi.getType()));
      Phi.eraseFromParent();
    }
    for (BasicBlock *BB : Sub->blocks())
      for (Instruction &I : *BB)
        I.replaceUsesWithIf(PoisonValue::get(I.getType()), [&](Use &U) {
          return !Sub->contains(cast<Instruction>(U.getUser()));
        });
    deleteDeadLoop(Sub, &DT, &SE, &LI);
  }
}

/// Distributes P.L (analysed): the check, the unchanged copy behind it, one
/// loop per part. Returns the check and fills \p Parts.
BranchInst *distribute(Plan &P, LoopInfo &LI, DominatorTree &DT,
                       ScalarEvolution &SE, SmallVectorImpl<Loop *> &Parts) {
  Loop &L = *P.L;
  SE.forgetTopmostLoop(&L);
  BasicBlock *Check = L.getLoopPreheader();
  Value *Ok = emitRangeChecks(Check, P.Need, P.Disjoint, SE, "idiom.dist");
  BasicBlock *PH = nullptr;
  Loop *Orig = copyNestBehindCheck(L, LI, DT, ".dist", PH);
  BasicBlock *Exit = L.getExitBlock();
  unsigned N = P.Subs.size();
  std::vector<std::unique_ptr<ValueToValueMapTy>> Maps(N - 1);
  SmallVector<Loop *, 4> Loops(N, &L);
  BasicBlock *Top = PH;
  for (unsigned C = N - 1; C-- > 0;) {
    Maps[C] = std::make_unique<ValueToValueMapTy>();
    SmallVector<BasicBlock *, 16> Blocks;
    Loop *NL = cloneLoopWithPreheader(Top, Check, &L, *Maps[C],
                                      ".dist" + Twine(C + 1), &LI, &DT, Blocks);
    (*Maps[C])[Exit] = Top;
    remapInstructionsInBlocks(Blocks, *Maps[C]);
    Top = NL->getLoopPreheader();
    Loops[C] = NL;
  }
  Check->getTerminator()->eraseFromParent();
  BranchInst *Br =
      BranchInst::Create(Top, Orig->getLoopPreheader(), Ok, Check);
  DT.recalculate(*Check->getParent());
  for (unsigned C = 0; C < N; ++C)
    keepPart(P, C, C + 1 < N ? Maps[C].get() : nullptr, LI, DT, SE);
  for (Loop *D : Loops) {
    for (BasicBlock *BB : D->blocks())
      for (Instruction &I : make_early_inc_range(reverse(*BB)))
        if (isInstructionTriviallyDead(&I)) {
          SE.forgetValue(&I);
          I.eraseFromParent();
        }
    Parts.push_back(D);
  }
  markFallbackLoop(*Orig);
  SE.forgetTopmostLoop(&L);
  return Br;
}

void visit(Loop &L, LoopInfo &LI, DominatorTree &DT, ScalarEvolution &SE,
           unsigned TimeoutMs, const SmallPtrSetImpl<Loop *> &Skip,
           SmallVectorImpl<Distribution> &Out,
           SmallVectorImpl<DistributionMiss> &Misses, bool &Changed) {
  if (isFallbackLoop(L) || Skip.count(&L))
    return;
  SmallVector<Loop *, 4> Subs(L.getSubLoops().begin(), L.getSubLoops().end());
  for (Loop *S : Subs)
    visit(*S, LI, DT, SE, TimeoutMs, Skip, Out, Misses, Changed);
  Plan P;
  P.L = &L;
  std::string Why;
  if (!DistributionAnalysis(P, DT, SE, TimeoutMs).run(Why)) {
    if (!Why.empty())
      Misses.push_back({&L, Why});
    return;
  }
  Changed = true;
  Distribution D;
  D.Check = distribute(P, LI, DT, SE, D.Parts);
  Out.push_back(std::move(D));
}

} // namespace

SmallVector<Distribution, 2>
distributeLoops(LoopInfo &LI, DominatorTree &DT, ScalarEvolution &SE,
                unsigned TimeoutMs, const SmallPtrSetImpl<Loop *> &Skip,
                SmallVectorImpl<DistributionMiss> &Misses, bool &Changed) {
  SmallVector<Distribution, 2> Out;
  SmallVector<Loop *, 8> Top(LI.begin(), LI.end());
  for (Loop *L : Top)
    visit(*L, LI, DT, SE, TimeoutMs, Skip, Out, Misses, Changed);
  return Out;
}

void dropDistribution(const Distribution &D) {
  D.Check->setCondition(ConstantInt::getFalse(D.Check->getContext()));
  for (Loop *L : D.Parts)
    markFallbackLoop(*L);
}

} // namespace idiom
