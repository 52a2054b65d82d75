//===- RuleTest.cpp - every rule preserves the interpreter's result -------===//
//
// Part of Idiom. For each rule: programs where it applies; the rule is
// applied once (outermost position), the result must type check, and the
// interpreter must give the same result before and after on random inputs
// (DESIGN section 8).
//
//===----------------------------------------------------------------------===//

#include "Examples.h"
#include "HistogramExamples.h"
#include "TestUtil.h"
#include "idiom/Rewrite/Rules.h"
#include "idiom/Rewrite/Strategy.h"

#include <gtest/gtest.h>

using namespace idiom;
using namespace idiom::rwtest;
namespace ex = idiom::funil::test;

namespace idiom::rwtest {
bool layoutRuleTested(const std::string &Name); // LayoutRuleTest.cpp
bool rowLanesRuleTested(const std::string &Name); // RowLanesTest.cpp
} // namespace idiom::rwtest

namespace {

struct RuleCase {
  const char *Rule;
  const char *Program;
  std::vector<std::map<std::string, int64_t>> Sizes; ///< one run per entry
  int64_t BufLen;
  double Tol; ///< 0: exact
};

/// C = al * A B + be * C, row-major (the canonical GEMM of the lifting
/// contract).
const char *const GemmRowMajor =
    "idiom t(A: [f32], B: [f32], C: [f32], M: i64, N: i64, K: i64, al: f32, be: f32) { "
     "store view(C, 0:i64, N, M, 1:i64, N) = map(\\(r: ([f32]_K, [f32]_N)) => "
     "map(\\(q: ([f32]_K, f32)) => fadd(fmul(al, reduceSeq(\\(acc: f32, x: (f32, f32)) => "
     "fmuladd(x.0, x.1, acc), q.1, zip(r.0, q.0))), fmul(be, q.1)), zip(view(B, 0:i64, "
     "1:i64, N, N, K), r.1)), zip(view(A, 0:i64, K, M, 1:i64, K), view(C, 0:i64, N, M, "
     "1:i64, N))); }";

const RuleCase Cases[] = {
    // Within the bound of docs/Rewrite.md (CompensateTest.cpp checks the
    // bound itself, ill-conditioned sums exactly, and every lowering).
    {"compensate",
     "idiom t(x: [f32], n: i64) { return reduce(\\(a: f32, b: f32) => fadd(a, b), "
     "-0.0:f32, map(\\(v: f32) => fmul(v, 3.0:f32), view(x, 0:i64, 1:i64, n))); }",
     {{{"n", 0}}, {{"n", 1}}, {{"n", 9}}}, 9, 1e-5},
    {"compensate",
     "idiom t(x: [f64], n: i64) { return reduce(\\(a: f64, b: f64) => fadd(b, a), "
     "0.0:f64, view(x, 0:i64, 1:i64, n)); }",
     {{{"n", 0}}, {{"n", 12}}}, 12, 1e-13},
    {"map-fusion",
     "idiom t(x: [f32], y: [f32], b: f32, n: i64) { store view(y, 0:i64, 1:i64, n) = "
     "map(\\(a: f32) => fmul(a, b), map(\\(b: f32) => fadd(b, 1.5:f32), "
     "view(x, 0:i64, 1:i64, n))); }",
     {{{"n", 0}}, {{"n", 7}}}, 7, 0},
    {"map-fusion",
     "idiom t(x: [i32], y: [i64], n: i64) { store view(y, 0:i64, 1:i64, n) = "
     "mapGlobal(0, \\(t: (i64, i64)) => mul(t.0, t.1), map(\\(v: (i32, i64)) => "
     "(sext.i64(v.0), add(v.1, 1:i64)), zip(view(x, 0:i64, 1:i64, n), iota(n)))); }",
     {{{"n", 9}}}, 9, 0},
    {"map-reduce-fusion",
     "idiom t(x: [i32], n: i64) { return reduceSeq(\\(acc: f64, v: f64) => "
     "fsub(acc, v), 1.0:f64, mapSeq(\\(q: i32) => sitofp.f64(mul(q, q)), "
     "view(x, 0:i64, 1:i64, n))); }",
     {{{"n", 0}}, {{"n", 1}}, {{"n", 11}}}, 11, 0},
    {"map-reduce-fusion",
     "idiom t(x: [f32], y: [f32], n: i64) { return reduceSeq(\\(a: (f32, i32), "
     "t: (f32, f32)) => (fadd(a.0, t.0), add(a.1, zext.i32(fcmp_olt(t.0, t.1)))), "
     "(0.0:f32, 0:i32), mapSeq(\\(t: (f32, f32)) => (fmul(t.0, t.1), t.0), "
     "zip(view(x, 0:i64, 1:i64, n), view(y, 0:i64, 1:i64, n)))); }",
     {{{"n", 6}}}, 6, 0},
    {"join-split",
     "idiom t(x: [i16], y: [i16], n: i64) { store view(y, 0:i64, 1:i64, n) = "
     "join(split(4:i64, map(\\(v: i16) => xor(v, 5:i16), view(x, 0:i64, 1:i64, n)))); }",
     {{{"n", 8}}, {{"n", 12}}}, 12, 0},
    {"split-join-cancel",
     "idiom t(x: [i32], n: i64) { return reduce(\\(p: i32, q: i32) => add(p, q), 0:i32, "
     "map(\\(r: [i32]_4) => at(r, 1:i64), split(4:i64, join(split(4:i64, "
     "view(x, 0:i64, 1:i64, n)))))); }",
     {{{"n", 4}}, {{"n", 16}}}, 16, 0},
    {"split-map",
     "idiom t(x: [i32], n: i64) { return reduce(\\(p: i32, q: i32) => add(p, q), 0:i32, "
     "map(\\(r: [i32]_4) => reduce(\\(p: i32, q: i32) => smax(p, q), -2147483648:i32, r), "
     "split(4:i64, map(\\(v: i32) => mul(v, 3:i32), view(x, 0:i64, 1:i64, n))))); }",
     {{{"n", 0}}, {{"n", 8}}, {{"n", 20}}}, 20, 0},
    {"strided-map",
     "idiom t(x: [i32], n: i64, s: i64) { return reduce(\\(p: i64, q: i64) => add(p, q), "
     "0:i64, map(\\(r: [i64]_?) => reduce(\\(p: i64, q: i64) => sub(mul(p, 3:i64), q), 0:i64, r), "
     "strided(s, map(\\(v: i32) => sext.i64(v), view(x, 0:i64, 1:i64, n))))); }",
     {{{"n", 0}, {"s", 3}}, {{"n", 10}, {"s", 3}}, {{"n", 10}, {"s", 16}}}, 10, 0},
    {"blocks-map",
     "idiom t(x: [i32], n: i64, s: i64) { return reduce(\\(p: i64, q: i64) => add(p, q), "
     "0:i64, map(\\(r: [i64]_?) => reduce(\\(p: i64, q: i64) => sub(mul(p, 3:i64), q), 0:i64, r), "
     "blocks(s, map(\\(v: i32) => sext.i64(v), view(x, 0:i64, 1:i64, n))))); }",
     {{{"n", 0}, {"s", 3}}, {{"n", 10}, {"s", 3}}, {{"n", 10}, {"s", 16}}}, 10, 0},
    {"proj-tuple",
     "idiom t(x: [i32], y: [i32], n: i64) { store view(y, 0:i64, 1:i64, n) = "
     "map(\\(v: i32) => (add(v, 1:i32), v).0, view(x, 0:i64, 1:i64, n)); }",
     {{{"n", 6}}}, 6, 0},
    {"proj-tuple",
     "idiom t(x: [i32], n: i64) { return ((sext.i64(at(view(x, 0:i64, 1:i64, n), 0:i64)), n), "
     "n).0.1; }",
     {{{"n", 3}}}, 3, 0},
    {"split-join",
     "idiom t(x: [f64], y: [f64], n: i64) { store view(y, 0:i64, 1:i64, n) = "
     "map(\\(v: f64) => fmuladd(v, v, 1.0:f64), view(x, 0:i64, 1:i64, n)); }",
     {{{"n", 0}}, {{"n", 4}}, {{"n", 24}}}, 24, 0},
    {"reduce-split",
     "idiom t(x: [i32], n: i64) { return reduce(\\(p: i32, q: i32) => add(p, q), 0:i32, "
     "view(x, 0:i64, 1:i64, n)); }",
     {{{"n", 0}}, {{"n", 4}}, {{"n", 28}}}, 28, 0},
    {"reduce-split", ex::DotAndMax, {{{"n0", 8}}, {{"n0", 32}}}, 32, 1e-5},
    {"map-to-mapGlobal-3d", ex::Scale3D,
     {{{"n0", 3}, {"n1", 4}, {"n2", 5}, {"sp", 30}, {"sr", 6}},
      {{"n0", 1}, {"n1", 1}, {"n2", 7}, {"sp", 8}, {"sr", 8}}},
     96, 0},
    // chunks of 16 planes: one, two (the interpreter's split takes whole
    // rows; the generator's ragged last chunk: OpenCLExec.Walk3DRagged)
    {"map-to-mapGlobal-3d-walk", ex::Scale3D,
     {{{"n0", 16}, {"n1", 2}, {"n2", 2}, {"sp", 5}, {"sr", 2}},
      {{"n0", 32}, {"n1", 1}, {"n2", 2}, {"sp", 2}, {"sr", 2}}},
     96, 0},
    // chunks of 16 rows (the interpreter's split takes whole rows; the
    // ragged last chunk: VariantExec.Stencil2DEveryVariant)
    {"map-to-mapGlobal-2d-rows", ex::Scale2D,
     {{{"n0", 16}, {"n1", 4}, {"lda", 5}}, {{"n0", 32}, {"n1", 2}, {"lda", 2}}}, 80, 0},
    {"map-to-mapGlobal-2d", ex::Scale2D,
     {{{"n0", 3}, {"n1", 4}, {"lda", 5}}, {{"n0", 1}, {"n1", 5}, {"lda", 5}}}, 15, 0},
    {"map-to-mapGlobal", ex::Saxpy, {{{"n0", 0}}, {{"n0", 13}}}, 13, 0},
    {"map-to-mapGlobal", ex::TwoOuts, {{{"n0", 5}}}, 5, 0},
    {"map-to-mapSeq",
     "idiom t(x: [f32], y: [f32], n0: i64, m: i64) { store view(y, 0:i64, 1:i64, n0) = "
     "mapGlobal(0, \\(r: [f32]_4) => reduceSeq(\\(a: f32, b: f32) => fadd(a, b), 0.0:f32, "
     "map(\\(v: f32) => fmul(v, v), r)), split(4:i64, view(x, 0:i64, 1:i64, m))); }",
     {{{"n0", 5}, {"m", 20}}}, 20, 0},
    {"reduce-to-reduceSeq",
     "idiom t(x: [i32], y: [i32], n0: i64, n1: i64) { store view(y, 0:i64, 1:i64, n0) = "
     "mapGlobal(0, \\(r: [i32]_n1) => reduce(\\(a: i32, b: i32) => umax(a, b), 0:i32, r), "
     "view(x, 0:i64, n1, n0, 1:i64, n1)); }",
     {{{"n0", 3}, {"n1", 4}}, {{"n0", 2}, {"n1", 0}}}, 12, 0},
    {"map-to-mapWorkgroup",
     "idiom t(x: [f32], y: [f32], m: i64) { store view(y, 0:i64, 1:i64, m) = "
     "join(map(\\(r: [f32]_4) => map(\\(v: f32) => fneg(v), r), split(4:i64, "
     "view(x, 0:i64, 1:i64, m)))); }",
     {{{"m", 8}}}, 8, 0},
    {"map-to-mapLocal",
     "idiom t(x: [f32], y: [f32], m: i64) { store view(y, 0:i64, 1:i64, m) = "
     "join(mapWorkgroup(0, \\(r: [f32]_4) => map(\\(v: f32) => fneg(v), r), split(4:i64, "
     "view(x, 0:i64, 1:i64, m)))); }",
     {{{"m", 8}}}, 8, 0},
    {"reduce-two-stage", ex::SumI32, {{{"n0", 0}}, {{"n0", 1}}, {{"n0", 37}}}, 37, 0},
    {"reduce-two-stage", ex::DotAndMax, {{{"n0", 0}}, {{"n0", 5}}, {{"n0", 37}}}, 37, 1e-5},
    {"reduce-two-stage", ex::CountPositive, {{{"n0", 19}}}, 19, 1e-12},
    {"reduce-two-stage-blocks", ex::SumI32, {{{"n0", 0}}, {{"n0", 1}}, {{"n0", 37}}}, 37, 0},
    {"reduce-two-stage-blocks", ex::DotAndMax, {{{"n0", 0}}, {{"n0", 5}}, {{"n0", 37}}}, 37, 1e-5},
    {"reduce-two-stage-blocks", ex::CountPositive, {{{"n0", 19}}}, 19, 1e-12},
    {"as-vector-map", ex::Saxpy, {{{"n0", 0}}, {{"n0", 4}}, {{"n0", 16}}}, 16, 0},
    {"as-vector-map", ex::TwoOuts, {{{"n0", 8}}}, 8, 0},
    {"as-vector-map",
     "idiom t(x: [i8], y: [i64], n: i64) { store view(y, 0:i64, 1:i64, n) = "
     "map(\\(t: (i8, i64)) => mul(sext.i64(t.0), t.1), zip(view(x, 3:i64, 1:i64, n), "
     "iota(n))); }",
     {{{"n", 12}}}, 16, 0},
    {"as-vector-reduce", ex::SumI32, {{{"n0", 0}}, {{"n0", 4}}, {{"n0", 36}}}, 36, 0},
    {"as-vector-reduce", ex::DotAndMax, {{{"n0", 8}}, {{"n0", 40}}}, 40, 1e-5},
    {"as-vector-reduce", ex::CountPositive, {{{"n0", 20}}}, 20, 1e-12},
    {"as-scalar-map",
     "idiom t(x: [f32], y: [f32], n: i64) { store view(y, 0:i64, 1:i64, n) = "
     "join(map(\\(v: [f32]_4) => mapSeq(\\(e: f32) => fsub(e, 0.5:f32), v), "
     "split(4:i64, view(x, 0:i64, 1:i64, n)))); }",
     {{{"n", 0}}, {{"n", 8}}}, 8, 0},
    {"as-scalar-reduce",
     "idiom t(x: [i32], n: i64) { return reduce(\\(a: i32, b: i32) => add(a, b), 0:i32, "
     "map(\\(v: [i32]_8) => reduceSeq(\\(a: i32, b: i32) => add(a, b), 0:i32, v), "
     "split(8:i64, view(x, 0:i64, 1:i64, n)))); }",
     {{{"n", 0}}, {{"n", 16}}, {{"n", 32}}}, 32, 0},
    {"fmuladd-to-fma", GemmRowMajor, {{{"M", 3}, {"N", 5}, {"K", 7}}}, 64, 1e-4},
    {"mm-tile-2d", GemmRowMajor, {{{"M", 16}, {"N", 8}, {"K", 12}}}, 192, 0},
    {"mm-block-1d", GemmRowMajor, {{{"M", 16}, {"N", 16}, {"K", 8}}}, 256, 0},
    {"mm-block-2d", GemmRowMajor, {{{"M", 16}, {"N", 32}, {"K", 4}}}, 512, 0},
    // Histogram family (rules/histogram.cpp): bins in place, 8 bins read
    // from the first 8 elements of h; values and indices from random data.
    {"reduce-indexed-map-fusion",
     "idiom t(x: [i32], h: [i32], n: i64) { store view(h, 0:i64, 1:i64, 8:i64) = "
     "reduceIndexed(\\(a: i32, b: i32) => add(a, b), view(h, 0:i64, 1:i64, 8:i64), "
     "\\(v: i32) => (sext.i64(and(v, 7:i32)), v), map(\\(q: i32) => mul(q, 3:i32), "
     "view(x, 0:i64, 1:i64, n))); }",
     {{{"n", 0}}, {{"n", 29}}}, 29, 0},
    {"reduce-indexed-to-atomic", ex::HistAdd, {{{"n", 0}}, {{"n", 1}}, {{"n", 37}}}, 37, 0},
    {"reduce-indexed-to-atomic", ex::HistSatU8, {{{"n", 45}}}, 45, 0},
    {"reduce-indexed-to-atomic-strided", ex::HistAdd, {{{"n", 0}}, {{"n", 37}}}, 37, 0},
    {"reduce-indexed-to-atomic-strided", ex::HistSMin, {{{"n", 23}}}, 23, 0},
    {"reduce-indexed-privatise", ex::HistAdd, {{{"n", 0}}, {{"n", 1}}, {{"n", 37}}}, 37, 0},
    {"reduce-indexed-privatise", ex::HistSatU8, {{{"n", 45}}}, 45, 0},
    {"reduce-indexed-privatise", ex::HistSMin, {{{"n", 23}}}, 23, 0},
    {"reduce-indexed-privatise", ex::HistFAdd, {{{"n", 31}}}, 31, 1e-5},
};

/// Launch shapes for the lowered forms (L must be a power of two).
const ExecConfig Configs[] = {{1, 1}, {2, 3}, {4, 3}, {8, 2}, {16, 1}};

class RuleEquivalence : public ::testing::TestWithParam<RuleCase> {};

TEST_P(RuleEquivalence, InterpreterAgreesOnRandomInputs) {
  const RuleCase &C = GetParam();
  const rewrite::Rule *R = rewrite::findRule(C.Rule);
  ASSERT_TRUE(R) << C.Rule;
  Program Before = parseOrDie(C.Program);
  Program After = Before;
  std::vector<std::string> Trace;
  std::string Err;
  ASSERT_TRUE(rewrite::rewriteProgram(After, rewrite::oncePosition(rewrite::ruleStrategy(*R)),
                                      Err, &Trace))
      << Err;
  ASSERT_EQ(Trace.size(), 1u) << C.Rule << " did not apply to\n" << C.Program;
  EXPECT_NE(printProgram(Before), printProgram(After));
  // The rewritten program prints and parses back to itself.
  Program Reparsed;
  ASSERT_TRUE(parseProgram(printProgram(After), Reparsed, Err)) << Err;
  EXPECT_EQ(printProgram(Reparsed), printProgram(After));

  std::mt19937_64 Rng(1234);
  auto SizesList = C.Sizes;
  if (SizesList.empty())
    SizesList.push_back({});
  for (const auto &Sizes : SizesList)
    for (int Trial = 0; Trial < 4; ++Trial) {
      ValueMap Args = randomArgs(Before, Sizes, C.BufLen, Rng);
      for (const ExecConfig &Cfg : Configs) {
        std::string Why = compareRuns(Before, After, Args, C.Tol, {}, Cfg);
        EXPECT_EQ(Why, "") << C.Rule << " L=" << Cfg.LocalSize
                           << " G=" << Cfg.NumGroups << "\n"
                           << printProgram(After);
        if (!Why.empty())
          return;
      }
    }
}

INSTANTIATE_TEST_SUITE_P(AllRules, RuleEquivalence, ::testing::ValuesIn(Cases));

TEST(Rules, EveryRegisteredRuleIsTested) {
  for (const rewrite::Rule &R : rewrite::allRules()) {
    // The memory rules need a tiled matrix product: test/rewrite/MatMulTest.cpp.
    bool Found = R.Family == "memory";
    for (const RuleCase &C : Cases)
      Found |= R.Name == C.Rule;
    Found |= layoutRuleTested(R.Name) || rowLanesRuleTested(R.Name);
    EXPECT_TRUE(Found) << "no equivalence test for rule " << R.Name;
    EXPECT_FALSE(R.Doc.empty());
    EXPECT_TRUE(R.Family == "algorithmic" || R.Family == "lowering" ||
                R.Family == "vectorisation" || R.Family == "matmul" ||
                R.Family == "memory" || R.Family == "histogram" ||
                R.Family == "fusion" || R.Family == "views" ||
                R.Family == "coalescing");
  }
}

TEST(Rules, ContextIsRespected) {
  // map-to-mapGlobal applies on the host only: not inside a mapGlobal.
  Program P = parseOrDie(
      "idiom t(x: [f32], y: [f32], n0: i64, n1: i64) { store view(y, 0:i64, n1, n0, 1:i64, n1) = "
      "mapGlobal(1, \\(r: [f32]_n1) => map(\\(v: f32) => v, r), "
      "view(x, 0:i64, n1, n0, 1:i64, n1)); }");
  std::string Err;
  std::vector<std::string> Trace;
  ASSERT_TRUE(rewrite::rewriteProgram(
      P, rewrite::oncePosition(rewrite::ruleStrategy(*rewrite::findRule("map-to-mapGlobal"))),
      Err, &Trace));
  EXPECT_TRUE(Trace.empty());
  // ... whereas map-to-mapSeq does.
  ASSERT_TRUE(rewrite::rewriteProgram(
      P, rewrite::oncePosition(rewrite::ruleStrategy(*rewrite::findRule("map-to-mapSeq"))),
      Err, &Trace));
  EXPECT_EQ(Trace.size(), 1u);
}

TEST(Rules, SplitJoinSideCondition) {
  Program P = parseOrDie("idiom t(x: [f32], y: [f32]) { store view(y, 0:i64, 1:i64, 6:i64) = "
                         "map(\\(v: f32) => v, view(x, 0:i64, 1:i64, 6:i64)); }");
  std::string Err;
  std::vector<std::string> Trace;
  ASSERT_TRUE(rewrite::rewriteProgram(
      P, rewrite::oncePosition(rewrite::ruleStrategy(*rewrite::findRule("split-join"))), Err,
      &Trace));
  EXPECT_TRUE(Trace.empty()) << "4 does not divide 6";
  ASSERT_TRUE(rewrite::rewriteProgram(
      P, rewrite::oncePosition(rewrite::ruleStrategy(rewrite::splitJoinRule(3))), Err, &Trace));
  EXPECT_EQ(Trace.size(), 1u);
}

/// Applies \p R once at the outermost position of \p Text; the number of
/// applications (0 or 1).
size_t applyOnce(const rewrite::Rule &R, const char *Text) {
  Program P = parseOrDie(Text);
  std::string Err;
  std::vector<std::string> Trace;
  EXPECT_TRUE(rewrite::rewriteProgram(P, rewrite::oncePosition(rewrite::ruleStrategy(R)),
                                      Err, &Trace))
      << Err;
  return Trace.size();
}

TEST(Rules, WalksMatchTheirDepthAndChunks) {
  using rewrite::mapRowWalk2dRule;
  using rewrite::mapWalk3dRule;
  Program P2 = parseOrDie(ex::Scale2D), P3 = parseOrDie(ex::Scale3D);
  auto Matches = [](const rewrite::Rule &R, const Program &P) {
    rewrite::Bindings B;
    return R.Match(P.Body, B);
  };
  // The row walk takes exactly two levels: a 3-D nest is the plane walk's;
  // the plane walk takes three.
  EXPECT_TRUE(Matches(mapRowWalk2dRule(16), P2));
  EXPECT_FALSE(Matches(mapRowWalk2dRule(16), P3));
  EXPECT_TRUE(Matches(mapWalk3dRule(16), P3));
  EXPECT_FALSE(Matches(mapWalk3dRule(16), P2));
  EXPECT_EQ(mapRowWalk2dRule(16).Name, "map-to-mapGlobal-2d-rows");
  EXPECT_EQ(mapRowWalk2dRule(64).Name, "map-to-mapGlobal-2d-rows-64");
  EXPECT_EQ(mapWalk3dRule(16).Name, "map-to-mapGlobal-3d-walk");
  EXPECT_EQ(mapWalk3dRule(32).Name, "map-to-mapGlobal-3d-walk-32");
  // Chunks of R rows divide a constant row count (6 here), R >= 2.
  const char *SixRows =
      "idiom t(x: [f32], y: [f32]) { store view(y, 0:i64, 4:i64, 6:i64, 1:i64, 4:i64) = "
      "map(\\(r: [f32]_4) => map(\\(v: f32) => fadd(v, 1.0:f32), r), "
      "view(x, 0:i64, 4:i64, 6:i64, 1:i64, 4:i64)); }";
  EXPECT_EQ(applyOnce(mapRowWalk2dRule(16), SixRows), 0u);
  EXPECT_EQ(applyOnce(mapRowWalk2dRule(4), SixRows), 0u);
  EXPECT_EQ(applyOnce(mapRowWalk2dRule(1), SixRows), 0u);
  EXPECT_EQ(applyOnce(mapRowWalk2dRule(3), SixRows), 1u);
  EXPECT_EQ(applyOnce(mapRowWalk2dRule(2), SixRows), 1u);
}

TEST(Rules, AsVectorSideConditions) {
  const rewrite::Rule &M = *rewrite::findRule("as-vector-map");
  const rewrite::Rule &R = *rewrite::findRule("as-vector-reduce");
  // A stride other than a literal 1 is not contiguous.
  EXPECT_EQ(applyOnce(M, "idiom t(x: [f32], y: [f32], n: i64) { store view(y, 0:i64, 1:i64, n) "
                         "= map(\\(v: f32) => v, view(x, 0:i64, 2:i64, n)); }"),
            0u);
  EXPECT_EQ(applyOnce(R, "idiom t(x: [f32], s: i64, n: i64) { return reduce(\\(a: f32, b: f32) "
                         "=> fadd(a, b), 0.0:f32, view(x, 0:i64, s, n)); }"),
            0u);
  // Rows of a 2-D view are not one contiguous array.
  EXPECT_EQ(applyOnce(R, "idiom t(x: [f32], n: i64, m: i64) { return reduce(\\(a: f32, b: f32) "
                         "=> fadd(a, b), 0.0:f32, map(\\(r: [f32]_m) => at(r, 0:i64), "
                         "view(x, 0:i64, m, n, 1:i64, m))); }"),
            0u);
  // A constant length that 4 does not divide.
  EXPECT_EQ(applyOnce(M, "idiom t(x: [f32], y: [f32]) { store view(y, 0:i64, 1:i64, 6:i64) = "
                         "map(\\(v: f32) => v, view(x, 0:i64, 1:i64, 6:i64)); }"),
            0u);
  EXPECT_EQ(applyOnce(rewrite::asVectorMapRule(2),
                      "idiom t(x: [f32], y: [f32]) { store view(y, 0:i64, 1:i64, 6:i64) = "
                      "map(\\(v: f32) => v, view(x, 0:i64, 1:i64, 6:i64)); }"),
            1u);
  // Inside a parallel map (not the host) the rule does not apply.
  EXPECT_EQ(applyOnce(M, "idiom t(x: [f32], y: [f32], n: i64) { store view(y, 0:i64, 1:i64, n) = "
                         "mapGlobal(0, \\(v: f32) => reduce(\\(a: f32, b: f32) => fadd(a, b), "
                         "0.0:f32, map(\\(w: f32) => fmul(w, v), view(x, 0:i64, 1:i64, n))), "
                         "view(x, 0:i64, 1:i64, n)); }"),
            0u);
}

TEST(Rules, AsScalarNeedsTheSameOperator) {
  const rewrite::Rule &R = *rewrite::findRule("as-scalar-reduce");
  // The chunks are reduced with smax but the outer reduce adds: not asScalar.
  EXPECT_EQ(applyOnce(R, "idiom t(x: [i32], n: i64) { return reduce(\\(a: i32, b: i32) => "
                         "add(a, b), 0:i32, map(\\(v: [i32]_4) => reduceSeq(\\(a: i32, b: i32) "
                         "=> smax(a, b), 0:i32, v), split(4:i64, view(x, 0:i64, 1:i64, n)))); }"),
            0u);
  const rewrite::Rule &M = *rewrite::findRule("as-scalar-map");
  // The row is used by the element function (not a lane-wise map).
  EXPECT_EQ(applyOnce(M, "idiom t(x: [f32], y: [f32], n: i64) { store view(y, 0:i64, 1:i64, n) = "
                         "join(map(\\(v: [f32]_4) => mapSeq(\\(e: f32) => fadd(e, at(v, 0:i64)), "
                         "v), split(4:i64, view(x, 0:i64, 1:i64, n)))); }"),
            0u);
}

} // namespace
