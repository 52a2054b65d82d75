//===- TestAtoms.cpp - Small atoms for constraint tests -------------------===//

#include "TestAtoms.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;
using namespace idiom::constraints;
using namespace idiom::constraints::test;

unsigned idiom::constraints::test::RangeCalls = 0;

/// Yields each of \p Cands for argument \p I (only the equal one when the
/// argument came bound). Returns false when Yield asked to stop.
static bool yieldEach(MutableArrayRef<Term> Args, unsigned I,
                      const std::vector<Term> &Cands,
                      function_ref<bool()> Yield) {
  bool WasBound = Args[I].isBound();
  Term Given = Args[I];
  for (const Term &C : Cands) {
    if (WasBound && C != Given)
      continue;
    Args[I] = C;
    if (!Yield())
      return false;
  }
  return true;
}

static void add(AtomRegistry &R, std::string Name, std::vector<bool> Gen,
                FnAtom::SolveFn Fn) {
  R.add(std::make_unique<FnAtom>(std::move(Name), std::move(Gen),
                                 std::move(Fn)));
}

void idiom::constraints::test::addTestAtoms(AtomRegistry &R) {
  add(R, "Range", {false, true},
      [](MatchEnv &, MutableArrayRef<Term> A, function_ref<bool()> Y,
         std::string &Why) {
        ++RangeCalls;
        std::vector<Term> C;
        for (int64_t I = 0; I < A[0].I; ++I)
          C.push_back(Term::integer(I));
        if (C.empty())
          Why = "empty range";
        else if (A[1].isBound())
          Why = "out of range";
        yieldEach(A, 1, C, Y);
      });
  add(R, "Nat", {true},
      [](MatchEnv &, MutableArrayRef<Term> A, function_ref<bool()> Y,
         std::string &) {
        if (A[0].isBound()) {
          if (A[0].K == Term::Kind::Int && A[0].I >= 0)
            Y();
          return;
        }
        for (int64_t I = 0;; ++I) {
          A[0] = Term::integer(I);
          if (!Y())
            return;
        }
      });
  add(R, "Even", {false},
      [](MatchEnv &, MutableArrayRef<Term> A, function_ref<bool()> Y,
         std::string &Why) {
        if (A[0].I % 2 == 0)
          Y();
        else
          Why = std::to_string(A[0].I) + " is odd";
      });
  add(R, "Less", {false, false},
      [](MatchEnv &, MutableArrayRef<Term> A, function_ref<bool()> Y,
         std::string &Why) {
        if (A[0].I < A[1].I)
          Y();
        else
          Why = std::to_string(A[0].I) + " is not less than " +
                std::to_string(A[1].I);
      });
  add(R, "NonEmpty", {false},
      [](MatchEnv &, MutableArrayRef<Term> A, function_ref<bool()> Y,
         std::string &Why) {
        if (!A[0].Items.empty())
          Y();
        else
          Why = "the list is empty";
      });
  add(R, "Length", {false, true},
      [](MatchEnv &, MutableArrayRef<Term> A, function_ref<bool()> Y,
         std::string &) {
        yieldEach(A, 1, {Term::integer(int64_t(A[0].Items.size()))}, Y);
      });
  add(R, "InstIn", {false, true},
      [](MatchEnv &, MutableArrayRef<Term> A, function_ref<bool()> Y,
         std::string &Why) {
        std::vector<Term> C;
        for (BasicBlock *BB : A[0].L->blocks())
          for (Instruction &I : *BB)
            C.push_back(Term::value(&I));
        Why = "not an instruction of the loop";
        yieldEach(A, 1, C, Y);
      });
  add(R, "HeaderPhis", {false, true},
      [](MatchEnv &, MutableArrayRef<Term> A, function_ref<bool()> Y,
         std::string &Why) {
        std::vector<Term> C;
        for (PHINode &P : A[0].L->getHeader()->phis())
          C.push_back(Term::value(&P));
        Why = "no header phi";
        yieldEach(A, 1, C, Y);
      });
  add(R, "Opcode", {false, true},
      [](MatchEnv &, MutableArrayRef<Term> A, function_ref<bool()> Y,
         std::string &Why) {
        auto *I = dyn_cast_or_null<Instruction>(A[0].V);
        if (!I) {
          Why = "not an instruction";
          return;
        }
        Why = std::string("opcode is ") + I->getOpcodeName();
        yieldEach(A, 1, {Term::string(I->getOpcodeName())}, Y);
      });
  add(R, "Operand", {false, true, true},
      [](MatchEnv &, MutableArrayRef<Term> A, function_ref<bool()> Y,
         std::string &Why) {
        auto *U = dyn_cast_or_null<User>(A[0].V);
        if (!U) {
          Why = "no operands";
          return;
        }
        bool NBound = A[1].isBound(), VBound = A[2].isBound();
        Term N = A[1], V = A[2];
        for (unsigned I = 0; I < U->getNumOperands(); ++I) {
          Term TI = Term::integer(I), TV = Term::value(U->getOperand(I));
          if ((NBound && N != TI) || (VBound && V != TV))
            continue;
          A[1] = TI;
          A[2] = TV;
          if (!Y())
            return;
        }
        Why = "no such operand";
      });
  add(R, "User", {false, true},
      [](MatchEnv &, MutableArrayRef<Term> A, function_ref<bool()> Y,
         std::string &Why) {
        std::vector<Term> C;
        for (llvm::User *U : A[0].V->users())
          C.push_back(Term::value(U));
        Why = "no such user";
        yieldEach(A, 1, C, Y);
      });
  add(R, "IsConstant", {false},
      [](MatchEnv &, MutableArrayRef<Term> A, function_ref<bool()> Y,
         std::string &Why) {
        if (isa_and_nonnull<Constant>(A[0].V))
          Y();
        else
          Why = "not a constant";
      });
}
