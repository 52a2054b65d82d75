//===- HistogramAtoms.cpp - Atoms for histograms and small-array reductions ---===//
//
// Atoms over read-modify-write updates of arrays (HistogramFacts.h), used by
// constraints/specs/histogram.idl and array-reduction.idl. The language
// reference is the section "Built-in idioms: histograms and array
// reductions" of docs/ConstraintLanguage.md.
//
//===----------------------------------------------------------------------===//

#include "idiom/Constraints/BuiltinAtoms.h"
#include "idiom/Constraints/FactCache.h"
#include "idiom/Constraints/FnAtom.h"
#include "idiom/Constraints/HistogramFacts.h"
#include "idiom/Constraints/ValueText.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/raw_ostream.h"
#include <functional>
#include <map>

using namespace llvm;

namespace idiom::constraints {
namespace {

using SolveFn = FnAtom::SolveFn;

std::vector<StoreInst *> storesIn(Loop *L) {
  std::vector<StoreInst *> Out;
  for (BasicBlock *BB : L->blocks())
    for (Instruction &I : *BB)
      if (auto *S = dyn_cast<StoreInst>(&I))
        Out.push_back(S);
  return Out;
}

/// The nest of a histogram or array reduction: one or two loops (analyzeNest
/// also gives 3-D grids, which only maps take).
std::optional<NestInfo> binNest(MatchEnv &Env, Loop *L, std::string &Why) {
  auto N = cachedNest(Env, L, Why);
  if (N && N->depth() > 2) {
    Why = "a nest of three loops: histograms and array reductions take one or two";
    return std::nullopt;
  }
  return N;
}

/// A test over (I, loop) where I must be an instruction of type T and the
/// loop a nest of one or two loops (binNest).
template <typename T>
void addNestTest(
    AtomRegistry &R, const char *Name, const char *Doc, const char *NotT,
    std::function<bool(MatchEnv &, T *, const NestInfo &, std::string &)> Test) {
  R.add(std::make_unique<FnAtom>(
      Name, 2, 0, Doc,
      [Test, NotT](MatchEnv &Env, MutableArrayRef<Term> A,
                   function_ref<bool()> Y, std::string &Why) {
        Loop *L = asLoop(A[1]);
        if (!L) {
          Why = "argument 2 is not a loop";
          return;
        }
        auto *I = dyn_cast_or_null<T>(asValue(A[0]));
        if (!I) {
          Why = NotT;
          return;
        }
        auto N = binNest(Env, L, Why);
        if (N && Test(Env, I, *N, Why))
          Y();
      }));
}

/// A test over one loop that is a nest.
void addNestLoopTest(
    AtomRegistry &R, const char *Name, const char *Doc,
    std::function<bool(MatchEnv &, const NestInfo &, std::string &)> Test) {
  R.add(std::make_unique<FnAtom>(
      Name, 1, 0, Doc,
      [Test](MatchEnv &Env, MutableArrayRef<Term> A, function_ref<bool()> Y,
             std::string &Why) {
        Loop *L = asLoop(A[0]);
        if (!L) {
          Why = "argument is not a loop";
          return;
        }
        auto N = binNest(Env, L, Why);
        if (N && Test(Env, *N, Why))
          Y();
      }));
}

/// Generates (or checks) A[I] as the value \p V.
template <typename Fn>
void yieldTerm(MutableArrayRef<Term> A, unsigned I, Term V,
               function_ref<bool()> Y, std::string &Why, Fn Mismatch) {
  if (A[I].isBound()) {
    if (A[I] == V)
      Y();
    else
      Why = Mismatch();
    return;
  }
  A[I] = V;
  Y();
  A[I] = Term();
}

/// The operator of update store \p St, proved with Z3.
Proof updateOperator(MatchEnv &Env, StoreInst *St, const NestInfo &N,
                     UpdateOperator &Op, BinUpdateInfo *Info,
                     std::string &Why) {
  auto U = analyzeUpdate(St, N, Env.SE, Env.DT, Why);
  if (!U)
    return Proof::Unknown;
  if (Info)
    *Info = *U;
  return proveUpdateOperator(*U, Env.Z3TimeoutMs, Op, Why, Env.Proofs);
}

} // namespace

void registerHistogramAtoms(AtomRegistry &R) {
  addNestTest<StoreInst>(
      R, "BinUpdate",
      "st, loop: st stores F(b, x) into the element that b was loaded from "
      "earlier in the same iteration (nothing may write memory in between); "
      "b is used only by F and by the guards of st",
      "not a store",
      [](MatchEnv &Env, StoreInst *St, const NestInfo &N, std::string &Why) {
        return analyzeBinUpdate(St, N, Env.SE, Env.DT, Why).has_value();
      });
  addNestTest<StoreInst>(
      R, "AccumulatorStore",
      "st, loop: st stores, on every iteration of a single loop and to a "
      "loop-invariant address, the next value F(acc, x) of a header phi acc "
      "(an array element kept in a register)",
      "not a store",
      [](MatchEnv &Env, StoreInst *St, const NestInfo &N, std::string &Why) {
        return analyzeStoredAccumulator(St, N, Env.SE, Env.DT, Why).has_value();
      });
  addNestTest<PHINode>(
      R, "StoredAccumulator",
      "phi, loop: phi is the accumulator of an AccumulatorStore of loop",
      "not a phi",
      [](MatchEnv &Env, PHINode *P, const NestInfo &N, std::string &Why) {
        for (StoreInst *St : storesIn(N.Loops.front())) {
          std::string W;
          auto U = analyzeStoredAccumulator(St, N, Env.SE, Env.DT, W);
          if (U && U->Acc == P)
            return true;
        }
        if (Why.empty())
          Why = "phi is neither an induction variable nor an accumulator "
                "stored to memory every iteration";
        return false;
      });
  addNestTest<LoadInst>(
      R, "BinLoad", "ld, loop: ld is the load b of a BinUpdate of loop",
      "not a load",
      [](MatchEnv &Env, LoadInst *Ld, const NestInfo &N, std::string &Why) {
        Value *P = Ld->getPointerOperand();
        for (StoreInst *St : storesIn(N.Loops.front())) {
          Value *SP = St->getPointerOperand();
          if (SP != P && (!Env.SE.isSCEVable(SP->getType()) ||
                          Env.SE.getSCEV(SP) != Env.SE.getSCEV(P)))
            continue; // not the same element: cannot be its bin load
          std::string W;
          auto U = analyzeBinUpdate(St, N, Env.SE, Env.DT, W);
          if (U && U->Acc == Ld)
            return true;
        }
        Why = "load is not the bin load of an update";
        return false;
      });
  addNestTest<LoadInst>(
      R, "InputLoad",
      "ld, loop: ld reads an array through a base pointer that no store of "
      "loop writes through (other pointers are checked for overlap at run "
      "time)",
      "not a load",
      [](MatchEnv &Env, LoadInst *Ld, const NestInfo &N, std::string &Why) {
        return isInputLoad(Ld, N, Env.SE, Why);
      });
  addNestTest<StoreInst>(
      R, "DataDependentIndex",
      "st, loop: the element index of st is computed in loop from at least "
      "one loaded value by pure operations, e.g. (int)(x[i]*n), key[i] >> s, "
      "img[i]",
      "not a store",
      [](MatchEnv &Env, StoreInst *St, const NestInfo &N, std::string &Why) {
        return isDataDependentIndex(St, N, Env.SE, Why);
      });
  addNestTest<StoreInst>(
      R, "OuterInvariantIndex",
      "st, loop: the address of st is the same in every iteration of the "
      "outermost loop; in a two-loop nest it may step by a constant in an "
      "inner loop of constant trip count",
      "not a store",
      [](MatchEnv &Env, StoreInst *St, const NestInfo &N, std::string &Why) {
        return isOuterInvariantIndex(St, N, Env.SE, Why);
      });
  addNestTest<StoreInst>(
      R, "AssocCommUpdate",
      "st, loop: st is a BinUpdate or AccumulatorStore and Z3 proves "
      "F(b, x) = b (+) g(x) for an associative, commutative (+) with an "
      "identity (add, uadd.sat, mul, and, or, xor, min/max; fadd, fmul, fmin, "
      "fmax over the reals)",
      "not a store",
      [](MatchEnv &Env, StoreInst *St, const NestInfo &N, std::string &Why) {
        UpdateOperator Op;
        return updateOperator(Env, St, N, Op, nullptr, Why) == Proof::Proven;
      });
  addNestLoopTest(
      R, "OneOperatorPerArray",
      "loop: all updates of one array in loop use the same operator and "
      "element type",
      [](MatchEnv &Env, const NestInfo &N, std::string &Why) {
        std::map<Value *, std::pair<std::string, Type *>> Seen;
        for (StoreInst *St : storesIn(N.Loops.front())) {
          UpdateOperator Op;
          BinUpdateInfo U;
          if (updateOperator(Env, St, N, Op, &U, Why) != Proof::Proven)
            return false;
          auto [It, New] = Seen.insert({U.Base, {Op.name(), U.ElemTy}});
          if (!New && (It->second.first != Op.name() ||
                       It->second.second != U.ElemTy)) {
            Why = operandText(U.Base) + " is updated with two operators or types: " +
                  It->second.first + " and " + Op.name();
            return false;
          }
        }
        return true;
      });
  R.add(std::make_unique<FnAtom>(
      "FewElementsPerArray", 2, 0,
      "loop, n: the stores of loop write fewer than n distinct elements of "
      "each array (constant offsets from each other)",
      [](MatchEnv &Env, MutableArrayRef<Term> A, function_ref<bool()> Y,
         std::string &Why) {
        Loop *L = asLoop(A[0]);
        if (!L || A[1].K != Term::Kind::Int) {
          Why = "arguments are not (loop, integer)";
          return;
        }
        auto N = binNest(Env, L, Why);
        if (N && fewElementsPerArray(*N, Env.SE, A[1].I, Why))
          Y();
      }));
  R.add(std::make_unique<FnAtom>(
      "BinArray", 2, 2,
      "m, base: m is a load or store and base is the base pointer of the "
      "array it accesses (argument, global or alloca; SCEV pointer base)",
      [](MatchEnv &Env, MutableArrayRef<Term> A, function_ref<bool()> Y,
         std::string &Why) {
        auto *I = dyn_cast_or_null<Instruction>(asValue(A[0]));
        Value *B = I && (isa<LoadInst>(I) || isa<StoreInst>(I))
                       ? arrayBaseOf(I, Env.SE)
                       : nullptr;
        if (!B) {
          Why = "not a load or store with a single base pointer";
          return;
        }
        yieldTerm(A, 1, Term::value(B), Y, Why,
                  [] { return std::string("array has another base pointer"); });
      }));
  R.add(std::make_unique<FnAtom>(
      "KnownBinCount", 2, 2,
      "st, n: n is the number of elements store st can update, known at "
      "compile time from the array's type (global or alloca) or the index's "
      "value range (up to 2^24)",
      [](MatchEnv &Env, MutableArrayRef<Term> A, function_ref<bool()> Y,
         std::string &Why) {
        auto *St = dyn_cast_or_null<StoreInst>(asValue(A[0]));
        if (!St) {
          Why = "not a store";
          return;
        }
        auto N = knownBinCount(St, Env.SE, Why);
        if (!N)
          return;
        yieldTerm(A, 1, Term::integer(int64_t(*N)), Y, Why,
                  [] { return std::string("bin count differs"); });
      }));
}

} // namespace idiom::constraints
