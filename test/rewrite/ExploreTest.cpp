//===- ExploreTest.cpp - explored variants: choice, lowering, emission ----===//
//
// Part of Idiom. exploreVariants picks the parameters (work-group size,
// contiguous elements per work-item step) by the program's shape; every
// variant's lowered program must agree with the original in the reference
// interpreter, and generateOpenCL must emit every variant under its own
// kernel names with the marker lines the runtime reads. Execution of the
// variants on PoCL is in OpenCLGenTest.cpp.
//
//===----------------------------------------------------------------------===//

#include "Examples.h"
#include "TestUtil.h"
#include "idiom/Rewrite/DefaultStrategies.h"
#include "idiom/Rewrite/Explore.h"
#include "idiom/Rewrite/OpenCLGen.h"

#include <gtest/gtest.h>

using namespace idiom;
using namespace idiom::rwtest;
namespace ex = idiom::funil::test;

namespace {

bool contains(const std::string &S, const std::string &Sub) {
  return S.find(Sub) != std::string::npos;
}

size_t count(const std::string &S, const std::string &Sub) {
  size_t N = 0;
  for (size_t P = S.find(Sub); P != std::string::npos; P = S.find(Sub, P + 1))
    ++N;
  return N;
}

/// A reduction over a strided view: not contiguous.
const char *StridedSum =
    "idiom ssum(x: [f32], s: i64, n0: i64) { return reduce(\\(a: f32, b: f32) => "
    "fadd(a, b), 0.0:f32, view(x, 0:i64, s, n0)); }";

/// Eight f64 accumulators (64 bytes per work-item in the tree).
const char *EightSums =
    "idiom eight(x: [f64], n0: i64) { return reduce(\\(a: (f64, f64, f64, f64, f64, f64, "
    "f64, f64), b: (f64, f64, f64, f64, f64, f64, f64, f64)) => (fadd(a.0, b.0), "
    "fadd(a.1, b.1), fadd(a.2, b.2), fadd(a.3, b.3), fadd(a.4, b.4), fadd(a.5, b.5), "
    "fadd(a.6, b.6), fadd(a.7, b.7)), (0.0:f64, 0.0:f64, 0.0:f64, 0.0:f64, 0.0:f64, "
    "0.0:f64, 0.0:f64, 0.0:f64), map(\\(v: f64) => (v, v, v, v, v, v, v, v), "
    "view(x, 0:i64, 1:i64, n0))); }";

TEST(Explore, VariantsFollowTheProgramShape) {
  auto Vs = rewrite::exploreVariants(parseOrDie(ex::Saxpy));
  ASSERT_EQ(Vs.size(), rewrite::MaxVariants);
  EXPECT_EQ(Vs[0].WorkGroup[0], 0u); // the default lowering comes first
  EXPECT_EQ(Vs[0].Elems, 1u);
  bool Vector = false;
  for (const auto &V : Vs)
    Vector |= V.Elems == 4;
  EXPECT_TRUE(Vector);

  // Tiles (default, 8-row, ...) and the two row walks for CPU devices.
  Vs = rewrite::exploreVariants(parseOrDie(ex::Scale2D));
  ASSERT_EQ(Vs.size(), 6u);
  for (size_t I = 1; I < Vs.size(); ++I) {
    EXPECT_EQ(Vs[I].Elems, 1u) << "no vectorisation of a 2-D map";
    EXPECT_GT(Vs[I].WorkGroup[0], 0u);
  }
  EXPECT_EQ(Vs[1].WorkGroup[1], 8u);

  Vs = rewrite::exploreVariants(parseOrDie(StridedSum));
  ASSERT_EQ(Vs.size(), 4u);
  for (const auto &V : Vs)
    EXPECT_EQ(V.Elems, 1u) << "a strided view is not contiguous";

  // 64 bytes per work-item: 512 work-items would need 32 KiB of tree.
  Vs = rewrite::exploreVariants(parseOrDie(EightSums));
  ASSERT_GE(Vs.size(), 4u);
  for (const auto &V : Vs)
    EXPECT_LE(V.WorkGroup[0], 256u);

  EXPECT_EQ(rewrite::exploreVariants(parseOrDie(ex::DotAndMax), 3).size(), 3u);
  EXPECT_EQ(rewrite::exploreVariants(parseOrDie(ex::DotAndMax), 0).size(), 1u);
}

// Contiguous reductions also get variants that give each work-item one
// contiguous block (reduce-two-stage-blocks), the CPU's choice; grid-stride
// variants stay for GPUs. Strided input gets neither vectors nor blocks.
TEST(Explore, ContiguousReductionsOfferBlockedVariants) {
  Program P = parseOrDie(ex::SumI32);
  std::vector<rewrite::VariantParams> Vs = rewrite::exploreVariants(P);
  unsigned Blocked = 0, Strided = 0;
  for (const rewrite::VariantParams &V : Vs) {
    Program L = P;
    std::string Err;
    ASSERT_TRUE(rewrite::lowerVariant(L, V, Err)) << Err;
    std::string S = printProgram(L);
    if (V.Blocked) {
      ++Blocked;
      EXPECT_GT(V.Elems, 1u);
      EXPECT_TRUE(contains(S, "blocks(globalSize(0), split(")) << S;
      EXPECT_FALSE(contains(S, "strided(globalSize(0)")) << S;
      EXPECT_TRUE(contains(rewrite::describeVariant(V), "one contiguous block per work-item"));
    } else {
      ++Strided;
      EXPECT_FALSE(contains(S, "blocks(")) << S;
    }
  }
  EXPECT_EQ(Blocked, 1u);
  EXPECT_GE(Strided, 6u);
  for (const rewrite::VariantParams &V : rewrite::exploreVariants(parseOrDie(StridedSum)))
    EXPECT_FALSE(V.Blocked);
  for (const rewrite::VariantParams &V : rewrite::exploreVariants(parseOrDie(ex::Saxpy)))
    EXPECT_FALSE(V.Blocked) << "maps are not partitioned into blocks";
}

TEST(Explore, VariantZeroIsTheDefaultLowering) {
  for (const char *T : {ex::Saxpy, ex::DotAndMax, ex::Scale2D, ex::CountPositive}) {
    Program A = parseOrDie(T), B = A;
    std::string Err;
    ASSERT_TRUE(rewrite::lowerProgram(A, Err)) << Err;
    ASSERT_TRUE(rewrite::lowerVariant(B, rewrite::exploreVariants(B)[0], Err)) << Err;
    EXPECT_EQ(printProgram(A), printProgram(B));
  }
}

TEST(Explore, VectorisationNeedsAContiguousArray) {
  Program P = parseOrDie(StridedSum);
  rewrite::VariantParams V;
  V.Elems = 4;
  std::string Err;
  EXPECT_FALSE(rewrite::lowerVariant(P, V, Err));
  EXPECT_EQ(Err, "vectorisation with width 4 does not apply (the array is not contiguous)");
}

TEST(Explore, EveryVariantAgreesWithTheOriginal) {
  struct Case {
    const char *Text;
    std::vector<std::map<std::string, int64_t>> Sizes; ///< multiples of 16
    int64_t BufLen;
    double Tol;
  };
  // FunIL's split needs whole rows (16 is the widest vector); ragged rows
  // are the generator's, tested on the device in OpenCLGenTest.cpp.
  const Case Cases[] = {
      {ex::Saxpy, {{{"n0", 0}}, {{"n0", 16}}, {{"n0", 48}}}, 48, 0},
      {ex::TwoOuts, {{{"n0", 16}}}, 16, 0},
      // 64 rows: the row walks split the rows by 16 and 64
      {ex::Scale2D, {{{"n0", 64}, {"n1", 4}, {"lda", 5}}}, 320, 0},
      {ex::SumI32, {{{"n0", 0}}, {{"n0", 16}}, {{"n0", 64}}}, 64, 0},
      {ex::DotAndMax, {{{"n0", 16}}, {{"n0", 48}}}, 48, 1e-5},
      {ex::CountPositive, {{{"n0", 32}}}, 32, 1e-12},
      {StridedSum, {{{"n0", 7}, {"s", 3}}}, 21, 1e-5},
      {EightSums, {{{"n0", 16}}}, 16, 1e-12},
  };
  const ExecConfig Configs[] = {{1, 1}, {2, 3}, {4, 2}, {8, 1}};
  std::mt19937_64 Rng(77);
  for (const Case &C : Cases) {
    Program P = parseOrDie(C.Text);
    std::vector<rewrite::VariantParams> Vs = rewrite::exploreVariants(P);
    for (size_t K = 0; K < Vs.size(); ++K) {
      Program L = P;
      std::string Err;
      ASSERT_TRUE(rewrite::lowerVariant(L, Vs[K], Err)) << Err;
      for (const auto &Sizes : C.Sizes) {
        ValueMap Args = randomArgs(P, Sizes, C.BufLen, Rng);
        for (const ExecConfig &Cfg : Configs) {
          std::string Why = compareRuns(P, L, Args, C.Tol, {}, Cfg);
          ASSERT_EQ(Why, "") << P.Name << " variant " << K << " ("
                             << rewrite::describeVariant(Vs[K]) << ")\n"
                             << printProgram(L);
        }
      }
    }
  }
}

TEST(Explore, GenerateEmitsEveryVariant) {
  Program P = parseOrDie(ex::DotAndMax);
  rewrite::GeneratedOpenCL G;
  std::string Err;
  ASSERT_TRUE(rewrite::generateOpenCL(P, "dot", G, Err)) << Err;
  ASSERT_EQ(G.NumVariants, rewrite::MaxVariants);
  ASSERT_EQ(G.VariantDescs.size(), G.NumVariants);
  ASSERT_EQ(G.VariantFunIL.size(), G.NumVariants);
  EXPECT_EQ(G.LoweredFunIL, G.VariantFunIL[0]);
  EXPECT_EQ(count(G.Source, std::string(rewrite::VariantMarker) + " "), G.NumVariants);
  EXPECT_TRUE(contains(G.Source, "//@idiom-variant 0 wg=0 ept=1: default lowering")) << G.Source;
  EXPECT_TRUE(contains(G.Source, "__kernel void dot_partial(")) << G.Source;
  EXPECT_TRUE(contains(G.Source, "__kernel void dot_final(")) << G.Source;
  for (unsigned K = 1; K < G.NumVariants; ++K) {
    std::string N = rewrite::variantKernelName("dot", K);
    EXPECT_EQ(N, "dot_v" + std::to_string(K));
    EXPECT_TRUE(contains(G.Source, " void " + N + "_partial(")) << N;
    EXPECT_TRUE(contains(G.Source, " void " + N + "_final(")) << N;
  }
  EXPECT_TRUE(contains(G.Source, "__kernel __attribute__((reqd_work_group_size(256, 1, 1))) "
                                 "void dot_v1_partial("))
      << G.Source;
  // The vector variants read float4 through aligned pointer casts.
  EXPECT_TRUE(contains(G.Source, "*((const __global float4 *)(x + ")) << G.Source;
  EXPECT_EQ(count(G.Source, "#pragma OPENCL FP_CONTRACT OFF"), 1u);

  // One variant: exactly the default lowering's kernels, no marker line.
  rewrite::GeneratedOpenCL One, Plain;
  ASSERT_TRUE(rewrite::generateOpenCL(P, "dot", One, Err, 1)) << Err;
  EXPECT_EQ(One.NumVariants, 1u);
  EXPECT_FALSE(contains(One.Source, rewrite::VariantMarker));
  Program L = P;
  ASSERT_TRUE(rewrite::lowerProgram(L, Err)) << Err;
  ASSERT_TRUE(rewrite::emitOpenCL(L, "dot", Plain, Err)) << Err;
  EXPECT_EQ(One.Source, Plain.Source);
}

TEST(Explore, MapVariantsStoreVectorsWithATail) {
  Program P = parseOrDie(ex::Saxpy);
  rewrite::GeneratedOpenCL G;
  std::string Err;
  ASSERT_TRUE(rewrite::generateOpenCL(P, "sx", G, Err)) << Err;
  // Work-item i0 owns row i0 of ceil(n0 / 4); a complete, aligned row is one
  // float4 load per input and one float4 store, the rest element by element.
  EXPECT_TRUE(contains(G.Source, "if (i0 < ((n0 + 3) / 4)) {")) << G.Source;
  EXPECT_TRUE(contains(G.Source, "if ((((i0 * 4L) + 4L) <= n0) && ((((ulong)(x + (i0 * 4L))) "
                                 "& 15UL) == 0) && ((((ulong)(y + (i0 * 4L))) & 15UL) == 0)) {"))
      << G.Source;
  EXPECT_TRUE(contains(G.Source, "*((__global float4 *)(y + (i0 * 4L))) = (float4)(")) << G.Source;
  EXPECT_TRUE(contains(G.Source, "for (long j = 0; j < min((long)4L, n0 - (i0 * 4L)); ++j) {"))
      << G.Source;
}

TEST(Explore, TheDefaultLoweringsErrorIsTheAnswer) {
  // A bool parameter fails every variant, variant 0 first: its error is the
  // answer (a later variant's failure would only leave that variant out).
  Program P = parseOrDie("idiom f(x: [f32], b: bool, n: i64) { store view(x, 0:i64, 1:i64, n) = "
                         "map(\\(v: f32) => select(b, v, 0.0:f32), view(x, 0:i64, 1:i64, n)); }");
  rewrite::GeneratedOpenCL G;
  std::string Err;
  EXPECT_FALSE(rewrite::generateOpenCL(P, "f", G, Err));
  EXPECT_EQ(Err, "OpenCL generation: parameter 'b' is bool, which OpenCL kernels cannot take");
}

} // namespace
