//===- SolverTest.cpp - Backtracking search -------------------------------===//

#include "TestAtoms.h"
#include "TestIR.h"
#include "idiom/Constraints/Solver.h"
#include "idiom/Constraints/Spec.h"
#include "gtest/gtest.h"

using namespace idiom::constraints;
using namespace idiom::constraints::test;

namespace {

class SolverTest : public ::testing::Test {
protected:
  SolverTest() : IR(EmptyFunctionIR, "f") { addTestAtoms(Atoms); }

  /// Loads \p Text, which must have no error, and returns idiom \p Name.
  const IdiomDef &load(llvm::StringRef Text, llvm::StringRef Name) {
    std::vector<Diagnostic> Diags;
    bool Ok = Lib.addSpecText("s.idiom", Text, Atoms, Diags);
    std::string All;
    for (const Diagnostic &D : Diags)
      All += D.str() + "\n";
    EXPECT_TRUE(Ok) << All;
    const IdiomDef *I = Lib.lookupIdiom(Name);
    if (!I)
      I = Lib.lookupConstraint(Name);
    EXPECT_NE(I, nullptr) << All;
    return *I;
  }

  std::optional<Match> solve(const IdiomDef &I, int64_t N,
                             NearMiss *Miss = nullptr) {
    Solver S(Lib, Atoms);
    return S.solve(IR.env(), I, Term::integer(N), Miss);
  }

  /// All solutions, each as "v=val v=val" over \p Vars.
  std::vector<std::string> all(const IdiomDef &I, int64_t N,
                               std::vector<std::string> Vars) {
    Solver S(Lib, Atoms);
    std::vector<std::string> Out;
    S.solveAll(IR.env(), I, Term::integer(N), [&](const Match &M) {
      std::string Line;
      for (const std::string &V : Vars) {
        const Term *T = M.lookup(V);
        Line += (Line.empty() ? "" : " ") + V + "=" +
                (T ? printTerm(*T) : "<none>");
      }
      Out.push_back(Line);
      return true;
    });
    return Out;
  }

  static int64_t intOf(const Match &M, llvm::StringRef V) {
    const Term *T = M.lookup(V);
    EXPECT_TRUE(T && T->K == Term::Kind::Int) << V.str();
    return T ? T->I : -1;
  }

  using Strings = std::vector<std::string>;
  AtomRegistry Atoms;
  SpecLibrary Lib;
  TestIR IR;
};

TEST_F(SolverTest, Conjunction) {
  const IdiomDef &I =
      load("idiom conj(n) = Range(n, x) and Even(x) and Less(2, x);", "conj");
  std::optional<Match> M = solve(I, 10);
  ASSERT_TRUE(M);
  EXPECT_EQ(M->Idiom, &I);
  EXPECT_EQ(intOf(*M, "n"), 10);
  EXPECT_EQ(intOf(*M, "x"), 4);
  EXPECT_FALSE(solve(I, 4));
}

TEST_F(SolverTest, Disjunction) {
  const IdiomDef &I = load("idiom disj(n) = (x = 1 or x = 2 or x = 3 or "
                           "Range(n, x)) and Less(n, x);",
                           "disj");
  EXPECT_EQ(all(I, 1, {"x"}), (Strings{"x=2", "x=3"}));
  EXPECT_EQ(all(I, 5, {"x"}), Strings{});
}

TEST_F(SolverTest, BacktrackingFindsALaterSolution) {
  const IdiomDef &I =
      load("idiom bt(n) = Range(n, x) and Range(n, y) and Less(x, y) and "
           "Even(x) and Less(3, y) and not Even(y);",
           "bt");
  std::optional<Match> M = solve(I, 7);
  ASSERT_TRUE(M);
  EXPECT_EQ(intOf(*M, "x"), 0);
  EXPECT_EQ(intOf(*M, "y"), 5);
  // Every solution, in the deterministic depth-first order.
  Strings Expected = {"x=0 y=5", "x=2 y=5", "x=4 y=5"};
  EXPECT_EQ(all(I, 7, {"x", "y"}), Expected);
  EXPECT_EQ(all(I, 7, {"x", "y"}), Expected);
}

TEST_F(SolverTest, ForAll) {
  const IdiomDef &I =
      load("idiom small(n) = forall x in Range(n) : Less(x, 3);", "small");
  EXPECT_TRUE(solve(I, 0)); // vacuously
  EXPECT_TRUE(solve(I, 3));
  EXPECT_FALSE(solve(I, 4));
  // The quantified variable is local: not in the match.
  std::optional<Match> M = solve(I, 2);
  ASSERT_TRUE(M);
  EXPECT_EQ(M->lookup("x"), nullptr);
  // Existentials inside the body are per candidate.
  const IdiomDef &J = load(
      "idiom below(n) = forall x in Range(n) : (Range(n, y) and Less(x, y) "
      "or x = 4);",
      "below");
  EXPECT_TRUE(solve(J, 5));
}

TEST_F(SolverTest, Collect) {
  const IdiomDef &I = load("idiom evens(n) = collect x in Range(n) : Even(x) "
                           "as xs and Length(xs, k);",
                           "evens");
  std::optional<Match> M = solve(I, 7);
  ASSERT_TRUE(M);
  EXPECT_EQ(printTerm(*M->lookup("xs")), "[0, 2, 4, 6]");
  EXPECT_EQ(intOf(*M, "k"), 4);
  M = solve(I, 0);
  ASSERT_TRUE(M); // collect always succeeds
  EXPECT_EQ(printTerm(*M->lookup("xs")), "[]");

  const IdiomDef &J = load(
      "idiom some(n) = collect x in Range(n) : Less(5, x) as big and "
      "NonEmpty(big);",
      "some");
  EXPECT_FALSE(solve(J, 6));
  EXPECT_TRUE(solve(J, 7));
}

TEST_F(SolverTest, Not) {
  const IdiomDef &I =
      load("idiom odd(n) = Range(n, x) and not Even(x);", "odd");
  std::optional<Match> M = solve(I, 10);
  ASSERT_TRUE(M);
  EXPECT_EQ(intOf(*M, "x"), 1);
  EXPECT_FALSE(solve(I, 1));
  // Negation as failure over a constraint with its own existential.
  const IdiomDef &J =
      load("constraint HasBigger(x, n) = Range(n, y) and Less(x, y);\n"
           "idiom top(n) = Range(n, x) and not HasBigger(x, n);",
           "top");
  M = solve(J, 6);
  ASSERT_TRUE(M);
  EXPECT_EQ(intOf(*M, "x"), 5);
}

TEST_F(SolverTest, ConstraintCallsWithRenaming) {
  const IdiomDef &I = load(
      "constraint Next(a, b) = Range(10, t) and Less(a, t) and Even(t) and "
      "b = t;\n"
      "idiom chain(n) = Next(n, x) and Next(x, y) and Next(3, z);",
      "chain");
  std::optional<Match> M = solve(I, 1);
  ASSERT_TRUE(M);
  EXPECT_EQ(intOf(*M, "x"), 2);
  EXPECT_EQ(intOf(*M, "y"), 4);
  EXPECT_EQ(intOf(*M, "z"), 4);
  // Only the idiom's own variables are reported.
  EXPECT_EQ(M->lookup("t"), nullptr);
  EXPECT_EQ(M->lookup("a"), nullptr);
  EXPECT_EQ(M->Bindings.size(), 4u);
}

TEST_F(SolverTest, SameVariableForTwoParameters) {
  const IdiomDef &I =
      load("constraint Two(a, b) = Range(5, a) and Range(5, b);\n"
           "idiom twice(n) = Two(x, x) and Less(n, x);",
           "twice");
  EXPECT_EQ(all(I, 2, {"x"}), (Strings{"x=3", "x=4"}));
}

TEST_F(SolverTest, Equality) {
  const IdiomDef &I = load("idiom eq(n) = Range(n, x) and x = 3 and y = x "
                           "and \"s\" = s and s = \"s\" and Less(y, n);",
                           "eq");
  std::optional<Match> M = solve(I, 5);
  ASSERT_TRUE(M);
  EXPECT_EQ(intOf(*M, "y"), 3);
  EXPECT_EQ(*M->lookup("s"), Term::string("s"));
  EXPECT_FALSE(solve(I, 3));
}

TEST_F(SolverTest, UnboundAfterUntakenBranch) {
  const IdiomDef &I = load("idiom u(n) = (Range(n, x) and Even(x)) or Less(n, 1);",
                           "u");
  std::optional<Match> M = solve(I, 0);
  ASSERT_TRUE(M);
  ASSERT_NE(M->lookup("x"), nullptr);
  EXPECT_FALSE(M->lookup("x")->isBound());
}

TEST_F(SolverTest, ConstraintsCanBeSolvedDirectly) {
  const ConstraintDef &C =
      load("constraint EvenBelow(n, x) = Range(n, x) and Even(x);",
           "EvenBelow");
  EXPECT_EQ(all(C, 5, {"x"}), (Strings{"x=0", "x=2", "x=4"}));
}

TEST_F(SolverTest, BudgetStopsTheSearch) {
  const IdiomDef &I = load("idiom inf(n) = Nat(x) and Less(x, n) and "
                           "Less(n, x);",
                           "inf");
  Solver S(Lib, Atoms, SolverOptions{1000});
  NearMiss Miss;
  EXPECT_FALSE(S.solve(IR.env(), I, Term::integer(3), &Miss));
  EXPECT_TRUE(S.lastBudgetExhausted());
  EXPECT_EQ(S.lastAtomCalls(), 1000u);
  EXPECT_EQ(Miss.WhyNot, "search budget exhausted");
}

TEST_F(SolverTest, StepBudgetBoundsSearchesWithFewAtoms) {
  // T5 has 2^32 solutions and no atom: only the step budget stops it.
  const IdiomDef &I = load("constraint T0(x) = true or true;\n"
                           "constraint T1(x) = T0(x) and T0(x);\n"
                           "constraint T2(x) = T1(x) and T1(x);\n"
                           "constraint T3(x) = T2(x) and T2(x);\n"
                           "constraint T4(x) = T3(x) and T3(x);\n"
                           "constraint T5(x) = T4(x) and T4(x);\n"
                           "idiom e(n) = T5(n) and false;",
                           "e");
  SolverOptions Opts;
  Opts.MaxSteps = 100000;
  Solver S(Lib, Atoms, Opts);
  NearMiss Miss;
  EXPECT_FALSE(S.solve(IR.env(), I, Term::integer(0), &Miss));
  EXPECT_TRUE(S.lastBudgetExhausted());
  EXPECT_EQ(Miss.WhyNot, "search budget exhausted");
  // An endless generator whose every tuple is a solution.
  const IdiomDef &J = load("idiom nat(n) = Nat(x);", "nat");
  unsigned Count = S.solveAll(IR.env(), J, Term::integer(0),
                              [](const Match &) { return true; });
  EXPECT_TRUE(S.lastBudgetExhausted());
  EXPECT_LE(Count, 100000u);
}

const char *const SumIR = R"(
define float @sum(ptr %a, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi float [ 0.0, %entry ], [ %acc.next, %loop ]
  %p = getelementptr inbounds float, ptr %a, i64 %i
  %x = load float, ptr %p
  %acc.next = fadd float %acc, %x
  %i.next = add nuw nsw i64 %i, 1
  %c = icmp slt i64 %i.next, %n
  br i1 %c, label %loop, label %exit
exit:
  ret float %acc.next
}
)";

TEST_F(SolverTest, ReductionOverIR) {
  TestIR Sum(SumIR, "sum");
  const IdiomDef &I = load(R"(
constraint ReductionPhi(phi, loop) =
    Operand(phi, 1, upd) and Opcode(upd, "fadd") and Operand(upd, 0, phi)
    and InstIn(loop, upd)
;
constraint InductionPhi(phi, loop) =
    Operand(phi, 1, nx) and Opcode(nx, "add") and Operand(nx, 0, phi)
;
idiom float-sum(loop) lifts reduction =
        forall phi in HeaderPhis(loop) :
            ( InductionPhi(phi, loop) or ReductionPhi(phi, loop) )
    and collect acc in HeaderPhis(loop) : ReductionPhi(acc, loop) as accs
    and NonEmpty(accs)
    and InstIn(loop, ld) and Opcode(ld, "load") and Operand(ld, 0, addr)
;
)",
                           "float-sum");
  EXPECT_EQ(I.Lifts, "reduction");
  Solver S(Lib, Atoms);
  std::optional<Match> M =
      S.solve(Sum.env(), I, Term::loop(Sum.loop("loop")), nullptr);
  ASSERT_TRUE(M);
  EXPECT_EQ(printTerm(*M->lookup("accs")), "[%acc]");
  EXPECT_EQ(M->lookup("ld")->V, Sum.value("x"));
  EXPECT_EQ(M->lookup("addr")->V, Sum.value("p"));
  EXPECT_EQ(printTerm(M->Entry), "loop %loop");
}

} // namespace
