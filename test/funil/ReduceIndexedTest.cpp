//===- ReduceIndexedTest.cpp - histogram reductions in FunIL --------------===//
//
// Part of Idiom. reduceIndexed / reduceIndexedAtomic (docs/FunIL.md,
// "Histograms"): typing, reference semantics (including an index out of
// range as an error), and print -> parse round trips.
//
//===----------------------------------------------------------------------===//

#include "idiom/FunIL/Interpreter.h"
#include "idiom/FunIL/Parser.h"
#include "idiom/FunIL/Printer.h"
#include "idiom/FunIL/TypeCheck.h"

#include <gtest/gtest.h>

#include <random>

using namespace idiom::funil;

namespace {

/// Counts the byte values of x into 256 bins (the NPB IS / Parboil histo
/// shape): bins[x[i]] += 1, bins read as their initial contents.
const char *Count256 =
    "idiom count(x: [u8], h: [i32], n0: i64) {\n"
    "  store view(h, 0:i64, 1:i64, 256:i64) = reduceIndexed(\\(a: i32, b: i32) => "
    "add(a, b), view(h, 0:i64, 1:i64, 256:i64), \\(v: u8) => (zext.i64(v), 1:i32), "
    "view(x, 0:i64, 1:i64, n0));\n"
    "}\n";

/// Saturating u8 counts (Parboil histo): uadd.sat written as a select.
const char *Saturating =
    "idiom sat(x: [i32], h: [u8], n0: i64) {\n"
    "  store view(h, 0:i64, 1:i64, 8:i64) = reduceIndexed(\\(a: u8, b: u8) => "
    "select(icmp_ult(add(a, b), a), 255:u8, add(a, b)), view(h, 0:i64, 1:i64, 8:i64), "
    "\\(v: i32) => (zext.i64(and(v, 7:i32)), 1:u8), view(x, 0:i64, 1:i64, n0));\n"
    "}\n";

/// The lowered forms: atomics on the global bins, and per-work-group bins.
const char *Atomic =
    "idiom count(x: [u8], h: [i32], n0: i64) {\n"
    "  store view(h, 0:i64, 1:i64, 256:i64) = reduceIndexedAtomic(\\(a: i32, b: i32) => "
    "add(a, b), view(h, 0:i64, 1:i64, 256:i64), mapGlobal(0, \\(v: u8) => (zext.i64(v), "
    "1:i32), view(x, 0:i64, 1:i64, n0)));\n"
    "}\n";

Program parse(const std::string &Text) {
  Program P;
  std::string Err;
  EXPECT_TRUE(parseProgram(Text, P, Err)) << Err;
  return P;
}

std::string typeError(const std::string &Text) {
  Program P;
  std::string Err;
  if (!parseProgram(Text, P, Err))
    return "parse: " + Err;
  TypePtr T;
  if (!typeCheckProgram(P, Err, &T))
    return Err;
  return "";
}

Value ints(ScalarKind K, const std::vector<int64_t> &Xs) {
  std::vector<Value> Es;
  for (int64_t X : Xs)
    Es.push_back(Value::ofInt(K, X));
  return Value::array(Es);
}

TEST(ReduceIndexed, TypesAndRoundTrip) {
  for (const char *T : {Count256, Saturating, Atomic}) {
    EXPECT_EQ(typeError(T), "") << T;
    EXPECT_EQ(printProgram(parse(T)), T);
  }
  Program P = parse(Count256);
  TypePtr Ty;
  std::string Err;
  ASSERT_TRUE(typeCheckProgram(P, Err, &Ty)) << Err;
  EXPECT_EQ(printType(*Ty), "[i32]_256");
}

TEST(ReduceIndexed, TypeErrors) {
  // The function must give (i64, T) pairs.
  EXPECT_NE(typeError("idiom e(x: [i32], h: [i32], n0: i64) { store view(h, 0:i64, "
                      "1:i64, 4:i64) = reduceIndexed(\\(a: i32, b: i32) => add(a, b), "
                      "view(h, 0:i64, 1:i64, 4:i64), \\(v: i32) => (v, 1:i32), "
                      "view(x, 0:i64, 1:i64, n0)); }")
                .find("needs (i64, i32) pairs"),
            std::string::npos);
  // The value must have the bins' type.
  EXPECT_NE(typeError("idiom e(x: [i32], h: [i32], n0: i64) { store view(h, 0:i64, "
                      "1:i64, 4:i64) = reduceIndexed(\\(a: i32, b: i32) => add(a, b), "
                      "view(h, 0:i64, 1:i64, 4:i64), \\(v: i32) => (sext.i64(v), 1:i64), "
                      "view(x, 0:i64, 1:i64, n0)); }")
                .find("pairs of bin index and value"),
            std::string::npos);
  // The operator must return the bins' type.
  EXPECT_NE(typeError("idiom e(x: [i32], h: [i32], n0: i64) { store view(h, 0:i64, "
                      "1:i64, 4:i64) = reduceIndexed(\\(a: i32, b: i32) => icmp_eq(a, b), "
                      "view(h, 0:i64, 1:i64, 4:i64), \\(v: i32) => (sext.i64(v), 1:i32), "
                      "view(x, 0:i64, 1:i64, n0)); }")
                .find("returns 'bool'"),
            std::string::npos);
  // The bins must be an array.
  EXPECT_NE(typeError("idiom e(x: [i32], n0: i64) { return reduceIndexed(\\(a: i32, "
                      "b: i32) => add(a, b), 0:i32, \\(v: i32) => (sext.i64(v), 1:i32), "
                      "view(x, 0:i64, 1:i64, n0)); }")
                .find("expects an array"),
            std::string::npos);
  // Pairs of reduceIndexedAtomic, nested or not.
  EXPECT_NE(typeError("idiom e(x: [i32], h: [i32], n0: i64) { store view(h, 0:i64, "
                      "1:i64, 4:i64) = reduceIndexedAtomic(\\(a: i32, b: i32) => add(a, b), "
                      "view(h, 0:i64, 1:i64, 4:i64), view(x, 0:i64, 1:i64, n0)); }")
                .find("needs (i64, i32) pairs"),
            std::string::npos);
}

/// The reference fold: bins start as the buffer's contents.
TEST(ReduceIndexed, CountsInPlace) {
  Program P = parse(Count256);
  std::mt19937 Rng(7);
  std::vector<int64_t> X(1000), H(256);
  for (int64_t &V : X)
    V = Rng() % 256;
  for (int64_t &V : H)
    V = Rng() % 5;
  std::vector<int64_t> Want = H;
  for (int64_t V : X)
    ++Want[V];
  ValueMap Args{{"x", ints(ScalarKind::U8, X)},
                {"h", ints(ScalarKind::I32, H)},
                {"n0", Value::ofInt(ScalarKind::I64, 1000)}};
  Value R;
  std::string Err;
  ASSERT_TRUE(runProgram(P, Args, R, Err)) << Err;
  EXPECT_EQ(printValue(Args["h"]), printValue(ints(ScalarKind::I32, Want)));

  // The lowered atomic form means the same.
  Program A = parse(Atomic);
  ValueMap Args2{{"x", ints(ScalarKind::U8, X)},
                 {"h", ints(ScalarKind::I32, H)},
                 {"n0", Value::ofInt(ScalarKind::I64, 1000)}};
  ASSERT_TRUE(runProgram(A, Args2, R, Err)) << Err;
  EXPECT_EQ(printValue(Args2["h"]), printValue(ints(ScalarKind::I32, Want)));
}

TEST(ReduceIndexed, SaturatesAtTheBinMaximum) {
  Program P = parse(Saturating);
  std::vector<int64_t> X;
  for (int I = 0; I < 300; ++I)
    X.push_back(3); // 300 > 255: saturates
  X.push_back(5);
  X.push_back(13); // 13 & 7 = 5
  ValueMap Args{{"x", ints(ScalarKind::I32, X)},
                {"h", ints(ScalarKind::U8, {0, 0, 0, 10, 0, 254, 0, 0})},
                {"n0", Value::ofInt(ScalarKind::I64, (int64_t)X.size())}};
  Value R;
  std::string Err;
  ASSERT_TRUE(runProgram(P, Args, R, Err)) << Err;
  EXPECT_EQ(printValue(Args["h"]), printValue(ints(ScalarKind::U8, {0, 0, 0, 255, 0, 255, 0, 0})));
}

TEST(ReduceIndexed, IndexOutOfRangeIsAnError) {
  const char *T = "idiom e(x: [i32], h: [i32], n0: i64) { store view(h, 0:i64, 1:i64, 4:i64) "
                  "= reduceIndexed(\\(a: i32, b: i32) => add(a, b), view(h, 0:i64, 1:i64, "
                  "4:i64), \\(v: i32) => (sext.i64(v), 1:i32), view(x, 0:i64, 1:i64, n0)); }";
  Program P = parse(T);
  Value R;
  std::string Err;
  ValueMap Ok{{"x", ints(ScalarKind::I32, {0, 3, 3})},
              {"h", ints(ScalarKind::I32, {0, 0, 0, 0})},
              {"n0", Value::ofInt(ScalarKind::I64, 3)}};
  ASSERT_TRUE(runProgram(P, Ok, R, Err)) << Err;
  EXPECT_EQ(printValue(Ok["h"]), printValue(ints(ScalarKind::I32, {1, 0, 0, 2})));
  for (int64_t Bad : {4, -1}) {
    ValueMap Args{{"x", ints(ScalarKind::I32, {0, Bad})},
                  {"h", ints(ScalarKind::I32, {0, 0, 0, 0})},
                  {"n0", Value::ofInt(ScalarKind::I64, 2)}};
    EXPECT_FALSE(runProgram(P, Args, R, Err));
    EXPECT_NE(Err.find("bin index " + std::to_string(Bad) + " out of range for 4 bins"),
              std::string::npos)
        << Err;
    // Nothing is written when evaluation fails.
    EXPECT_EQ(printValue(Args["h"]), printValue(ints(ScalarKind::I32, {0, 0, 0, 0})));
  }
}

/// reduceIndexedAtomic folds nested pair arrays (rows of any length) in
/// row-major order; with a non-commutative operator the order is visible.
TEST(ReduceIndexed, AtomicFoldsNestedPairsInOrder) {
  const char *T =
      "idiom e(h: [i32]) { store view(h, 0:i64, 1:i64, 2:i64) = reduceIndexedAtomic(\\(a: i32, "
      "b: i32) => add(mul(a, 10:i32), b), view(h, 0:i64, 1:i64, 2:i64), strided(2:i64, "
      "map(\\(i: i64) => (and(i, 1:i64), trunc.i32(i)), iota(5:i64)))); }";
  EXPECT_EQ(typeError(T), "");
  Program P = parse(T);
  ValueMap Args{{"h", ints(ScalarKind::I32, {0, 0})}};
  Value R;
  std::string Err;
  ASSERT_TRUE(runProgram(P, Args, R, Err)) << Err;
  // Rows [0, 2, 4] and [1, 3]: bin 0 gets 0, 2, 4 -> 24; bin 1 gets 1, 3 -> 13.
  EXPECT_EQ(printValue(Args["h"]), printValue(ints(ScalarKind::I32, {24, 13})));
}

} // namespace
