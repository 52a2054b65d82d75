//===- NearMissTest.cpp - Reports of the furthest failure -----------------===//

#include "TestAtoms.h"
#include "TestIR.h"
#include "idiom/Constraints/Solver.h"
#include "idiom/Constraints/Spec.h"
#include "gtest/gtest.h"

using namespace idiom::constraints;
using namespace idiom::constraints::test;

namespace {

class NearMissTest : public ::testing::Test {
protected:
  NearMissTest() : IR(EmptyFunctionIR, "f") { addTestAtoms(Atoms); }

  void load(llvm::StringRef File, llvm::StringRef Text) {
    std::vector<Diagnostic> Diags;
    bool Ok = Lib.addSpecText(File, Text, Atoms, Diags);
    std::string All;
    for (const Diagnostic &D : Diags)
      All += D.str() + "\n";
    EXPECT_TRUE(Ok) << All;
  }

  /// Solves idiom \p Name for entry \p N, expecting failure.
  NearMiss miss(llvm::StringRef Name, int64_t N) {
    const IdiomDef *I = Lib.lookupIdiom(Name);
    EXPECT_NE(I, nullptr);
    NearMiss Miss;
    if (!I)
      return Miss;
    Solver S(Lib, Atoms);
    EXPECT_FALSE(S.solve(IR.env(), *I, Term::integer(N), &Miss));
    EXPECT_EQ(Miss.Idiom, I);
    EXPECT_EQ(Miss.Entry, Term::integer(N));
    return Miss;
  }

  AtomRegistry Atoms;
  SpecLibrary Lib;
  TestIR IR;
};

TEST_F(NearMissTest, ReportsTheDeepestFailure) {
  load("m.idiom", "idiom d(n) =\n"
                  "     Less(n, 0)\n"
                  "  or (Range(n, x) and Even(x) and Less(x, 0));\n");
  NearMiss M = miss("d", 3);
  EXPECT_EQ(M.FailedAtom, "Less(x, 0)");
  EXPECT_EQ(M.File, "m.idiom");
  EXPECT_EQ(M.Line, 3u);
  EXPECT_EQ(M.Col, 35u);
  EXPECT_EQ(M.WhyNot, "0 is not less than 0");
  EXPECT_EQ(M.Progress, 2u);
  ASSERT_EQ(M.Args.size(), 2u);
  EXPECT_EQ(M.Args[0].first, "x");
  EXPECT_EQ(M.Args[0].second, Term::integer(0));
  EXPECT_TRUE(M.CallChain.empty());
  EXPECT_EQ(M.str(), "m.idiom:3:35: Less(x, 0): 0 is not less than 0");
}

TEST_F(NearMissTest, FailingForAllReportsTheInnerAtom) {
  load("m.idiom", "idiom f(n) = Less(0, n) and\n"
                  "  forall x in Range(n) : Even(x);\n");
  NearMiss M = miss("f", 3);
  EXPECT_EQ(M.FailedAtom, "Even(x)");
  EXPECT_EQ(M.Line, 2u);
  EXPECT_EQ(M.Col, 26u);
  EXPECT_EQ(M.WhyNot, "1 is odd");
  // Less, then candidate 0 with its body, then candidate 1.
  EXPECT_EQ(M.Progress, 4u);
  ASSERT_EQ(M.Args.size(), 1u);
  EXPECT_EQ(M.Args[0].second, Term::integer(1));
}

TEST_F(NearMissTest, FailingNotReportsTheNegation) {
  load("m.idiom", "idiom g(n) = Less(0, n) and not Even(n);\n");
  NearMiss M = miss("g", 2);
  EXPECT_EQ(M.FailedAtom, "not Even(n)");
  EXPECT_EQ(M.Line, 1u);
  EXPECT_EQ(M.Col, 29u);
  EXPECT_EQ(M.WhyNot, "'Even(n)' holds");
  EXPECT_EQ(M.Progress, 1u);
}

TEST_F(NearMissTest, FailureInsideACalledConstraint) {
  load("lib.idiom", "constraint Small(v) =\n"
                    "  Less(v, 3);\n"
                    "constraint Both(a, b) = Small(a) and Small(b);\n");
  load("main.idiom", "idiom h(n) = Range(n, x) and Both(x, n);\n");
  NearMiss M = miss("h", 4);
  EXPECT_EQ(M.FailedAtom, "Less(v, 3)");
  EXPECT_EQ(M.File, "lib.idiom");
  EXPECT_EQ(M.Line, 2u);
  EXPECT_EQ(M.Col, 3u);
  EXPECT_EQ(M.WhyNot, "4 is not less than 3");
  EXPECT_EQ(M.Progress, 2u);
  ASSERT_EQ(M.CallChain.size(), 2u);
  EXPECT_EQ(M.CallChain[0], "Both(x, n) at main.idiom:1:30");
  EXPECT_EQ(M.CallChain[1], "Small(b) at lib.idiom:3:38");
}

TEST_F(NearMissTest, CollectBodyFailuresAreNotMisses) {
  load("m.idiom", "idiom c(n) = collect x in Range(n) : Less(10, x) as xs\n"
                  "  and NonEmpty(xs);\n");
  NearMiss M = miss("c", 3);
  EXPECT_EQ(M.FailedAtom, "NonEmpty(xs)");
  EXPECT_EQ(M.Line, 2u);
  EXPECT_EQ(M.Col, 7u);
  EXPECT_EQ(M.WhyNot, "the list is empty");
}

TEST_F(NearMissTest, BudgetExhausted) {
  load("m.idiom", "idiom inf(n) = Nat(x) and Less(x, 0);\n");
  const IdiomDef *I = Lib.lookupIdiom("inf");
  ASSERT_NE(I, nullptr);
  Solver S(Lib, Atoms, SolverOptions{500});
  NearMiss M;
  EXPECT_FALSE(S.solve(IR.env(), *I, Term::integer(0), &M));
  EXPECT_EQ(M.WhyNot, "search budget exhausted");
  EXPECT_EQ(M.FailedAtom, "Less(x, 0)");
}

const char *const ProductIR = R"(
define float @prod(ptr %a, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi float [ 1.0, %entry ], [ %acc.next, %loop ]
  %p = getelementptr inbounds float, ptr %a, i64 %i
  %x = load float, ptr %p
  %acc.next = fmul float %acc, %x
  %i.next = add nuw nsw i64 %i, 1
  %c = icmp slt i64 %i.next, %n
  br i1 %c, label %loop, label %exit
exit:
  ret float %acc.next
}
)";

TEST_F(NearMissTest, ProductIsANearMissOfSum) {
  TestIR Prod(ProductIR, "prod");
  load("sum.idiom", R"(constraint ReductionPhi(phi, loop) =
    Operand(phi, 1, upd) and Opcode(upd, "fadd") and InstIn(loop, upd);
constraint InductionPhi(phi, loop) =
    Operand(phi, 1, nx) and Opcode(nx, "add") and InstIn(loop, nx);
idiom float-sum(loop) lifts reduction =
    forall phi in HeaderPhis(loop) :
        (InductionPhi(phi, loop) or ReductionPhi(phi, loop));
)");
  const IdiomDef *I = Lib.lookupIdiom("float-sum");
  ASSERT_NE(I, nullptr);
  Solver S(Lib, Atoms);
  NearMiss M;
  EXPECT_FALSE(
      S.solve(Prod.env(), *I, Term::loop(Prod.loop("loop")), &M));
  EXPECT_EQ(M.str(), "sum.idiom:4:29: Opcode(nx, \"add\"): opcode is fmul");
  ASSERT_EQ(M.Args.size(), 2u);
  EXPECT_EQ(M.Args[0].second.V, Prod.value("acc.next"));
  ASSERT_EQ(M.CallChain.size(), 1u);
  EXPECT_EQ(M.CallChain[0], "InductionPhi(phi, loop) at sum.idiom:7:10");
}

} // namespace
