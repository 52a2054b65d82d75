//===- LayoutRuleTest.cpp - views, coalescing and vector-type rules -------===//
//
// Part of Idiom. The rules of rules/views.cpp, rules/coalescing.cpp and the
// vector-type rules of rules/vectorisation.cpp, as RuleTest.cpp does for
// the others: each rule applied once at the outermost position; the result
// type checks, round-trips through text and agrees with the original in
// the interpreter on random inputs (DESIGN section 8). Side conditions are
// tested as negatives.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"
#include "idiom/Rewrite/Rules.h"
#include "idiom/Rewrite/Strategy.h"

#include <gtest/gtest.h>

using namespace idiom;
using namespace idiom::rwtest;

namespace {

struct LayoutCase {
  const char *Rule;
  const char *Program;
  std::vector<std::map<std::string, int64_t>> Sizes; ///< one run per entry
  int64_t BufLen;
  double Tol; ///< 0: exact
};

const LayoutCase Cases[] = {
    {"transpose-transpose",
     "idiom t(x: [i32], y: [i32], n: i64) { store view(y, 0:i64, 3:i64, n, 1:i64, 3:i64) = "
     "transpose(transpose(view(x, 0:i64, 3:i64, n, 1:i64, 3:i64))); }",
     {{{"n", 0}}, {{"n", 1}}, {{"n", 5}}}, 15, 0},
    {"map-interchange",
     "idiom t(x: [f32], y: [f32], b: f32, n: i64) { store view(y, 0:i64, 4:i64, n, 1:i64, 4:i64) "
     "= map(\\(r: [f32]_4) => map(\\(v: f32) => fmul(v, b), r), "
     "view(x, 0:i64, 4:i64, n, 1:i64, 4:i64)); }",
     {{{"n", 0}}, {{"n", 1}}, {{"n", 6}}}, 24, 0},
    {"transpose-map",
     "idiom t(x: [f32], y: [f32], n: i64, m: i64) { store view(y, 0:i64, n, m, 1:i64, n) = "
     "transpose(map(\\(r: [f32]_m) => map(\\(v: f32) => fsub(v, 1.0:f32), r), "
     "view(x, 0:i64, m, n, 1:i64, m))); }",
     {{{"n", 1}, {"m", 1}}, {{"n", 3}, {"m", 5}}}, 15, 0},
    {"reorder-map",
     "idiom t(x: [i32], y: [i32], n: i64) { store view(y, 0:i64, 1:i64, n) = "
     "reorder(\\(i: i64) => sub(sub(n, 1:i64), i), map(\\(v: i32) => mul(v, v), "
     "view(x, 0:i64, 1:i64, n))); }",
     {{{"n", 0}}, {{"n", 1}}, {{"n", 7}}}, 7, 0},
    {"reorderStride-map",
     "idiom t(x: [i32], y: [i64], n: i64) { store view(y, 0:i64, 1:i64, n) = "
     "reorderStride(2:i64, map(\\(v: i32) => sext.i64(v), view(x, 0:i64, 1:i64, n))); }",
     {{{"n", 0}}, {{"n", 4}}, {{"n", 10}}}, 10, 0},
    {"padClamp-map",
     "idiom t(x: [f64], y: [f64], n: i64, m: i64) { store view(y, 0:i64, 1:i64, m) = "
     "padClamp(1:i64, 2:i64, map(\\(v: f64) => fmul(v, v), view(x, 0:i64, 1:i64, n))); }",
     {{{"n", 1}, {"m", 4}}, {{"n", 6}, {"m", 9}}}, 9, 0},
    {"map-reorder",
     "idiom t(x: [i32], y: [i32], n: i64) { store view(y, 0:i64, 1:i64, n) = "
     "map(\\(v: i32) => add(v, 1:i32), reorder(\\(i: i64) => urem(add(i, 3:i64), n), "
     "view(x, 0:i64, 1:i64, n))); }",
     {{{"n", 1}}, {{"n", 7}}}, 7, 0},
    {"map-reorderStride",
     "idiom t(x: [i32], y: [i32], n: i64) { store view(y, 0:i64, 1:i64, n) = "
     "map(\\(v: i32) => add(v, 1:i32), reorderStride(4:i64, view(x, 0:i64, 1:i64, n))); }",
     {{{"n", 0}}, {{"n", 8}}, {{"n", 12}}}, 12, 0},
    {"slide-map",
     "idiom t(x: [i32], n: i64) { return reduce(\\(a: i32, b: i32) => add(a, b), 0:i32, "
     "map(\\(w: [i32]_3) => reduce(\\(a: i32, b: i32) => smax(a, b), -2147483648:i32, w), "
     "slide(3:i64, 2:i64, map(\\(v: i32) => mul(v, 5:i32), view(x, 0:i64, 1:i64, n))))); }",
     {{{"n", 0}}, {{"n", 2}}, {{"n", 3}}, {{"n", 10}}}, 10, 0},
    {"slide-split",
     "idiom t(x: [i32]) { return reduce(\\(a: i32, b: i32) => add(a, b), 0:i32, "
     "map(\\(w: [i32]_4) => mul(at(w, 1:i64), at(w, 3:i64)), "
     "slide(4:i64, 4:i64, view(x, 0:i64, 1:i64, 12:i64)))); }",
     {{}}, 12, 0},
    {"pad-zero",
     "idiom t(x: [f32], y: [f32], n: i64) { store view(y, 0:i64, 1:i64, n) = "
     "pad(0:i64, 0:i64, 1.0:f32, view(x, 0:i64, 1:i64, n)); }",
     {{{"n", 0}}, {{"n", 5}}}, 5, 0},
    {"pad-zero",
     "idiom t(x: [f32], y: [f32], n: i64) { store view(y, 0:i64, 1:i64, n) = "
     "padClamp(0:i64, 0:i64, view(x, 0:i64, 1:i64, n)); }",
     {{{"n", 0}}, {{"n", 5}}}, 5, 0},
    {"reduce-reorder-stride",
     "idiom t(x: [i32]) { return reduce(\\(a: i32, b: i32) => add(mul(a, 1:i32), b), 0:i32, "
     "view(x, 0:i64, 1:i64, 12:i64)); }",
     {{}}, 12, 0},
    {"reduce-reorder-stride",
     "idiom t(x: [f64]) { return reduce(\\(a: (f64, f64), b: (f64, f64)) => (fadd(a.0, b.0), "
     "fmax(a.1, b.1)), (0.0:f64, -inf:f64), map(\\(v: f64) => (v, v), "
     "view(x, 1:i64, 1:i64, 10:i64))); }",
     {{}}, 11, 1e-12},
    {"coalesce-mapGlobal",
     "idiom t(x: [f32], y: [f32]) { store view(y, 0:i64, 1:i64, 24:i64) = "
     "mapGlobal(0, \\(v: f32) => fadd(v, 2.0:f32), view(x, 0:i64, 1:i64, 24:i64)); }",
     {{}}, 24, 0},
    {"coalesce-chunks",
     "idiom t(x: [f32], y: [f32]) { store view(y, 0:i64, 1:i64, 32:i64) = "
     "join(mapGlobal(0, \\(r: [f32]_4) => mapSeq(\\(v: f32) => fmul(v, v), r), "
     "split(4:i64, view(x, 0:i64, 1:i64, 32:i64)))); }",
     {{}}, 32, 0},
    {"as-vector-lanes",
     "idiom t(x: [f32], y: [f32], a: f32) { store view(y, 0:i64, 1:i64, 16:i64) = "
     "map(\\(t: (f32, f32)) => fmuladd(a, t.0, t.1), zip(view(x, 0:i64, 1:i64, 16:i64), "
     "view(y, 0:i64, 1:i64, 16:i64))); }",
     {{}}, 16, 0},
    {"as-vector-lanes",
     "idiom t(x: [i32], y: [f64], s: i32) { store view(y, 0:i64, 1:i64, 8:i64) = "
     "map(\\(v: i32) => sitofp.f64(select(icmp_slt(s, 0:i32), smin(v, s), mul(v, 7:i32))), "
     "view(x, 3:i64, 1:i64, 8:i64)); }",
     {{}}, 12, 0},
    {"as-scalar-as-vector",
     "idiom t(x: [f32], y: [f32]) { store view(y, 0:i64, 1:i64, 16:i64) = "
     "map(\\(v: f32) => fneg(v), asScalar(asVector(4:i64, view(x, 0:i64, 1:i64, 16:i64)))); }",
     {{}}, 16, 0},
    {"as-vector-as-scalar",
     "idiom t(x: [i32], y: [i32]) { store view(y, 0:i64, 1:i64, 16:i64) = "
     "asScalar(map(\\(v: i32x4) => mul(v, v), asVector(4:i64, asScalar(map(\\(u: i32x4) => "
     "add(u, 1:i32), asVector(4:i64, view(x, 0:i64, 1:i64, 16:i64))))))); }",
     {{}}, 16, 0},
    {"reduce-two-stage-lanes",
     "idiom t(x: [f32], y: [f32], n: i64) { return reduce(\\(a: f32, b: f32) => fadd(a, b), "
     "0.0:f32, map(\\(t: (f32, f32)) => fmul(t.0, t.1), zip(view(x, 0:i64, 1:i64, n), "
     "view(y, 0:i64, 1:i64, n)))); }",
     {{{"n", 0}}, {{"n", 1}}, {{"n", 7}}, {{"n", 37}}}, 37, 1e-5},
    {"reduce-two-stage-lanes",
     "idiom t(x: [i32], n: i64) { return reduce(\\(a: i32, b: i32) => smax(a, b), "
     "-2147483648:i32, view(x, 3:i64, 1:i64, n)); }",
     {{{"n", 0}}, {{"n", 2}}, {{"n", 29}}}, 32, 0},
    {"reduce-two-stage-lanes",
     "idiom t(x: [u8], n: i64) { return reduce(\\(a: u8, b: u8) => add(a, b), 0:u8, "
     "view(x, 0:i64, 1:i64, n)); }",
     {{{"n", 5}}, {{"n", 33}}}, 33, 0},
};

/// Launch shapes: the rules are above the launch level, but lowered forms
/// read them (L must be a power of two for the work-group tree).
const ExecConfig Configs[] = {{1, 1}, {4, 3}, {8, 2}};

class LayoutRuleEquivalence : public ::testing::TestWithParam<LayoutCase> {};

TEST_P(LayoutRuleEquivalence, InterpreterAgreesOnRandomInputs) {
  const LayoutCase &C = GetParam();
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
  Program Reparsed;
  ASSERT_TRUE(parseProgram(printProgram(After), Reparsed, Err)) << Err;
  EXPECT_EQ(printProgram(Reparsed), printProgram(After));
  std::mt19937_64 Rng(4321);
  for (const auto &Sizes : C.Sizes)
    for (int Trial = 0; Trial < 4; ++Trial) {
      ValueMap Args = randomArgs(Before, Sizes, C.BufLen, Rng);
      for (const ExecConfig &Cfg : Configs) {
        std::string Why = compareRuns(Before, After, Args, C.Tol, {}, Cfg);
        ASSERT_EQ(Why, "") << C.Rule << "\n" << printProgram(After);
      }
    }
}

INSTANTIATE_TEST_SUITE_P(LayoutRules, LayoutRuleEquivalence, ::testing::ValuesIn(Cases));

/// Applies \p R once at the outermost position of \p Text; 0 or 1.
size_t applyOnce(const rewrite::Rule &R, const char *Text) {
  Program P = parseOrDie(Text);
  std::string Err;
  std::vector<std::string> Trace;
  EXPECT_TRUE(rewrite::rewriteProgram(P, rewrite::oncePosition(rewrite::ruleStrategy(R)),
                                      Err, &Trace))
      << Err;
  return Trace.size();
}

const rewrite::Rule &rule(const char *Name) { return *rewrite::findRule(Name); }

TEST(LayoutRules, SideConditions) {
  // Rows of a symbolic length may be empty: transpose loses the row count.
  EXPECT_EQ(applyOnce(rule("transpose-transpose"),
                      "idiom t(x: [i32], y: [i32], n: i64, m: i64) { store view(y, 0:i64, m, n, "
                      "1:i64, m) = transpose(transpose(view(x, 0:i64, m, n, 1:i64, m))); }"),
            0u);
  EXPECT_EQ(applyOnce(rule("map-interchange"),
                      "idiom t(x: [f32], y: [f32], n: i64, m: i64) { store view(y, 0:i64, m, n, "
                      "1:i64, m) = map(\\(r: [f32]_m) => map(\\(v: f32) => v, r), "
                      "view(x, 0:i64, m, n, 1:i64, m)); }"),
            0u);
  // The inner function uses the row: not a map of a map.
  EXPECT_EQ(applyOnce(rule("map-interchange"),
                      "idiom t(x: [f32], y: [f32], n: i64) { store view(y, 0:i64, 2:i64, n, "
                      "1:i64, 2:i64) = map(\\(r: [f32]_2) => map(\\(v: f32) => fadd(v, "
                      "at(r, 0:i64)), r), view(x, 0:i64, 2:i64, n, 1:i64, 2:i64)); }"),
            0u);
  // reorderStride needs a multiple of its stride.
  EXPECT_EQ(applyOnce(rule("reduce-reorder-stride"),
                      "idiom t(x: [i32], n: i64) { return reduce(\\(a: i32, b: i32) => add(a, "
                      "b), 0:i32, view(x, 0:i64, 1:i64, n)); }"),
            0u);
  EXPECT_EQ(applyOnce(rule("reduce-reorder-stride"),
                      "idiom t(x: [i32]) { return reduce(\\(a: i32, b: i32) => add(a, b), "
                      "0:i32, view(x, 0:i64, 1:i64, 9:i64)); }"),
            0u);
  EXPECT_EQ(applyOnce(rewrite::reduceReorderStrideRule(3),
                      "idiom t(x: [i32]) { return reduce(\\(a: i32, b: i32) => add(a, b), "
                      "0:i32, view(x, 0:i64, 1:i64, 9:i64)); }"),
            1u);
  // reduceSeq does not promise commutativity.
  EXPECT_EQ(applyOnce(rule("reduce-reorder-stride"),
                      "idiom t(x: [i32]) { return reduceSeq(\\(a: i32, b: i32) => sub(a, b), "
                      "0:i32, view(x, 0:i64, 1:i64, 8:i64)); }"),
            0u);
  EXPECT_EQ(applyOnce(rule("coalesce-mapGlobal"),
                      "idiom t(x: [f32], y: [f32]) { store view(y, 0:i64, 1:i64, 30:i64) = "
                      "mapGlobal(0, \\(v: f32) => v, view(x, 0:i64, 1:i64, 30:i64)); }"),
            0u);
  EXPECT_EQ(applyOnce(rule("coalesce-chunks"),
                      "idiom t(x: [f32], y: [f32], n: i64) { store view(y, 0:i64, 1:i64, n) = "
                      "join(mapGlobal(0, \\(r: [f32]_4) => mapSeq(\\(v: f32) => v, r), "
                      "split(4:i64, view(x, 0:i64, 1:i64, n)))); }"),
            0u);
  // Overlapping windows, or windows that do not tile the array, are not split.
  EXPECT_EQ(applyOnce(rule("slide-split"),
                      "idiom t(x: [i32]) { return reduce(\\(a: i32, b: i32) => add(a, b), "
                      "0:i32, map(\\(w: [i32]_2) => at(w, 0:i64), slide(2:i64, 1:i64, "
                      "view(x, 0:i64, 1:i64, 8:i64)))); }"),
            0u);
  EXPECT_EQ(applyOnce(rule("slide-split"),
                      "idiom t(x: [i32]) { return reduce(\\(a: i32, b: i32) => add(a, b), "
                      "0:i32, map(\\(w: [i32]_3) => at(w, 0:i64), slide(3:i64, 3:i64, "
                      "view(x, 0:i64, 1:i64, 10:i64)))); }"),
            0u);
  EXPECT_EQ(applyOnce(rule("pad-zero"),
                      "idiom t(x: [f32], y: [f32], n: i64, m: i64) { store view(y, 0:i64, 1:i64, "
                      "m) = padClamp(0:i64, 1:i64, view(x, 0:i64, 1:i64, n)); }"),
            0u);
}

TEST(LayoutRules, ReduceLanesSideConditions) {
  const rewrite::Rule &R = rule("reduce-two-stage-lanes");
  // A minimum written with a comparison is not lane-wise.
  EXPECT_EQ(applyOnce(R, "idiom t(x: [f32], n: i64) { return reduce(\\(a: f32, b: f32) => "
                         "select(fcmp_olt(a, b), a, b), inf:f32, view(x, 0:i64, 1:i64, n)); }"),
            0u);
  // Tuple accumulators have no vector form.
  EXPECT_EQ(applyOnce(R, "idiom t(x: [f32], n: i64) { return reduce(\\(a: (f32, f32), b: (f32, "
                         "f32)) => (fadd(a.0, b.0), fmax(a.1, b.1)), (0.0:f32, -inf:f32), "
                         "map(\\(v: f32) => (v, v), view(x, 0:i64, 1:i64, n))); }"),
            0u);
  // Only on the host, like reduce-two-stage.
  EXPECT_EQ(applyOnce(R, "idiom t(x: [f32], y: [f32], n: i64) { store view(y, 0:i64, 1:i64, n) = "
                         "mapGlobal(0, \\(v: f32) => reduce(\\(a: f32, b: f32) => fadd(a, b), "
                         "v, view(x, 0:i64, 1:i64, n)), view(x, 0:i64, 1:i64, n)); }"),
            0u);
  EXPECT_EQ(applyOnce(R, "idiom t(x: [f64], n: i64) { return reduce(\\(a: f64, b: f64) => "
                         "fmax(a, b), -inf:f64, view(x, 0:i64, 1:i64, n)); }"),
            1u);
}

/// A compensated sum and a compensated dot product as `compensate` and
/// map fusion leave them (the input of as-vector-compensated-blocks).
const char *CompensatedSum =
    "idiom s(x: [f32], n0: i64) { return apply(\\(p: (f32, f32)) => select(and(fcmp_olt("
    "fabs(p.0), inf:f32), fcmp_one(p.1, 0.0:f32)), fadd(p.0, p.1), p.0), reduce(\\(a_1: (f32, "
    "f32), b_1: (f32, f32)) => (fadd(a_1.0, b_1.0), fadd(fadd(a_1.1, b_1.1), select(fcmp_oge("
    "fabs(a_1.0), fabs(b_1.0)), fadd(fsub(a_1.0, fadd(a_1.0, b_1.0)), b_1.0), fadd(fsub(b_1.0, "
    "fadd(a_1.0, b_1.0)), a_1.0)))), (-0.0:f32, -0.0:f32), map(\\(t_1: f32) => (t_1, "
    "-0.0:f32), view(x, 0:i64, 1:i64, n0)))); }";
const char *CompensatedDot =
    "idiom d(a: [f64], b: [f64], n0: i64) { return apply(\\(p: (f64, f64)) => select(and("
    "fcmp_olt(fabs(p.0), inf:f64), fcmp_one(p.1, 0.0:f64)), fadd(p.0, p.1), p.0), reduce("
    "\\(a_1: (f64, f64), b_1: (f64, f64)) => (fadd(a_1.0, b_1.0), fadd(fadd(a_1.1, b_1.1), "
    "select(fcmp_oge(fabs(a_1.0), fabs(b_1.0)), fadd(fsub(a_1.0, fadd(a_1.0, b_1.0)), b_1.0), "
    "fadd(fsub(b_1.0, fadd(a_1.0, b_1.0)), a_1.0)))), (-0.0:f64, -0.0:f64), map(\\(t_1: (f64, "
    "f64)) => (fmul(t_1.0, t_1.1), -0.0:f64), zip(view(a, 0:i64, 1:i64, n0), view(b, 0:i64, "
    "1:i64, n0))))); }";

TEST(LayoutRules, CompensatedLanes) {
  const rewrite::Rule R = rewrite::compensatedLanesRule();
  for (const char *Text : {CompensatedSum, CompensatedDot}) {
    Program Before = parseOrDie(Text);
    Program After = Before;
    std::vector<std::string> Trace;
    std::string Err;
    ASSERT_TRUE(rewrite::rewriteProgram(After, rewrite::oncePosition(rewrite::ruleStrategy(R)),
                                        Err, &Trace))
        << Err;
    ASSERT_EQ(Trace.size(), 1u) << Text;
    Program Reparsed;
    ASSERT_TRUE(parseProgram(printProgram(After), Reparsed, Err)) << Err;
    EXPECT_EQ(printProgram(Reparsed), printProgram(After));
    // Lanes of 16 bytes: 4 floats, 2 doubles.
    EXPECT_NE(printProgram(After).find(Before.Params[0].Ty->Elem->S == funil::ScalarKind::F32
                                           ? "asVector(4:i64"
                                           : "asVector(2:i64"),
              std::string::npos);
    std::mt19937_64 Rng(99);
    for (int64_t N : {0, 1, 3, 7, 37, 64})
      for (int Trial = 0; Trial < 3; ++Trial) {
        ValueMap Args = randomArgs(Before, {{"n0", N}}, 64, Rng);
        for (const ExecConfig &Cfg : Configs) {
          // Both sums are compensated: equal up to the last bits.
          std::string Why = compareRuns(Before, After, Args, 1e-6, {}, Cfg);
          ASSERT_EQ(Why, "") << printProgram(After);
        }
      }
  }
  // Not a compensated combine (a plain pair sum), or a strided array.
  EXPECT_EQ(applyOnce(R, "idiom t(x: [f32], n: i64) { return reduce(\\(a: (f32, f32), b: (f32, "
                         "f32)) => (fadd(a.0, b.0), fadd(a.1, b.1)), (-0.0:f32, -0.0:f32), "
                         "map(\\(v: f32) => (v, -0.0:f32), view(x, 0:i64, 1:i64, n))); }"),
            0u);
  std::string Strided = CompensatedSum;
  Strided.replace(Strided.find("view(x, 0:i64, 1:i64, n0)"), 25, "view(x, 0:i64, 2:i64, n0)");
  EXPECT_EQ(applyOnce(R, Strided.c_str()), 0u);
}

TEST(LayoutRules, AsVectorLanesSideConditions) {
  const rewrite::Rule &R = rule("as-vector-lanes");
  // A comparison is not lane-wise.
  EXPECT_EQ(applyOnce(R, "idiom t(x: [f32], y: [f32]) { store view(y, 0:i64, 1:i64, 8:i64) = "
                         "map(\\(v: f32) => select(fcmp_olt(v, 0.0:f32), 0.0:f32, v), "
                         "view(x, 0:i64, 1:i64, 8:i64)); }"),
            0u);
  // Narrow integer results are vectors too (char8).
  EXPECT_EQ(applyOnce(R, "idiom t(x: [f32], y: [i8]) { store view(y, 0:i64, 1:i64, 8:i64) = "
                         "map(\\(v: f32) => fptosi.i8(v), view(x, 0:i64, 1:i64, 8:i64)); }"),
            1u);
  // The element used as an index is not lane-wise.
  EXPECT_EQ(applyOnce(R, "idiom t(x: [i64], y: [f32]) { store view(y, 0:i64, 1:i64, 8:i64) = "
                         "map(\\(v: i64) => at(view(y, 0:i64, 1:i64, 8:i64), v), "
                         "view(x, 0:i64, 1:i64, 8:i64)); }"),
            0u);
  // A length that is not a multiple of 4, or not known to be one.
  EXPECT_EQ(applyOnce(R, "idiom t(x: [f32], y: [f32]) { store view(y, 0:i64, 1:i64, 6:i64) = "
                         "map(\\(v: f32) => v, view(x, 0:i64, 1:i64, 6:i64)); }"),
            0u);
  EXPECT_EQ(applyOnce(R, "idiom t(x: [f32], y: [f32], n: i64) { store view(y, 0:i64, 1:i64, n) "
                         "= map(\\(v: f32) => v, view(x, 0:i64, 1:i64, n)); }"),
            0u);
  EXPECT_EQ(applyOnce(rewrite::asVectorLanesRule(2),
                      "idiom t(x: [f32], y: [f32]) { store view(y, 0:i64, 1:i64, 6:i64) = "
                      "map(\\(v: f32) => v, view(x, 0:i64, 1:i64, 6:i64)); }"),
            1u);
  // Rows of a 2-D view are arrays, not scalars.
  EXPECT_EQ(applyOnce(R, "idiom t(x: [f32], y: [f32]) { store view(y, 0:i64, 1:i64, 4:i64) = "
                         "map(\\(r: [f32]_4) => at(r, 0:i64), view(x, 0:i64, 4:i64, 4:i64, "
                         "1:i64, 4:i64)); }"),
            0u);
}

} // namespace

namespace idiom::rwtest {
/// True when LayoutRuleTest.cpp has an equivalence case for rule \p Name
/// (RuleTest.cpp's completeness test asks).
bool layoutRuleTested(const std::string &Name) {
  for (const LayoutCase &C : Cases)
    if (Name == C.Rule)
      return true;
  return false;
}
} // namespace idiom::rwtest
