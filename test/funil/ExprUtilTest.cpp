//===- ExprUtilTest.cpp - substitution and beta reduction -----------------===//
//
// Part of Idiom. substitute and simplifyProjections share the operands they
// do not change; substitution is capture-avoiding and respects shadowing.
//
//===----------------------------------------------------------------------===//

#include "idiom/FunIL/ExprUtil.h"
#include "idiom/FunIL/Parser.h"
#include "idiom/FunIL/Printer.h"

#include <gtest/gtest.h>

using namespace idiom::funil;

namespace {

ExprPtr parse(const std::string &T) {
  ExprPtr E;
  std::string Err;
  EXPECT_TRUE(parseExpr(T, E, Err)) << Err;
  return E;
}

std::string subst(const std::string &T, const std::string &V, const std::string &By) {
  return printExpr(*substitute(parse(T), {{V, parse(By)}}));
}

TEST(ExprUtil, SubstituteReplacesFreeOccurrences) {
  EXPECT_EQ(subst("add(x, mul(x, y))", "x", "z"), "add(z, mul(z, y))");
  EXPECT_EQ(subst("map(\\(e: i64) => add(e, x), a)", "x", "k"),
            "map(\\(e: i64) => add(e, k), a)");
}

TEST(ExprUtil, SubstituteRespectsShadowing) {
  // x is bound by the lambda: its body keeps x, the array operand does not.
  EXPECT_EQ(subst("map(\\(x: i64) => add(x, 1:i64), x)", "x", "b"),
            "map(\\(x: i64) => add(x, 1:i64), b)");
}

TEST(ExprUtil, SubstituteAvoidsCapture) {
  // The replacement's free e would be captured by the lambda's e: renamed.
  EXPECT_EQ(subst("map(\\(e: i64) => add(e, x), a)", "x", "e"),
            "map(\\(e_1: i64) => add(e_1, e), a)");
  // A replacement without e leaves the parameter alone.
  EXPECT_EQ(subst("map(\\(e: i64) => add(e, x), a)", "x", "mul(f, 2:i64)"),
            "map(\\(e: i64) => add(e, mul(f, 2:i64)), a)");
}

TEST(ExprUtil, UnchangedSubtreesAreShared) {
  ExprPtr E = parse("add(mul(y, 2:i64), map(\\(e: i64) => e, a))");
  ExprPtr R = substitute(E, {{"x", parse("z")}});
  EXPECT_EQ(R, E); // nothing free to replace: the same node
  ExprPtr R2 = substitute(E, {{"y", parse("z")}});
  ASSERT_NE(R2, E);
  EXPECT_EQ(R2->Args[1], E->Args[1]); // the untouched operand is shared
  EXPECT_EQ(printExpr(*R2), "add(mul(z, 2:i64), map(\\(e: i64) => e, a))");
  EXPECT_EQ(simplifyProjections(E), E);
}

TEST(ExprUtil, BetaApplySimplifiesProjections) {
  ExprPtr Fn = parse("map(\\(p: (i64, f32)) => p.1, a)")->Args[0];
  ExprPtr R = betaApply(Fn, {parse("(i, x)")});
  EXPECT_EQ(printExpr(*R), "x");
  ExprPtr Nested = parse("add((a, (b, c)).1.0, d)");
  EXPECT_EQ(printExpr(*simplifyProjections(Nested)), "add(b, d)");
}

} // namespace
