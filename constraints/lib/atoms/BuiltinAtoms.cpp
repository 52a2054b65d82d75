//===- BuiltinAtoms.cpp - The atoms every spec may use --------------------===//

#include "idiom/Constraints/BuiltinAtoms.h"
#include "idiom/Constraints/GatherFacts.h"
#include "idiom/Constraints/LinearAlgebraFacts.h"
#include "idiom/Constraints/FactCache.h"
#include "idiom/Constraints/FnAtom.h"
#include "idiom/Constraints/LoopFacts.h"
#include "idiom/Constraints/Z3Checks.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Instructions.h"
#include <functional>

using namespace llvm;

namespace idiom::constraints {
namespace {

using SolveFn = FnAtom::SolveFn;

/// ": it carries the value stored in the previous iteration (...)" when the
/// value header phi \p P of a loop of \p N receives from the latch is stored
/// by the nest (a recurrence through memory: the nest reads, a point later,
/// an element it wrote); "" otherwise.
std::string carriedStoreText(PHINode *P, const NestInfo &N) {
  for (Loop *L : N.Loops) {
    if (L->getHeader() != P->getParent() || !L->getLoopLatch() ||
        P->getBasicBlockIndex(L->getLoopLatch()) < 0)
      continue;
    Value *V = P->getIncomingValueForBlock(L->getLoopLatch());
    for (User *U : V->users())
      if (auto *St = dyn_cast<StoreInst>(U);
          St && St->getValueOperand() == V && N.contains(St))
        return ": it carries the value stored in the previous iteration "
               "(a loop-carried dependence: the nest reads an element it "
               "wrote)";
  }
  return "";
}

/// A test over one loop argument.
void addLoopTest(AtomRegistry &R, const char *Name, const char *Doc,
                 std::function<bool(MatchEnv &, Loop *, std::string &)> Test) {
  R.add(std::make_unique<FnAtom>(
      Name, 1, 0, Doc,
      [Test](MatchEnv &Env, MutableArrayRef<Term> A, function_ref<bool()> Y,
             std::string &Why) {
        Loop *L = asLoop(A[0]);
        if (!L) {
          Why = "argument is not a loop";
          return;
        }
        if (Test(Env, L, Why))
          Y();
      }));
}

/// A relation (value, loop): checks a bound value against a loop.
void addValueLoopTest(
    AtomRegistry &R, const char *Name, const char *Doc,
    std::function<bool(MatchEnv &, Value *, Loop *, std::string &)> Test) {
  R.add(std::make_unique<FnAtom>(
      Name, 2, 0, Doc,
      [Test](MatchEnv &Env, MutableArrayRef<Term> A, function_ref<bool()> Y,
             std::string &Why) {
        Value *V = asValue(A[0]);
        Loop *L = asLoop(A[1]);
        if (!V || !L) {
          Why = "arguments are not (value, loop)";
          return;
        }
        if (Test(Env, V, L, Why))
          Y();
      }));
}

/// A generator (loop, x): enumerates x over what \p Gen lists; when x is
/// bound, checks membership.
void addLoopGenerator(AtomRegistry &R, const char *Name, const char *Doc,
                      std::function<std::vector<Value *>(Loop *)> Gen) {
  R.add(std::make_unique<FnAtom>(
      Name, 2, 2, Doc,
      [Gen, Name](MatchEnv &, MutableArrayRef<Term> A, function_ref<bool()> Y,
                  std::string &Why) {
        Loop *L = asLoop(A[0]);
        if (!L) {
          Why = "argument is not a loop";
          return;
        }
        std::vector<Term> Cands;
        for (Value *V : Gen(L))
          Cands.push_back(Term::value(V));
        if (!offerTerms(A, 1, Cands, Y))
          Why = std::string("no candidate for ") + Name;
      }));
}

std::vector<Value *> instructionsIn(Loop *L,
                                    std::function<bool(Instruction &)> P) {
  std::vector<Value *> Out;
  for (BasicBlock *BB : L->blocks())
    for (Instruction &I : *BB)
      if (P(I))
        Out.push_back(&I);
  return Out;
}

std::optional<NestInfo> nestOf(MatchEnv &Env, Loop *L, std::string &Why) {
  return cachedNest(Env, L, Why);
}

/// A relation (phi, loop) over the reduction analysis of phi.
void addReductionTest(
    AtomRegistry &R, const char *Name, const char *Doc,
    std::function<bool(MatchEnv &, const ReductionInfo &, std::string &)> Test) {
  addValueLoopTest(R, Name, Doc,
                   [Test](MatchEnv &Env, Value *V, Loop *L, std::string &Why) {
                     auto N = nestOf(Env, L, Why);
                     auto *P = dyn_cast<PHINode>(V);
                     if (!N || !P)
                       return false;
                     auto Red = analyzeReduction(P, *N, Why);
                     return Red && Test(Env, *Red, Why);
                   });
}

} // namespace

void registerBuiltinAtoms(AtomRegistry &R) {
  R.add(std::make_unique<FnAtom>(
      "Loop", 1, 1, "loop: a natural loop of the function (generates loops in preorder)",
      [](MatchEnv &Env, MutableArrayRef<Term> A, function_ref<bool()> Y,
         std::string &Why) {
        if (A[0].isBound()) {
          if (asLoop(A[0]))
            Y();
          else
            Why = "not a loop";
          return;
        }
        for (Loop *L : Env.LI.getLoopsInPreorder()) {
          A[0] = Term::loop(L);
          if (!Y())
            break;
        }
        A[0] = Term();
      }));
  addLoopTest(R, "Nest",
              "loop: a rectangular nest of one or two canonical loops "
              "(preheader, single latch and exit, computable trip count, "
              "affine induction variable whose step is a constant or "
              "invariant in the nest)",
              [](MatchEnv &Env, Loop *L, std::string &Why) {
                auto N = nestOf(Env, L, Why);
                return N && isPlainNest(*N, Why);
              });
  addLoopTest(R, "TriangularNest",
              "loop: a nest of two canonical loops whose inner loop starts a "
              "positive multiple of its step further on each outer iteration and "
              "ends at a fixed bound (for (j = i + 1; j < n; j++)), entered under "
              "a test of its count; the outer body may load inputs and the inner "
              "body may hold bisection searches (Parboil tpacf's triangle); or a "
              "chain of loops (loops between them allowed, as for RectangularNest) "
              "one of whose inner loops starts at a fixed value and runs a count "
              "that grows from a positive constant by a constant on each outer "
              "iteration (for (j = 0; j <= i; j++): SYRK's lower triangle)",
              [](MatchEnv &Env, Loop *L, std::string &Why) {
                std::string ChainWhy;
                auto C = analyzeLoopChain(L, loopChainDepth(L), Env.SE, ChainWhy,
                                          /*Triangle=*/true);
                if (C && C->TriLoop)
                  return true;
                auto N = nestOf(Env, L, Why);
                if (N && N->depth() == 2 && N->Skew > 0)
                  return true;
                if (N || C)
                  Why = "the inner loop's start does not move with the outer loop, "
                        "nor does the count of an inner loop grow with it";
                return false;
              });
  addLoopTest(R, "Innermost", "loop: contains no other loop",
              [](MatchEnv &, Loop *L, std::string &Why) {
                if (L->getSubLoops().empty())
                  return true;
                Why = "loop contains another loop";
                return false;
              });
  addLoopTest(R, "HasStores", "loop: some instruction of the loop stores to memory",
              [](MatchEnv &, Loop *L, std::string &Why) {
                for (BasicBlock *BB : L->blocks())
                  for (Instruction &I : *BB)
                    if (isa<StoreInst>(I))
                      return true;
                Why = "loop stores nothing";
                return false;
              });
  addLoopTest(R, "NoLiveOuts", "loop: no value computed in the loop is used after it",
              [](MatchEnv &, Loop *L, std::string &Why) {
                for (BasicBlock *BB : L->blocks())
                  for (Instruction &I : *BB)
                    for (User *U : I.users())
                      if (!L->contains(cast<Instruction>(U))) {
                        Why = "a value computed in the loop is used after it";
                        return false;
                      }
                return true;
              });
  addLoopTest(R, "LiveOutsAreReductions",
              "loop: every value used after the loop is a reduction's final value",
              [](MatchEnv &Env, Loop *L, std::string &Why) {
                auto N = nestOf(Env, L, Why);
                if (!N)
                  return false;
                for (BasicBlock *BB : L->blocks())
                  for (Instruction &I : *BB)
                    for (User *U : I.users()) {
                      if (L->contains(cast<Instruction>(U)))
                        continue;
                      bool IsRed = false;
                      for (PHINode &P : L->getHeader()->phis()) {
                        std::string W;
                        if (auto Red = analyzeReduction(&P, *N, W))
                          IsRed |= Red->result() == &I;
                        else if (auto Arg = analyzeArgIndex(&P, *N, Env.SE, W))
                          IsRed |= Arg->result() == &I;
                      }
                      if (!IsRed) {
                        Why = "a value other than a reduction is used after the loop";
                        return false;
                      }
                    }
                return true;
              });
  addLoopTest(R, "NoLoopCarriedDependence",
              "loop: no iteration writes an element another iteration reads "
              "or writes through the same base pointer (Z3; constant "
              "strides by arithmetic; symbolic outer strides by linear "
              "questions)",
              [](MatchEnv &Env, Loop *L, std::string &Why) {
                auto N = nestOf(Env, L, Why);
                if (!N)
                  return false;
                SmallVector<AffineAccess, 8> Accs;
                for (BasicBlock *BB : L->blocks())
                  for (Instruction &I : *BB)
                    if (isa<LoadInst>(I) || isa<StoreInst>(I)) {
                      auto A = analyzeAccess(&I, *N, Env.SE, Why);
                      if (!A) {
                        // A gather reads an array no store of the loop
                        // writes through its base (GatherFacts.h):
                        // no dependence through that pointer.
                        std::string W;
                        auto *Ld = dyn_cast<LoadInst>(&I);
                        if (Ld && analyzeGather(Ld, *N, Env.SE, W)) {
                          Why.clear();
                          continue;
                        }
                        return false;
                      }
                      Accs.push_back(*A);
                    }
                return proveNoLoopCarriedDependence(Accs, *N, Env.SE,
                                                    Env.Z3TimeoutMs, Why,
                                                    Env.Proofs) ==
                       Proof::Proven;
              });
  addLoopTest(
      R, "TriangularChain",
      "loop: loop and the one loop inside it are counted loops (one exit, "
      "trip counts SCEV computes) and the inner loop's start or trip count "
      "moves with loop's iteration (a triangle, not a rectangle)",
      [](MatchEnv &Env, Loop *L, std::string &Why) {
        ScalarEvolution &SE = Env.SE;
        if (L->getSubLoops().size() != 1 ||
            !L->getSubLoops()[0]->getSubLoops().empty()) {
          Why = "not a chain of two loops";
          return false;
        }
        Loop *In = L->getSubLoops()[0];
        for (Loop *X : {L, In}) {
          if (!X->getLoopPreheader() || !X->getExitingBlock()) {
            Why = X == L ? "the outer loop has more than one exit"
                         : "the inner loop has more than one exit";
            return false;
          }
          const SCEV *BTC = SE.getBackedgeTakenCount(X);
          if (isa<SCEVCouldNotCompute>(BTC)) {
            Why = X == L ? "the trip count of the outer loop is not computable"
                         : "the trip count of the inner loop is not computable";
            return false;
          }
        }
        if (!SE.isLoopInvariant(SE.getBackedgeTakenCount(L), L)) {
          Why = "the trip count of the outer loop is not computable";
          return false;
        }
        bool Moves = !SE.isLoopInvariant(SE.getBackedgeTakenCount(In), L);
        for (PHINode &P : In->getHeader()->phis())
          if (auto *AR = dyn_cast_or_null<SCEVAddRecExpr>(
                  SE.isSCEVable(P.getType()) ? SE.getSCEV(&P) : nullptr))
            if (AR->getLoop() == In && !SE.isLoopInvariant(AR->getStart(), L))
              Moves = true;
        if (!Moves) {
          Why = "the inner loop's bounds do not move with the outer loop (a "
                "rectangle)";
          return false;
        }
        return true;
      });
  // The dependence tests over a loop and the loops inside it (Z3Checks.h).
  struct DependenceTest {
    const char *Name, *Doc;
    Proof (*Prove)(Loop *, ScalarEvolution &, unsigned, std::string &);
  };
  for (const DependenceTest &T : {
           DependenceTest{
               "IndependentIterations",
               "loop: no iteration writes an element another iteration reads "
               "or writes through the same base pointer, over the accesses of "
               "the loop and of the loops inside it, whose bounds may move "
               "with the enclosing loops (triangular nests; Z3 over integers); "
               "a dependence is named with its two accesses and a witness",
               proveIndependentIterations},
           DependenceTest{
               "OnlyAntiDependences",
               "loop: neither loop nor a loop inside it has a loop-carried "
               "flow or output dependence (an iteration reading or writing an "
               "element that an earlier one wrote), but for an in-place "
               "accumulator (one address in every iteration); anti "
               "dependences allowed: the nest equals its out-of-place "
               "evaluation on the memory before it (Z3 over integers)",
               proveOnlyAntiDependences}}) {
    auto *Prove = T.Prove;
    addLoopTest(R, T.Name, T.Doc,
                [Prove](MatchEnv &Env, Loop *L, std::string &Why) {
                  return Prove(L, Env.SE, Env.Z3TimeoutMs, Why) ==
                         Proof::Proven;
                });
  }
  addLoopTest(
      R, "ReadsOtherElementsOfOutput",
      "loop: a load of the loop reads, through the base pointer of a store "
      "of the loop, an element other than that store's (its address another "
      "SCEV): an update in place that reads the array it writes (PolyBench "
      "trmm's B[k][j] beside B[i][j])",
      [](MatchEnv &Env, Loop *L, std::string &Why) {
        ScalarEvolution &SE = Env.SE;
        SmallVector<LoadInst *, 8> Loads;
        SmallVector<StoreInst *, 4> Stores;
        for (BasicBlock *BB : L->blocks())
          for (Instruction &I : *BB) {
            if (auto *Ld = dyn_cast<LoadInst>(&I))
              Loads.push_back(Ld);
            else if (auto *St = dyn_cast<StoreInst>(&I))
              Stores.push_back(St);
          }
        for (StoreInst *St : Stores) {
          const SCEV *SP = SE.getSCEV(St->getPointerOperand());
          const SCEV *SBase = SE.getPointerBase(SP);
          for (LoadInst *Ld : Loads) {
            const SCEV *LP = SE.getSCEV(Ld->getPointerOperand());
            if (LP != SP && SE.getPointerBase(LP) == SBase)
              return true;
          }
        }
        Why = "no load reads another element of an array the loop stores to";
        return false;
      });
  addLoopGenerator(R, "HeaderPhis",
                   "loop, phi: phi is a phi node in the header of loop or of a loop inside it",
                   [](Loop *L) {
                     std::vector<Value *> Out;
                     SmallVector<Loop *, 4> Ls{L};
                     for (Loop *Sub : L->getLoopsInPreorder())
                       if (Sub != L)
                         Ls.push_back(Sub);
                     for (Loop *X : Ls)
                       for (PHINode &P : X->getHeader()->phis())
                         Out.push_back(&P);
                     return Out;
                   });
  addLoopGenerator(R, "LoadsIn", "loop, ld: ld is a load in the loop",
                   [](Loop *L) {
                     return instructionsIn(L, [](Instruction &I) { return isa<LoadInst>(I); });
                   });
  addLoopGenerator(R, "StoresIn", "loop, st: st is a store in the loop",
                   [](Loop *L) {
                     return instructionsIn(L, [](Instruction &I) { return isa<StoreInst>(I); });
                   });
  addLoopGenerator(R, "MemoryOpsIn",
                   "loop, m: m is an instruction of the loop that reads or "
                   "writes memory (loads, stores, atomics; not calls)",
                   [](Loop *L) {
                     return instructionsIn(L, [](Instruction &I) {
                       return I.mayReadOrWriteMemory() && !isa<CallBase>(I);
                     });
                   });
  addLoopGenerator(R, "CallsIn", "loop, c: c is a call in the loop",
                   [](Loop *L) {
                     return instructionsIn(L, [](Instruction &I) { return isa<CallBase>(I); });
                   });
  R.add(std::make_unique<FnAtom>(
      "PureCall", 1, 0,
      "c: a call of a math intrinsic or library function without side effects",
      [](MatchEnv &, MutableArrayRef<Term> A, function_ref<bool()> Y,
         std::string &Why) {
        auto *I = dyn_cast_or_null<Instruction>(asValue(A[0]));
        if (I && isPureCall(I)) {
          Y();
          return;
        }
        Why = "call may have side effects";
      }));
  R.add(std::make_unique<FnAtom>(
      "ErrnoCheckedCall", 1, 0,
      "c: a call of the C library's sqrt, log, exp, pow, sin or cos (or "
      "their float versions) whose only side effect is errno; the map, "
      "reduction and histogram templates offload it behind a run-time check "
      "of its arguments (funil/LibmErrno.h)",
      [](MatchEnv &, MutableArrayRef<Term> A, function_ref<bool()> Y,
         std::string &Why) {
        auto *I = dyn_cast_or_null<Instruction>(asValue(A[0]));
        if (I && isErrnoLibmCall(I)) {
          Y();
          return;
        }
        Why = "call may have side effects other than errno";
      }));
  R.add(std::make_unique<FnAtom>(
      "StoredValue", 2, 2, "st, v: v is the value stored by store st",
      [](MatchEnv &, MutableArrayRef<Term> A, function_ref<bool()> Y,
         std::string &Why) {
        auto *S = dyn_cast_or_null<StoreInst>(asValue(A[0]));
        if (!S) {
          Why = "not a store";
          return;
        }
        if (A[1].isBound()) {
          if (asValue(A[1]) == S->getValueOperand())
            Y();
          else
            Why = "value is not the stored value";
          return;
        }
        A[1] = Term::value(S->getValueOperand());
        Y();
        A[1] = Term();
      }));
  addValueLoopTest(R, "AffineAccess",
                   "m, loop: m is a load or store whose address is affine in "
                   "the nest's induction variables (SCEV)",
                   [](MatchEnv &Env, Value *V, Loop *L, std::string &Why) {
                     auto N = nestOf(Env, L, Why);
                     auto *I = dyn_cast<Instruction>(V);
                     return N && I && analyzeAccess(I, *N, Env.SE, Why);
                   });
  addValueLoopTest(R, "GatherLoad",
                   "ld, loop: ld loads base[index] where base is defined before "
                   "the loop and written by no store of it through that pointer, "
                   "and index is computed in the loop by pure operations from "
                   "affine loads (x[perm[i]], or a struct field "
                   "x[perm[i]].im of whole elements; single loops; "
                   "GatherFacts.h)",
                   [](MatchEnv &Env, Value *V, Loop *L, std::string &Why) {
                     auto N = nestOf(Env, L, Why);
                     auto *Ld = dyn_cast<LoadInst>(V);
                     if (!Ld && Why.empty())
                       Why = "not a load";
                     return N && Ld && analyzeGather(Ld, *N, Env.SE, Why);
                   });
  addValueLoopTest(R, "PureValue",
                   "v, loop: v is computed in the loop only from pure scalar "
                   "operations, loads, induction variables and loop-invariant values "
                   "(calls: those of PureCall and ErrnoCheckedCall); a header phi "
                   "shaped as a forwarded read is a read (ForwardedRead decides it)",
                   [](MatchEnv &Env, Value *V, Loop *L, std::string &Why) {
                     auto N = nestOf(Env, L, Why);
                     return N && isPureSlice(V, *N, Why, /*AllowErrno=*/true,
                                             /*AllowForwarded=*/true);
                   });
  addValueLoopTest(R, "InductionPhi",
                   "phi, loop: phi is the affine induction variable of loop or of its inner "
                   "loop, a second induction variable SCEV expresses as an affine function "
                   "of that loop's iteration (`k += 2` beside `i++`: DerivedIV), or the "
                   "inner loop's start in a triangular nest (j = i + 1 in a phi of its own)",
                   [](MatchEnv &Env, Value *V, Loop *L, std::string &Why) {
                     auto N = nestOf(Env, L, Why);
                     auto *P = dyn_cast<PHINode>(V);
                     if (N && P && (isNestIV(P, *N) || isTriangleStart(P, *N) ||
                                    derivedIV(P, *N)))
                       return true;
                     if (Why.empty())
                       Why = "phi is not an induction variable" +
                             (N && P ? carriedStoreText(P, *N) : std::string());
                     return false;
                   });
  addReductionTest(R, "ReductionPhi",
                   "phi, loop: phi accumulates op(phi, x...) each iteration, "
                   "optionally under a condition, with x independent of phi; "
                   "in a 2-D or 3-D nest, phi is the innermost loop's "
                   "accumulator or a phi of an enclosing loop that carries it "
                   "(each inner loop's phi starts from the one around it)",
                   [](MatchEnv &, const ReductionInfo &, std::string &) { return true; });
  addValueLoopTest(R, "StoredResult",
                   "st, loop: st stores the running value of a reduction of "
                   "loop's nest (a header phi of its innermost loop that "
                   "ReductionPhi accepts) in the update's block, so on every "
                   "iteration, to an address invariant in the whole nest (an "
                   "array element kept in a register and stored back: NAS's "
                   "rms[m] += d*d)",
                   [](MatchEnv &Env, Value *V, Loop *L, std::string &Why) {
                     auto N = nestOf(Env, L, Why);
                     auto *St = dyn_cast<StoreInst>(V);
                     if (!N || !St) {
                       if (Why.empty())
                         Why = "not a store";
                       return false;
                     }
                     for (PHINode &P : N->Loops.back()->getHeader()->phis()) {
                       std::string W;
                       auto Red = analyzeReduction(&P, *N, W);
                       if (Red && is_contained(Red->Stores, St))
                         return true;
                     }
                     Why = "store is not a reduction's running value stored on every "
                           "iteration to an address invariant in the nest";
                     return false;
                   });
  addValueLoopTest(R, "SelectUpdatedPhi",
                   "phi, loop: phi is an integer header phi of loop whose value from "
                   "the latch is a select between phi and another value "
                   "(`if (c) k = x;`)",
                   [](MatchEnv &, Value *V, Loop *L, std::string &Why) {
                     auto *P = dyn_cast<PHINode>(V);
                     BasicBlock *Latch = L->getLoopLatch();
                     auto *S = P && P->getParent() == L->getHeader() && Latch &&
                                       P->getType()->isIntegerTy()
                                   ? dyn_cast<SelectInst>(P->getIncomingValueForBlock(Latch))
                                   : nullptr;
                     if (S && (S->getTrueValue() == P) != (S->getFalseValue() == P))
                       return true;
                     Why = "phi is not an integer updated as select(c, x, phi)";
                     return false;
                   });
  addValueLoopTest(R, "ArgIndexPhi",
                   "phi, loop: phi is the index of an argmin/argmax: it takes an "
                   "increasing function of the induction variable exactly when a "
                   "compare+select min/max accumulator takes its element "
                   "(`if (a[i] < m) { m = a[i]; k = i; }`; ties keep the first "
                   "index for < and >, the last for <= and >=)",
                   [](MatchEnv &Env, Value *V, Loop *L, std::string &Why) {
                     auto N = nestOf(Env, L, Why);
                     auto *P = dyn_cast<PHINode>(V);
                     if (!N || !P)
                       return false;
                     return analyzeArgIndex(P, *N, Env.SE, Why).has_value();
                   });
  addReductionTest(R, "AssocComm",
                   "phi, loop: the reduction operator of phi is associative and "
                   "commutative (textbook operators by structure, others by Z3 "
                   "over bit-vectors; reals for floating point)",
                   [](MatchEnv &Env, const ReductionInfo &Red, std::string &Why) {
                     return proveAssocComm(Red, Env.Z3TimeoutMs, Why, Env.Proofs) == Proof::Proven;
                   });
  addReductionTest(R, "HasIdentity",
                   "phi, loop: the lifter's identity value is neutral for the "
                   "reduction operator of phi (textbook operators by structure, "
                   "others by Z3)",
                   [](MatchEnv &Env, const ReductionInfo &Red, std::string &Why) {
                     return proveIdentity(Red, Env.Z3TimeoutMs, Why, Env.Proofs) == Proof::Proven;
                   });
  R.add(std::make_unique<FnAtom>(
      "NonEmpty", 1, 0, "xs: the list xs (from collect) has at least one element",
      [](MatchEnv &, MutableArrayRef<Term> A, function_ref<bool()> Y,
         std::string &Why) {
        if (A[0].K == Term::Kind::List && !A[0].Items.empty()) {
          Y();
          return;
        }
        Why = "list is empty";
      }));
  registerGenericAtoms(R);
  registerHistogramAtoms(R);
  registerSearchAtoms(R);
  registerLinearAlgebraAtoms(R);
  registerStencilAtoms(R);
}

} // namespace idiom::constraints
