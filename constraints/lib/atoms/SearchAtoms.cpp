//===- SearchAtoms.cpp - Atoms for bisection searches in a loop body ------===//
//
// BisectionSearch and SearchPhi (BisectionFacts.h), used by the
// histogram-search idiom of constraints/specs/histogram.idl and usable by
// any spec whose loop body finds a position by a binary search. The
// language reference is the section "Bisection searches" of
// docs/ConstraintLanguage.md.
//
//===----------------------------------------------------------------------===//

#include "idiom/Constraints/BisectionFacts.h"
#include "idiom/Constraints/BuiltinAtoms.h"
#include "idiom/Constraints/FactCache.h"
#include "idiom/Constraints/FnAtom.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace idiom::constraints {

void registerSearchAtoms(AtomRegistry &R) {
  R.add(std::make_unique<FnAtom>(
      "BisectionSearch", 2, 0,
      "inner, loop: inner, a loop directly inside loop, is a bisection search "
      "over an interval [lo, hi] that loop does not change: two integer header "
      "phis, one read a[mid] at an index computed from them, no store or call, "
      "its result one bound; Z3 and the midpoint's form prove that while it runs (lo, hi in "
      "[0, 2^(W-2)]) mid lies strictly inside and each step at least halves the "
      "interval within it, and that its entry test is its loop condition",
      [](MatchEnv &Env, MutableArrayRef<Term> A, function_ref<bool()> Y,
         std::string &Why) {
        Loop *Inner = asLoop(A[0]);
        Loop *L = asLoop(A[1]);
        if (!Inner || !L) {
          Why = "arguments are not (loop, loop)";
          return;
        }
        auto B = analyzeBisection(Inner, L, Env.SE, Why);
        if (B && proveBisectionStep(*B, Env.Z3TimeoutMs, Why) == Proof::Proven)
          Y();
      }));
  R.add(std::make_unique<FnAtom>(
      "SearchPhi", 2, 0,
      "phi, loop: phi is a bound of the interval of a bisection search in the "
      "body of loop (a nest of depth one whose inner loops are all searches)",
      [](MatchEnv &Env, MutableArrayRef<Term> A, function_ref<bool()> Y,
         std::string &Why) {
        auto *P = dyn_cast_or_null<PHINode>(asValue(A[0]));
        Loop *L = asLoop(A[1]);
        if (!P || !L) {
          Why = "arguments are not (phi, loop)";
          return;
        }
        auto N = cachedNest(Env, L, Why);
        if (N && isNestSearchPhi(P, *N))
          Y();
        else if (Why.empty())
          Why = "phi is not a bound of a bisection search in the loop's body";
      }));
}

} // namespace idiom::constraints
