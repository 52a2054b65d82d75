//===- GemvLanesTest.cpp - row lanes of a GEMV ------------------------------===//
//
// Part of Idiom. GEMV programs (Gemv.h): gemvAsRowMap keeps every output's
// bits (interpreter, row-major and transposed, before and after) and
// refuses a GEMM of two rows; the exploration offers row lanes by layout
// (lanes along a contiguous row, outputs in neighbouring work-items for a
// transposed GEMV) only under the reassociation licence (GEMM programs are
// float or double); every lane variant's lowered program interprets to the
// original's result within a relative 1e-4 (sums of up to 38 terms in
// [-4, 4), K = 0, 1, 37); and Z3 proofs of the index
// arithmetic of the transposed layout (row G*R + l%R, lane l/R): each
// (row, lane) is one launched work-item, and a halving step combines slots
// of one row, lanes s apart, without a race.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"
#include "idiom/Rewrite/Explore.h"
#include "idiom/Rewrite/Gemv.h"

#include <gtest/gtest.h>
#include <z3++.h>

using namespace idiom;
using namespace idiom::rwtest;

namespace {

/// y = A x, A row-major N x K (B(j, k) at j*K + k), as the GEMV lifter
/// writes it; element type T (f32, f64; i32 only as a negative).
std::string gemvRows(const char *T) {
  std::string S = T;
  return "idiom g(A: [" + S + "], B: [" + S + "], C: [" + S + "], N: i64, K: i64) { store "
         "view(C, 0:i64, 0:i64, 1:i64, 1:i64, N) = map(\\(r: ([" + S + "]_K, [" + S + "]_N)) "
         "=> map(\\(q: ([" + S + "]_K, " + S + ")) => reduceSeq(\\(acc: " + S + ", x: (" + S +
         ", " + S + ")) => " + (S[0] == 'f' ? "fmuladd(x.1, x.0, acc)" : "add(mul(x.1, x.0), acc)") +
         ", " + (S[0] == 'f' ? "0.0:" : "0:") + S + ", zip(r.0, q.0)), zip(view(B, 0:i64, K, N, "
         "1:i64, K), r.1)), zip(view(A, 0:i64, 0:i64, 1:i64, 1:i64, K), view(C, 0:i64, 0:i64, "
         "1:i64, 1:i64, N))); }";
}

/// s += A^T r, A row-major K x N (B(j, k) at k*N + j), the sum from s's
/// old element (PolyBench bicg's s).
std::string gemvColumns(const char *T) {
  std::string S = T;
  return "idiom g(A: [" + S + "], B: [" + S + "], C: [" + S + "], N: i64, K: i64) { store "
         "view(C, 0:i64, 0:i64, 1:i64, 1:i64, N) = map(\\(r: ([" + S + "]_K, [" + S + "]_N)) "
         "=> map(\\(q: ([" + S + "]_K, " + S + ")) => reduceSeq(\\(acc: " + S + ", x: (" + S +
         ", " + S + ")) => " + (S[0] == 'f' ? "fmuladd(x.1, x.0, acc)" : "add(mul(x.1, x.0), acc)") +
         ", q.1, zip(r.0, q.0)), zip(view(B, 0:i64, 1:i64, N, N, K), r.1)), zip(view(A, 0:i64, "
         "0:i64, 1:i64, 1:i64, K), view(C, 0:i64, 0:i64, 1:i64, 1:i64, N))); }";
}

unsigned laneVariants(const std::vector<rewrite::VariantParams> &Vs, unsigned Dim) {
  unsigned C = 0;
  for (const rewrite::VariantParams &V : Vs)
    C += V.RowLanes && V.LaneDim == Dim;
  return C;
}

TEST(GemvLanes, AsRowMapKeepsEveryOutput) {
  std::mt19937_64 Rng(13);
  for (const std::string &Text :
       {gemvRows("f32"), gemvColumns("f32"), gemvRows("f64"), gemvColumns("f64")}) {
    Program P = parseOrDie(Text), Q = P;
    ASSERT_TRUE(rewrite::isGemvProgram(P));
    std::string Err;
    ASSERT_TRUE(rewrite::gemvAsRowMap(Q, Err)) << Err;
    EXPECT_TRUE(Q.Outs[0]->isCall("view") && Q.Outs[0]->Args.size() == 4);
    EXPECT_FALSE(rewrite::isGemvProgram(Q));
    for (int64_t N : {1, 3, 40})
      for (int64_t K : {0, 1, 37}) {
        ValueMap Args = randomArgs(P, {{"N", N}, {"K", K}}, N * (K + 1) + 1, Rng);
        EXPECT_EQ(compareRuns(P, Q, Args, 0), "") << Text << " N=" << N << " K=" << K;
      }
  }
  // Two rows: not a GEMV, left alone.
  Program P = parseOrDie(
      "idiom g(A: [f32], B: [f32], C: [f32], N: i64, K: i64) { store view(C, 0:i64, N, 2:i64, "
      "1:i64, N) = map(\\(r: ([f32]_K, [f32]_N)) => map(\\(q: ([f32]_K, f32)) => "
      "reduceSeq(\\(acc: f32, x: (f32, f32)) => fmuladd(x.1, x.0, acc), 0.0:f32, zip(r.0, "
      "q.0)), zip(view(B, 0:i64, K, N, 1:i64, K), r.1)), zip(view(A, 0:i64, K, 2:i64, 1:i64, "
      "K), view(C, 0:i64, N, 2:i64, 1:i64, N))); }");
  std::string Err;
  EXPECT_FALSE(rewrite::isGemvProgram(P));
  EXPECT_FALSE(rewrite::gemvAsRowMap(P, Err));
  EXPECT_NE(Err, "");
}

TEST(GemvLanes, ExplorationByLayoutAndLicence) {
  rewrite::ExploreOptions Exact;
  Exact.FPReassoc = false;
  Program Rows = parseOrDie(gemvRows("f32")), Cols = parseOrDie(gemvColumns("f32"));
  EXPECT_EQ(rewrite::gemvLayout(Rows), rewrite::GemvLayout::RowContiguous);
  EXPECT_EQ(rewrite::gemvLayout(Cols), rewrite::GemvLayout::ColumnContiguous);
  auto Vr = rewrite::exploreVariants(Rows, rewrite::MaxVariants, nullptr,
                                     rewrite::ExploreOptions());
  auto Vc = rewrite::exploreVariants(Cols, rewrite::MaxVariants, nullptr,
                                     rewrite::ExploreOptions());
  EXPECT_EQ(Vr.size(), 8u);
  EXPECT_EQ(laneVariants(Vr, 0), 4u);
  EXPECT_EQ(laneVariants(Vc, 1), 4u);
  EXPECT_EQ(laneVariants(Vr, 1) + laneVariants(Vc, 0), 0u);
  // Without the licence: no lanes for floats (the 7 in-order variants).
  auto Ve = rewrite::exploreVariants(Rows, rewrite::MaxVariants, nullptr, Exact);
  EXPECT_EQ(Ve.size(), 7u);
  EXPECT_EQ(laneVariants(Ve, 0) + laneVariants(Ve, 1), 0u);
  // GEMM programs are float or double: an integer one is no GEMV.
  EXPECT_FALSE(rewrite::isGemvProgram(parseOrDie(gemvColumns("i32"))));
}

TEST(GemvLanes, LaneVariantsAgreeWithTheInterpreter) {
  std::mt19937_64 Rng(5);
  for (const std::string &Text :
       {gemvRows("f32"), gemvColumns("f32"), gemvRows("f64"), gemvColumns("f64")}) {
    Program P = parseOrDie(Text);
    unsigned Lanes = 0;
    for (const rewrite::VariantParams &V : rewrite::exploreVariants(P)) {
      if (!V.RowLanes)
        continue;
      ++Lanes;
      Program L = P;
      std::string Err;
      ASSERT_TRUE(rewrite::lowerVariant(L, V, Err)) << describeVariant(V) << ": " << Err;
      // The interpreter splits exactly: N a multiple of every R (<= 64).
      for (int64_t K : {0, 1, 37}) {
        ValueMap Args = randomArgs(P, {{"N", 64}, {"K", K}}, 64 * K + 64, Rng);
        EXPECT_EQ(compareRuns(P, L, Args, 1e-4), "")
            << Text << "\n" << describeVariant(V) << " K=" << K;
      }
    }
    EXPECT_EQ(Lanes, 4u) << Text;
  }
}

bool proved(z3::context &C, const z3::expr &Assume, const z3::expr &Claim) {
  z3::solver S(C);
  S.add(Assume && !Claim);
  return S.check() == z3::unsat;
}

TEST(GemvLanes, TransposedLayoutIndexProof) {
  // Work-item lid of group G: row G*R + lid%R, lane lid/R, slot lid; the
  // runtime launches n*W work-items rounded up to L = R*W (ept=1/W).
  auto Vs = rewrite::exploreVariants(parseOrDie(gemvColumns("f32")));
  for (const rewrite::VariantParams &V : Vs) {
    if (!V.RowLanes)
      continue;
    uint64_t W = V.RowLanes, R = V.RowsPerGroup;
    z3::context C;
    auto Var = [&](const char *N) { return C.bv_const(N, 64); };
    auto K = [&](uint64_t X) { return C.bv_val(X, 64); };
    z3::expr n = Var("n"), G = Var("G"), lid = Var("lid"), G2 = Var("G2"), lid2 = Var("lid2");
    z3::expr L = K(R * W), Wk = K(W), Rk = K(R);
    z3::expr Groups = z3::udiv(n * Wk + L - K(1), L);
    auto Row = [&](const z3::expr &g, const z3::expr &l) { return g * Rk + z3::urem(l, Rk); };
    auto Lane = [&](const z3::expr &l) { return z3::udiv(l, Rk); };
    z3::expr Small = z3::ult(n, K(uint64_t(1) << 40));
    z3::expr Launched = z3::ult(G, Groups) && z3::ult(lid, L);
    z3::expr Launched2 = z3::ult(G2, Groups) && z3::ult(lid2, L);
    EXPECT_TRUE(proved(C, Small && Launched && Launched2 && Row(G, lid) == Row(G2, lid2) &&
                              Lane(lid) == Lane(lid2),
                       G == G2 && lid == lid2))
        << "W=" << W << " R=" << R;
    z3::expr i = Var("i"), l = Var("l");
    z3::expr Gi = z3::udiv(i, Rk), Li = l * Rk + z3::urem(i, Rk);
    EXPECT_TRUE(proved(C, Small && z3::ult(i, n) && z3::ult(l, Wk),
                       z3::ult(Gi, Groups) && z3::ult(Li, L) && Row(Gi, Li) == i &&
                           Lane(Li) == l))
        << "W=" << W << " R=" << R;
    // Halving step s: lane < s reads slots lid and lid + s*R: the same row,
    // lane + s < W, and no slot that another reading lane writes.
    for (uint64_t S = W / 2; S >= 1; S /= 2) {
      z3::expr Sk = K(S);
      z3::expr Reads = z3::ult(lid, L) && z3::ult(Lane(lid), Sk);
      z3::expr Other = lid + Sk * Rk;
      EXPECT_TRUE(proved(C, Reads,
                         z3::ult(Other, L) && z3::urem(Other, Rk) == z3::urem(lid, Rk) &&
                             Lane(Other) == Lane(lid) + Sk))
          << "W=" << W << " R=" << R << " s=" << S;
      EXPECT_TRUE(proved(C, Reads && z3::ult(lid2, L) && z3::ult(Lane(lid2), Sk),
                         lid2 != Other))
          << "W=" << W << " R=" << R << " s=" << S;
    }
  }
}

} // namespace
