//===- HistogramTest.cpp - histogram lowering, variants, OpenCL on PoCL ---===//
//
// Part of Idiom. The histogram family (rules/histogram.cpp) and kernels
// (codegen/HistogramGen.cpp): operator classification and identities, the
// side conditions of privatisation, the variants, the generated atomics, and
// every variant run on an OpenCL device (PoCL) against the interpreter.
// Interpreter equality of each rule on random inputs is in RuleTest.cpp.
//
//===----------------------------------------------------------------------===//

#include "HistogramExamples.h"
#include "OpenCLRunner.h"
#include "TestUtil.h"
#include "idiom/Rewrite/Explore.h"
#include "idiom/Rewrite/Histogram.h"
#include "idiom/Rewrite/OpenCLGen.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace idiom;
using namespace idiom::rwtest;
namespace ex = idiom::funil::test;

namespace {

bool contains(const std::string &S, const std::string &Sub) {
  return S.find(Sub) != std::string::npos;
}

rewrite::IndexedOp classify(const std::string &Body, const char *T) {
  std::string Text = std::string("idiom t(h: [") + T + "]) { store view(h, 0:i64, 1:i64, 1:i64) "
                     "= reduceIndexed(\\(a: " + T + ", b: " + T + ") => " + Body +
                     ", view(h, 0:i64, 1:i64, 1:i64), \\(i: i64) => (i, at(view(h, 0:i64, "
                     "1:i64, 1:i64), 0:i64)), iota(1:i64)); }";
  Program P = parseOrDie(Text);
  funil::ScalarKind K;
  EXPECT_TRUE(parseScalarName(T, K));
  return rewrite::classifyIndexedOp(P.Body->Args[0], K);
}

TEST(Histogram, OperatorClassification) {
  using rewrite::IndexedOp;
  EXPECT_EQ(classify("add(a, b)", "i32"), IndexedOp::Add);
  EXPECT_EQ(classify("add(b, a)", "u8"), IndexedOp::Add);
  EXPECT_EQ(classify("smax(a, b)", "i64"), IndexedOp::SMax);
  EXPECT_EQ(classify("umin(b, a)", "u16"), IndexedOp::UMin);
  EXPECT_EQ(classify("xor(a, b)", "u32"), IndexedOp::Xor);
  EXPECT_EQ(classify("fadd(a, b)", "f64"), IndexedOp::FAdd);
  EXPECT_EQ(classify("fmul(a, b)", "f32"), IndexedOp::Mul);
  EXPECT_EQ(classify("select(icmp_ult(add(a, b), a), 255:u8, add(a, b))", "u8"),
            IndexedOp::UAddSat);
  EXPECT_EQ(classify("select(icmp_ult(add(a, b), a), -1:i32, add(b, a))", "i32"),
            IndexedOp::UAddSat);
  // Not the saturation constant of the type, or not the same sum.
  EXPECT_EQ(classify("select(icmp_ult(add(a, b), a), 254:u8, add(a, b))", "u8"),
            IndexedOp::Other);
  EXPECT_EQ(classify("select(icmp_ult(add(a, b), b), 255:u8, add(a, b))", "u8"),
            IndexedOp::Other);
  EXPECT_EQ(classify("sub(a, b)", "i32"), IndexedOp::Other);
  EXPECT_EQ(classify("add(a, a)", "i32"), IndexedOp::Other);
  EXPECT_EQ(classify("fmax(a, b)", "f32"), IndexedOp::Other);
}

TEST(Histogram, Identities) {
  using rewrite::IndexedOp;
  using funil::ScalarKind;
  auto Id = [](IndexedOp Op, ScalarKind K) {
    funil::ExprPtr E = rewrite::indexedOpIdentity(Op, K);
    return E ? printExpr(*E) : std::string("none");
  };
  EXPECT_EQ(Id(IndexedOp::Add, ScalarKind::I32), "0:i32");
  EXPECT_EQ(Id(IndexedOp::And, ScalarKind::U8), "255:u8");
  EXPECT_EQ(Id(IndexedOp::UMin, ScalarKind::I16), "-1:i16");
  EXPECT_EQ(Id(IndexedOp::SMax, ScalarKind::I8), "-128:i8");
  EXPECT_EQ(Id(IndexedOp::SMin, ScalarKind::I64), "9223372036854775807:i64");
  EXPECT_EQ(Id(IndexedOp::FAdd, ScalarKind::F32), "-0.0:f32");
  EXPECT_EQ(Id(IndexedOp::Mul, ScalarKind::F64), "1.0:f64");
  EXPECT_EQ(Id(IndexedOp::UAddSat, ScalarKind::U8), "0:u8");
  EXPECT_EQ(Id(IndexedOp::Other, ScalarKind::I32), "none");
}

std::vector<rewrite::VariantParams> variants(const char *Text) {
  return rewrite::exploreVariants(parseOrDie(Text));
}

unsigned countLocal(const std::vector<rewrite::VariantParams> &Vs) {
  unsigned N = 0;
  for (const rewrite::VariantParams &V : Vs)
    N += V.Bins == rewrite::VariantParams::LocalBins;
  return N;
}

TEST(Histogram, VariantsAndPrivatisationConditions) {
  std::vector<rewrite::VariantParams> Vs = variants(ex::HistAdd);
  ASSERT_EQ(Vs.size(), 5u);
  EXPECT_EQ(Vs[0].Bins, rewrite::VariantParams::GlobalBins);
  EXPECT_EQ(Vs[0].WorkGroup[0], 0u);
  EXPECT_EQ(countLocal(Vs), 3u);
  // A run-time bin count: privatised variants too (local bins of the
  // capacity 16 KiB allows, global atomics in the same kernel beyond it).
  EXPECT_EQ(countLocal(variants(ex::HistRuntimeBins)), 3u);
  EXPECT_EQ(variants(ex::HistRuntimeBins).size(), 5u);
  // An operator without a known identity: no privatisation.
  EXPECT_EQ(countLocal(variants(
                "idiom t(x: [i32], h: [i32], n: i64) { store view(h, 0:i64, 1:i64, 8:i64) = "
                "reduceIndexed(\\(a: i32, b: i32) => sub(a, b), view(h, 0:i64, 1:i64, 8:i64), "
                "\\(v: i32) => (sext.i64(and(v, 7:i32)), v), view(x, 0:i64, 1:i64, n)); }")),
            0u);
  // Bins that do not fit MaxLocalBinBytes (8192 i32 = 32 KiB): no privatisation;
  // 4096 i32 = 16 KiB fit.
  auto Sized = [](int M) {
    std::string S = std::to_string(M);
    return "idiom t(x: [i32], h: [i32], n: i64) { store view(h, 0:i64, 1:i64, " + S +
           ":i64) = reduceIndexed(\\(a: i32, b: i32) => add(a, b), view(h, 0:i64, 1:i64, " + S +
           ":i64), \\(v: i32) => (sext.i64(and(v, 7:i32)), v), view(x, 0:i64, 1:i64, n)); }";
  };
  EXPECT_EQ(countLocal(rewrite::exploreVariants(parseOrDie(Sized(8192)))), 0u);
  EXPECT_EQ(countLocal(rewrite::exploreVariants(parseOrDie(Sized(4096)))), 3u);
}

rewrite::GeneratedOpenCL generate(const char *Text, unsigned Max = rewrite::MaxVariants) {
  Program P = parseOrDie(Text);
  rewrite::GeneratedOpenCL G;
  std::string Err;
  EXPECT_TRUE(rewrite::generateOpenCL(P, "k", G, Err, Max)) << Err;
  return G;
}

TEST(Histogram, GeneratedAtomics) {
  std::string S = generate(ex::HistAdd).Source;
  EXPECT_TRUE(contains(S, "__kernel void k(__global const int *x, __global int *h, const long n)"))
      << S;
  EXPECT_TRUE(contains(S, "atomic_add((volatile __global int *)&(h[")) << S;
  EXPECT_TRUE(contains(S, "__local int lbins[8];")) << S;
  EXPECT_TRUE(contains(S, "atomic_add((volatile __local int *)&(lbins[")) << S;
  EXPECT_TRUE(contains(S, "//@idiom-variant 1 wg=256 ept=16")) << S;
  EXPECT_FALSE(contains(S, "cl_khr_int64_base_atomics"));
  // Narrow bins: cmpxchg on the aligned word; saturation clamps local slots.
  S = generate(ex::HistSatU8).Source;
  EXPECT_TRUE(contains(S, "atomic_cmpxchg(")) << S;
  EXPECT_TRUE(contains(S, "& ~3UL")) << S;
  EXPECT_TRUE(contains(S, "min(lbins[")) << S;
  // 64-bit bins need the extension, declared with an #error fallback.
  S = generate(ex::HistAddI64).Source;
  EXPECT_TRUE(contains(S, "#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable")) << S;
  EXPECT_TRUE(contains(S, "atom_add((volatile __global long *)")) << S;
  S = generate(ex::HistXorU64).Source;
  EXPECT_TRUE(contains(S, "atom_cmpxchg(")) << S;
  S = generate(ex::HistFAdd).Source;
  EXPECT_TRUE(contains(S, "as_float(")) << S;
  EXPECT_TRUE(contains(S, "atomic_cmpxchg(")) << S;
  S = generate(ex::HistUMax).Source;
  EXPECT_TRUE(contains(S, "atomic_max((volatile __global uint *)")) << S;
  // Barriers only at work-group-uniform points: never inside the element loop.
  S = generate(ex::HistAdd).Source;
  size_t Loop = S.find("for (long i = get_global_id(0)");
  ASSERT_NE(Loop, std::string::npos);
  size_t Bar = S.find("barrier", Loop);
  size_t End = S.find("\n  }\n", Loop);
  EXPECT_GT(Bar, End);
}

TEST(Histogram, CodegenErrors) {
  // 8-bit bins whose bytes are not a multiple of 4: no packed word.
  Program P = parseOrDie(
      "idiom t(x: [i32], h: [u8], n: i64) { store view(h, 0:i64, 1:i64, 6:i64) = "
      "reduceIndexed(\\(a: u8, b: u8) => add(a, b), view(h, 0:i64, 1:i64, 6:i64), "
      "\\(v: i32) => (sext.i64(and(v, 3:i32)), 1:u8), view(x, 0:i64, 1:i64, n)); }");
  rewrite::GeneratedOpenCL G;
  std::string Err;
  EXPECT_FALSE(rewrite::generateOpenCL(P, "k", G, Err));
  EXPECT_TRUE(contains(Err, "8- and 16-bit bins need")) << Err;
  // Bins that are not the output updated in place.
  P = parseOrDie("idiom t(x: [i32], h: [i32], g: [i32], n: i64) { store view(h, 0:i64, 1:i64, "
                 "4:i64) = reduceIndexed(\\(a: i32, b: i32) => add(a, b), view(g, 0:i64, 1:i64, "
                 "4:i64), \\(v: i32) => (sext.i64(and(v, 3:i32)), 1:i32), view(x, 0:i64, 1:i64, "
                 "n)); }");
  EXPECT_FALSE(rewrite::generateOpenCL(P, "k", G, Err));
  EXPECT_TRUE(contains(Err, "updated in place")) << Err;
}

// Execution on PoCL against the interpreter.
//===----------------------------------------------------------------------===//

size_t bytesOf(funil::ScalarKind K) { return funil::scalarBits(K) / 8; }

std::vector<uint8_t> toBytes(const Value &Arr, funil::ScalarKind K) {
  std::vector<uint8_t> B;
  for (const Value &V : Arr.Elems) {
    uint8_t Tmp[8];
    if (K == funil::ScalarKind::F32) {
      float F = static_cast<float>(V.F);
      std::memcpy(Tmp, &F, 4);
    } else if (K == funil::ScalarKind::F64) {
      std::memcpy(Tmp, &V.F, 8);
    } else {
      std::memcpy(Tmp, &V.Bits, 8);
    }
    B.insert(B.end(), Tmp, Tmp + bytesOf(K));
  }
  return B;
}

Value fromBytes(const std::vector<uint8_t> &B, size_t I, funil::ScalarKind K) {
  const uint8_t *P = B.data() + I * bytesOf(K);
  if (K == funil::ScalarKind::F32) {
    float F;
    std::memcpy(&F, P, 4);
    return Value::ofFloat(K, F);
  }
  if (K == funil::ScalarKind::F64) {
    double D;
    std::memcpy(&D, P, 8);
    return Value::ofFloat(K, D);
  }
  uint64_t Bits = 0;
  std::memcpy(&Bits, P, bytesOf(K));
  return Value::ofInt(K, static_cast<int64_t>(Bits));
}

KernelArg scalarArg(const Value &V) {
  KernelArg A;
  A.Bytes.resize(bytesOf(V.S));
  std::memcpy(A.Bytes.data(), &V.Bits, A.Bytes.size());
  return A;
}

class HistogramExec : public ::testing::Test {
protected:
  static OpenCLRunner &runner() {
    static OpenCLRunner R;
    return R;
  }
  void SetUp() override {
    if (!runner().available())
      GTEST_SKIP() << "no OpenCL device";
  }

  /// Every variant of \p Text on random inputs (values of x scaled by
  /// \p Scale so that indices spread), as the runtime launches a map
  /// variant: ceil(n / E) work-items rounded up to the work-group size.
  void check(const char *Text, std::map<std::string, int64_t> Sizes, int64_t BufLen,
             double Tol, int64_t Scale = 1) {
    Program P = parseOrDie(Text);
    rewrite::GeneratedOpenCL G;
    std::string Err;
    ASSERT_TRUE(rewrite::generateOpenCL(P, "k", G, Err)) << Err;
    ASSERT_TRUE(runner().build(G.Source, Err)) << Err << "\n" << G.Source;
    std::vector<rewrite::VariantParams> Vs = rewrite::exploreVariants(P);
    ASSERT_EQ(G.NumVariants, Vs.size());
    std::mt19937_64 Rng(4242);
    ValueMap Args = randomArgs(P, Sizes, std::max<int64_t>(BufLen, 8), Rng);
    for (Value &V : Args["x"].Elems)
      V = Value::ofInt(V.S, V.asSigned() * Scale + static_cast<int64_t>(Rng() % 7));
    ValueMap Want = Args;
    Value R;
    ASSERT_TRUE(runProgram(P, Want, R, Err)) << Err;
    int64_t N = Sizes.at("n");
    for (size_t K = 0; K < Vs.size(); ++K) {
      std::vector<KernelArg> KArgs;
      for (const funil::Param &Pa : P.Params)
        KArgs.push_back(Pa.Ty->isBuffer()
                            ? KernelArg::buffer(toBytes(Args[Pa.Name], Pa.Ty->Elem->S))
                            : scalarArg(Args[Pa.Name]));
      size_t L = Vs[K].WorkGroup[0] ? Vs[K].WorkGroup[0] : 64;
      size_t Items = (N + Vs[K].Elems - 1) / Vs[K].Elems;
      size_t Global = Items == 0 ? L : (Items + L - 1) / L * L;
      ASSERT_TRUE(runner().run(rewrite::variantKernelName("k", K), KArgs, {Global}, {L}, Err))
          << Err;
      for (size_t I = 0; I < P.Params.size(); ++I) {
        const funil::Param &Pa = P.Params[I];
        if (!Pa.Ty->isBuffer())
          continue;
        for (size_t E = 0; E < Want[Pa.Name].Elems.size(); ++E) {
          Value Got = fromBytes(KArgs[I].Bytes, E, Pa.Ty->Elem->S);
          ASSERT_TRUE(valuesClose(Got, Want[Pa.Name].Elems[E], Tol))
              << "variant " << K << " (" << G.VariantDescs[K] << ") " << Pa.Name << "[" << E
              << "]: device " << printValue(Got) << " vs "
              << printValue(Want[Pa.Name].Elems[E]) << "\n"
              << G.VariantFunIL[K];
        }
      }
    }
  }
};

TEST_F(HistogramExec, AddI32) {
  for (int64_t N : {1, 37, 5000, 70001})
    check(ex::HistAdd, {{"n", N}}, N, 0);
}
TEST_F(HistogramExec, SaturatingU8) {
  for (int64_t N : {45, 3000, 40000})
    check(ex::HistSatU8, {{"n", N}}, N, 0);
}
TEST_F(HistogramExec, SMinI16) { check(ex::HistSMin, {{"n", 20000}}, 20000, 0); }
TEST_F(HistogramExec, FAddF32) { check(ex::HistFAdd, {{"n", 20000}}, 20000, 1e-6); }
TEST_F(HistogramExec, UMaxU32) { check(ex::HistUMax, {{"n", 9999}}, 9999, 0); }
TEST_F(HistogramExec, AddI64) { check(ex::HistAddI64, {{"n", 9999}}, 9999, 0); }
TEST_F(HistogramExec, XorU64) { check(ex::HistXorU64, {{"n", 9999}}, 9999, 0); }
TEST_F(HistogramExec, RuntimeBinCount) {
  // Within the local capacity (4096 i32 bins) and beyond it.
  check(ex::HistRuntimeBins, {{"n", 12345}, {"m", 100}}, 12345, 0, 1000);
  check(ex::HistRuntimeBins, {{"n", 12345}, {"m", 5000}}, 12345, 0, 1000);
}

} // namespace
