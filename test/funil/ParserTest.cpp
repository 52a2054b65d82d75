//===- ParserTest.cpp - FunIL printer/parser round trips and errors -------===//
//
// Part of Idiom.
//
//===----------------------------------------------------------------------===//

#include "Examples.h"
#include "idiom/FunIL/Parser.h"
#include "idiom/FunIL/Printer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

using namespace idiom::funil;

namespace {

std::string roundTrip(const std::string &Text) {
  Program P;
  std::string Err;
  EXPECT_TRUE(parseProgram(Text, P, Err)) << Err << "\n" << Text;
  return printProgram(P);
}

TEST(Parser, ContractExamplesPrintVerbatim) {
  for (const char *T : {test::Saxpy, test::DotAndMax, test::Scale2D,
                        test::SumI32, test::TwoOuts, test::CountPositive})
    EXPECT_EQ(roundTrip(T), T);
}

TEST(Parser, RoundTripIsAFixpoint) {
  const char *Programs[] = {
      "idiom a(x: [u8], n: i64) { return reduce(\\(p: u8, q: u8) => umax(p, q), 0:u8, view(x, 0:i64, 1:i64, n)); }",
      "idiom b(x: [i16]) { return at(iota(4:i64), 2:i64); }",
      "idiom c(x: [f64], n: i64, o: i64, s: i64) { store view(x, o, s, n) = "
      "map(\\(v: f64) => fma(v, 2.5:f64, -0.0:f64), view(x, o, s, n)); }",
      "idiom d(x: [f32], n: i64) { return reduce(\\(a: f32, b: f32) => fadd(a, b), 0.0:f32, "
      "join(split(4:i64, view(x, 0:i64, 1:i64, n)))); }",
      "idiom e(x: [i32], n: i64) { return reduceSeq(\\(acc: i64, v: (i32, i64)) => "
      "add(acc, mul(sext.i64(v.0), v.1)), 0:i64, zip(view(x, 0:i64, 1:i64, n), iota(n))); }",
      "idiom f(x: [f32], n: i64) { store view(x, 0:i64, 1:i64, n) = mapGlobal(0, "
      "\\(v: f32) => select(fcmp_uno(v, v), 0.0:f32, v), view(x, 0:i64, 1:i64, n)); }",
      "idiom g(x: [f32], n: i64) { return at(mapWorkgroup(0, \\(grp: [[f32]_?]_?) => "
      "toGlobal(at(iterate(ilog2(localSize(0)), \\(p: [f32]_?) => toLocal(mapLocal(0, "
      "\\(pr: [f32]_2) => reduceSeq(\\(a: f32, b: f32) => fadd(a, b), 0.0:f32, pr), halves(p))), "
      "toLocal(mapLocal(0, \\(c: [f32]_?) => reduceSeq(\\(a: f32, b: f32) => fadd(a, b), 0.0:f32, c), "
      "grp))), 0:i64)), split(localSize(0), strided(globalSize(0), view(x, 0:i64, 1:i64, n)))), 0:i64); }",
      "idiom h(x: [u64], n: i64) { return (x, bitcast.f64(trunc.u64(zext.i64(true)))).1; }",
      "idiom i(x: [f32], n: i64) { return ((1:i32, 2:i32), 3:i32).0.1; }",
      "idiom j(x: [f32], n: i64) { return map(\\(r: [[f32]_(n/4)]_(4*n)) => r, "
      "map(\\(q: f32) => split(4:i64, iota(n)), view(x, 0:i64, 1:i64, n))); }",
      "idiom k(x: [f32]) { return (nan:f32, inf:f64, -inf:f32, 0x1.8p+1:f32, 1e-30:f32, 1.0e10:f64); }",
      "idiom l(x: [i8]) { return (-128:i8, 127:i8, 255:u8, 18446744073709551615:u64, -9223372036854775808:i64); }",
  };
  for (const char *T : Programs) {
    std::string Once = roundTrip(T);
    EXPECT_EQ(roundTrip(Once), Once);
  }
}

TEST(Parser, CommentsAndWhitespace) {
  std::string T = "// a map\nidiom  z ( x : [f32] , n0 : i64 )\n{\n  return\n"
                  "  at( iota( n0 ),\t0:i64 ) ; // done\n}\n";
  EXPECT_EQ(roundTrip(T), "idiom z(x: [f32], n0: i64) {\n  return at(iota(n0), 0:i64);\n}\n");
}

TEST(Parser, FloatLiteralsRoundTripExactly) {
  std::mt19937_64 Rng(42);
  for (int I = 0; I < 2000; ++I) {
    uint64_t Bits = Rng();
    double D;
    std::memcpy(&D, &Bits, 8);
    uint32_t B32 = static_cast<uint32_t>(Bits);
    float F;
    std::memcpy(&F, &B32, 4);
    for (auto [V, K] : {std::pair<double, ScalarKind>{D, ScalarKind::F64},
                        {static_cast<double>(F), ScalarKind::F32}}) {
      if (std::isnan(V))
        continue;
      ExprPtr L = Expr::floatLit(K, V), Back;
      std::string Err, Text = printExpr(*L);
      ASSERT_TRUE(parseExpr(Text, Back, Err)) << Err;
      EXPECT_TRUE(sameExpr(*L, *Back)) << Text;
      EXPECT_EQ(printExpr(*Back), Text);
    }
  }
}

TEST(Parser, HexFloatLiterals) {
  ExprPtr E;
  std::string Err;
  ASSERT_TRUE(parseExpr("0x1.8p+1:f32", E, Err)) << Err;
  EXPECT_EQ(E->F, 3.0);
  ASSERT_TRUE(parseExpr("-0x1p-2:f64", E, Err)) << Err;
  EXPECT_EQ(E->F, -0.25);
  EXPECT_EQ(printExpr(*E), "-0.25:f64");
  ASSERT_TRUE(parseExpr("0.1:f32", E, Err));
  EXPECT_EQ(E->F, static_cast<double>(0.1f));
  EXPECT_EQ(printExpr(*E), "0.1:f32");
}

TEST(Parser, Types) {
  TypePtr T;
  std::string Err;
  ASSERT_TRUE(parseType("([f64]_n1, i64)", T, Err)) << Err;
  EXPECT_EQ(printType(*T), "([f64]_n1, i64)");
  ASSERT_TRUE(parseType("[[f32]_4]_(n/4)", T, Err)) << Err;
  EXPECT_EQ(printType(*T), "[[f32]_4]_(n/4)");
  ASSERT_TRUE(parseType("[(i32, [u8]_?)]_16", T, Err)) << Err;
  EXPECT_EQ(printType(*T), "[(i32, [u8]_?)]_16");
  EXPECT_FALSE(parseType("(f32)", T, Err));
  EXPECT_EQ(Err, "1:1: a tuple type needs at least two components");
}

struct ErrCase {
  const char *Text;
  const char *Err;
};

TEST(Parser, ErrorsCarryLineAndColumn) {
  const ErrCase Cases[] = {
      {"idiom f(x: [f32]) {\n  return foo(x);\n}", "2:10: unknown function 'foo'"},
      {"idiom f(x: [f32]) {\n  return 1:f33;\n}", "2:12: unknown scalar type 'f33'"},
      {"idiom f(x: f31) { return x; }", "1:12: unknown type 'f31'"},
      {"idiom f(x: [f32]) { return 300:i8; }", "1:28: integer literal out of range for i8"},
      {"idiom f(x: [f32]) { return -1:u32; }", "1:28: integer literal out of range for u32"},
      {"idiom f(x: [f32]) { return 1e39:f32; }", "1:28: floating literal out of range for f32"},
      {"idiom f(x: [f32]) { return 1.5:i32; }", "1:28: '1.5' is not a valid i32 literal"},
      {"idiom f(x: [f32]) { return 7; }", "1:29: expected ':' and a type after the number '7'"},
      {"idiom f(x: [f32]) {\n  store x = x\n}", "3:1: expected ';', found '}'"},
      {"idiom f(x: [f32]) { return map(\\(v f32) => v, x); }", "1:36: expected ':', found 'f32'"},
      {"idiom f(x: [f32]) { return map(x); }", "1:28: wrong number of arguments to 'map' (1)"},
      {"idiom f(x: [f32]) { return mapGlobal(x, x); }",
       "1:38: 'mapGlobal' expects a dimension (0, 1 or 2) first"},
      {"idiom f(x: [f32]) { return sext.q64(x); }", "1:33: unknown scalar type 'q64'"},
      {"idiom f(x: [f32]) { return x.a; }", "1:30: expected a tuple index after '.', found 'a'"},
      {"idiom f(x: [f32]) { return x; } extra", "1:33: expected end of input, found 'extra'"},
      {"idiom f(x: [f32]) { return x $ y; }", "1:30: unexpected character '$'"},
      {"idiom f(x: [f32]) { yield x; }", "1:21: expected 'store' or 'return', found 'yield'"},
      {"idiom f(x: [f32]) { return view(x, 0:i64, 1:i64, 2:i64, 1:i64); }",
       "1:28: wrong number of arguments to 'view' (5)"},
      {"idiom f(x: [f32]) { return view(x, 0:i64, 9:i64, 2:i64, 3:i64, 2:i64, 1:i64); }",
       "1:28: wrong number of arguments to 'view' (7)"},
      {"", "1:1: expected 'idiom', found end of input"},
  };
  for (const ErrCase &C : Cases) {
    Program P;
    std::string Err;
    EXPECT_FALSE(parseProgram(C.Text, P, Err)) << C.Text;
    EXPECT_EQ(Err, C.Err) << C.Text;
  }
}

} // namespace
