//===- GemvLanesTest.cpp - row lanes of a GEMV ------------------------------===//
//
// Part of Idiom. GEMV programs (Gemv.h): gemvAsRowMap keeps every output's
// bits (interpreter, row-major and transposed, before and after) and
// refuses a GEMM of two rows; the exploration offers row lanes by layout
// (lanes along a contiguous row, outputs in neighbouring work-items for a
// transposed GEMV) only under the reassociation licence (GEMM programs are
// float or double), vector-load lanes for y = A x and split-K only for the
// in-place s += A^T r; every lane variant's lowered program interprets to the
// original's result within a relative 1e-4 (sums of up to 38 terms in
// [-4, 4), K = 0, 1, 37); and Z3 proofs of the index
// arithmetic of the transposed layout (row G*R + l%R, lane l/R): each
// (row, lane) is one launched work-item, and a halving step combines slots
// of one row, lanes s apart, without a race.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"
#include "ProofUtil.h"
#include "OpenCLRunner.h"
#include "idiom/Rewrite/Explore.h"
#include "idiom/Rewrite/Gemv.h"
#include "idiom/Rewrite/OpenCLGen.h"
#include "idiom/Rewrite/Rules.h"
#include "idiom/Rewrite/Strategy.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

using namespace idiom;
using namespace idiom::rwtest;

namespace {

/// A GEMV as the lifter writes it, element type \p T (f32, f64; i32 only
/// as a negative): with \p Rows, y = A x on a row-major N x K matrix (B(j,
/// k) at j*K + k, the sum from 0); else s += A^T r on a row-major K x N one
/// (B(j, k) at k*N + j, the sum from s's old element: PolyBench bicg's s).
/// With \p InPlace false the transposed one sums from 0 (s = A^T r).
std::string gemvProgram(const std::string &S, bool Rows, bool InPlace = true) {
  std::string Step = S[0] == 'f' ? "fmuladd(x.1, x.0, acc)" : "add(mul(x.1, x.0), acc)";
  std::string Init = Rows || !InPlace ? (S[0] == 'f' ? "0.0:" : "0:") + S : "q.1";
  std::string B = Rows ? "view(B, 0:i64, K, N, 1:i64, K)" : "view(B, 0:i64, 1:i64, N, N, K)";
  return "idiom g(A: [" + S + "], B: [" + S + "], C: [" + S + "], N: i64, K: i64) { store "
         "view(C, 0:i64, 0:i64, 1:i64, 1:i64, N) = map(\\(r: ([" + S + "]_K, [" + S + "]_N)) "
         "=> map(\\(q: ([" + S + "]_K, " + S + ")) => reduceSeq(\\(acc: " + S + ", x: (" + S +
         ", " + S + ")) => " + Step + ", " + Init + ", zip(r.0, q.0)), zip(" + B + ", r.1)), "
         "zip(view(A, 0:i64, 0:i64, 1:i64, 1:i64, K), view(C, 0:i64, 0:i64, 1:i64, 1:i64, "
         "N))); }";
}
std::string gemvRows(const char *T) { return gemvProgram(T, true); }
std::string gemvColumns(const char *T) { return gemvProgram(T, false); }

unsigned laneVariants(const std::vector<rewrite::VariantParams> &Vs, unsigned Dim) {
  unsigned C = 0;
  for (const rewrite::VariantParams &V : Vs)
    C += V.RowLanes && V.LaneDim == Dim;
  return C;
}

/// The vector-load lanes and the split-K variants of \p Vs.
unsigned vectorLanes(const std::vector<rewrite::VariantParams> &Vs) {
  unsigned C = 0;
  for (const rewrite::VariantParams &V : Vs)
    C += V.RowLanes && V.LaneVec == 4;
  return C;
}
unsigned splitK(const std::vector<rewrite::VariantParams> &Vs) {
  unsigned C = 0;
  for (const rewrite::VariantParams &V : Vs)
    C += V.SplitK > 1;
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
  EXPECT_EQ(Vc.size(), 8u);
  // y = A x: 4 row lanes and 2 with vector loads; s += A^T r: 3 row lanes
  // across outputs, split-K and 2 split-K tiles (S = 128, 256)
  EXPECT_EQ(laneVariants(Vr, 0), 6u);
  EXPECT_EQ(vectorLanes(Vr), 2u);
  EXPECT_EQ(laneVariants(Vc, 1), 3u);
  EXPECT_EQ(splitK(Vc), 3u);
  unsigned Tiles = 0;
  for (const rewrite::VariantParams &V : Vc)
    Tiles += V.SplitKUnroll > 0 && V.SplitK % 16 == 0 && V.SplitK >= 128;
  EXPECT_EQ(Tiles, 2u);
  // s = A^T r from 0 has no split-K: the fourth lanes shape instead
  auto Va = rewrite::exploreVariants(parseOrDie(gemvProgram("f32", false, false)),
                                     rewrite::MaxVariants, nullptr, rewrite::ExploreOptions());
  EXPECT_EQ(laneVariants(Va, 1), 4u);
  EXPECT_EQ(splitK(Va), 0u);
  EXPECT_EQ(laneVariants(Vr, 1) + laneVariants(Vc, 0) + vectorLanes(Vc) + splitK(Vr), 0u);
  // Without the licence: no lanes for floats (the 7 in-order variants).
  for (const Program *P : {&Rows, &Cols}) {
    auto Ve = rewrite::exploreVariants(*P, rewrite::MaxVariants, nullptr, Exact);
    EXPECT_EQ(Ve.size(), 7u);
    EXPECT_EQ(laneVariants(Ve, 0) + laneVariants(Ve, 1) + vectorLanes(Ve) + splitK(Ve), 0u);
  }
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
      if (!V.RowLanes && !V.SplitK)
        continue;
      ++Lanes;
      Program L = P;
      std::string Err;
      ASSERT_TRUE(rewrite::lowerVariant(L, V, Err)) << describeVariant(V) << ": " << Err;
      // The interpreter splits exactly: N a multiple of every R (<= 64),
      // K of the vector width with vector loads (the generator's last
      // chunk may be ragged: test/lit/run/gemv-variants.c).
      for (int64_t K : V.LaneVec ? std::vector<int64_t>{0, 4, 36}
                                 : std::vector<int64_t>{0, 1, 37}) {
        ValueMap Args = randomArgs(P, {{"N", 64}, {"K", K}}, 64 * K + 64, Rng);
        EXPECT_EQ(compareRuns(P, L, Args, 1e-4), "")
            << Text << "\n" << describeVariant(V) << " K=" << K;
      }
    }
    EXPECT_EQ(Lanes, 6u) << Text;
  }
}

TEST(GemvLanes, VectorLanesRule) {
  // The registered reduce-seq-lanes-v4-4 on a GEMV's row sums: prints and
  // parses back, type checks, interprets to the sums (K a multiple of 4:
  // the interpreter's split needs whole chunks) within 1e-4; map-row-lanes
  // then takes its lanes as reduce-seq-lanes' (W = 4).
  std::mt19937_64 Rng(11);
  const rewrite::Rule *R = rewrite::findRule("reduce-seq-lanes-v4-4");
  ASSERT_NE(R, nullptr);
  for (const std::string &Text : {gemvRows("f32"), gemvRows("f64"), gemvColumns("f32")}) {
    Program P = parseOrDie(Text), Q = P;
    std::string Err;
    ASSERT_TRUE(rewrite::gemvAsRowMap(Q, Err)) << Err;
    std::vector<std::string> Trace;
    ASSERT_TRUE(rewrite::rewriteProgram(Q, rewrite::oncePosition(rewrite::ruleStrategy(*R)),
                                        Err, &Trace))
        << Err;
    ASSERT_EQ(Trace.size(), 1u);
    Program Re;
    ASSERT_TRUE(funil::parseProgram(funil::printProgram(Q), Re, Err)) << Err;
    EXPECT_EQ(funil::printProgram(Re), funil::printProgram(Q));
    ASSERT_TRUE(funil::typeCheckProgram(Q, Err)) << Err;
    for (int64_t K : {0, 4, 36}) {
      ValueMap Args = randomArgs(P, {{"N", 6}, {"K", K}}, 6 * K + 6, Rng);
      EXPECT_EQ(compareRuns(P, Q, Args, 1e-4), "") << Text << " K=" << K;
    }
    Program G = Q;
    ASSERT_TRUE(rewrite::rewriteProgram(
        G, rewrite::ruleStrategy(*rewrite::findRule("map-row-lanes")), Err))
        << Err;
    ValueMap Args = randomArgs(P, {{"N", 6}, {"K", 8}}, 6 * 8 + 6, Rng);
    EXPECT_EQ(compareRuns(P, G, Args, 1e-4), "") << Text;
  }
  // An integer sum has no fadd combine: exact lanes, but GEMV programs are
  // float or double; a product step is no sum: the rule does not match.
  Program M = parseOrDie(
      "idiom m(x: [f32], y: [f32], n: i64) { store view(y, 0:i64, 1:i64, 1:i64) = "
      "map(\\(i: i64) => reduceSeq(\\(acc: f32, v: f32) => fmul(acc, v), 1.0:f32, view(x, "
      "0:i64, 1:i64, n)), iota(1:i64)); }");
  std::string Err;
  std::vector<std::string> Trace;
  rewrite::rewriteProgram(M, rewrite::tryStrategy(rewrite::oncePosition(rewrite::ruleStrategy(*R))),
                          Err, &Trace);
  EXPECT_TRUE(Trace.empty());
}

TEST(GemvLanes, SplitKOnlyInPlace) {
  // s += A^T r: the histogram over (output, slice) pairs, bins the output
  Program In = parseOrDie(gemvColumns("f32")), Q = In;
  std::string Err;
  ASSERT_TRUE(rewrite::gemvAsRowMap(Q, Err)) << Err;
  ASSERT_TRUE(rewrite::gemvAsSplitK(Q, 32, Err)) << Err;
  EXPECT_TRUE(Q.Body->isCall("reduceIndexed"));
  EXPECT_TRUE(funil::sameExpr(*Q.Body->Args[1], *Q.Outs[0]));
  // s = A^T r from 0, and y = A x: the sum does not start from the output
  // (the atomic would add to a value the loop overwrites); refused, and
  // the explored split-K variants of such a program are left out.
  for (const std::string &Text : {gemvProgram("f32", false, false), gemvRows("f64")}) {
    Program P = parseOrDie(Text), R = P;
    ASSERT_TRUE(rewrite::gemvAsRowMap(R, Err)) << Err;
    EXPECT_FALSE(rewrite::gemvAsSplitK(R, 32, Err)) << Text;
    EXPECT_NE(Err, "");
    rewrite::VariantParams V;
    V.Gemm = true;
    V.WorkGroup[0] = 256;
    V.SplitK = 32;
    Program L = P;
    EXPECT_FALSE(rewrite::lowerVariant(L, V, Err)) << Text;
  }
  auto Vs = rewrite::exploreVariants(parseOrDie(gemvProgram("f32", false, false)));
  for (const rewrite::VariantParams &V : Vs) {
    Program L = parseOrDie(gemvProgram("f32", false, false));
    std::string E;
    if (V.SplitK)
      EXPECT_FALSE(rewrite::lowerVariant(L, V, E));
  }
  // One slice is no split.
  Program One = In;
  ASSERT_TRUE(rewrite::gemvAsRowMap(One, Err));
  EXPECT_FALSE(rewrite::gemvAsSplitK(One, 1, Err));
}

TEST(GemvLanes, SplitKTilesCoverEveryPair) {
  // The split-K tiles (codegen/SplitKTilesGen.h) on the device, float and
  // double, with 1 to 40 work-groups (the kernel walks its tiles with a
  // group-stride loop, so any count computes every (output, slice) pair
  // once): N = 200 (row stride a multiple of 4: the vector path, the last
  // tile ragged), 77 (the scalar tail), 3 and 1; K = 2500 (the unrolled
  // loops: 8 rows of 128 slices, 4 of 256 a step, then the remainder), 300
  // (fewer rows than one unrolled step), 1 and 0. Each output within a
  // relative 1e-5 (f32) of the sum in double.
  static rwtest::OpenCLRunner Runner;
  if (!Runner.available())
    GTEST_SKIP() << "no OpenCL device";
  std::mt19937_64 Rng(17);
  for (const char *Ty : {"f32", "f64"}) {
    Program P = parseOrDie(gemvColumns(Ty));
    rewrite::GeneratedOpenCL G;
    std::string Err;
    ASSERT_TRUE(rewrite::generateOpenCL(P, "k", G, Err)) << Err;
    ASSERT_TRUE(Runner.build(G.Source, Err)) << Err;
    bool F32 = Ty[1] == '3';
    size_t Bytes = F32 ? 4 : 8;
    auto Put = [&](std::vector<double> V) {
      std::vector<uint8_t> B(V.size() * Bytes);
      for (size_t I = 0; I < V.size(); ++I) {
        float F = static_cast<float>(V[I]);
        std::memcpy(&B[I * Bytes], F32 ? static_cast<void *>(&F) : &V[I], Bytes);
      }
      return B;
    };
    for (unsigned K3 : {3u, 4u}) { // variants 3 and 4: S = 128 and 256
      ASSERT_NE(G.Source.find("void k_v" + std::to_string(K3) + "("), std::string::npos);
      ASSERT_NE(G.Source.find("//@idiom-variant " + std::to_string(K3) + " wg=256 ept=1/" +
                              std::to_string(K3 == 3 ? 32 : 64) + ": "),
                std::string::npos);
      for (int64_t N : {200, 77, 3, 1})
        for (int64_t K : {2500, 300, 1, 0})
          for (size_t Groups : {1, 3, 40}) {
            std::uniform_int_distribution<int> D(-8, 8);
            std::vector<double> A(K), B(N * K), C(N);
            for (double &X : A)
              X = D(Rng) / 4.0;
            for (double &X : B)
              X = D(Rng) / 8.0;
            for (double &X : C)
              X = D(Rng);
            std::vector<KernelArg> Args{KernelArg::buffer(Put(A)), KernelArg::buffer(Put(B)),
                                        KernelArg::buffer(Put(C)), KernelArg::scalar<int64_t>(N),
                                        KernelArg::scalar<int64_t>(K)};
            ASSERT_TRUE(Runner.run("k_v" + std::to_string(K3), Args, {256 * Groups}, {256},
                                   Err))
                << Err;
            for (int64_t J = 0; J < N; ++J) {
              double Want = C[J], Mag = std::abs(C[J]);
              for (int64_t I = 0; I < K; ++I) {
                Want += A[I] * B[I * N + J];
                Mag += std::abs(A[I] * B[I * N + J]);
              }
              double Got;
              if (F32) {
                float F;
                std::memcpy(&F, &Args[2].Bytes[J * 4], 4);
                Got = F;
              } else {
                std::memcpy(&Got, &Args[2].Bytes[J * 8], 8);
              }
              ASSERT_NEAR(Got, Want, (F32 ? 1e-5 : 1e-12) * (Mag + 1))
                  << Ty << " variant " << K3 << " N=" << N << " K=" << K
                  << " groups=" << Groups << " output " << J;
            }
          }
    }
  }
}

TEST(GemvLanes, TransposedLayoutIndexProof) {
  // Work-item lid of group G: row G*R + lid%R, lane lid/R, slot lid; a
  // halving step s combines slots lid and lid + s*R (ProofUtil.h).
  // (s = A^T r from 0: every shape; in place, (16, 16) makes room for the
  // split-K tiles)
  unsigned Shapes = 0;
  for (const rewrite::VariantParams &V :
       rewrite::exploreVariants(parseOrDie(gemvProgram("f32", false, false))))
    if (V.RowLanes) {
      EXPECT_EQ(V.LaneDim, 1u);
      expectLaneLayout(V.RowLanes, V.RowsPerGroup, V.LaneDim);
      ++Shapes;
    }
  EXPECT_EQ(Shapes, 4u);
}

} // namespace
