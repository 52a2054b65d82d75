//===- AccumulationFacts.cpp - Roles of an outer-loop accumulation --------===//

#include "idiom/Constraints/AccumulationFacts.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace idiom {

namespace {
/// True when \p V is, or is computed in \p L from, the load \p Ld.
bool readsLoad(Value *V, LoadInst *Ld, const Loop *L, unsigned Depth = 0) {
  if (V == Ld)
    return true;
  auto *I = dyn_cast<Instruction>(V);
  if (!I || !L->contains(I) || isa<PHINode>(I) || Depth > 64)
    return false;
  for (Value *Op : I->operands())
    if (readsLoad(Op, Ld, L, Depth + 1))
      return true;
  return false;
}
} // namespace

std::optional<AccumulationRoles> analyzeOuterAccumulation(const NestInfo &N,
                                                          ScalarEvolution &SE,
                                                          std::string &Why) {
  if (N.depth() != 2) {
    Why = "not a chain of two loops";
    return std::nullopt;
  }
  Loop *Outer = N.Loops[0], *Inner = N.Loops[1];
  // Only counters are carried (their values address memory or are read as
  // start + step * index), and nothing computed in the nest is used after
  // it: the stores are the nest's only effect.
  for (Loop *L : N.Loops)
    for (PHINode &P : L->getHeader()->phis()) {
      auto *AR = SE.isSCEVable(P.getType())
                     ? dyn_cast<SCEVAddRecExpr>(SE.getSCEV(&P))
                     : nullptr;
      if (!P.getType()->isIntegerTy() || !AR || AR->getLoop() != L ||
          !AR->isAffine()) {
        Why = "the nest carries a value other than counters (a scalar "
              "accumulator or a recurrence)";
        return std::nullopt;
      }
    }
  for (BasicBlock *BB : Outer->blocks())
    for (Instruction &I : *BB)
      for (User *U : I.users())
        if (auto *UI = dyn_cast<Instruction>(U); UI && !Outer->contains(UI)) {
          Why = "a value computed in the nest is used after it";
          return std::nullopt;
        }
  AccumulationRoles R;
  SmallVector<LoadInst *, 16> Loads;
  for (BasicBlock *BB : Outer->blocks())
    for (Instruction &I : *BB) {
      if (auto *L = dyn_cast<LoadInst>(&I)) {
        if (!L->isSimple()) {
          Why = "the nest has a volatile or atomic load";
          return std::nullopt;
        }
        Loads.push_back(L);
        continue;
      }
      if (isa<CallBase>(I)) {
        if (!isPureOrErrnoCall(&I)) {
          Why = "the nest calls a function that may have side effects other "
                "than errno";
          return std::nullopt;
        }
        continue;
      }
      auto *S = dyn_cast<StoreInst>(&I);
      if (!S) {
        if (I.mayReadOrWriteMemory()) {
          Why = "the nest has a memory operation that is not a simple load "
                "or store";
          return std::nullopt;
        }
        continue;
      }
      if (!S->isSimple()) {
        Why = "the nest has a volatile or atomic store";
        return std::nullopt;
      }
      if (!Inner->contains(S)) {
        Why = "a store of the nest is outside the inner loop x (only "
              "accumulations Q[x] += f(k, x) in the inner loop)";
        return std::nullopt;
      }
      std::string W;
      auto A = analyzeChainAccess(S, N, SE, W);
      if (!A) {
        Why = "an accumulator store: " + W;
        return std::nullopt;
      }
      SmallVector<unsigned, 3> V = A->varyingLoops();
      if (llvm::is_contained(V, 0u)) {
        Why = "the accumulator index depends on the outer loop k (Q[x+k] or "
              "Q[k]): iterations of k update different elements";
        return std::nullopt;
      }
      if (V.size() != 1) {
        Why = "a store of the nest writes one element for every x (its index "
              "does not vary with the inner loop)";
        return std::nullopt;
      }
      auto *Stride = dyn_cast<SCEVConstant>(A->Strides[1]);
      if (!Stride || !A->Offset) {
        Why = "the accumulator's stride along x is not a constant number of "
              "elements";
        return std::nullopt;
      }
      for (const AccumulatorRole &Q : R.Accumulators)
        if (Q.Store.Base == A->Base) {
          Why = "two accumulators share the array of one base pointer";
          return std::nullopt;
        }
      R.Accumulators.push_back({*A, {}});
    }
  if (R.Accumulators.empty()) {
    Why = "the nest stores nothing";
    return std::nullopt;
  }
  for (LoadInst *L : Loads) {
    AccumulatorRole *Own = nullptr;
    for (AccumulatorRole &Q : R.Accumulators)
      if (accessesSameElement(L, cast<StoreInst>(Q.Store.Inst), SE))
        Own = &Q;
    if (Own) {
      // The old element: read in the same iteration, before the store, by
      // the stored value only.
      auto *S = cast<StoreInst>(Own->Store.Inst);
      if (L->getParent() != S->getParent() || !L->comesBefore(S) ||
          !readsLoad(S->getValueOperand(), L, Inner)) {
        Why = "the accumulator element is read other than by its own update "
              "(Q[x] = F(Q[x], ...))";
        return std::nullopt;
      }
      Own->OldLoads.push_back(L);
      continue;
    }
    std::string W;
    auto A = analyzeChainAccess(L, N, SE, W);
    if (!A) {
      Why = "a load of the nest: " + W;
      return std::nullopt;
    }
    for (const AccumulatorRole &Q : R.Accumulators)
      if (Q.Store.Base == A->Base) {
        Why = "the update reads the accumulator array at another element "
              "than the one it updates (Q[x] += f(Q[y]))";
        return std::nullopt;
      }
    if (!A->Offset) {
      Why = "a load's offset is not a whole number of elements";
      return std::nullopt;
    }
    SmallVector<unsigned, 3> V = A->varyingLoops();
    AccumulationInputKind K = V.size() == 2 ? AccumulationInputKind::Matrix
                              : V.size() == 1 && V[0] == 0
                                  ? AccumulationInputKind::Outer
                                  : AccumulationInputKind::Inner;
    unsigned Slot = R.Inputs.size();
    for (unsigned I = 0; I < R.Inputs.size(); ++I)
      if (SE.getSCEV(
              cast<LoadInst>(R.Inputs[I].Access.Inst)->getPointerOperand()) ==
              SE.getSCEV(L->getPointerOperand()) &&
          R.Inputs[I].Access.ElemTy == A->ElemTy)
        Slot = I;
    if (Slot == R.Inputs.size())
      R.Inputs.push_back({*A, K});
    R.InputLoads.push_back({L, Slot});
  }
  for (const AccumulatorRole &Q : R.Accumulators)
    if (Q.OldLoads.empty()) {
      Why = "a store of the nest does not accumulate: it overwrites its "
            "element without reading it (Q[x] = f, not Q[x] = F(Q[x], ...))";
      return std::nullopt;
    }
  return R;
}

} // namespace idiom
