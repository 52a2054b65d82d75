//===- GemvPairTest.cpp - the fused GEMV pair kernel --------------------------===//
//
// Part of Idiom. GemvPair.h, on the programs the lifter writes for bicg: the
// matrix views of a pair (y = A x row-major,
// s += A^T r transposed) unify into the parameter pairs the runtime must
// find equal; the fused kernel is generated under the licence only, for
// f32 (32-bit compare-and-swap) and f64 (64-bit, with the extension check),
// six variants with their markers; and refused for a GEMV^T that does not
// sum in place, the layouts swapped, matrix views that differ (an offset),
// integer sums. The kernels' results are tested on PoCL
// (test/lit/run/gemv-pair-fused.c).
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"
#include "idiom/Rewrite/GemvPair.h"

#include <gtest/gtest.h>

using namespace idiom;
using namespace idiom::rwtest;

namespace {

/// The two programs the lifter writes for PolyBench bicg's nest on a
/// `float A[N][200]` (print<idiom>): q = A p (\p Rows: the matrix rows
/// 200 apart, the sum from 0) and s += A^T r (the sum from s's old element;
/// from 0 unless \p InPlace), element type \p S; \p Off the transposed
/// view's offset.
std::string pairPart(const std::string &S, bool Rows, bool InPlace = true,
                     const std::string &Off = "0:i64") {
  bool F = S[0] == 'f';
  std::string Step = Rows ? (F ? "fmuladd(x.1, x.0, acc)" : "add(mul(x.1, x.0), acc)")
                          : (F ? "fmuladd(x.0, x.1, acc)" : "add(mul(x.0, x.1), acc)");
  std::string Init = Rows || !InPlace ? (F ? "0x0p+0:" : "0:") + S : "q.1";
  std::string B = Rows ? "view(B, 0:i64, 200:i64, N, 1:i64, K)"
                       : "view(B, " + Off + ", 1:i64, N, 200:i64, K)";
  std::string T = "[" + S + "]";
  return "idiom idiom_bicg_0" + std::string(Rows ? "" : "_pair") + "(A: " + T + ", B: " + T +
         ", C: " + T + ", N: i64, K: i64) {\n  store view(C, 0:i64, 0:i64, 1:i64, 1:i64, N) = "
         "map(\\(r: (" + T + "_K, " + T + "_N)) => map(\\(q: (" + T + "_K, " + S +
         ")) => reduceSeq(\\(acc: " + S + ", x: (" + S + ", " + S + ")) => " + Step + ", " +
         Init + ", zip(r.0, q.0)), zip(" + B + ", r.1)), zip(view(A, 0:i64, 0:i64, 1:i64, "
         "1:i64, K), view(C, 0:i64, 0:i64, 1:i64, 1:i64, N)));\n}\n";
}

bool has(const std::string &S, const std::string &Sub) { return S.find(Sub) != std::string::npos; }

TEST(GemvPair, MatrixViewsUnifyIntoRunTimeEqualities) {
  funil::Program F = parseOrDie(pairPart("f32", true)), S = parseOrDie(pairPart("f32", false));
  std::vector<std::pair<unsigned, unsigned>> Same;
  std::string Err;
  ASSERT_TRUE(rewrite::unifyPairMatrices(F, S, Same, Err)) << Err;
  // B ~ B, the rows N ~ K', the columns K ~ N' (the row stride: 200 both)
  std::vector<std::pair<unsigned, unsigned>> Want = {{1, 1}, {3, 4}, {4, 3}};
  EXPECT_EQ(Same, Want);
  // another offset of the transposed view: not one matrix
  Same.clear();
  funil::Program S1 = parseOrDie(pairPart("f32", false, true, "1:i64"));
  EXPECT_FALSE(rewrite::unifyPairMatrices(F, S1, Same, Err));
  // the layouts swapped
  Same.clear();
  EXPECT_FALSE(rewrite::unifyPairMatrices(S, F, Same, Err));
}

TEST(GemvPair, FusedKernelUnderTheLicenceOnly) {
  funil::Program F = parseOrDie(pairPart("f32", true)), S = parseOrDie(pairPart("f32", false));
  rewrite::GeneratedOpenCL Out;
  std::string Err;
  EXPECT_FALSE(rewrite::generateGemvPairFused(F, S, "k", false, Out, Err));
  EXPECT_TRUE(has(Err, "licence")) << Err;
  ASSERT_TRUE(rewrite::generateGemvPairFused(F, S, "k", true, Out, Err)) << Err;
  EXPECT_EQ(Out.NumVariants, rewrite::gemvPairVariants().size());
  EXPECT_TRUE(has(Out.Source, "//@idiom-pair-same 1 1 3 4 4 3\n"));
  EXPECT_TRUE(has(Out.Source, "//@idiom-variant 0 wg=256 ept=1/16: "));
  EXPECT_TRUE(has(Out.Source, "//@idiom-variant 5 wg=256 ept=1/4: "));
  EXPECT_TRUE(has(Out.Source, "void k(__global const float *A, __global const float *B, "
                              "__global float *C, const long N, const long K, __global const "
                              "float *A_2, __global const float *B_2, __global float *C_2, "
                              "const long N_2, const long K_2)"));
  EXPECT_TRUE(has(Out.Source, "void k_v5("));
  EXPECT_TRUE(has(Out.Source, "atomic_cmpxchg("));
  EXPECT_TRUE(has(Out.Source, "barrier(CLK_LOCAL_MEM_FENCE);"));
  EXPECT_FALSE(has(Out.Source, "B_2["));  // the second's matrix is never read
  EXPECT_FALSE(has(Out.Source, "cl_khr_fp64"));
}

TEST(GemvPair, DoubleUsesSixtyFourBitAtomics) {
  funil::Program F = parseOrDie(pairPart("f64", true)), S = parseOrDie(pairPart("f64", false));
  rewrite::GeneratedOpenCL Out;
  std::string Err;
  ASSERT_TRUE(rewrite::generateGemvPairFused(F, S, "k", true, Out, Err)) << Err;
  EXPECT_TRUE(has(Out.Source, "cl_khr_fp64"));
  EXPECT_TRUE(has(Out.Source, "#ifndef cl_khr_int64_base_atomics"));
  EXPECT_TRUE(has(Out.Source, "atom_cmpxchg("));
  EXPECT_TRUE(has(Out.Source, "as_double("));
}

TEST(GemvPair, RefusedShapes) {
  funil::Program F = parseOrDie(pairPart("f32", true));
  rewrite::GeneratedOpenCL Out;
  std::string Err;
  // s = A^T r from 0: no atomic sum into the output's old value
  funil::Program S0 = parseOrDie(pairPart("f32", false, false));
  EXPECT_FALSE(rewrite::generateGemvPairFused(F, S0, "k", true, Out, Err));
  EXPECT_TRUE(has(Err, "in place")) << Err;
  // an integer pair: exact, has its own kernels
  funil::Program Fi = parseOrDie(pairPart("i32", true)), Si = parseOrDie(pairPart("i32", false));
  EXPECT_FALSE(rewrite::generateGemvPairFused(Fi, Si, "k", true, Out, Err));
  // two matrices at different offsets
  funil::Program S1 = parseOrDie(pairPart("f32", false, true, "1:i64"));
  EXPECT_FALSE(rewrite::generateGemvPairFused(F, S1, "k", true, Out, Err));
}

} // namespace
