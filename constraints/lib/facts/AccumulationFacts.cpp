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

bool isChainCounter(PHINode &P, const Loop *L, ScalarEvolution &SE) {
  auto *AR = P.getType()->isIntegerTy() && SE.isSCEVable(P.getType())
                 ? dyn_cast<SCEVAddRecExpr>(SE.getSCEV(&P))
                 : nullptr;
  return AR && AR->getLoop() == L && AR->isAffine();
}

bool collectNestMemoryOps(const NestInfo &N,
                          SmallVectorImpl<LoadInst *> &Loads,
                          SmallVectorImpl<StoreInst *> &Stores,
                          std::string &Why) {
  Loop *Outer = N.Loops.front();
  for (BasicBlock *BB : Outer->blocks())
    for (Instruction &I : *BB) {
      for (User *U : I.users())
        if (auto *UI = dyn_cast<Instruction>(U); UI && !Outer->contains(UI)) {
          Why = "a value computed in the nest is used after it";
          return false;
        }
      if (auto *L = dyn_cast<LoadInst>(&I)) {
        if (!L->isSimple()) {
          Why = "the nest has a volatile or atomic load";
          return false;
        }
        Loads.push_back(L);
      } else if (auto *S = dyn_cast<StoreInst>(&I)) {
        if (!S->isSimple()) {
          Why = "the nest has a volatile or atomic store";
          return false;
        }
        Stores.push_back(S);
      } else if (isa<CallBase>(I)) {
        if (!isPureOrErrnoCall(&I)) {
          Why = "the nest calls a function that may have side effects other "
                "than errno";
          return false;
        }
      } else if (I.mayReadOrWriteMemory()) {
        Why = "the nest has a memory operation that is not a simple load "
              "or store";
        return false;
      }
    }
  return true;
}

bool addAccumulationInput(
    LoadInst *L, const NestInfo &N, ScalarEvolution &SE,
    ArrayRef<const Value *> Written, unsigned KLoop, const char *WrittenWhy,
    SmallVectorImpl<AccumulationInput> &Inputs,
    SmallVectorImpl<std::pair<LoadInst *, unsigned>> &InputLoads,
    std::string &Why) {
  std::string W;
  auto A = analyzeChainAccess(L, N, SE, W);
  if (!A) {
    Why = "a load of the nest: " + W;
    return false;
  }
  if (is_contained(Written, A->Base)) {
    Why = WrittenWhy;
    return false;
  }
  if (!A->Offset) {
    Why = "a load's offset is not a whole number of elements";
    return false;
  }
  SmallVector<unsigned, 3> V = A->varyingLoops();
  AccumulationInputKind K = V.size() == 2 ? AccumulationInputKind::Matrix
                            : V.size() == 1 && V[0] == KLoop
                                ? AccumulationInputKind::Outer
                                : AccumulationInputKind::Inner;
  unsigned Slot = Inputs.size();
  for (unsigned I = 0; I < Inputs.size(); ++I)
    if (SE.getSCEV(cast<LoadInst>(Inputs[I].Access.Inst)->getPointerOperand()) ==
            SE.getSCEV(L->getPointerOperand()) &&
        Inputs[I].Access.ElemTy == A->ElemTy)
      Slot = I;
  if (Slot == Inputs.size())
    Inputs.push_back({*A, K});
  InputLoads.push_back({L, Slot});
  return true;
}

std::optional<AccumulationRoles> analyzeOuterAccumulation(const NestInfo &N,
                                                          ScalarEvolution &SE,
                                                          std::string &Why) {
  if (N.depth() != 2) {
    Why = "not a chain of two loops";
    return std::nullopt;
  }
  Loop *Inner = N.Loops[1];
  // Only counters are carried (their values address memory or are read as
  // start + step * index), and nothing computed in the nest is used after
  // it: the stores are the nest's only effect.
  for (Loop *L : N.Loops)
    for (PHINode &P : L->getHeader()->phis())
      if (!isChainCounter(P, L, SE)) {
        Why = "the nest carries a value other than counters (a scalar "
              "accumulator or a recurrence)";
        return std::nullopt;
      }
  AccumulationRoles R;
  SmallVector<LoadInst *, 16> Loads;
  SmallVector<StoreInst *, 4> Stores;
  if (!collectNestMemoryOps(N, Loads, Stores, Why))
    return std::nullopt;
  for (StoreInst *S : Stores) {
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
  SmallVector<const Value *, 2> Written;
  for (const AccumulatorRole &Q : R.Accumulators)
    Written.push_back(Q.Store.Base);
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
    if (!addAccumulationInput(
            L, N, SE, Written, 0,
            "the update reads the accumulator array at another element than "
            "the one it updates (Q[x] += f(Q[y]))",
            R.Inputs, R.InputLoads, Why))
      return std::nullopt;
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
