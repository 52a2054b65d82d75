//===- ColumnReductionFacts.cpp - Roles of a column reduction -------------===//

#include "idiom/Constraints/ColumnReductionFacts.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace idiom {

namespace {
/// The blocks of \p Outer that run after its subloop \p Inner in one
/// iteration: reachable from Inner's exit without passing Outer's header.
SmallPtrSet<const BasicBlock *, 8> blocksAfter(const Loop *Outer,
                                               const Loop *Inner) {
  SmallPtrSet<const BasicBlock *, 8> After;
  SmallVector<const BasicBlock *, 8> Work;
  if (const BasicBlock *E = Inner->getExitBlock())
    Work.push_back(E);
  while (!Work.empty()) {
    const BasicBlock *B = Work.pop_back_val();
    if (B == Outer->getHeader() || !Outer->contains(B) || Inner->contains(B) ||
        !After.insert(B).second)
      continue;
    for (const BasicBlock *S : successors(B))
      Work.push_back(S);
  }
  return After;
}
} // namespace

std::optional<ColumnReductionRoles>
analyzeColumnReduction(const NestInfo &N, ScalarEvolution &SE,
                       std::string &Why) {
  if (N.depth() != 2) {
    Why = "not a chain of two loops";
    return std::nullopt;
  }
  Loop *Outer = N.Loops[0], *Inner = N.Loops[1];
  ColumnReductionRoles R;
  for (PHINode &P : Outer->getHeader()->phis())
    if (!isChainCounter(P, Outer, SE)) {
      Why = "the loop over the outputs carries a value other than counters "
            "(a recurrence across columns)";
      return std::nullopt;
    }
  BasicBlock *Pre = Inner->getLoopPreheader(), *Latch = Inner->getLoopLatch();
  for (PHINode &P : Inner->getHeader()->phis()) {
    if (isChainCounter(P, Inner, SE))
      continue;
    if (!Pre || !Latch || P.getNumIncomingValues() != 2) {
      Why = "an accumulator of the inner loop has no single start and update";
      return std::nullopt;
    }
    Value *Step = P.getIncomingValueForBlock(Latch);
    auto *SI = dyn_cast<Instruction>(Step);
    if (!SI || !Inner->contains(SI)) {
      Why = "an accumulator of the inner loop is not updated in it";
      return std::nullopt;
    }
    R.Accumulators.push_back({&P, P.getIncomingValueForBlock(Pre), Step});
  }
  if (R.Accumulators.empty()) {
    Why = "the inner loop carries no accumulator";
    return std::nullopt;
  }
  SmallVector<LoadInst *, 16> Loads;
  SmallVector<StoreInst *, 4> Stores;
  if (!collectNestMemoryOps(N, Loads, Stores, Why))
    return std::nullopt;
  SmallPtrSet<const BasicBlock *, 8> After = blocksAfter(Outer, Inner);
  // Stores: grouped by element, each group one output.
  struct Group {
    StoreInst *Running = nullptr, *Epilogue = nullptr;
    SmallVector<StoreInst *, 2> Prologue;
    ChainAccess A;
  };
  SmallVector<Group, 2> Groups;
  for (StoreInst *S : Stores) {
    std::string W;
    auto A = analyzeChainAccess(S, N, SE, W);
    if (!A) {
      Why = "an output store: " + W;
      return std::nullopt;
    }
    SmallVector<unsigned, 3> V = A->varyingLoops();
    if (V.size() != 1 || V[0] != 0) {
      Why = "a store of the nest writes an element that does not move with "
            "the outer loop j alone (out[j]): the columns are not "
            "independent";
      return std::nullopt;
    }
    auto *Stride = dyn_cast<SCEVConstant>(A->Strides[0]);
    if (!Stride || !A->Offset) {
      Why = "the output's stride along j is not a constant number of "
            "elements";
      return std::nullopt;
    }
    Group *G = nullptr;
    for (Group &X : Groups)
      if (accessesSameElement(S, cast<StoreInst>(X.A.Inst), SE))
        G = &X;
      else if (X.A.Base == A->Base) {
        Why = "two stores write different elements of the array of one "
              "base pointer in one column (out[j] and another element)";
        return std::nullopt;
      }
    if (!G) {
      Groups.push_back({});
      G = &Groups.back();
      G->A = *A;
    }
    if (Inner->contains(S)) {
      if (G->Running) {
        Why = "the inner loop stores an output element twice";
        return std::nullopt;
      }
      G->Running = S;
    } else if (After.count(S->getParent())) {
      if (G->Epilogue) {
        Why = "an output element is stored twice after the inner loop";
        return std::nullopt;
      }
      G->Epilogue = S;
      G->A = *A;
    } else {
      G->Prologue.push_back(S);
    }
  }
  // Each output's final store and value.
  for (Group &G : Groups) {
    ColumnOutput O;
    O.Superseded.append(G.Prologue.begin(), G.Prologue.end());
    int Running = -1;
    if (G.Running) {
      for (unsigned Q = 0; Q < R.Accumulators.size(); ++Q)
        if (G.Running->getValueOperand() == R.Accumulators[Q].Step)
          Running = Q;
      if (Running < 0) {
        Why = "a store in the inner loop stores a value other than an "
              "accumulator's update";
        return std::nullopt;
      }
    }
    if (G.Epilogue) {
      if (G.Running)
        O.Superseded.push_back(G.Running);
      O.Value = G.Epilogue->getValueOperand();
    } else if (G.Running) {
      // The running store's last value is the accumulator's final value
      // (the inner loop runs at least once whenever the nest's guards hold).
      O.Value = G.Running->getValueOperand();
    } else {
      // Only a store before the inner loop: out[j] = f(j-inputs).
      if (G.Prologue.size() != 1) {
        Why = "an output element is stored twice before the inner loop";
        return std::nullopt;
      }
      O.Value = G.Prologue.back()->getValueOperand();
      O.Superseded.pop_back();
    }
    O.Store = G.A;
    O.Store.Inst = G.Epilogue  ? G.Epilogue
                   : G.Running ? G.Running
                               : G.Prologue.back();
    R.Outputs.push_back(O);
  }
  if (R.Outputs.empty()) {
    Why = "the nest stores nothing";
    return std::nullopt;
  }
  // Loads: an output element only as an accumulator's start; other arrays
  // are inputs the nest does not write.
  SmallVector<const Value *, 2> Written;
  for (const ColumnOutput &O : R.Outputs)
    Written.push_back(O.Store.Base);
  for (LoadInst *L : Loads) {
    ColumnOutput *Own = nullptr;
    for (ColumnOutput &O : R.Outputs)
      if (accessesSameElement(L, cast<StoreInst>(O.Store.Inst), SE))
        Own = &O;
    if (Own) {
      bool IsStart = false;
      for (const ColumnAccumulator &Q : R.Accumulators)
        IsStart |= Q.Init == L;
      bool HasPrologue = false;
      for (StoreInst *S : Own->Superseded)
        HasPrologue |= !Inner->contains(S) && !After.count(S->getParent());
      if (Inner->contains(L) || After.count(L->getParent()) || !IsStart ||
          HasPrologue || Own->OldLoad || !L->hasOneUse()) {
        Why = "the output element is read other than as the start of its "
              "accumulator before the inner loop";
        return std::nullopt;
      }
      Own->OldLoad = L;
      continue;
    }
    if (!addAccumulationInput(
            L, N, SE, Written, 1,
            "the nest reads an output array at another element than the one "
            "it writes (out[j] = f(out[j'])): columns depend on each other",
            R.Inputs, R.InputLoads, Why))
      return std::nullopt;
  }
  // An accumulator's start is computed before the inner loop; its final
  // value is read after it only through the values isFinalValueOf accepts.
  for (const ColumnAccumulator &Q : R.Accumulators)
    if (auto *I = dyn_cast<Instruction>(Q.Init);
        I && Outer->contains(I) && After.count(I->getParent())) {
      Why = "an accumulator starts from a value computed after its loop";
      return std::nullopt;
    }
  SmallVector<Value *, 16> Work;
  for (const ColumnOutput &O : R.Outputs)
    if (!Inner->contains(cast<Instruction>(O.Store.Inst)))
      Work.push_back(O.Value);
  SmallPtrSet<Value *, 32> Seen;
  while (!Work.empty()) {
    Value *V = Work.pop_back_val();
    auto *I = dyn_cast<Instruction>(V);
    if (!I || !Outer->contains(I) || !Seen.insert(V).second)
      continue;
    int Final = -1;
    for (unsigned Q = 0; Q < R.Accumulators.size(); ++Q)
      if (isFinalValueOf(V, R.Accumulators[Q].Phi, Inner))
        Final = Q;
    if (Final >= 0) {
      R.Finals.push_back({V, unsigned(Final)});
      continue;
    }
    if (Inner->contains(I)) {
      Why = "a store after the inner loop reads a value of the loop other "
            "than an accumulator's final value";
      return std::nullopt;
    }
    if (!isa<LoadInst>(I))
      Work.append(I->op_begin(), I->op_end());
  }
  return R;
}

} // namespace idiom
