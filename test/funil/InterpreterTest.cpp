//===- InterpreterTest.cpp - FunIL reference semantics ---------------------===//
//
// Part of Idiom.
//
//===----------------------------------------------------------------------===//

#include "Examples.h"
#include "idiom/FunIL/Interpreter.h"
#include "idiom/FunIL/Parser.h"
#include "idiom/FunIL/TypeCheck.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace idiom::funil;

namespace {

Program parse(const char *Text) {
  Program P;
  std::string Err;
  EXPECT_TRUE(parseProgram(Text, P, Err)) << Err;
  EXPECT_TRUE(typeCheckProgram(P, Err)) << Err;
  return P;
}

Value f32s(std::vector<float> Xs) {
  std::vector<Value> Es;
  for (float X : Xs)
    Es.push_back(Value::ofFloat(ScalarKind::F32, X));
  return Value::array(Es);
}

Value i64(int64_t V) { return Value::ofInt(ScalarKind::I64, V); }

TEST(Interpreter, Saxpy) {
  Program P = parse(test::Saxpy);
  ValueMap Args{{"x", f32s({1, 2, 3})},
                {"y", f32s({10, 20, 30, 99})},
                {"a", Value::ofFloat(ScalarKind::F32, 2)},
                {"n0", i64(3)}};
  Value R;
  std::string Err;
  ASSERT_TRUE(runProgram(P, Args, R, Err)) << Err;
  EXPECT_EQ(printValue(Args["y"]), "[12.0:f32, 24.0:f32, 36.0:f32, 99.0:f32]");
}

TEST(Interpreter, DotAndMax) {
  Program P = parse(test::DotAndMax);
  ValueMap Args{{"x", f32s({1, -2, 3})}, {"y", f32s({4, 5, 6})}, {"n0", i64(3)}};
  Value R;
  std::string Err;
  ASSERT_TRUE(runProgram(P, Args, R, Err)) << Err;
  EXPECT_EQ(printValue(R), "(12.0:f32, 3.0:f32)");
  Args["n0"] = i64(0);
  ASSERT_TRUE(runProgram(P, Args, R, Err)) << Err;
  EXPECT_EQ(printValue(R), "(0.0:f32, -inf:f32)");
}

TEST(Interpreter, Store3D) {
  // Planes 7 apart, rows 3 apart, 2 x 2 x 2 points from element 1: the
  // interior of a 2 x 2 x 3 grid, b = 10 * a + (plane - row + point).
  Program P = parse(
      "idiom t(a: [f64], b: [f64]) { store view(b, 1:i64, 7:i64, 2:i64, 3:i64, 2:i64, "
      "1:i64, 2:i64) = map(\\(p: ([[f64]_2]_2, i64)) => map(\\(r: ([f64]_2, i64)) => "
      "map(\\(t: (f64, i64)) => fadd(fmul(10.0:f64, t.0), sitofp.f64(add(sub(p.1, r.1), "
      "t.1))), zip(r.0, iota(2:i64))), zip(p.0, iota(2:i64))), zip(view(a, 1:i64, 7:i64, "
      "2:i64, 3:i64, 2:i64, 1:i64, 2:i64), iota(2:i64))); }");
  std::vector<Value> A, B;
  for (int I = 0; I < 14; ++I) {
    A.push_back(Value::ofFloat(ScalarKind::F64, I));
    B.push_back(Value::ofFloat(ScalarKind::F64, -1));
  }
  ValueMap Args{{"a", Value::array(A)}, {"b", Value::array(B)}};
  Value R;
  std::string Err;
  ASSERT_TRUE(runProgram(P, Args, R, Err)) << Err;
  // Written: 1, 2 (p0 r0), 4, 5 (p0 r1), 8, 9 (p1 r0), 11, 12 (p1 r1).
  EXPECT_EQ(printValue(Args["b"]),
            "[-1.0:f64, 1e+01:f64, 21.0:f64, -1.0:f64, 39.0:f64, 5e+01:f64, -1.0:f64, "
            "-1.0:f64, 81.0:f64, 92.0:f64, -1.0:f64, 1.1e+02:f64, 121.0:f64, -1.0:f64]");
}

TEST(Interpreter, Scale2D) {
  Program P = parse(test::Scale2D);
  // 2 x 3 matrix with leading dimension 4.
  std::vector<Value> A, B;
  for (int I = 0; I < 8; ++I) {
    A.push_back(Value::ofFloat(ScalarKind::F64, I));
    B.push_back(Value::ofFloat(ScalarKind::F64, -1));
  }
  ValueMap Args{{"a", Value::array(A)}, {"b", Value::array(B)},
                {"s", Value::ofFloat(ScalarKind::F64, 10)},
                {"n0", i64(2)}, {"n1", i64(3)}, {"lda", i64(4)}};
  Value R;
  std::string Err;
  ASSERT_TRUE(runProgram(P, Args, R, Err)) << Err;
  // b[i*4+j] = 10*a[i*4+j] + (i + j)
  EXPECT_EQ(printValue(Args["b"]),
            "[0.0:f64, 11.0:f64, 22.0:f64, -1.0:f64, 41.0:f64, 52.0:f64, 63.0:f64, -1.0:f64]");
}

TEST(Interpreter, TwoOutsAndIntegers) {
  Program P = parse(test::TwoOuts);
  ValueMap Args{{"x", f32s({1, 2})}, {"p", f32s({0, 0})}, {"q", f32s({0, 0})},
                {"n0", i64(2)}};
  Value R;
  std::string Err;
  ASSERT_TRUE(runProgram(P, Args, R, Err)) << Err;
  EXPECT_EQ(printValue(Args["p"]), "[1.0:f32, 4.0:f32]");
  EXPECT_EQ(printValue(Args["q"]), "[-1.0:f32, -2.0:f32]");

  Program S = parse(test::SumI32);
  std::vector<Value> Xs{Value::ofInt(ScalarKind::I32, 2147483647),
                        Value::ofInt(ScalarKind::I32, 2147483647),
                        Value::ofInt(ScalarKind::I32, -5)};
  ValueMap SA{{"x", Value::array(Xs)}, {"n0", i64(3)}};
  ASSERT_TRUE(runProgram(S, SA, R, Err)) << Err;
  EXPECT_EQ(printValue(R), "4294967289:i64");
}

TEST(Interpreter, ScalarOps) {
  struct Case {
    const char *Expr, *Want;
  } Cases[] = {
      {"sdiv(-7:i32, 2:i32)", "-3:i32"},
      {"udiv(-8:i32, 2:i32)", "2147483644:i32"},
      {"srem(-7:i32, 2:i32)", "-1:i32"},
      {"ashr(-8:i8, 1:i8)", "-4:i8"},
      {"lshr(-8:i8, 1:i8)", "124:i8"},
      {"shl(1:i64, 40:i64)", "1099511627776:i64"},
      {"add(255:u8, 1:u8)", "0:u8"},
      {"smin(-1:i32, 1:i32)", "-1:i32"},
      {"umin(-1:i32, 1:i32)", "1:i32"},
      {"icmp_ult(-1:i32, 1:i32)", "false"},
      {"icmp_slt(-1:i32, 1:i32)", "true"},
      {"fcmp_une(nan:f32, nan:f32)", "true"},
      {"fcmp_oeq(nan:f32, nan:f32)", "false"},
      {"fcmp_ord(1.0:f64, nan:f64)", "false"},
      {"fmax(nan:f32, 1.0:f32)", "1.0:f32"},
      {"fmin(-0.0:f64, 2.0:f64)", "-0.0:f64"},
      {"fadd(0.1:f32, 0.2:f32)", "0.3:f32"},
      {"fadd(0.1:f64, 0.2:f64)", "0.30000000000000004:f64"},
      {"sitofp.f32(16777217:i32)", "16777216.0:f32"},
      {"zext.i32(true)", "1:i32"},
      {"sext.i32(true)", "-1:i32"},
      {"trunc.i8(300:i32)", "44:i8"},
      {"bitcast.i32(1.0:f32)", "1065353216:i32"},
      {"bitcast.f64(4611686018427387904:i64)", "2.0:f64"},
      {"fptosi.i32(-2.9:f64)", "-2:i32"},
      {"fpext.f64(0.1:f32)", "0.10000000149011612:f64"},
      {"fptrunc.f32(0.1:f64)", "0.1:f32"},
      {"select(true, (1:i32, 2.0:f32), (3:i32, 4.0:f32))", "(1:i32, 2.0:f32)"},
      {"abs(-5:i16)", "5:i16"},
      {"ilog2(64:i64)", "6:i64"},
      {"not(false)", "true"},
      {"sqrt(4.0:f64)", "2.0:f64"},
      {"fmuladd(2.0:f32, 3.0:f32, 1.0:f32)", "7.0:f32"},
      {"frem(7.5:f64, 2.0:f64)", "1.5:f64"},
  };
  for (const Case &C : Cases) {
    ExprPtr E;
    std::string Err;
    ASSERT_TRUE(parseExpr(C.Expr, E, Err)) << Err;
    Value V;
    ASSERT_TRUE(evalExpr(E, {}, V, Err)) << C.Expr << ": " << Err;
    EXPECT_EQ(printValue(V), C.Want) << C.Expr;
  }
}

TEST(Interpreter, ViewsAndPrimitives) {
  struct Case {
    const char *Expr, *Want;
  } Cases[] = {
      {"split(2:i64, iota(6:i64))", "[[0:i64, 1:i64], [2:i64, 3:i64], [4:i64, 5:i64]]"},
      {"join(split(3:i64, iota(6:i64)))", "[0:i64, 1:i64, 2:i64, 3:i64, 4:i64, 5:i64]"},
      {"strided(2:i64, iota(5:i64))", "[[0:i64, 2:i64, 4:i64], [1:i64, 3:i64]]"},
      {"blocks(2:i64, iota(5:i64))", "[[0:i64, 1:i64, 2:i64], [3:i64, 4:i64]]"},
      {"blocks(3:i64, iota(6:i64))", "[[0:i64, 1:i64], [2:i64, 3:i64], [4:i64, 5:i64]]"},
      {"blocks(4:i64, iota(2:i64))", "[[0:i64], [1:i64], [], []]"},
      {"blocks(3:i64, iota(7:i64))", "[[0:i64, 1:i64, 2:i64], [3:i64, 4:i64, 5:i64], [6:i64]]"},
      {"blocks(4:i64, iota(5:i64))", "[[0:i64, 1:i64], [2:i64, 3:i64], [4:i64], []]"},
      {"blocks(2:i64, iota(0:i64))", "[[], []]"},
      {"halves(iota(4:i64))", "[[0:i64, 2:i64], [1:i64, 3:i64]]"},
      {"at(iota(4:i64), 3:i64)", "3:i64"},
      {"iterate(2:i64, \\(p: [i64]_?) => map(\\(q: [i64]_2) => add(at(q, 0:i64), "
       "at(q, 1:i64)), halves(p)), iota(4:i64))", "[6:i64]"},
      {"reduceSeq(\\(acc: i64, x: i64) => sub(acc, x), 100:i64, iota(4:i64))", "94:i64"},
      {"mapSeq(\\(x: i64) => mul(x, x), iota(3:i64))", "[0:i64, 1:i64, 4:i64]"},
      {"toLocal(mapLocal(0, \\(x: i64) => x, iota(2:i64)))", "[0:i64, 1:i64]"},
      {"localSize(0)", "4:i64"},
      {"globalSize(0)", "12:i64"},
      {"numGroups(1)", "1:i64"},
  };
  for (const Case &C : Cases) {
    ExprPtr E;
    std::string Err;
    ASSERT_TRUE(parseExpr(C.Expr, E, Err)) << Err;
    Value V;
    ASSERT_TRUE(evalExpr(E, {}, V, Err)) << C.Expr << ": " << Err;
    EXPECT_EQ(printValue(V), C.Want) << C.Expr;
  }
}

TEST(Interpreter, Errors) {
  struct Case {
    const char *Expr, *Err;
  } Cases[] = {
      {"sdiv(1:i32, 0:i32)", "division by zero in 'sdiv'"},
      {"shl(1:i32, 32:i32)", "shift amount out of range in 'shl'"},
      {"split(4:i64, iota(6:i64))", "split(4) of an array of 6"},
      {"at(iota(2:i64), 2:i64)", "at(2) of an array of 2"},
      {"fptosi.i8(300.0:f32)", "'fptosi' of an out-of-range value"},
  };
  for (const Case &C : Cases) {
    ExprPtr E;
    std::string Err;
    ASSERT_TRUE(parseExpr(C.Expr, E, Err)) << Err;
    Value V;
    EXPECT_FALSE(evalExpr(E, {}, V, Err));
    EXPECT_EQ(Err, C.Err);
  }
  Program P = parse(test::Saxpy);
  ValueMap Args{{"x", f32s({1})}, {"y", f32s({1})},
                {"a", Value::ofFloat(ScalarKind::F32, 2)}, {"n0", i64(2)}};
  Value R;
  std::string Err;
  EXPECT_FALSE(runProgram(P, Args, R, Err));
  EXPECT_EQ(Err, "view reads element 1 of a buffer of 1");
}

TEST(Interpreter, ReadsOfVariables) {
  // at of a 1-D view reads one element (no view built) when the whole view
  // lies in its buffer; otherwise, and for views of more dimensions, the
  // view is built and its first element outside the buffer is the error,
  // before the index is looked at. Variables read by view, at and tuple
  // projections are not copied. The same values and errors as a copy of
  // every variable and the whole view built (0644bca's interpreter).
  std::vector<Value> Bs;
  for (int64_t I = 10; I < 16; ++I)
    Bs.push_back(i64(I));
  ValueMap Env{{"b", Value::array(Bs)},
               {"t", Value::tuple({i64(7), Value::array(Bs)})}};
  struct Case {
    const char *Expr, *Want, *Err;
  } Cases[] = {
      {"at(view(b, 1:i64, 2:i64, 3:i64), 2:i64)", "15:i64", ""},
      {"at(view(b, 5:i64, -2:i64, 3:i64), 1:i64)", "13:i64", ""},
      {"at(view(b, 3:i64, 0:i64, 4:i64), 3:i64)", "13:i64", ""},
      {"at(view(b, 0:i64, 2:i64, 3:i64, 1:i64, 2:i64), 1:i64)", "[12:i64, 13:i64]", ""},
      {"at(view(b, 2:i64, 2:i64, 2:i64, -1:i64, 3:i64), 1:i64)", "[14:i64, 13:i64, 12:i64]", ""},
      {"at(view(b, 0:i64, 1:i64, 2:i64, 1:i64, 0:i64), 1:i64)", "[]", ""},
      {"at(view(b, 9:i64, 1:i64, 2:i64, 1:i64, 0:i64), 1:i64)", "[]", ""},
      {"at(view(b, 0:i64, 3:i64, 2:i64, 1:i64, 2:i64, 1:i64, 2:i64), 1:i64)",
       "[[13:i64, 14:i64], [14:i64, 15:i64]]", ""},
      {"at(view(b, 0:i64, 2:i64, 3:i64, 1:i64, 3:i64), 0:i64)", "",
       "view reads element 6 of a buffer of 6"},
      {"at(view(b, 0:i64, 2:i64, 3:i64, 1:i64, 2:i64), 3:i64)", "", "at(3) of an array of 3"},
      {"at(view(b, 0:i64, 2:i64, 3:i64, 1:i64, -2:i64), 0:i64)", "", "view of negative length"},
      {"at(b, 4:i64)", "14:i64", ""},
      {"at(at(t.1, 2:i64), 0:i64)", "", "'at' expects an array"},
      {"add(t.0, at(t.1, 0:i64))", "17:i64", ""},
      {"at(view(b, 0:i64, 1:i64, 6:i64), 6:i64)", "", "at(6) of an array of 6"},
      {"at(view(b, 0:i64, 1:i64, 0:i64), 0:i64)", "", "at(0) of an array of 0"},
      {"at(view(b, 2:i64, 2:i64, 3:i64), 0:i64)", "", "view reads element 6 of a buffer of 6"},
      {"at(view(b, 2:i64, 2:i64, 3:i64), 9:i64)", "", "view reads element 6 of a buffer of 6"},
      {"at(view(b, 1:i64, -1:i64, 3:i64), 0:i64)", "", "view reads element -1 of a buffer of 6"},
      {"at(view(b, 0:i64, 1:i64, -1:i64), 0:i64)", "", "view of negative length"},
      {"at(view(b, 0:i64, 1:i64, 2:i64), sdiv(1:i64, 0:i64))", "", "division by zero in 'sdiv'"},
  };
  for (const Case &C : Cases) {
    ExprPtr E;
    std::string Err;
    ASSERT_TRUE(parseExpr(C.Expr, E, Err)) << Err;
    Value V;
    bool Ok = evalExpr(E, Env, V, Err);
    EXPECT_EQ(Ok, !*C.Err) << C.Expr << ": " << Err;
    EXPECT_EQ(Ok ? printValue(V) : Err, Ok ? C.Want : C.Err) << C.Expr;
  }
  // the environment is left as it was
  EXPECT_EQ(printValue(Env["b"]), printValue(Value::array(Bs)));
}

} // namespace
