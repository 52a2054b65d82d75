//===- StrategyTest.cpp - strategies and the default lowerings ------------===//
//
// Part of Idiom.
//
//===----------------------------------------------------------------------===//

#include "Examples.h"
#include "TestUtil.h"
#include "idiom/Rewrite/DefaultStrategies.h"
#include "idiom/Rewrite/Rules.h"

#include <gtest/gtest.h>

using namespace idiom;
using namespace idiom::rwtest;
namespace ex = idiom::funil::test;

namespace {

std::string lowered(const char *Text, std::vector<std::string> *Trace = nullptr) {
  Program P = parseOrDie(Text);
  std::string Err;
  EXPECT_TRUE(rewrite::lowerProgram(P, Err, Trace)) << Err;
  return printProgram(P);
}

bool contains(const std::string &S, const std::string &Sub) {
  return S.find(Sub) != std::string::npos;
}

TEST(DefaultStrategy, MapLowersToMapGlobal) {
  std::string S = lowered(ex::Saxpy);
  EXPECT_TRUE(contains(S, "store view(y, 0:i64, 1:i64, n0) = mapGlobal(0, \\(t: (f32, f32))"))
      << S;
  std::string S2 = lowered(ex::Scale2D);
  EXPECT_TRUE(contains(S2, "= mapGlobal(1, \\(r: ([f64]_n1, i64)) => mapGlobal(0, ")) << S2;
  EXPECT_FALSE(contains(S2, " map(")) << S2;
}

TEST(DefaultStrategy, ReductionFollowsTheDerivation) {
  std::vector<std::string> Trace;
  std::string S = lowered(ex::DotAndMax, &Trace);
  // seeds/004 figure 10: the map is fused into the per-work-item reduceSeq.
  EXPECT_FALSE(contains(S, "mapSeq(")) << S;
  EXPECT_FALSE(contains(S, " map(")) << S;
  EXPECT_TRUE(contains(S, "(fadd(a_1.0, fmul(t_1.0, t_1.1)), fmax(a_1.1, t_1.0))")) << S;
  EXPECT_TRUE(contains(S, "iterate(ilog2(localSize(0))")) << S;
  EXPECT_TRUE(contains(S, "strided(globalSize(0), zip(")) << S;
  std::vector<std::string> Want = {"reduce-two-stage", "strided-map", "split-map",
                                   "map-fusion", "map-fusion", "map-to-mapSeq",
                                   "map-reduce-fusion"};
  EXPECT_EQ(Trace, Want);
}

TEST(DefaultStrategy, LoweredProgramsAgreeWithTheOriginal) {
  struct Case {
    const char *Text;
    std::vector<std::map<std::string, int64_t>> Sizes;
    int64_t BufLen;
    double Tol;
  } Cases[] = {
      {ex::Saxpy, {{{"n0", 0}}, {{"n0", 17}}}, 17, 0},
      {ex::Scale2D, {{{"n0", 3}, {"n1", 4}, {"lda", 6}}}, 18, 0},
      {ex::TwoOuts, {{{"n0", 9}}}, 9, 0},
      {ex::DotAndMax, {{{"n0", 0}}, {{"n0", 1}}, {{"n0", 100}}}, 100, 1e-5},
      {ex::SumI32, {{{"n0", 0}}, {{"n0", 77}}}, 77, 0},
      {ex::CountPositive, {{{"n0", 33}}}, 33, 1e-12},
  };
  const ExecConfig Configs[] = {{1, 1}, {4, 3}, {8, 5}, {32, 2}};
  std::mt19937_64 Rng(7);
  for (const Case &C : Cases) {
    Program Before = parseOrDie(C.Text), After = Before;
    std::string Err;
    ASSERT_TRUE(rewrite::lowerProgram(After, Err)) << Err;
    for (const auto &Sizes : C.Sizes)
      for (const ExecConfig &Cfg : Configs) {
        ValueMap Args = randomArgs(Before, Sizes, C.BufLen, Rng);
        EXPECT_EQ(compareRuns(Before, After, Args, C.Tol, {}, Cfg), "")
            << printProgram(After);
      }
  }
}

TEST(Strategies, Combinators) {
  Program P = parseOrDie("idiom t(x: [i32], y: [i32], n: i64) { store view(y, 0:i64, 1:i64, n) = "
                         "map(\\(a: i32) => add(a, 1:i32), map(\\(b: i32) => mul(b, 2:i32), "
                         "map(\\(c: i32) => sub(c, 3:i32), view(x, 0:i64, 1:i64, n)))); }");
  rewrite::Strategy Fuse = rewrite::ruleStrategy(*rewrite::findRule("map-fusion"));
  rewrite::Strategy ToGlobal = rewrite::ruleStrategy(*rewrite::findRule("map-to-mapGlobal"));
  rewrite::RuleContext Ctx;
  Ctx.Env.push("x", P.Params[0].Ty);
  Ctx.Env.push("n", P.Params[2].Ty);
  funil::allNames(*P.Body, Ctx.Names);
  // A rule that does not match fails; try turns failure into identity.
  rewrite::Strategy Fail = rewrite::ruleStrategy(*rewrite::findRule("join-split"));
  EXPECT_EQ(Fail(P.Body, Ctx), nullptr);
  EXPECT_EQ(rewrite::tryStrategy(Fail)(P.Body, Ctx), P.Body);
  // choice takes the first that succeeds; sequence fails if one step fails.
  EXPECT_NE(rewrite::choice({Fail, Fuse})(P.Body, Ctx), nullptr);
  EXPECT_EQ(rewrite::sequence({Fuse, Fail})(P.Body, Ctx), nullptr);
  // repeat fuses the three maps into one.
  ExprPtr R = rewrite::repeat(Fuse)(P.Body, Ctx);
  EXPECT_EQ(printExpr(*R), "map(\\(c_1: i32) => add(mul(sub(c_1, 3:i32), 2:i32), 1:i32), "
                           "view(x, 0:i64, 1:i64, n))");
  // allPositions applies once at every position, pre-order.
  ExprPtr A = rewrite::allPositions(ToGlobal)(P.Body, Ctx);
  ASSERT_NE(A, nullptr);
  EXPECT_EQ(printExpr(*A).rfind("mapGlobal(0, \\(a", 0), 0u);
  // Every map was on the host, so every map became a mapGlobal.
  EXPECT_EQ(printExpr(*A).find(" map("), std::string::npos);
  // oncePosition rewrites the outermost match only.
  ExprPtr O = rewrite::oncePosition(ToGlobal)(P.Body, Ctx);
  EXPECT_EQ(printExpr(*O).rfind("mapGlobal("), 0u);
}

TEST(Strategies, ByName) {
  Program P = parseOrDie(ex::Saxpy);
  std::string Err;
  EXPECT_TRUE(static_cast<bool>(rewrite::strategyByName("default", P, Err)));
  EXPECT_FALSE(static_cast<bool>(rewrite::strategyByName("fastest", P, Err)));
  EXPECT_EQ(Err, "unknown strategy 'fastest'");
  EXPECT_FALSE(static_cast<bool>(rewrite::rulesChoice({"map-fusion", "nope"}, Err)));
  EXPECT_EQ(Err, "unknown rule 'nope'");
}

} // namespace
