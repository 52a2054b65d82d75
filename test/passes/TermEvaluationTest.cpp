//===- TermEvaluationTest.cpp - exhaustive evaluation against Z3 ----------===//
//
// Part of Idiom. satisfiableByEvaluation (passes/TermEvaluation.h) decides a
// translation-validation difference by evaluating it at every assignment of
// its leaves; it must answer exactly what Z3 answers for the same formula
// (SMT-LIB bit-vector semantics: modular arithmetic, shifts by the width or
// more, signed and unsigned comparisons, extensions, extraction). Each
// formula is built twice, as hash-consed terms (the node names and layout of
// TranslationValidation.cpp's HashTerms) and as a z3::expr, from one random
// expression tree; hand-written cases cover the saturating update the
// plugin meets in nas-parboil/histo.c and the refusals (too many bits,
// division, floating point).
//
//===----------------------------------------------------------------------===//

#include "TermEvaluation.h"

#include <gtest/gtest.h>
#include <random>
#include <z3++.h>

using namespace idiom::tv;

namespace {

/// One formula in both representations.
struct Both {
  Term T;
  z3::expr Z;
};

/// Builds the same operation on both sides.
class Builder {
public:
  TermContext TC;
  z3::context ZC;

  Both leaf(const char *Name, unsigned W) {
    return {TC.constant(Name, TC.bv_sort(W)), ZC.bv_const(Name, W)};
  }
  Both bv(uint64_t V, unsigned W) { return {TC.bv_val(V, W), ZC.bv_val(V, W)}; }
  Both boolean(bool B) { return {TC.bool_val(B), ZC.bool_val(B)}; }
  Both op(const char *Name, const Both &X, const Both &Y) {
    std::string N = Name;
    TSort S = X.T.get_sort();
    TSort B{TSort::Bool, 0};
    auto Mk = [&](const char *O, TSort R) {
      return TC.make(O, R, {X.T.node(), Y.T.node()});
    };
    if (N == "add") return {X.T + Y.T, X.Z + Y.Z};
    if (N == "sub") return {X.T - Y.T, X.Z - Y.Z};
    if (N == "mul") return {X.T * Y.T, X.Z * Y.Z};
    if (N == "and") return {X.T & Y.T, X.Z & Y.Z};
    if (N == "or") return {X.T | Y.T, X.Z | Y.Z};
    if (N == "xor") return {X.T ^ Y.T, X.Z ^ Y.Z};
    if (N == "shl") return {Mk("bvshl", S), z3::shl(X.Z, Y.Z)};
    if (N == "lshr") return {Mk("bvlshr", S), z3::lshr(X.Z, Y.Z)};
    if (N == "ashr") return {Mk("bvashr", S), z3::ashr(X.Z, Y.Z)};
    if (N == "eq") return {X.T == Y.T, X.Z == Y.Z};
    if (N == "ne") return {X.T != Y.T, X.Z != Y.Z};
    if (N == "slt") return {X.T < Y.T, X.Z < Y.Z};
    if (N == "sle") return {X.T <= Y.T, X.Z <= Y.Z};
    if (N == "sgt") return {X.T > Y.T, X.Z > Y.Z};
    if (N == "sge") return {X.T >= Y.T, X.Z >= Y.Z};
    if (N == "ult") return {Mk("ult", B), z3::ult(X.Z, Y.Z)};
    if (N == "ule") return {Mk("ule", B), z3::ule(X.Z, Y.Z)};
    if (N == "ugt") return {Mk("ugt", B), z3::ugt(X.Z, Y.Z)};
    if (N == "uge") return {Mk("uge", B), z3::uge(X.Z, Y.Z)};
    if (N == "land") return {X.T && Y.T, X.Z && Y.Z};
    if (N == "lor") return {X.T || Y.T, X.Z || Y.Z};
    if (N == "udiv") return {Mk("bvudiv", S), z3::udiv(X.Z, Y.Z)};
    ADD_FAILURE() << "unknown op " << N;
    return X;
  }
  Both neg(const Both &X) { return {-X.T, -X.Z}; }
  Both lnot(const Both &X) { return {!X.T, !X.Z}; }
  Both ite(const Both &C, const Both &X, const Both &Y) {
    return {TC.make("ite", X.T.get_sort(), {C.T.node(), X.T.node(), Y.T.node()}),
            z3::ite(C.Z, X.Z, Y.Z)};
  }
  Both zext(const Both &X, unsigned N) {
    return {TC.make("zext", TC.bv_sort(X.T.get_sort().W + N), {X.T.node()}, N),
            z3::zext(X.Z, N)};
  }
  Both sext(const Both &X, unsigned N) {
    return {TC.make("sext", TC.bv_sort(X.T.get_sort().W + N), {X.T.node()}, N),
            z3::sext(X.Z, N)};
  }
  Both extract(const Both &X, unsigned Hi, unsigned Lo) {
    return {X.T.extract(Hi, Lo), X.Z.extract(Hi, Lo)};
  }

  /// Z3's answer: is the Boolean formula satisfiable?
  bool z3Sat(const Both &D) {
    z3::solver S(ZC);
    S.add(D.Z);
    z3::check_result R = S.check();
    EXPECT_NE(R, z3::unknown);
    return R == z3::sat;
  }
};

/// A random bit-vector expression of width \p W over leaves \p Ls.
Both randomBV(Builder &B, std::mt19937 &R, const std::vector<Both> &Ls, unsigned W,
              unsigned Depth);

/// A random Boolean expression (a comparison, or a connective of them).
Both randomBool(Builder &B, std::mt19937 &R, const std::vector<Both> &Ls, unsigned W,
                unsigned Depth) {
  static const char *Rels[] = {"eq", "ne", "slt", "sle", "sgt", "sge",
                               "ult", "ule", "ugt", "uge"};
  unsigned K = R() % 12;
  if (Depth > 0 && K == 10)
    return B.op(R() % 2 ? "land" : "lor", randomBool(B, R, Ls, W, Depth - 1),
                randomBool(B, R, Ls, W, Depth - 1));
  if (Depth > 0 && K == 11)
    return B.lnot(randomBool(B, R, Ls, W, Depth - 1));
  return B.op(Rels[K % 10], randomBV(B, R, Ls, W, Depth), randomBV(B, R, Ls, W, Depth));
}

Both randomBV(Builder &B, std::mt19937 &R, const std::vector<Both> &Ls, unsigned W,
              unsigned Depth) {
  static const char *Ops[] = {"add", "sub", "mul", "and", "or", "xor", "shl", "lshr", "ashr"};
  unsigned K = Depth == 0 ? R() % 2 : R() % 14;
  auto Leaf = [&]() -> Both {
    for (const Both &L : Ls)
      if (L.T.get_sort().W == W && R() % 2)
        return L;
    return B.bv(R() % (uint64_t(1) << W), W);
  };
  if (K < 2)
    return Leaf();
  if (K < 11)
    return B.op(Ops[K - 2], randomBV(B, R, Ls, W, Depth - 1), randomBV(B, R, Ls, W, Depth - 1));
  if (K == 11)
    return B.neg(randomBV(B, R, Ls, W, Depth - 1));
  if (K == 12)
    return B.ite(randomBool(B, R, Ls, W, Depth - 1), randomBV(B, R, Ls, W, Depth - 1),
                 randomBV(B, R, Ls, W, Depth - 1));
  // Width changes: extend a narrower value, or extract from a wider one.
  if (W > 1 && R() % 2) {
    unsigned N = 1 + R() % (W - 1);
    Both X = randomBV(B, R, Ls, W - N, Depth - 1);
    return R() % 2 ? B.zext(X, N) : B.sext(X, N);
  }
  unsigned Lo = R() % 3;
  Both X = randomBV(B, R, Ls, W + Lo + R() % 2, Depth - 1);
  return B.extract(X, W - 1 + Lo, Lo);
}

TEST(TermEvaluation, AgreesWithZ3OnRandomFormulas) {
  std::mt19937 R(20261121);
  unsigned Sat = 0, Unsat = 0;
  for (int I = 0; I < 1000; ++I) {
    Builder B;
    unsigned W = 3 + R() % 4; // leaves: 2 x (3..6) bits
    std::vector<Both> Ls = {B.leaf("a", W), B.leaf("b", W)};
    Both D = randomBool(B, R, Ls, W, 3);
    std::optional<bool> E = satisfiableByEvaluation(D.T);
    ASSERT_TRUE(E.has_value()) << D.Z;
    bool Z = B.z3Sat(D);
    ASSERT_EQ(*E, Z) << D.Z;
    ++(Z ? Sat : Unsat);
  }
  // Both answers occur, so agreement is not trivially one-sided.
  EXPECT_GT(Sat, 50u);
  EXPECT_GT(Unsat, 50u);
}

TEST(TermEvaluation, ShiftsByTheWidthOrMore) {
  for (const char *Op : {"shl", "lshr", "ashr"}) {
    for (uint64_t X : {0x00u, 0x81u, 0x7fu, 0xffu}) {
      for (uint64_t S : {7u, 8u, 9u, 200u}) {
        Builder B;
        Both A = B.leaf("a", 8);
        // a == X  and  (a op S) != (X op S as Z3 computes it, a constant)
        Both Res = B.op(Op, B.bv(X, 8), B.bv(S, 8));
        z3::expr Folded = Res.Z.simplify();
        ASSERT_TRUE(Folded.is_numeral());
        Both Want = B.bv(Folded.get_numeral_uint64(), 8);
        Both D = B.op("land", B.op("eq", A, B.bv(X, 8)),
                      B.op("ne", B.op(Op, A, B.bv(S, 8)), Want));
        EXPECT_EQ(satisfiableByEvaluation(D.T), std::optional<bool>(false))
            << Op << " " << X << " by " << S;
        EXPECT_FALSE(B.z3Sat(D));
      }
    }
  }
}

// histo.c's saturating count: the lifted select(b + 1 <u b, 255, b + 1)
// against the loop's b != 255 ? b + 1 : b, over an 8-bit bin: equal, and a
// wrong cap (254) differs at 254.
TEST(TermEvaluation, SaturatingUpdate) {
  for (uint64_t Cap : {255u, 254u}) {
    Builder B;
    Both Bin = B.leaf("b", 8), One = B.bv(1, 8), Sum = B.op("add", Bin, One);
    Both Lifted = B.ite(B.op("ult", Sum, Bin), B.bv(255, 8), Sum);
    Both Loop = B.ite(B.op("ne", Bin, B.bv(Cap, 8)), Sum, Bin);
    Both D = B.op("ne", Lifted, Loop);
    EXPECT_EQ(satisfiableByEvaluation(D.T), std::optional<bool>(Cap != 255));
    EXPECT_EQ(B.z3Sat(D), Cap != 255);
  }
}

// Outside what is evaluated: the caller asks Z3.
TEST(TermEvaluation, RefusesWhatItDoesNotModel) {
  Builder B;
  // 17 bits of leaves.
  Both A = B.leaf("a", 9), C = B.leaf("c", 8);
  Both Wide = B.op("ne", B.op("add", A, B.zext(C, 1)), B.bv(3, 9));
  EXPECT_EQ(satisfiableByEvaluation(Wide.T), std::nullopt);
  // Division (SMT-LIB and LLVM disagree at 0).
  Both X = B.leaf("x", 4), Y = B.leaf("y", 4);
  EXPECT_EQ(satisfiableByEvaluation(B.op("eq", B.op("udiv", X, Y), X).T), std::nullopt);
  // Floating point.
  Term F = B.TC.constant("f", B.TC.fp_sort(32));
  EXPECT_EQ(satisfiableByEvaluation(F == B.TC.fpa_val(1.0f)), std::nullopt);
  // 16 bits exactly are evaluated.
  Both P = B.leaf("p", 8), Q = B.leaf("q", 8);
  EXPECT_EQ(satisfiableByEvaluation(B.op("eq", B.op("add", P, Q), B.op("add", Q, P)).T),
            std::optional<bool>(true));
}

} // namespace
