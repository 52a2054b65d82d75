//===- StencilTimeLoop.cpp - Time loops around a stencil step -------------===//

#include "idiom/Constraints/StencilFacts.h"
#include "idiom/Constraints/ValueText.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;

namespace idiom {

SmallVector<std::pair<PHINode *, PHINode *>, 2> bufferSwaps(Loop *L) {
  SmallVector<std::pair<PHINode *, PHINode *>, 2> Out;
  BasicBlock *Latch = L->getLoopLatch();
  if (!Latch || !L->getLoopPreheader())
    return Out;
  for (PHINode &P : L->getHeader()->phis()) {
    if (!P.getType()->isPointerTy() || P.getBasicBlockIndex(Latch) < 0)
      continue;
    auto *Q = dyn_cast<PHINode>(P.getIncomingValueForBlock(Latch));
    if (Q && Q != &P && Q->getParent() == P.getParent() &&
        Q->getIncomingValueForBlock(Latch) == &P)
      Out.push_back({&P, Q});
  }
  return Out;
}

bool isTimeLoop(Loop *L, ScalarEvolution &SE, std::string &Why) {
  DenseMap<const Value *, const SCEV *> Repaired;
  if (!countedLoopIV(L, L, SE, Why, &Repaired))
    return false;
  auto Swaps = bufferSwaps(L);
  for (PHINode &P : L->getHeader()->phis()) {
    auto *AR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(&P));
    if (P.getType()->isIntegerTy() &&
        (Repaired.count(&P) || (AR && AR->getLoop() == L)))
      continue;
    if (llvm::any_of(Swaps, [&](auto &S) { return S.first == &P; }))
      continue;
    Why = "time loop carries a value other than its counter and swapped "
          "buffers: " +
          valueText(&P);
    return false;
  }
  return true;
}

bool isStencilCallStep(Loop *L, CallInst *C, Value *Cur, Value *Next,
                       std::string &Why) {
  if (!L->getSubLoops().empty()) {
    Why = "time loop body contains a loop, not only a call";
    return false;
  }
  for (BasicBlock *BB : L->blocks())
    for (Instruction &I : *BB)
      if (&I != C && isMemoryWork(I)) {
        Why = "time loop body does more than call the stencil: " +
              valueText(&I);
        return false;
      }
  Function *Callee = C->getCalledFunction();
  if (!Callee || Callee->isDeclaration() || Callee == C->getFunction() ||
      Callee->isVarArg()) {
    Why = "the time step calls no function defined in this module: " +
          valueText(C);
    return false;
  }
  // Fresh analyses of the callee: the pass manager's are for the caller.
  DominatorTree DT(*Callee);
  LoopInfo LI(DT);
  TargetLibraryInfoImpl TLII(Triple(Callee->getParent()->getTargetTriple()));
  TargetLibraryInfo TLI(TLII, Callee);
  AssumptionCache AC(*Callee);
  ScalarEvolution SE(*Callee, TLI, AC, DT, LI);
  if (LI.getTopLevelLoops().size() != 1) {
    Why = "the body of @" + Callee->getName().str() + " is not one loop nest";
    return false;
  }
  Loop *Top = LI.getTopLevelLoops().front();
  for (BasicBlock &BB : *Callee)
    for (Instruction &I : BB)
      if (!Top->contains(&I) && isMemoryWork(I) && !isa<LoadInst>(I)) {
        Why = "@" + Callee->getName().str() +
              " does more than its stencil nest: " + valueText(&I);
        return false;
      }
  std::string W;
  auto S = analyzeStencil(Top, SE, W);
  if (!S) {
    Why = "the loop of @" + Callee->getName().str() + " is not a stencil: " + W;
    return false;
  }
  auto ArgFor = [&](Value *Base) -> Value * {
    auto *A = dyn_cast<Argument>(Base);
    return A && A->getArgNo() < C->arg_size() ? C->getArgOperand(A->getArgNo())
                                              : nullptr;
  };
  for (const StencilAccess &Wr : S->Writes)
    if (ArgFor(Wr.Base) != Next) {
      Why = "@" + Callee->getName().str() + " writes " +
            operandText(Wr.Base) +
            ", not the parameter the time loop "
            "passes its next buffer " +
            operandText(Next) + " to";
      return false;
    }
  if (llvm::none_of(S->NeighbourBases,
                    [&](Value *B) { return ArgFor(B) == Cur; })) {
    Why = "@" + Callee->getName().str() +
          " does not read neighbours through "
          "the parameter the time loop passes its current buffer " +
          operandText(Cur) + " to";
    return false;
  }
  return true;
}

} // namespace idiom
