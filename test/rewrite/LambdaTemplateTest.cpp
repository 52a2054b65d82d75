//===- LambdaTemplateTest.cpp - a scalar lambda's text with holes ---------===//
//
// Part of Idiom. codegen/LambdaTemplate.h: a prepared template gives exactly
// Emitter::apply's text for identifier and number leaves, emits nothing
// itself, and refuses bodies, shapes and leaves outside its proof.
//
//===----------------------------------------------------------------------===//

#include "../../rewrite/lib/codegen/LambdaTemplate.h"
#include "idiom/FunIL/Parser.h"

#include <gtest/gtest.h>

using namespace idiom;
using namespace idiom::rewrite::codegen;
using funil::ScalarKind;

namespace {

ExprPtr lambda(const std::string &Text) {
  ExprPtr E;
  std::string Err;
  EXPECT_TRUE(funil::parseExpr(Text, E, Err)) << Err;
  return E;
}

CVal pair(ScalarKind A, ScalarKind B) {
  CVal T;
  T.K = CVal::Tuple;
  T.Elems = {CVal::scalar("", A), CVal::scalar("", B)};
  return T;
}

/// apply's text for (Acc, (A, B)) in a fresh emitter with \p Bind bound.
std::string applied(const ExprPtr &Fn, ScalarKind K, const std::string &Acc,
                    const std::string &A, const std::string &B,
                    const std::vector<std::pair<std::string, CVal>> &Bind) {
  Emitter Em(std::set<std::string>{});
  for (const auto &[N, V] : Bind)
    Em.bind(N, V);
  CVal X = pair(K, K);
  X.Elems[0].Expr = A;
  X.Elems[1].Expr = B;
  CVal R = Em.apply(Fn, {CVal::scalar(Acc, K), X});
  EXPECT_TRUE(Em.Lines.empty());
  return R.Expr;
}

struct Case {
  const char *Fn;
  ScalarKind K;
};

} // namespace

TEST(LambdaTemplateTest, EqualsApplyOnPureBodies) {
  const Case Cases[] = {
      {"\\(acc: f32, x: (f32, f32)) => fma(x.1, x.0, acc)", ScalarKind::F32},
      {"\\(acc: f32, x: (f32, f32)) => fadd(acc, fmul(x.0, x.1))", ScalarKind::F32},
      {"\\(acc: f64, x: (f64, f64)) => fadd(acc, fmul(alpha, fmul(x.0, x.0)))",
       ScalarKind::F64},
      {"\\(acc: i32, x: (i32, i32)) => select(icmp_slt(x.0, x.1), add(acc, 1:i32), "
       "sub(acc, x.1))",
       ScalarKind::I32},
      {"\\(acc: i64, x: (i64, i64)) => add(acc, sext.i64(trunc.i32(mul(x.0, x.1))))",
       ScalarKind::I64},
      {"\\(acc: f32, x: (f32, f32)) => fadd(acc, fneg(x.0))", ScalarKind::F32},
      {"\\(acc: f32, x: (f32, f32)) => acc", ScalarKind::F32},
  };
  std::vector<std::pair<std::string, CVal>> Bind{
      {"alpha", CVal::scalar("alpha_p", ScalarKind::F64)}};
  const char *Leaves[][3] = {{"acc_0_0", "a_1", "b_2"},
                             {"acc_3_7", "v_4.s3", "v_5.sf"},
                             {"acc", "0.0f", "1"},
                             {"acc_1", "a", "a"}};
  for (const Case &C : Cases) {
    SCOPED_TRACE(C.Fn);
    ExprPtr Fn = lambda(C.Fn);
    Emitter Em(std::set<std::string>{});
    for (const auto &[N, V] : Bind)
      Em.bind(N, V);
    LambdaTemplate T;
    ASSERT_TRUE(T.prepare(Em, Fn, {CVal::scalar("", C.K), pair(C.K, C.K)}));
    EXPECT_TRUE(Em.Lines.empty());
    EXPECT_EQ(Em.fresh("acc"), "acc"); // no name was taken
    for (const auto &L : Leaves) {
      std::string Out = "x = ";
      ASSERT_TRUE(T.instantiate({{L[0], C.K}, {L[1], C.K}, {L[2], C.K}}, Out));
      EXPECT_EQ(Out, "x = " + applied(Fn, C.K, L[0], L[1], L[2], Bind));
    }
  }
}

TEST(LambdaTemplateTest, RefusesBodiesOutsideTheProof) {
  const char *Refused[] = {
      // a tuple built, or a tuple parameter used whole
      "\\(acc: f32, x: (f32, f32)) => (acc, x.0).0",
      "\\(acc: f32, x: (f32, f32)) => select(true, x, x).0",
      // a primitive
      "\\(acc: f32, x: (f32, f32)) => fadd(acc, at(v, 0:i64))",
      // an unbound variable, a tuple-valued binding used whole
      "\\(acc: f32, x: (f32, f32)) => fadd(acc, nowhere)",
      "\\(acc: f32, x: (f32, f32)) => fadd(acc, pairv)",
      // a binding whose text has the marker
      "\\(acc: f32, x: (f32, f32)) => fadd(acc, marked)",
  };
  for (const char *Text : Refused) {
    SCOPED_TRACE(Text);
    ExprPtr Fn = lambda(Text);
    Emitter Em(std::set<std::string>{});
    Em.bind("pairv", pair(ScalarKind::F32, ScalarKind::F32));
    Em.bind("marked", CVal::scalar("__idiom_hole_0_", ScalarKind::F32));
    LambdaTemplate T;
    EXPECT_FALSE(T.prepare(Em, Fn, {CVal::scalar("", ScalarKind::F32),
                                    pair(ScalarKind::F32, ScalarKind::F32)}));
    EXPECT_FALSE(T.ready());
    EXPECT_TRUE(Em.Lines.empty());
    std::string Out;
    const std::string A = "a";
    EXPECT_FALSE(T.instantiate({{A, ScalarKind::F32}, {A, ScalarKind::F32},
                                {A, ScalarKind::F32}},
                               Out));
  }
}

TEST(LambdaTemplateTest, RefusesShapesAndLeaves) {
  ExprPtr Fn = lambda("\\(acc: f32, x: (f32, f32)) => fma(x.1, x.0, acc)");
  Emitter Em(std::set<std::string>{});
  LambdaTemplate T;
  // A vector leaf, and a parameter count that does not match.
  CVal Vec = CVal::scalar("", ScalarKind::F32);
  Vec.Lanes = 4;
  EXPECT_FALSE(T.prepare(Em, Fn, {Vec, pair(ScalarKind::F32, ScalarKind::F32)}));
  EXPECT_FALSE(T.prepare(Em, Fn, {CVal::scalar("", ScalarKind::F32)}));
  ASSERT_TRUE(T.prepare(Em, Fn, {CVal::scalar("", ScalarKind::F32),
                                 pair(ScalarKind::F32, ScalarKind::F32)}));
  // An expression leaf (apply would bind it to a temporary), an empty leaf,
  // a leaf of another kind, a wrong count: refused, Out untouched.
  const std::string Acc = "acc", A = "a_1", Sum = "a + b", Empty;
  std::string Out = "keep";
  EXPECT_FALSE(T.instantiate({{Acc, ScalarKind::F32}, {Sum, ScalarKind::F32},
                              {A, ScalarKind::F32}},
                             Out));
  EXPECT_FALSE(T.instantiate({{Acc, ScalarKind::F32}, {Empty, ScalarKind::F32},
                              {A, ScalarKind::F32}},
                             Out));
  EXPECT_FALSE(T.instantiate({{Acc, ScalarKind::F64}, {A, ScalarKind::F32},
                              {A, ScalarKind::F32}},
                             Out));
  EXPECT_FALSE(T.instantiate({{Acc, ScalarKind::F32}, {A, ScalarKind::F32}}, Out));
  EXPECT_EQ(Out, "keep");
  EXPECT_TRUE(T.instantiate({{Acc, ScalarKind::F32}, {A, ScalarKind::F32},
                             {A, ScalarKind::F32}},
                            Out));
  EXPECT_EQ(Out, "keepfma(a_1, a_1, acc)");
}
