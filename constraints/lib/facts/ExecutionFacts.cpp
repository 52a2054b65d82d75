//===- ExecutionFacts.cpp - What runs on every iteration ------------------===//

#include "idiom/Constraints/ExecutionFacts.h"
#include "idiom/Constraints/LoopFacts.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/Loads.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace idiom {

/// The innermost loop of \p N that contains \p BB, or null.
static Loop *innermostNestLoop(const BasicBlock *BB, const NestInfo &N) {
  Loop *In = nullptr;
  for (Loop *L : N.Loops)
    if (L->contains(BB))
      In = L;
  return In;
}

bool executesOnEveryIteration(const Instruction *I, const NestInfo &N) {
  const BasicBlock *BB = I->getParent();
  Loop *L = innermostNestLoop(BB, N);
  if (!L)
    return true;
  const BasicBlock *Header = L->getHeader(), *Latch = L->getLoopLatch();
  if (!Latch)
    return false;
  if (BB == Header || BB == Latch)
    return true;
  // Search for a path of one iteration from the header to the latch that
  // avoids BB. Branches on the nest's guards follow only the edge on which
  // the guard holds (the stitched code tests guards before the call).
  SmallVector<const BasicBlock *, 16> Work{Header};
  SmallPtrSet<const BasicBlock *, 32> Seen{Header};
  while (!Work.empty()) {
    const BasicBlock *Cur = Work.pop_back_val();
    if (Cur == Latch)
      return false;
    const Instruction *T = Cur->getTerminator();
    SmallVector<const BasicBlock *, 4> Succs;
    const auto *Br = dyn_cast<BranchInst>(T);
    const NestGuard *Guard = nullptr;
    if (Br && Br->isConditional())
      for (const NestGuard &G : N.Guards)
        if (G.Cond == Br->getCondition())
          Guard = &G;
    if (Guard)
      Succs.push_back(Br->getSuccessor(Guard->ExpectTrue ? 0 : 1));
    else
      for (const BasicBlock *S : successors(Cur))
        Succs.push_back(S);
    for (const BasicBlock *S : Succs)
      if (S != BB && S != Header && L->contains(S) && Seen.insert(S).second)
        Work.push_back(S);
  }
  return true;
}

/// True for an integer division or remainder whose divisor may be zero (or,
/// signed, may overflow): evaluating it where the loop does not may trap.
static bool mayTrapDivision(const Instruction &I) {
  switch (I.getOpcode()) {
  case Instruction::UDiv: case Instruction::SDiv:
  case Instruction::URem: case Instruction::SRem:
    return !isSafeToSpeculativelyExecute(&I);
  default:
    return false;
  }
}

bool checkUnconditionalEffects(const NestInfo &N, ScalarEvolution &SE,
                               DominatorTree &DT,
                               const SmallPtrSetImpl<Instruction *> *Exempt,
                               std::string &Why) {
  if (N.Loops.empty())
    return true;
  // Stores first: their reason is the most useful one.
  for (int Pass = 0; Pass < 3; ++Pass)
    for (BasicBlock *BB : N.Loops.front()->blocks())
      for (Instruction &I : *BB) {
        bool Store = isa<StoreInst>(I), Load = isa<LoadInst>(I);
        bool Div = mayTrapDivision(I);
        if (!(Pass == 0 ? Store : Pass == 1 ? Load : Div))
          continue;
        if ((Exempt && Exempt->count(&I)) || executesOnEveryIteration(&I, N))
          continue;
        if (Store) {
          Why = "store executes only under a condition: the device would "
                "write every element";
          return false;
        }
        if (Load) {
          auto *LI = cast<LoadInst>(&I);
          if (N.depth() == 1 && LI->isSimple() &&
              isDereferenceableAndAlignedInLoop(LI, N.Loops.front(), SE, DT))
            continue;
          Why = "load executes only under a condition: the device would read "
                "elements the loop does not read";
          return false;
        }
        Why = "integer division executes only under a condition: the device "
              "would divide where the loop does not (by zero)";
        return false;
      }
  return true;
}

bool triangleOuterLoads(const NestInfo &N, ScalarEvolution &SE, DominatorTree &DT,
                        SmallPtrSetImpl<Instruction *> &Exempt, std::string &Why) {
  if (N.depth() != 2)
    return true;
  Loop *Outer = N.Loops[0], *Inner = N.Loops[1];
  BasicBlock *Pre = Inner->getLoopPreheader();
  for (BasicBlock *BB : Outer->blocks()) {
    bool InInner = Inner->contains(BB);
    for (Instruction &I : *BB) {
      auto *Ld = dyn_cast<LoadInst>(&I);
      if (!Ld || Exempt.count(Ld) ||
          any_of(N.Searches, [&](Loop *S) { return S->contains(Ld); }))
        continue;
      if (!InInner) {
        if (Pre && DT.dominates(BB, Pre))
          Exempt.insert(Ld);
        continue;
      }
      std::string Ignored;
      auto A = analyzeAccess(Ld, N, SE, Ignored);
      if (!A) {
        Why = "a triangle's inner loop reads an array at a computed position";
        return false;
      }
      const SCEV *S0 = A->Strides[0], *S1 = A->Strides[1];
      bool Up = SE.isKnownNonNegative(S0) && SE.isKnownNonNegative(S1);
      bool Down = SE.isKnownNonPositive(S0) && SE.isKnownNonPositive(S1);
      if (!Up && !Down) {
        Why = "a triangle's inner load has strides of unknown or opposite signs over the "
              "rows and the columns: the rectangle around the triangle could read "
              "elements the loop does not";
        return false;
      }
    }
  }
  return true;
}

} // namespace idiom
