//===- LayoutTest.cpp - data-layout primitives and vector types ------------===//
//
// Part of Idiom. transpose, reorder, reorderStride, slide, pad, padClamp,
// asVector, asScalar and the vector types: typing, printing round trip, the
// reference semantics of the interpreter, and their errors.
//
//===----------------------------------------------------------------------===//

#include "idiom/FunIL/Interpreter.h"
#include "idiom/FunIL/Parser.h"
#include "idiom/FunIL/Printer.h"
#include "idiom/FunIL/TypeCheck.h"

#include <gtest/gtest.h>

using namespace idiom::funil;

namespace {

/// Type of expression \p Text with x: [i32], n: i64, s: i64 and
/// m: [[i32]_3]_n in scope; "error: ..." on a type error.
std::string typeOf(const std::string &Text) {
  ExprPtr E;
  std::string Err;
  if (!parseExpr(Text, E, Err))
    return "parse error: " + Err;
  TypeEnv Env;
  Env.push("x", Type::array(Type::scalar(ScalarKind::I32), Size::var("n")));
  Env.push("y", Type::array(Type::scalar(ScalarKind::F32), Size::constant(8)));
  Env.push("n", Type::scalar(ScalarKind::I64));
  Env.push("s", Type::scalar(ScalarKind::I64));
  Env.push("m", Type::array(Type::array(Type::scalar(ScalarKind::I32), Size::constant(3)),
                            Size::var("n")));
  TypePtr T;
  if (!inferType(E, Env, T, Err))
    return "error: " + Err;
  return printType(*T);
}

TEST(Layout, Types) {
  EXPECT_EQ(typeOf("transpose(m)"), "[[i32]_n]_3");
  EXPECT_EQ(typeOf("transpose(transpose(m))"), "[[i32]_3]_n");
  EXPECT_EQ(typeOf("reorder(\\(i: i64) => sub(sub(n, 1:i64), i), x)"), "[i32]_n");
  EXPECT_EQ(typeOf("reorderStride(4:i64, x)"), "[i32]_n");
  EXPECT_EQ(typeOf("slide(3:i64, 1:i64, x)"), "[[i32]_3]_?");
  EXPECT_EQ(typeOf("slide(3:i64, 2:i64, y)"), "[[f32]_3]_3");
  EXPECT_EQ(typeOf("slide(9:i64, 2:i64, y)"), "[[f32]_9]_0");
  EXPECT_EQ(typeOf("pad(1:i64, 2:i64, 0:i32, x)"), "[i32]_?");
  EXPECT_EQ(typeOf("pad(1:i64, 2:i64, 0.5:f32, y)"), "[f32]_11");
  EXPECT_EQ(typeOf("padClamp(0:i64, 0:i64, x)"), "[i32]_n");
  EXPECT_EQ(typeOf("padClamp(s, 1:i64, y)"), "[f32]_?");
  EXPECT_EQ(typeOf("asVector(4:i64, x)"), "[i32x4]_(n/4)");
  EXPECT_EQ(typeOf("asVector(8:i64, y)"), "[f32x8]_1");
  EXPECT_EQ(typeOf("asScalar(asVector(4:i64, x))"), "[i32]_n");
  EXPECT_EQ(typeOf("asScalar(asVector(2:i64, y))"), "[f32]_8");
  // Scalar operations are lane-wise on vectors, scalars are broadcast.
  EXPECT_EQ(typeOf("map(\\(v: f32x4) => fmul(v, fadd(v, 1.0:f32)), asVector(4:i64, y))"),
            "[f32x4]_2");
  EXPECT_EQ(typeOf("map(\\(v: i32x2) => sitofp.f64(add(v, 1:i32)), asVector(2:i64, x))"),
            "[f64x2]_(n/2)");
  EXPECT_EQ(typeOf("map(\\(v: f32x2) => select(true, v, fneg(v)), asVector(2:i64, y))"),
            "[f32x2]_4");
  EXPECT_EQ(typeOf("broadcast(8:i64, at(x, 0:i64))"), "i32x8");
  EXPECT_EQ(typeOf("lanes(broadcast(4:i64, 1.5:f64))"), "[f64]_4");
  EXPECT_EQ(typeOf("reduceSeq(\\(a: f32x4, b: f32x4) => fadd(a, b), broadcast(4:i64, 0.0:f32), "
                   "asVector(4:i64, y))"),
            "f32x4");
}

TEST(Layout, TypeErrors) {
  auto Err = [](const std::string &T, const std::string &Want) {
    std::string Got = typeOf(T);
    EXPECT_NE(Got.find(Want), std::string::npos) << T << " gave " << Got;
  };
  Err("transpose(x)", "expects an array of arrays");
  Err("reorder(\\(i: i64) => trunc.i32(i), x)", "must return i64");
  Err("reorder(\\(i: i32) => i, x)", "has type 'i32'");
  Err("reorderStride(0:i64, x)", "positive stride");
  Err("slide(0:i64, 1:i64, x)", "positive window size");
  Err("slide(2:i64, -1:i64, x)", "positive step");
  Err("pad(-1:i64, 0:i64, 0:i32, x)", "non-negative left padding");
  Err("pad(1:i64, 1:i64, 0.0:f32, x)", "padding value has type 'f32'");
  Err("asVector(3:i64, y)", "literal 2, 4, 8 or 16");
  Err("asVector(s, y)", "literal 2, 4, 8 or 16");
  Err("asVector(16:i64, y)", "does not divide 8");
  Err("asVector(2:i64, m)", "non-bool scalars");
  Err("asScalar(y)", "array of vectors");
  Err("broadcast(3:i64, 1:i32)", "literal 2, 4, 8 or 16");
  Err("broadcast(2:i64, true)", "non-bool scalar");
  Err("broadcast(2:i64, y)", "non-bool scalar");
  Err("lanes(y)", "expects a vector");
  Err("map(\\(v: f32x4) => fcmp_olt(v, v), asVector(4:i64, y))", "not lane-wise");
  Err("map(\\(v: f32x4) => fadd(v, 1:i32), asVector(4:i64, y))", "equal types");
  Err("map(\\(v: f32x4) => fadd(v, at(asVector(2:i64, y), 0:i64)), asVector(4:i64, y))",
      "equal types");
  Err("map(\\(v: f32x2) => trunc.bool(fptosi.i32(v)), asVector(2:i64, y))", "bool lanes");
}

TEST(Layout, VectorTypesParseAndPrint) {
  for (const char *T : {"f32x4", "i8x16", "u64x2", "f64x8", "[(f32x4, i32)]_n"}) {
    TypePtr Ty;
    std::string Err;
    ASSERT_TRUE(parseType(T, Ty, Err)) << T << ": " << Err;
    EXPECT_EQ(printType(*Ty), T);
  }
  for (const char *T : {"f32x3", "boolx4", "f32x32", "f32x04", "x4"}) {
    TypePtr Ty;
    std::string Err;
    EXPECT_FALSE(parseType(T, Ty, Err)) << T;
  }
}

const char *const Programs[] = {
    "idiom t(x: [f32], y: [f32], n: i64) {\n  store view(y, 0:i64, 1:i64, n) = "
    "asScalar(map(\\(v: f32x4) => fmuladd(v, 2.0:f32, v), asVector(4:i64, "
    "reorderStride(2:i64, padClamp(1:i64, 1:i64, view(x, 0:i64, 1:i64, n))))));\n}\n",
    "idiom t(x: [i32], n: i64) {\n  return reduce(\\(a: i32, b: i32) => add(a, b), 0:i32, "
    "join(join(map(\\(w: [i32]_3) => transpose(slide(1:i64, 1:i64, w)), slide(3:i64, 2:i64, "
    "pad(1:i64, 0:i64, 7:i32, reorder(\\(i: i64) => sub(sub(n, 1:i64), i), "
    "view(x, 0:i64, 1:i64, n))))))));\n}\n",
};

TEST(Layout, PrintParseRoundTrip) {
  for (const char *Text : Programs) {
    Program P;
    std::string Err;
    ASSERT_TRUE(parseProgram(Text, P, Err)) << Err;
    EXPECT_TRUE(typeCheckProgram(P, Err)) << Err;
    EXPECT_EQ(printProgram(P), Text);
  }
}

/// Evaluates \p Text with x = [0, 1, ..., n-1] (i32) and n, s given.
Value run(const std::string &Text, int64_t N, int64_t S, std::string &Err) {
  ExprPtr E;
  Value Out;
  if (!parseExpr(Text, E, Err))
    return Out;
  std::vector<Value> Xs, Ys;
  for (int64_t I = 0; I < N; ++I)
    Xs.push_back(Value::ofInt(ScalarKind::I32, I));
  for (int I = 0; I < 8; ++I)
    Ys.push_back(Value::ofFloat(ScalarKind::F32, I * 0.5));
  ValueMap Env{{"x", Value::array(Xs)},
               {"y", Value::array(Ys)},
               {"n", Value::ofInt(ScalarKind::I64, N)},
               {"s", Value::ofInt(ScalarKind::I64, S)}};
  Err.clear();
  evalExpr(E, Env, Out, Err);
  return Out;
}

/// The elements of an i32 array (or array of arrays, row-major) as text.
std::string ints(const Value &V) {
  if (V.K == Value::Scalar)
    return isFloat(V.S) ? std::to_string(V.F) : std::to_string(V.asSigned());
  std::string S = "[";
  for (size_t I = 0; I < V.Elems.size(); ++I)
    S += (I ? " " : "") + ints(V.Elems[I]);
  return S + "]";
}

std::string eval(const std::string &Text, int64_t N, int64_t S = 0) {
  std::string Err;
  Value V = run(Text, N, S, Err);
  return Err.empty() ? ints(V) : "error: " + Err;
}

TEST(Layout, Semantics) {
  EXPECT_EQ(eval("transpose(split(3:i64, x))", 6), "[[0 3] [1 4] [2 5]]");
  EXPECT_EQ(eval("transpose(transpose(split(2:i64, x)))", 6), "[[0 1] [2 3] [4 5]]");
  EXPECT_EQ(eval("transpose(split(2:i64, x))", 0), "[]");
  EXPECT_EQ(eval("reorder(\\(i: i64) => sub(sub(n, 1:i64), i), x)", 5), "[4 3 2 1 0]");
  EXPECT_EQ(eval("reorder(\\(i: i64) => urem(add(i, 2:i64), n), x)", 5), "[2 3 4 0 1]");
  // seeds/004 section 5: element i is x[i / (n/s) + s * (i % (n/s))].
  EXPECT_EQ(eval("reorderStride(2:i64, x)", 6), "[0 2 4 1 3 5]");
  EXPECT_EQ(eval("reorderStride(3:i64, x)", 6), "[0 3 1 4 2 5]");
  EXPECT_EQ(eval("reorderStride(3:i64, reorderStride(2:i64, x))", 6), "[0 1 2 3 4 5]");
  EXPECT_EQ(eval("reorderStride(1:i64, x)", 4), "[0 1 2 3]");
  EXPECT_EQ(eval("slide(3:i64, 1:i64, x)", 5), "[[0 1 2] [1 2 3] [2 3 4]]");
  EXPECT_EQ(eval("slide(2:i64, 3:i64, x)", 7), "[[0 1] [3 4]]");
  EXPECT_EQ(eval("slide(3:i64, 1:i64, x)", 2), "[]");
  EXPECT_EQ(eval("slide(2:i64, 2:i64, x)", 4), "[[0 1] [2 3]]");
  EXPECT_EQ(eval("pad(2:i64, 1:i64, 9:i32, x)", 3), "[9 9 0 1 2 9]");
  EXPECT_EQ(eval("pad(1:i64, 1:i64, 9:i32, x)", 0), "[9 9]");
  EXPECT_EQ(eval("padClamp(2:i64, 3:i64, x)", 3), "[0 0 0 1 2 2 2 2]");
  EXPECT_EQ(eval("padClamp(0:i64, 0:i64, x)", 0), "[]");
  EXPECT_EQ(eval("asVector(2:i64, x)", 4), "[[0 1] [2 3]]");
  EXPECT_EQ(eval("asScalar(asVector(4:i64, x))", 8), "[0 1 2 3 4 5 6 7]");
  EXPECT_EQ(eval("lanes(broadcast(4:i64, trunc.i32(n)))", 3), "[3 3 3 3]");
  EXPECT_EQ(eval("reduceSeq(\\(a: i32, b: i32) => add(a, b), 0:i32, lanes(reduceSeq(\\(a: i32x4, "
                 "b: i32x4) => add(a, b), broadcast(4:i64, 0:i32), asVector(4:i64, x))))", 8),
            "28");
  // Lane-wise operations with a broadcast scalar; casts lane by lane.
  EXPECT_EQ(eval("map(\\(v: i32x2) => mul(add(v, 1:i32), v), asVector(2:i64, x))", 4),
            "[[0 2] [6 12]]");
  EXPECT_EQ(eval("asScalar(map(\\(v: i32x4) => smax(v, trunc.i32(s)), asVector(4:i64, x)))",
                 8, 5),
            "[5 5 5 5 5 5 6 7]");
  EXPECT_EQ(eval("map(\\(v: f32x2) => fptosi.i32(fmul(v, 4.0:f32)), asVector(2:i64, y))", 0),
            "[[0 2] [4 6] [8 10] [12 14]]");
  EXPECT_EQ(eval("map(\\(v: i32x2) => select(icmp_slt(n, 3:i64), v, add(v, v)), "
                 "asVector(2:i64, x))",
                 4),
            "[[0 2] [4 6]]");
}

TEST(Layout, SemanticErrors) {
  EXPECT_NE(eval("reorder(\\(i: i64) => 0:i64, x)", 3).find("not a permutation"),
            std::string::npos);
  EXPECT_NE(eval("reorder(\\(i: i64) => add(i, 1:i64), x)", 3).find("outside an array of 3"),
            std::string::npos);
  EXPECT_NE(eval("reorderStride(4:i64, x)", 6).find("reorderStride(4) of an array of 6"),
            std::string::npos);
  EXPECT_NE(eval("reorderStride(s, x)", 6, 0).find("reorderStride(0)"), std::string::npos);
  EXPECT_NE(eval("slide(s, 1:i64, x)", 6, 0).find("positive window size"), std::string::npos);
  EXPECT_NE(eval("padClamp(1:i64, 0:i64, x)", 0).find("empty array"), std::string::npos);
  EXPECT_NE(eval("pad(s, 0:i64, 0:i32, x)", 2, -1).find("non-negative"), std::string::npos);
  EXPECT_NE(eval("asVector(4:i64, x)", 6).find("asVector(4) of an array of 6"),
            std::string::npos);
  EXPECT_NE(eval("transpose(map(\\(i: i32) => iota(sext.i64(i)), x))", 3).find("different"),
            std::string::npos);
}

} // namespace
