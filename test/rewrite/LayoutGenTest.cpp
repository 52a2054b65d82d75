//===- LayoutGenTest.cpp - OpenCL of transpose, reorder, slide, pad, vectors ===//
//
// Part of Idiom. The data-layout primitives are index expressions in the
// generated kernels (no loop, no intermediate array), asVector/asScalar are
// vloadN/vstoreN and vector-typed private values; every kernel is run on
// the OpenCL device (PoCL in CI) at several lengths and compared with the
// reference interpreter.
//
//===----------------------------------------------------------------------===//

#include "DeviceUtil.h"
#include "idiom/Rewrite/DefaultStrategies.h"
#include "idiom/Rewrite/Rules.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <regex>

using namespace idiom;
using namespace idiom::rwtest;

namespace {

bool contains(const std::string &S, const std::string &Sub) {
  return S.find(Sub) != std::string::npos;
}

/// The generated source of \p Text (variant 0, or as it is when \p Lowered).
std::string source(const char *Text, bool Lowered = false) {
  Program P = parseOrDie(Text);
  rewrite::GeneratedOpenCL G;
  std::string Err;
  bool Ok = Lowered ? rewrite::emitOpenCL(P, "k", G, Err)
                    : rewrite::generateOpenCL(P, "k", G, Err, 1);
  EXPECT_TRUE(Ok) << Err;
  return G.Source;
}

/// No loop, no private or local array: the view primitives became index
/// arithmetic at the accesses.
void expectNoIntermediates(const std::string &Src) {
  EXPECT_FALSE(contains(Src, "for (")) << Src;
  EXPECT_FALSE(contains(Src, "__local")) << Src;
  EXPECT_FALSE(contains(Src, "barrier")) << Src;
  static const std::regex ArrayDecl("(char|short|int|long|float|double)[0-9]* +[A-Za-z_0-9]+\\[");
  EXPECT_FALSE(std::regex_search(Src, ArrayDecl)) << "an array declaration\n" << Src;
}

const char *Transpose =
    "idiom t(a: [f32], b: [f32], n: i64, m: i64) { store view(b, 0:i64, n, m, 1:i64, n) = "
    "map(\\(r: [f32]_n) => map(\\(v: f32) => fmul(v, 2.0:f32), r), "
    "transpose(view(a, 0:i64, m, n, 1:i64, m))); }";
/// A transposed result stored through the transposed output (Views.h).
const char *TransposeStore =
    "idiom t(a: [f32], b: [f32], n: i64, m: i64) { store view(b, 0:i64, n, m, 1:i64, n) = "
    "transpose(mapGlobal(1, \\(r: [f32]_m) => mapGlobal(0, \\(v: f32) => fneg(v), r), "
    "view(a, 0:i64, m, n, 1:i64, m))); }";
const char *Reverse =
    "idiom t(x: [i32], y: [i32], n: i64) { store view(y, 0:i64, 1:i64, n) = "
    "map(\\(v: i32) => mul(v, 3:i32), reorder(\\(i: i64) => sub(sub(n, 1:i64), i), "
    "view(x, 0:i64, 1:i64, n))); }";
const char *Stride =
    "idiom t(x: [f64], y: [f64], n: i64) { store view(y, 0:i64, 1:i64, n) = "
    "map(\\(v: f64) => fadd(v, 0.5:f64), reorderStride(4:i64, view(x, 0:i64, 1:i64, n))); }";
const char *Stencil =
    "idiom t(a: [f32], b: [f32], n: i64) { store view(b, 0:i64, 1:i64, n) = "
    "map(\\(w: [f32]_3) => fadd(fadd(at(w, 0:i64), at(w, 1:i64)), at(w, 2:i64)), "
    "slide(3:i64, 1:i64, pad(1:i64, 1:i64, 0.0:f32, view(a, 0:i64, 1:i64, n)))); }";
const char *ClampStencil =
    "idiom t(a: [i32], b: [i32], n: i64) { store view(b, 0:i64, 1:i64, n) = "
    "map(\\(w: [i32]_5) => sub(add(at(w, 0:i64), at(w, 4:i64)), mul(2:i32, at(w, 2:i64))), "
    "slide(5:i64, 1:i64, padClamp(2:i64, 2:i64, view(a, 0:i64, 1:i64, n)))); }";
/// Windows of 4 with step 2 over a map (the map's function at each access).
const char *SlideStep =
    "idiom t(a: [f32], b: [f32], n: i64, m: i64) { store view(b, 0:i64, 1:i64, m) = "
    "map(\\(w: [f32]_4) => fmax(fmax(at(w, 0:i64), at(w, 1:i64)), fmax(at(w, 2:i64), "
    "at(w, 3:i64))), slide(4:i64, 2:i64, map(\\(v: f32) => fabs(v), view(a, 0:i64, 1:i64, n)))); }";
const char *Vec4 =
    "idiom t(a: [f32], b: [f32], o: i64, n: i64) { store view(b, o, 1:i64, n) = "
    "asScalar(mapGlobal(0, \\(v: f32x4) => fmul(fadd(v, 1.0:f32), v), "
    "asVector(4:i64, view(a, o, 1:i64, n)))); }";
/// Integer lanes (wrapping arithmetic lane by lane), a lane-wise cast, a
/// broadcast parameter, a select with a scalar condition.
const char *VecInt =
    "idiom t(a: [i32], b: [f32], s: i32, n: i64) { store view(b, 0:i64, 1:i64, n) = "
    "asScalar(mapGlobal(0, \\(v: i32x8) => sitofp.f32(select(icmp_sgt(s, 0:i32), "
    "smax(mul(v, s), sub(v, 7:i32)), v)), asVector(8:i64, view(a, 0:i64, 1:i64, n)))); }";
/// The vector of lanes read from a non-unit stride view (no vload).
const char *VecStrided =
    "idiom t(a: [f32], b: [f32], n: i64) { store view(b, 0:i64, 1:i64, n) = "
    "asScalar(mapGlobal(0, \\(v: f32x2) => fsub(v, fma(v, v, 0.25:f32)), "
    "asVector(2:i64, view(a, 1:i64, 2:i64, n)))); }";
/// asScalar read back element by element (a lane chosen at run time).
const char *VecRead =
    "idiom t(a: [f32], b: [f32], n: i64) { store view(b, 0:i64, 1:i64, n) = "
    "mapGlobal(0, \\(v: f32) => fneg(v), asScalar(mapSeq(\\(u: f32x4) => fmul(u, u), "
    "asVector(4:i64, view(a, 0:i64, 1:i64, n))))); }";
/// The coalescing form (rules/coalescing.cpp) with n = 64, chunks of 4.
const char *Coalesced =
    "idiom t(x: [f32], y: [f32]) { store view(y, 0:i64, 1:i64, 64:i64) = "
    "reorderStride(4:i64, join(mapGlobal(0, \\(r: [f32]_4) => mapSeq(\\(v: f32) => "
    "fmul(v, 3.0:f32), r), split(4:i64, reorderStride(16:i64, view(x, 0:i64, 1:i64, 64:i64)))))); }";
const char *ReduceStride =
    "idiom t(x: [i32], n0: i64) { return reduce(\\(a: i32, b: i32) => add(a, b), 0:i32, "
    "map(\\(v: i32) => mul(v, v), reorderStride(3:i64, padClamp(1:i64, 2:i64, "
    "view(x, 0:i64, 1:i64, n0))))); }";

TEST(LayoutGen, ViewsEmitNoCode) {
  for (const char *P : {Transpose, Reverse, Stride, Stencil, ClampStencil, SlideStep})
    expectNoIntermediates(source(P));
  expectNoIntermediates(source(TransposeStore, true));
  std::string T = source(Transpose);
  EXPECT_TRUE(contains(T, "a[(m_p * i0) + i1]")) << T; // element (i1, i0) of a
  std::string S = source(Stencil);
  EXPECT_TRUE(contains(S, " ? (a[max(min(")) << S; // select at the access, clamped index
  std::string C = source(ClampStencil);
  EXPECT_TRUE(contains(C, "a[max(min(")) << C;
  EXPECT_FALSE(contains(C, " ? (a[")) << C;
  std::string R = source(Stride);
  EXPECT_TRUE(contains(R, "x[(i0 / (n / 4L)) + (4L * (i0 % (n / 4L)))]")) << R;
}

TEST(LayoutGen, VectorsUseVloadVstore) {
  std::string V = source(Vec4, true);
  EXPECT_TRUE(contains(V, "const float4 v = vload4(0, a + (o + (i0 * 4)));")) << V;
  EXPECT_TRUE(contains(V, "vstore4(")) << V;
  EXPECT_TRUE(contains(V, "if (i0 < n / 4)")) << V;
  std::string I = source(VecInt, true);
  EXPECT_TRUE(contains(I, "int8 v = vload8(")) << I;
  EXPECT_TRUE(contains(I, "((float8)(")) << I;
  std::string S = source(VecStrided, true);
  EXPECT_FALSE(contains(S, "vload")) << S;
  EXPECT_TRUE(contains(S, "((float2)(a[")) << S;
}

class LayoutExec : public ::testing::Test {
protected:
  static OpenCLRunner &runner() {
    static OpenCLRunner R;
    return R;
  }
  void SetUp() override {
    if (!runner().available())
      GTEST_SKIP() << "no OpenCL device";
  }
  /// Runs map program \p Text with \p Sizes, 1-D over \p N work-items.
  void map1(const char *Text, std::map<std::string, int64_t> Sizes, int64_t BufLen, size_t N,
            bool Lowered = false, double Tol = 0) {
    Program P = parseOrDie(Text);
    std::mt19937_64 Rng(7);
    ValueMap Args = randomArgs(P, Sizes, BufLen, Rng);
    size_t G = (N + 15) / 16 * 16;
    EXPECT_EQ(checkMapOnDevice(runner(), P, Args, {G ? G : 16}, {16}, Tol, nullptr, Lowered), "")
        << Text;
  }
};

TEST_F(LayoutExec, Transpose) {
  for (auto [N, M] : {std::pair<int64_t, int64_t>{13, 7}, {1, 5}, {16, 16}}) {
    Program P = parseOrDie(Transpose);
    std::mt19937_64 Rng(3);
    ValueMap Args = randomArgs(P, {{"n", N}, {"m", M}}, N * M, Rng);
    EXPECT_EQ(checkMapOnDevice(runner(), P, Args, {16, 16}, {4, 4}, 0), "");
    Program Q = parseOrDie(TransposeStore);
    EXPECT_EQ(checkMapOnDevice(runner(), Q, Args, {16, 16}, {4, 4}, 0, nullptr, true), "");
  }
}

TEST_F(LayoutExec, ReorderAndReorderStride) {
  for (int64_t N : {1, 8, 37})
    map1(Reverse, {{"n", N}}, N, N);
  for (int64_t N : {0, 4, 64, 100})
    map1(Stride, {{"n", N}}, N, N);
  map1(Coalesced, {}, 64, 16, true);
}

TEST_F(LayoutExec, StencilsWithPadAndSlide) {
  for (int64_t N : {1, 2, 3, 37, 100}) {
    map1(Stencil, {{"n", N}}, N, N);
    map1(ClampStencil, {{"n", N}}, N, N);
  }
  for (int64_t N : {4, 5, 6, 41})
    map1(SlideStep, {{"n", N}, {"m", (N - 4) / 2 + 1}}, N, N);
}

TEST_F(LayoutExec, Vectors) {
  for (int64_t O : {0, 1, 3})
    for (int64_t N : {0, 4, 64, 400})
      map1(Vec4, {{"n", N}, {"o", O}}, N + O, N / 4, true);
  for (int64_t N : {8, 64, 256})
    map1(VecInt, {{"n", N}}, N, N / 8, true);
  map1(VecStrided, {{"n", 32}}, 70, 16, true);
  for (int64_t N : {4, 36})
    map1(VecRead, {{"n", N}}, N, N, true);
}

TEST_F(LayoutExec, ReductionThroughViews) {
  Program P = parseOrDie(ReduceStride);
  // padClamp adds 3 elements, reorderStride(3) needs a multiple of 3.
  for (int64_t N : {3, 6, 999, 2997}) {
    std::mt19937_64 Rng(11);
    ValueMap Args = randomArgs(P, {{"n0", N}}, N, Rng);
    EXPECT_EQ(checkReduceOnDevice(runner(), P, Args, 3, 16, 0), "") << N;
  }
}

/// \p Text lowered as the default reduction strategy does, with
/// reduce-two-stage-lanes in place of reduce-two-stage.
Program lowerWithLanes(const char *Text) {
  Program P = parseOrDie(Text);
  std::string Err;
  std::vector<std::string> Trace;
  EXPECT_TRUE(rewrite::rewriteProgram(
      P,
      rewrite::sequence({rewrite::fusionStrategy(),
                         rewrite::ruleStrategy(*rewrite::findRule("reduce-two-stage-lanes")),
                         rewrite::sequentialiseStrategy()}),
      Err, &Trace))
      << Err;
  EXPECT_NE(std::find(Trace.begin(), Trace.end(), "reduce-two-stage-lanes"), Trace.end());
  return P;
}

const char *DotOffset =
    "idiom t(x: [f32], y: [f32], o: i64, n0: i64) { return reduce(\\(a: f32, b: f32) => "
    "fadd(a, b), 0.0:f32, map(\\(t: (f32, f32)) => fmul(t.0, t.1), zip(view(x, o, 1:i64, n0), "
    "view(y, 0:i64, 1:i64, n0)))); }";
const char *MaxI32 =
    "idiom t(x: [i32], n0: i64) { return reduce(\\(a: i32, b: i32) => smax(a, b), "
    "-2147483648:i32, map(\\(v: i32) => mul(v, 3:i32), view(x, 0:i64, 1:i64, n0))); }";
const char *SumF64 =
    "idiom t(x: [f64], n0: i64) { return reduce(\\(a: f64, b: f64) => fadd(a, b), 0.0:f64, "
    "view(x, 0:i64, 1:i64, n0)); }";

TEST(LayoutGen, LaneWiseAccumulator) {
  rewrite::GeneratedOpenCL G;
  std::string Err;
  ASSERT_TRUE(rewrite::emitOpenCL(lowerWithLanes(DotOffset), "r", G, Err)) << Err;
  // A float4 accumulator, lane-wise addition, lanes folded at the end; the
  // vector read of a complete, aligned vector, lane by lane otherwise.
  EXPECT_TRUE(contains(G.Source, "float4 acc = ((float4)(0.0f));")) << G.Source;
  EXPECT_TRUE(contains(G.Source, "acc = ((acc) + (")) << G.Source;
  EXPECT_TRUE(contains(G.Source, "*((const __global float4 *)(x + ")) << G.Source;
  EXPECT_TRUE(contains(G.Source, "((const float *)&acc)[j]")) << G.Source;
}

TEST_F(LayoutExec, LaneWiseAccumulatorReductions) {
  Program Dot = lowerWithLanes(DotOffset);
  for (int64_t O : {0, 1})
    for (int64_t N : {0, 1, 5, 1000, 4099}) {
      std::mt19937_64 Rng(21);
      ValueMap Args = randomArgs(Dot, {{"n0", N}, {"o", O}}, N + 1, Rng);
      // Against the interpreter of the lowered program, which agrees with
      // the original (LayoutRuleTest.cpp).
      EXPECT_EQ(checkReduceOnDevice(runner(), Dot, Args, 4, 32, 1e-4, nullptr, true), "")
          << "n=" << N << " o=" << O;
    }
  Program Max = lowerWithLanes(MaxI32);
  Program Sum = lowerWithLanes(SumF64);
  for (int64_t N : {3, 64, 2001}) {
    std::mt19937_64 Rng(5);
    ValueMap A = randomArgs(Max, {{"n0", N}}, N, Rng);
    EXPECT_EQ(checkReduceOnDevice(runner(), Max, A, 3, 16, 0, nullptr, true), "") << N;
    ValueMap B = randomArgs(Sum, {{"n0", N}}, N, Rng);
    EXPECT_EQ(checkReduceOnDevice(runner(), Sum, B, 5, 8, 1e-9, nullptr, true), "") << N;
  }
}

} // namespace
