//===- TypeCheckTest.cpp - FunIL type checker ------------------------------===//
//
// Part of Idiom.
//
//===----------------------------------------------------------------------===//

#include "Examples.h"
#include "idiom/FunIL/Parser.h"
#include "idiom/FunIL/Printer.h"
#include "idiom/FunIL/TypeCheck.h"

#include <gtest/gtest.h>

using namespace idiom::funil;

namespace {

std::string check(const std::string &Text, std::string *Ty = nullptr) {
  Program P;
  std::string Err;
  if (!parseProgram(Text, P, Err))
    return "parse: " + Err;
  TypePtr T;
  if (!typeCheckProgram(P, Err, &T))
    return Err;
  if (Ty)
    *Ty = printType(*T);
  return "";
}

TEST(TypeCheck, Examples) {
  std::string Ty;
  EXPECT_EQ(check(test::Saxpy, &Ty), "");
  EXPECT_EQ(Ty, "[f32]_n0");
  EXPECT_EQ(check(test::DotAndMax, &Ty), "");
  EXPECT_EQ(Ty, "(f32, f32)");
  EXPECT_EQ(check(test::Scale2D, &Ty), "");
  EXPECT_EQ(Ty, "[[f64]_n1]_n0");
  EXPECT_EQ(check(test::SumI32, &Ty), "");
  EXPECT_EQ(Ty, "i64");
  EXPECT_EQ(check(test::TwoOuts, &Ty), "");
  EXPECT_EQ(Ty, "[(f32, f32)]_n0");
  EXPECT_EQ(check(test::CountPositive, &Ty), "");
  EXPECT_EQ(Ty, "(i32, f64)");
}

TEST(TypeCheck, SplitJoinSizes) {
  auto TypeOf = [](const char *Text) {
    ExprPtr E;
    std::string Err;
    EXPECT_TRUE(parseExpr(Text, E, Err)) << Err;
    TypeEnv Env;
    Env.push("x", Type::buffer(Type::scalar(ScalarKind::F32)));
    Env.push("n", Type::scalar(ScalarKind::I64));
    TypePtr T;
    if (!inferType(E, Env, T, Err))
      return Err;
    return printType(*T);
  };
  EXPECT_EQ(TypeOf("map(\\(r: [f32]_4) => r, split(4:i64, view(x, 0:i64, 1:i64, n)))"),
            "[[f32]_4]_(n/4)");
  EXPECT_EQ(TypeOf("join(split(4:i64, view(x, 0:i64, 1:i64, n)))"), "[f32]_n");
  EXPECT_EQ(TypeOf("halves(split(4:i64, view(x, 0:i64, 1:i64, 8:i64)))"), "[[[f32]_4]_2]_1");
  EXPECT_EQ(TypeOf("strided(n, iota(16:i64))"), "[[i64]_?]_n");
  EXPECT_EQ(TypeOf("blocks(n, iota(16:i64))"), "[[i64]_?]_n");
  EXPECT_EQ(TypeOf("blocks(1.0:f32, iota(16:i64))"),
            "1:8: row count of 'blocks' must be i64, found 'f32'");
  EXPECT_EQ(TypeOf("map(\\(r: [f32]_3) => r, split(4:i64, view(x, 0:i64, 1:i64, n)))"),
            "1:5: parameter 'r' has type '[f32]_3' but 'map' passes '[f32]_4'");
}

struct ErrCase {
  const char *Text;
  const char *Err;
};

TEST(TypeCheck, Errors) {
  const ErrCase Cases[] = {
      {"idiom f(x: [f32], n: i64) { return fadd(n, n); }",
       "1:36: 'fadd' does not apply to 'i64'"},
      {"idiom f(x: [f32], a: f32, n: i64) {\n  return fadd(a, n);\n}",
       "2:10: operands of 'fadd' must have equal types, found 'f32' and 'i64'"},
      {"idiom f(x: [f32], n: i64) { return y; }", "1:36: unknown variable 'y'"},
      {"idiom f(x: [f32], n: i64) { return map(\\(v: f64) => v, view(x, 0:i64, 1:i64, n)); }",
       "1:40: parameter 'v' has type 'f64' but 'map' passes 'f32'"},
      {"idiom f(x: [f32], n: i64) { return zip(view(x, 0:i64, 1:i64, 3:i64), "
       "view(x, 0:i64, 1:i64, 4:i64)); }",
       "1:70: 'zip' of arrays of different lengths 3 and 4"},
      {"idiom f(x: [f32], n: i64) { return reduce(\\(a: f32, b: f32) => fadd(a, b), "
       "0:i32, view(x, 0:i64, 1:i64, n)); }",
       "1:76: 'reduce' initial value has type 'i32' but the elements have type 'f32'"},
      {"idiom f(x: [f32], n: i64) { return (n, n).2; }",
       "1:42: tuple index 2 out of range for '(i64, i64)'"},
      {"idiom f(x: [f32], n: i64) { return sext.i32(n); }", "1:36: cannot sext i64 to i32"},
      {"idiom f(x: [f32], n: i32) { return view(x, 0:i64, 1:i64, n); }",
       "1:58: length of 'view' must be i64, found 'i32'"},
      {"idiom f(x: [f32], n: i64) { store view(x, 0:i64, 1:i64, n) = "
       "map(\\(v: f32) => fpext.f64(v), view(x, 0:i64, 1:i64, n)); }",
       "1:29: cannot store a value of type '[f64]_n' through '[f32]_n'"},
      {"idiom f(x: [f32], n: i64) { return view(x, 0:i64, 1:i64, n); }",
       "1:29: a reduction must return a scalar or a tuple of scalars, found '[f32]_n'"},
      {"idiom f(x: [[f32]_4], n: i64) { return n; }",
       "1:1: parameter 'x' must be a scalar or a buffer of non-bool scalars, found '[[f32]_4]'"},
      {"idiom f(x: [f32], n: i64) { return select(n, n, n); }",
       "1:43: condition of 'select' must be bool, found 'i64'"},
      {"idiom f(x: [f32], n: i64) { return map(x, view(x, 0:i64, 1:i64, n)); }",
       "1:40: 'map' expects a lambda here"},
  };
  for (const ErrCase &C : Cases)
    EXPECT_EQ(check(C.Text), C.Err) << C.Text;
}

} // namespace
