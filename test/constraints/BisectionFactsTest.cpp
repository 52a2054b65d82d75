//===- BisectionFactsTest.cpp - Which inner loops are bisection searches --===//
//
// analyzeBisection and proveBisectionStep (BisectionFacts.h) on a rotated
// search in a loop body, the -O2 form of
//   lo = 0; hi = nb; while (hi > lo + 1) { mid = ...; if (key < bb[mid])
//   hi = mid; else lo = mid; } h[lo]++;
// with the midpoint, the step, the condition and the guard varied: the
// floor midpoints are searches; the upper midpoint, a step past the
// midpoint, a loop that continues on one element, a guard other than the
// condition, a store and an interval that moves with the loop are not.

#include "TestIR.h"
#include "idiom/Constraints/BisectionFacts.h"
#include "gtest/gtest.h"
#include <string>

using namespace llvm;
using namespace idiom;
using namespace idiom::constraints::test;

namespace {

struct Parts {
  std::string Guard = "  %guard = icmp sgt i32 %nb, 1\n";
  std::string Init = "%nb";
  std::string Mid = "  %sum = add nuw nsw i32 %hi, %lo\n  %mid = lshr i32 %sum, 1\n";
  std::string Step = "  %lo.next = select i1 %lt, i32 %lo, i32 %mid\n"
                     "  %hi.next = select i1 %lt, i32 %mid, i32 %hi\n";
  std::string Cont = "  %lo1 = add nsw i32 %lo.next, 1\n"
                     "  %cont = icmp sgt i32 %hi.next, %lo1\n";
  std::string Extra;
};

std::string searchIR(const Parts &P) {
  return "define void @f(ptr %h, ptr %x, ptr %bb, i32 %nb, i64 %n, ptr %nbs) {\n"
         "entry:\n" + P.Guard +
         "  br label %outer\n"
         "outer:\n"
         "  %i = phi i64 [ 0, %entry ], [ %i.next, %merge ]\n"
         "  %xp = getelementptr float, ptr %x, i64 %i\n"
         "  %key = load float, ptr %xp\n"
         "  %nbp = getelementptr i32, ptr %nbs, i64 %i\n"
         "  %nbi = load i32, ptr %nbp\n"
         "  br i1 %guard, label %ph, label %merge\n"
         "ph:\n  br label %search\n"
         "search:\n"
         "  %hi = phi i32 [ " + P.Init + ", %ph ], [ %hi.next, %search ]\n"
         "  %lo = phi i32 [ 0, %ph ], [ %lo.next, %search ]\n" + P.Mid +
         "  %mid64 = zext i32 %mid to i64\n"
         "  %bp = getelementptr float, ptr %bb, i64 %mid64\n"
         "  %b = load float, ptr %bp\n"
         "  %lt = fcmp ult float %key, %b\n" + P.Step + P.Cont + P.Extra +
         "  br i1 %cont, label %search, label %exit\n"
         "exit:\n"
         "  %r.lcssa = phi i32 [ %lo.next, %search ]\n"
         "  br label %merge\n"
         "merge:\n"
         "  %r = phi i32 [ 0, %outer ], [ %r.lcssa, %exit ]\n"
         "  %r64 = zext i32 %r to i64\n"
         "  %hp = getelementptr i32, ptr %h, i64 %r64\n"
         "  %hv = load i32, ptr %hp\n"
         "  %hv1 = add i32 %hv, 1\n"
         "  store i32 %hv1, ptr %hp\n"
         "  %i.next = add nuw nsw i64 %i, 1\n"
         "  %c = icmp ult i64 %i.next, %n\n"
         "  br i1 %c, label %outer, label %done\n"
         "done:\n  ret void\n}\n";
}

/// Analyses and proves the search of \p P: "" when it is a bisection
/// search whose lower bound is %lo, else the reason.
std::string check(const Parts &P) {
  TestIR T(searchIR(P), "f");
  std::string Why;
  auto B = analyzeBisection(T.loop("search"), T.loop("outer"), T.env().SE, Why);
  if (!B)
    return Why.empty() ? "no reason" : Why;
  if (B->Result != T.value("r") || B->Probe != T.value("b") || B->Mid != T.value("mid64") ||
      B->GuardCond != T.value("guard"))
    return "wrong parts";
  if (proveBisectionStep(*B, 2000, Why) != Proof::Proven)
    return Why.empty() ? "no reason" : Why;
  if (B->Phi[B->LowPart] != T.value("lo") || B->ResultPart != B->LowPart)
    return "wrong lower bound";
  return "";
}

TEST(BisectionFacts, FloorMidpointsAreSearches) {
  Parts P;
  EXPECT_EQ(check(P), "");
  P.Mid = "  %d = sub nsw i32 %hi, %lo\n  %h2 = sdiv i32 %d, 2\n  %mid = add nsw i32 %lo, %h2\n";
  EXPECT_EQ(check(P), "");
  P.Mid = "  %sum = add nsw i32 %lo, %hi\n  %mid = sdiv i32 %sum, 2\n";
  EXPECT_EQ(check(P), "");
}

TEST(BisectionFacts, UpperMidpointIsRefused) {
  Parts P;
  P.Mid = "  %sum = add nsw i32 %hi, %lo\n  %s1 = add nsw i32 %sum, 1\n  %mid = lshr i32 %s1, 1\n";
  EXPECT_EQ(check(P), "the loop is not a bisection: its midpoint is not (lo + hi) / 2 or lo + "
                      "(hi - lo) / 2");
}

TEST(BisectionFacts, StepPastTheMidpointIsRefused) {
  Parts P;
  P.Step = "  %m2 = add nsw i32 %mid, 2\n"
           "  %lo.next = select i1 %lt, i32 %lo, i32 %m2\n"
           "  %hi.next = select i1 %lt, i32 %mid, i32 %hi\n";
  EXPECT_EQ(check(P), "the loop is not a bisection: a step does not move exactly one bound to "
                      "the midpoint");
}

TEST(BisectionFacts, ContinuingOnOneElementIsRefused) {
  // while (hi > lo): a closed interval [lo, lo + 1] steps to itself forever.
  Parts P;
  P.Guard = "  %guard = icmp sgt i32 %nb, 0\n";
  P.Cont = "  %cont = icmp sgt i32 %hi.next, %lo.next\n";
  EXPECT_EQ(check(P), "the loop is not a bisection: it continues on an interval of fewer than "
                      "two elements");
}

TEST(BisectionFacts, GuardOtherThanTheConditionIsRefused) {
  Parts P;
  P.Guard = "  %guard = icmp sgt i32 %nb, 0\n";
  EXPECT_EQ(check(P), "the search loop is entered when its condition fails on the initial "
                      "interval (a do-while), or skipped when it holds");
}

TEST(BisectionFacts, StructuralNegatives) {
  Parts P;
  P.Extra = "  store float %key, ptr %bp\n";
  EXPECT_EQ(check(P), "search loop writes memory or calls a function");
  Parts Q;
  Q.Init = "%nbi";
  EXPECT_EQ(check(Q), "the search interval's initial bounds change with the loop");
  Parts R;
  R.Mid = "  %mid = add nsw i32 %lo, 1\n  %bad = load float, ptr %x\n";
  EXPECT_EQ(check(R), "search loop reads more than one element per step");
}

} // namespace
