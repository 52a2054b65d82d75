//===- MatMulTest.cpp - matrix-product rules, variants and kernels --------===//
//
// Part of Idiom. The matmul and memory rule families on canonical GEMM
// programs (every layout of A, B and C, f32 and f64, INIT 0 or the element
// of C, POST s or alpha*s + beta*c, fused or unfused steps): interpreter
// equality before and after each rule, recognition of the forms (and of
// what is not a GEMM), the explored variants, and every variant's kernel on
// the OpenCL device (PoCL) against the interpreter at sizes the tiles do not
// divide.
//
//===----------------------------------------------------------------------===//

#include "OpenCLRunner.h"
#include "TestUtil.h"
#include "idiom/Rewrite/Explore.h"
#include "idiom/Rewrite/OpenCLGen.h"
#include "idiom/Rewrite/Rules.h"
#include "idiom/Rewrite/Strategy.h"

#include "../../rewrite/lib/MatMulForm.h"

#include <gtest/gtest.h>

#include <array>
#include <functional>
#include <cstring>

using namespace idiom;
using namespace idiom::rwtest;
namespace mm = idiom::rewrite::matmul;

namespace {

struct GemmSpec {
  ScalarKind T = ScalarKind::F32;
  bool ARow = true, BRow = true, CRow = true;
  bool InitC = false; ///< INIT = q.1 (C += A*B), else 0
  bool Scaled = true; ///< POST = alpha*s + beta*c, else s
  bool Fused = true;  ///< STEP = fmuladd, else fadd(acc, fmul(b, a))
  /// Offsets and leading dimensions multiples of 4 (the vector fills'
  /// fast path applies to complete tiles), else odd ones (it never does).
  bool Aligned = false;
};

std::string gemmText(const GemmSpec &S) {
  std::string T = S.T == ScalarKind::F32 ? "f32" : "f64";
  std::string Av = S.ARow ? "view(A, oa, lda, M, 1:i64, K)" : "view(A, oa, 1:i64, M, lda, K)";
  std::string Bv = S.BRow ? "view(B, 0:i64, 1:i64, N, ldb, K)" : "view(B, 0:i64, ldb, N, 1:i64, K)";
  std::string Cv = S.CRow ? "view(C, 0:i64, ldc, M, 1:i64, N)" : "view(C, 0:i64, 1:i64, M, ldc, N)";
  std::string Step = S.Fused ? "fmuladd(x.0, x.1, acc)" : "fadd(acc, fmul(x.1, x.0))";
  std::string Red = "reduceSeq(\\(acc: " + T + ", x: (" + T + ", " + T + ")) => " + Step + ", " +
                    (S.InitC ? "q.1" : "0.0:" + T) + ", zip(r.0, q.0))";
  std::string Post = S.Scaled ? "fadd(fmul(alpha, " + Red + "), fmul(beta, q.1))" : Red;
  return "idiom gemm(A: [" + T + "], B: [" + T + "], C: [" + T +
         "], M: i64, N: i64, K: i64, lda: i64, ldb: i64, ldc: i64, oa: i64, alpha: " + T +
         ", beta: " + T + ") {\n  store " + Cv + " = map(\\(r: ([" + T + "]_K, [" + T +
         "]_N)) => map(\\(q: ([" + T + "]_K, " + T + ")) => " + Post + ", zip(" + Bv +
         ", r.1)), zip(" + Av + ", " + Cv + "));\n}\n";
}

/// The triangular GEMM program of \p S (docs/FunIL.md, "Triangular GEMM
/// programs"): element (i, j) computed when kT < Base + Slope k0, (k0, kT)
/// = (i, j) with \p Columns, else (j, i); the others keep C.
std::string triangleText(const GemmSpec &S, bool Columns, int64_t Base, int64_t Slope) {
  std::string X = gemmText(S), T = S.T == ScalarKind::F32 ? "f32" : "f64";
  auto Replace = [&X](const std::string &From, const std::string &To) {
    size_t At = X.find(From);
    EXPECT_NE(At, std::string::npos) << From;
    X.replace(At, From.size(), To);
  };
  Replace("(r: ([" + T + "]_K, [" + T + "]_N))", "(r: ([" + T + "]_K, [" + T + "]_N, i64))");
  Replace("(q: ([" + T + "]_K, " + T + ")) => ",
          "(q: ([" + T + "]_K, " + T + ", i64)) => select(icmp_slt(" +
              std::string(Columns ? "q.2" : "r.2") + ", add(" + std::to_string(Base) +
              ":i64, mul(" + std::to_string(Slope) + ":i64, " + (Columns ? "r.2" : "q.2") +
              "))), ");
  Replace(", r.1)), zip(", ", r.1, iota(N))), zip(");
  size_t End = X.rfind("));\n}");
  X.replace(End, 4, ", iota(M)));");
  Replace(", zip(view(B", ", q.1), zip(view(B");
  return X;
}

/// \p X (gemmText(S), or triangleText(S, ...) when \p Tri) with two
/// products per step (BLAS SYR2K; docs/FunIL.md, "GEMM programs with two
/// products"): a second pair A2, B2 laid out as A and B, zipped last, and
/// STEP adding x.2 * x.3 after x.0 * x.1.
std::string pairsText(std::string X, const GemmSpec &S, bool Tri) {
  std::string T = S.T == ScalarKind::F32 ? "f32" : "f64";
  auto Replace = [&X](const std::string &From, const std::string &To) {
    size_t At = X.find(From);
    EXPECT_NE(At, std::string::npos) << From;
    if (At != std::string::npos)
      X.replace(At, From.size(), To);
  };
  std::string A2 = S.ARow ? "view(A2, oa, lda, M, 1:i64, K)" : "view(A2, oa, 1:i64, M, lda, K)";
  std::string B2 =
      S.BRow ? "view(B2, 0:i64, 1:i64, N, ldb, K)" : "view(B2, 0:i64, ldb, N, 1:i64, K)";
  std::string I = Tri ? ", i64" : "";
  Replace("C: [" + T + "], ", "C: [" + T + "], A2: [" + T + "], B2: [" + T + "], ");
  Replace("(r: ([" + T + "]_K, [" + T + "]_N" + I + "))",
          "(r: ([" + T + "]_K, [" + T + "]_N" + I + ", [" + T + "]_K))");
  Replace("(q: ([" + T + "]_K, " + T + I + "))", "(q: ([" + T + "]_K, " + T + I + ", [" + T + "]_K))");
  Replace("x: (" + T + ", " + T + "))", "x: (" + T + ", " + T + ", " + T + ", " + T + "))");
  if (S.Fused)
    Replace("fmuladd(x.0, x.1, acc)", "fmuladd(x.2, x.3, fmuladd(x.0, x.1, acc))");
  else
    Replace("fadd(acc, fmul(x.1, x.0))", "fadd(fadd(acc, fmul(x.1, x.0)), fmul(x.3, x.2))");
  Replace("zip(r.0, q.0)", Tri ? "zip(r.0, q.0, r.3, q.3)" : "zip(r.0, q.0, r.2, q.2)");
  Replace(Tri ? ", r.1, iota(N))), zip(" : ", r.1)), zip(",
          Tri ? ", r.1, iota(N), " + B2 + ")), zip(" : ", r.1, " + B2 + ")), zip(");
  // The outer zip's and map's closing brackets.
  size_t End = X.rfind("));");
  if (End != std::string::npos)
    X.replace(End, 3, ", " + A2 + "));");
  return X;
}

/// The band program of a TRMM over \p S's layouts (docs/FunIL.md, "TRMM
/// programs"): step k of row i adds its product only when k >= Base + Slope
/// i (an upper band, \p Lower false) or k < Base + Slope i (a lower
/// triangle), and keeps acc otherwise.
std::string bandText(const GemmSpec &S, bool Lower, int64_t Base, int64_t Slope) {
  std::string X = gemmText(S), T = S.T == ScalarKind::F32 ? "f32" : "f64";
  auto Replace = [&X](const std::string &From, const std::string &To) {
    size_t At = X.find(From);
    EXPECT_NE(At, std::string::npos) << From;
    if (At != std::string::npos)
      X.replace(At, From.size(), To);
  };
  std::string Step = S.Fused ? "fmuladd(x.0, x.1, acc)" : "fadd(acc, fmul(x.1, x.0))";
  std::string Mask = "icmp_slt(x.2, add(" + std::to_string(Base) + ":i64, mul(" +
                     std::to_string(Slope) + ":i64, r.2)))";
  Replace("(r: ([" + T + "]_K, [" + T + "]_N))", "(r: ([" + T + "]_K, [" + T + "]_N, i64))");
  Replace("x: (" + T + ", " + T + ")) => " + Step,
          "x: (" + T + ", " + T + ", i64)) => select(" + Mask + ", " +
              (Lower ? Step + ", acc)" : "acc, " + Step + ")"));
  Replace("zip(r.0, q.0)", "zip(r.0, q.0, iota(K))");
  size_t End = X.rfind("));\n}");
  X.replace(End, 4, ", iota(M)));");
  return X;
}

/// Sizes and a buffer length covering every view of \p S.
std::map<std::string, int64_t> gemmSizes(const GemmSpec &S, int64_t M, int64_t N, int64_t K,
                                         int64_t &BufLen) {
  int64_t Lda = (S.ARow ? K : M) + 3, Ldb = (S.BRow ? N : K) + 2, Ldc = (S.CRow ? N : M) + 1;
  int64_t Oa = 5;
  if (S.Aligned) {
    auto Up4 = [](int64_t X) { return (X + 3) / 4 * 4; };
    Lda = Up4(S.ARow ? K : M) + 4;
    Ldb = Up4(S.BRow ? N : K);
    Ldc = Up4(S.CRow ? N : M);
    Oa = 8;
  }
  BufLen = std::max({Oa + Lda * (S.ARow ? M : K), Ldb * (S.BRow ? K : N), Ldc * (S.CRow ? M : N)});
  return {{"M", M}, {"N", N}, {"K", K}, {"lda", Lda}, {"ldb", Ldb}, {"ldc", Ldc}, {"oa", Oa}};
}

std::vector<GemmSpec> allSpecs() {
  std::vector<GemmSpec> V;
  for (int L = 0; L < 8; ++L) {
    GemmSpec S;
    S.ARow = L & 1;
    S.BRow = L & 2;
    S.CRow = L & 4;
    S.InitC = L % 3 == 0;
    S.Scaled = L % 2 == 0;
    S.Fused = L != 5;
    V.push_back(S);
  }
  GemmSpec D;
  D.T = ScalarKind::F64;
  D.InitC = true;
  V.push_back(D);
  D.ARow = false;
  D.InitC = false;
  V.push_back(D);
  return V;
}

mm::FreshFn freshFor(const Program &P, std::set<std::string> &Used) {
  for (const funil::Param &Pa : P.Params)
    Used.insert(Pa.Name);
  funil::allNames(*P.Body, Used);
  return [&Used](const std::string &B) { return funil::freshName(B, Used); };
}

/// \p P rewritten by \p S at the root (or anywhere with \p Anywhere).
bool rewriteWith(Program &P, rewrite::Strategy S, std::string &Err,
                 std::vector<std::string> *Trace = nullptr) {
  return rewrite::rewriteProgram(P, std::move(S), Err, Trace);
}

Program tiled(const Program &P, const mm::TileParams &T, bool Local) {
  Program Q = P;
  std::string Err;
  std::vector<std::string> Trace;
  std::vector<rewrite::Strategy> Steps{
      rewrite::ruleStrategy(rewrite::matMulRule(T.TM, T.TN, T.TK, T.RM, T.RN, T.GM, T.GN))};
  if (Local)
    Steps.push_back(rewrite::oncePosition(
        rewrite::ruleStrategy(*rewrite::findRule("to-local-operands"))));
  EXPECT_TRUE(rewriteWith(Q, rewrite::sequence(Steps), Err, &Trace)) << Err;
  EXPECT_EQ(Trace.size(), Local ? 2u : 1u);
  return Q;
}

// The last three have strided row/column groups (TileParams::GM, GN).
const mm::TileParams SmallTiles[] = {
    {4, 4, 2, 2, 2},          {4, 8, 4, 1, 2},         {8, 4, 2, 4, 1},
    {2, 2, 1, 1, 1},          {4, 4, 4, 4, 4},         {8, 8, 2, 4, 4, 2, 2},
    {16, 8, 4, 4, 2, 2, 1},   {8, 16, 2, 2, 8, 0, 4}};

} // namespace

//===----------------------------------------------------------------------===//
// Recognition
//===----------------------------------------------------------------------===//

TEST(MatMulForm, CanonicalGemmRecognisedInEveryLayout) {
  for (const GemmSpec &S : allSpecs()) {
    Program P = parseOrDie(gemmText(S));
    mm::GemmParts G;
    ASSERT_TRUE(mm::matchCanonicalGemm(P.Body, G)) << gemmText(S);
    EXPECT_EQ(G.T, S.T);
    std::set<std::string> Used;
    EXPECT_TRUE(mm::alphaEqual(mm::buildCanonicalGemm(G, freshFor(P, Used)), P.Body))
        << gemmText(S);
  }
}

TEST(MatMulForm, OtherShapesAreNotGemms) {
  const char *const NotGemm[] = {
      // POST uses the column of B.
      "idiom g(A: [f32], B: [f32], C: [f32], M: i64, N: i64, K: i64) { store view(C, 0:i64, N, M, "
      "1:i64, N) = map(\\(r: ([f32]_K, [f32]_N)) => map(\\(q: ([f32]_K, f32)) => "
      "fadd(reduceSeq(\\(acc: f32, x: (f32, f32)) => fmuladd(x.0, x.1, acc), 0.0:f32, zip(r.0, "
      "q.0)), at(q.0, 0:i64)), zip(view(B, 0:i64, 1:i64, N, N, K), r.1)), zip(view(A, 0:i64, K, "
      "M, 1:i64, K), view(C, 0:i64, N, M, 1:i64, N))); }",
      // The operands of the dot product swapped (x.0 would come from B).
      "idiom g(A: [f32], B: [f32], C: [f32], M: i64, N: i64, K: i64) { store view(C, 0:i64, N, M, "
      "1:i64, N) = map(\\(r: ([f32]_K, [f32]_N)) => map(\\(q: ([f32]_K, f32)) => "
      "reduceSeq(\\(acc: f32, x: (f32, f32)) => fmuladd(x.0, x.1, acc), 0.0:f32, zip(q.0, r.0)), "
      "zip(view(B, 0:i64, 1:i64, N, N, K), r.1)), zip(view(A, 0:i64, K, M, 1:i64, K), view(C, "
      "0:i64, N, M, 1:i64, N))); }",
      // reduce instead of reduceSeq (no sequential k order promised).
      "idiom g(A: [f32], B: [f32], C: [f32], M: i64, N: i64, K: i64) { store view(C, 0:i64, N, M, "
      "1:i64, N) = map(\\(r: ([f32]_K, [f32]_N)) => map(\\(q: ([f32]_K, f32)) => "
      "reduce(\\(a: f32, b: f32) => fadd(a, b), 0.0:f32, map(\\(x: (f32, f32)) => fmul(x.0, x.1), "
      "zip(r.0, q.0))), zip(view(B, 0:i64, 1:i64, N, N, K), r.1)), zip(view(A, 0:i64, K, M, "
      "1:i64, K), view(C, 0:i64, N, M, 1:i64, N))); }",
      // The step uses the row of C (free r).
      "idiom g(A: [f32], B: [f32], C: [f32], M: i64, N: i64, K: i64) { store view(C, 0:i64, N, M, "
      "1:i64, N) = map(\\(r: ([f32]_K, [f32]_N)) => map(\\(q: ([f32]_K, f32)) => "
      "reduceSeq(\\(acc: f32, x: (f32, f32)) => fmuladd(x.0, at(r.1, 0:i64), acc), 0.0:f32, "
      "zip(r.0, q.0)), zip(view(B, 0:i64, 1:i64, N, N, K), r.1)), zip(view(A, 0:i64, K, M, "
      "1:i64, K), view(C, 0:i64, N, M, 1:i64, N))); }",
      // A 2-D map that is no matrix product.
      "idiom g(a: [f64], b: [f64], n0: i64, n1: i64) { store view(b, 0:i64, n1, n0, 1:i64, n1) = "
      "map(\\(r: [f64]_n1) => map(\\(t: f64) => fmul(t, t), r), view(a, 0:i64, n1, n0, 1:i64, "
      "n1)); }",
  };
  for (const char *T : NotGemm) {
    Program P = parseOrDie(T);
    EXPECT_FALSE(rewrite::isCanonicalGemm(P.Body)) << T;
    EXPECT_TRUE(rewrite::exploreVariants(P).empty() ||
                !rewrite::exploreVariants(P)[0].Gemm)
        << T;
  }
}

TEST(MatMulForm, TiledFormRoundTrips) {
  GemmSpec S;
  Program P = parseOrDie(gemmText(S));
  for (const mm::TileParams &T : SmallTiles)
    for (bool Local : {false, true}) {
      Program Q = tiled(P, T, Local);
      mm::GemmParts G;
      mm::TileParams Got;
      bool L = !Local;
      ASSERT_TRUE(mm::matchTiledMatMul(Q.Body, G, Got, L)) << printProgram(Q);
      EXPECT_EQ(L, Local);
      EXPECT_EQ(Got.TM, T.TM);
      EXPECT_EQ(Got.TN, T.TN);
      EXPECT_EQ(Got.TK, T.TK);
      EXPECT_EQ(Got.RM, T.RM);
      EXPECT_EQ(Got.RN, T.RN);
      EXPECT_EQ(Got.gm(), T.gm());
      EXPECT_EQ(Got.gn(), T.gn());
      // Printing and parsing keeps it recognisable.
      Program R = parseOrDie(printProgram(Q));
      EXPECT_TRUE(mm::matchTiledMatMul(R.Body, G, Got, L));
    }
  // A changed tile size in one place only is not the form.
  Program Q = tiled(P, {4, 4, 2, 2, 2}, true);
  std::string Text = printProgram(Q);
  size_t At = Text.find("split(2:i64, kt.1)");
  ASSERT_NE(At, std::string::npos);
  Text.replace(At, 18, "split(4:i64, kt.1)");
  Program Bad;
  std::string Err;
  ASSERT_TRUE(funil::parseProgram(Text, Bad, Err)) << Err;
  mm::GemmParts G;
  mm::TileParams Got;
  bool L;
  EXPECT_FALSE(mm::matchTiledMatMul(Bad.Body, G, Got, L));
  // Likewise a group width changed in the K tiles only.
  Q = tiled(P, {8, 8, 2, 4, 4, 2, 2}, true);
  Text = printProgram(Q);
  At = Text.find("split(2:i64, kt.1)");
  ASSERT_NE(At, std::string::npos);
  Text.replace(At, 18, "split(4:i64, kt.1)");
  Program Bad2;
  ASSERT_TRUE(funil::parseProgram(Text, Bad2, Err)) << Err;
  EXPECT_FALSE(mm::matchTiledMatMul(Bad2.Body, G, Got, L));
}

//===----------------------------------------------------------------------===//
// Rules: interpreter equality before and after
//===----------------------------------------------------------------------===//

TEST(MatMulRules, MacroRulePreservesResultsExactly) {
  std::mt19937_64 Rng(7);
  std::vector<GemmSpec> Specs = allSpecs();
  for (size_t SI = 0; SI < Specs.size(); ++SI) {
    const GemmSpec &S = Specs[SI];
    Program P = parseOrDie(gemmText(S));
    for (size_t TI = 0; TI < std::size(SmallTiles); ++TI)
      for (bool Local : {false, true}) {
        const mm::TileParams &T = SmallTiles[TI];
        if ((T.GM || T.GN) && SI % 3 != 0)
          continue; // grouped shapes (slow in the interpreter): every third layout
        Program Q = tiled(P, T, Local);
        int64_t Buf;
        auto Sizes = gemmSizes(S, 2 * T.TM, 3 * T.TN, 2 * T.TK, Buf);
        // Same k order per element: bit-identical.
        EXPECT_EQ(compareRuns(P, Q, randomArgs(P, Sizes, Buf, Rng), 0), "")
            << gemmText(S) << "tiles " << T.TM << "x" << T.TN << "x" << T.TK << " block "
            << T.RM << "x" << T.RN << " groups " << T.gm() << "x" << T.gn()
            << (Local ? " local" : "");
      }
  }
}

// Triangular GEMMs: recognised (not as plain GEMMs), tiled by the same
// macro rule into the square merged with C by the triangle, bit-identical
// to the program in the interpreter (C outside the triangle kept) with
// tiles wholly above the triangle (3 x 3 tiles at least).
TEST(MatMulRules, TriangularGemmTiledPreservesResults) {
  std::mt19937_64 Rng(11);
  std::vector<GemmSpec> Specs = allSpecs();
  for (size_t SI = 0; SI < Specs.size(); SI += 3)
    for (bool Columns : {true, false})
      for (auto [Base, Slope] : {std::pair<int64_t, int64_t>{1, 1}, {3, 2}}) {
        std::string Text = triangleText(Specs[SI], Columns, Base, Slope);
        Program P = parseOrDie(Text);
        EXPECT_TRUE(rewrite::isTriangularGemm(P.Body)) << Text;
        EXPECT_FALSE(rewrite::isCanonicalGemm(P.Body)) << Text;
        for (size_t TI : {0, 2, 5})
          for (bool Local : {false, true}) {
            const mm::TileParams &T = SmallTiles[TI];
            Program Q = tiled(P, T, Local);
            mm::GemmParts G;
            mm::Triangle Tri;
            funil::ExprPtr Full, C;
            ASSERT_TRUE(mm::matchMergeTriangle(Q.Body, Full, C, Tri)) << Text;
            EXPECT_EQ(Tri.Columns, Columns);
            EXPECT_EQ(Tri.Base, Base);
            EXPECT_EQ(Tri.Slope, Slope);
            bool L = false;
            mm::TileParams Got;
            EXPECT_TRUE(mm::matchTiledMatMul(Full, G, Got, L));
            EXPECT_EQ(L, Local);
            int64_t Buf;
            auto Sizes = gemmSizes(Specs[SI], 3 * T.TM, 3 * T.TN, 2 * T.TK, Buf);
            EXPECT_EQ(compareRuns(P, Q, randomArgs(P, Sizes, Buf, Rng), 0), "")
                << Text << "tiles " << T.TM << "x" << T.TN << "x" << T.TK
                << (Local ? " local" : "");
          }
      }
  // Not triangles: a first row that is empty (base 0), a mask over one
  // index only.
  std::string Zero = triangleText(Specs[0], true, 1, 1);
  Zero.replace(Zero.find("add(1:i64"), 9, "add(0:i64");
  EXPECT_FALSE(rewrite::isTriangularGemm(parseOrDie(Zero).Body));
  std::string One = triangleText(Specs[0], true, 1, 1);
  One.replace(One.find("icmp_slt(q.2"), 12, "icmp_slt(r.2");
  EXPECT_FALSE(rewrite::isTriangularGemm(parseOrDie(One).Body));
}

// TRMM band programs (upper bands and lower triangles on the reduction):
// recognised (not as plain or triangular GEMMs), tiled by the same macro
// rule with every step keeping its mask, the tiled form read back with its
// band, bit-identical to the program in the interpreter (each element adds
// exactly the band's products in ascending k). Masks that are no band of
// the row's index are not recognised.
TEST(MatMulRules, BandGemmTiledPreservesResults) {
  std::mt19937_64 Rng(31);
  std::vector<GemmSpec> Specs = allSpecs();
  for (size_t SI = 0; SI < Specs.size(); SI += 4)
    for (bool Lower : {false, true})
      for (auto [Base, Slope] : {std::pair<int64_t, int64_t>{0, 1}, {3, 2}}) {
        std::string Text = bandText(Specs[SI], Lower, Base, Slope);
        Program P = parseOrDie(Text);
        ASSERT_TRUE(rewrite::isBandGemm(P.Body)) << Text;
        EXPECT_FALSE(rewrite::isCanonicalGemm(P.Body)) << Text;
        EXPECT_FALSE(rewrite::isTriangularGemm(P.Body)) << Text;
        for (size_t TI : {0, 2, 5})
          for (bool Local : {false, true}) {
            const mm::TileParams &T = SmallTiles[TI];
            Program Q = tiled(P, T, Local);
            mm::GemmParts G;
            mm::TileParams Got;
            bool L = false;
            ASSERT_TRUE(mm::matchTiledMatMul(Q.Body, G, Got, L)) << printProgram(Q);
            EXPECT_TRUE(G.banded());
            EXPECT_EQ(G.Band.Lower, Lower);
            EXPECT_EQ(L, Local);
            EXPECT_EQ(Got.TK, T.TK);
            int64_t Buf;
            // K past the band's end at the last row (Slope M), and tiles
            // wholly inside and outside the band.
            auto Sizes = gemmSizes(Specs[SI], 3 * T.TM, 2 * T.TN, 4 * T.TK, Buf);
            EXPECT_EQ(compareRuns(P, Q, randomArgs(P, Sizes, Buf, Rng), 0), "")
                << Text << "tiles " << T.TM << "x" << T.TN << "x" << T.TK
                << (Local ? " local" : "");
          }
      }
  std::string Base = bandText(Specs[0], false, 1, 1);
  auto Without = [&](const std::string &From, const std::string &To) {
    std::string X = Base;
    X.replace(X.find(From), From.size(), To);
    return parseOrDie(X);
  };
  // The bound reads C's element, or A's; the row's index on the other
  // side; the step reads the index.
  EXPECT_FALSE(rewrite::isBandGemm(Without("mul(1:i64, r.2)", "fptosi.i64(q.1)").Body));
  EXPECT_FALSE(rewrite::isBandGemm(Without("mul(1:i64, r.2)", "fptosi.i64(x.0)").Body));
  EXPECT_FALSE(rewrite::isBandGemm(
      Without("icmp_slt(x.2, add(1:i64, mul(1:i64, r.2)))", "icmp_slt(r.2, x.2)").Body));
  EXPECT_FALSE(rewrite::isBandGemm(
      Without("fmuladd(x.0, x.1, acc)", "fadd(acc, sitofp.f32(x.2))").Body));
  EXPECT_TRUE(rewrite::isBandGemm(Without("mul(1:i64, r.2)", "mul(1:i64, r.2)").Body));
}

// Two products per step (BLAS SYR2K), over the square and the triangle:
// recognised with their second pair, tiled by the same macro rules (four
// operand tiles, in local memory or not), the tiled form read back, and
// bit-identical to the program in the interpreter.
TEST(MatMulRules, TwoProductGemmTiledPreservesResults) {
  std::mt19937_64 Rng(21);
  std::vector<GemmSpec> Specs = allSpecs();
  for (size_t SI = 0; SI < Specs.size(); SI += 2)
    for (bool Tri : {false, true}) {
      std::string Text = pairsText(Tri ? triangleText(Specs[SI], SI % 4 == 0, 1, 1)
                                       : gemmText(Specs[SI]),
                                   Specs[SI], Tri);
      Program P = parseOrDie(Text);
      EXPECT_TRUE(rewrite::isTwoProductGemm(P.Body)) << Text;
      EXPECT_EQ(rewrite::isCanonicalGemm(P.Body), !Tri) << Text;
      EXPECT_EQ(rewrite::isTriangularGemm(P.Body), Tri) << Text;
      for (size_t TI : {0, 2, 5})
        for (bool Local : {false, true}) {
          const mm::TileParams &T = SmallTiles[TI];
          Program Q = tiled(P, T, Local);
          funil::ExprPtr Full = Q.Body, C;
          mm::Triangle Got3;
          EXPECT_EQ(mm::matchMergeTriangle(Q.Body, Full, C, Got3), Tri);
          mm::GemmParts G;
          mm::TileParams Got;
          bool L = false;
          ASSERT_TRUE(mm::matchTiledMatMul(Full, G, Got, L)) << printProgram(Q);
          EXPECT_TRUE(G.pairs());
          EXPECT_EQ(L, Local);
          EXPECT_EQ(Got.TM, T.TM);
          int64_t Buf;
          auto Sizes = gemmSizes(Specs[SI], 3 * T.TM, 2 * T.TN, 2 * T.TK, Buf);
          EXPECT_EQ(compareRuns(P, Q, randomArgs(P, Sizes, Buf, Rng), 0), "")
              << Text << "tiles " << T.TM << "x" << T.TN << "x" << T.TK
              << (Local ? " local" : "");
        }
    }
  // Not two products: the second pair's zip without its reduction input,
  // or the second pair read in the other order (B2's element as x.2).
  GemmSpec Row; // row-major A and B, fused steps
  std::string Text = pairsText(gemmText(Row), Row, false);
  std::string NoRed = Text;
  NoRed.replace(NoRed.find("zip(r.0, q.0, r.2, q.2)"), 23, "zip(r.0, q.0)");
  NoRed.replace(NoRed.find("x: (f32, f32, f32, f32)"), 23, "x: (f32, f32)");
  NoRed.replace(NoRed.find("fmuladd(x.2, x.3, fmuladd(x.0, x.1, acc))"), 41,
                "fmuladd(x.0, x.1, acc)");
  EXPECT_FALSE(rewrite::isCanonicalGemm(parseOrDie(NoRed).Body)) << NoRed;
  std::string Swapped = Text;
  Swapped.replace(Swapped.find("zip(r.0, q.0, r.2, q.2)"), 23, "zip(r.0, q.0, q.2, r.2)");
  EXPECT_FALSE(rewrite::isCanonicalGemm(parseOrDie(Swapped).Body)) << Swapped;
}

TEST(MatMulRules, RegisteredMacroRules) {
  GemmSpec S;
  S.InitC = true;
  Program P = parseOrDie(gemmText(S));
  std::mt19937_64 Rng(8);
  for (const char *Name : {"mm-tile-2d", "mm-block-1d", "mm-block-2d"}) {
    const rewrite::Rule *R = rewrite::findRule(Name);
    ASSERT_NE(R, nullptr) << Name;
    EXPECT_EQ(R->Family, "matmul");
    Program Q = P;
    std::string Err;
    ASSERT_TRUE(rewriteWith(Q, rewrite::ruleStrategy(*R), Err)) << Err;
    mm::GemmParts G;
    mm::TileParams T;
    bool L;
    ASSERT_TRUE(mm::matchTiledMatMul(Q.Body, G, T, L));
    EXPECT_EQ(T.TK, 4);
    int64_t Buf;
    auto Sizes = gemmSizes(S, T.TM, T.TN, T.TK, Buf);
    EXPECT_EQ(compareRuns(P, Q, randomArgs(P, Sizes, Buf, Rng), 0), "") << Name;
  }
}

TEST(MatMulRules, SideConditions) {
  Program P = parseOrDie(gemmText(GemmSpec()));
  std::string Err;
  // RM does not divide TM: the rule does not apply.
  Program Q = P;
  std::vector<std::string> Trace;
  ASSERT_TRUE(rewriteWith(Q, rewrite::tryStrategy(rewrite::ruleStrategy(rewrite::matMulRule(6, 4, 2, 4, 2))),
                          Err, &Trace));
  EXPECT_TRUE(Trace.empty());
  // More than 1024 work-items.
  ASSERT_TRUE(rewriteWith(Q, rewrite::tryStrategy(rewrite::ruleStrategy(rewrite::matMulRule(64, 64, 4, 1, 2))),
                          Err, &Trace));
  EXPECT_TRUE(Trace.empty());
  // Not at the host: inside a map the macro rule does not apply.
  rewrite::RuleContext Ctx;
  Ctx.Where = rewrite::Level::Global;
  EXPECT_EQ(rewrite::applyRule(rewrite::matMulRule(4, 4, 2, 2, 2), P.Body, Ctx), nullptr);
  Ctx.Where = rewrite::Level::Host;
  for (const funil::Param &Pa : P.Params)
    Ctx.Env.push(Pa.Name, Pa.Ty);
  EXPECT_NE(rewrite::applyRule(rewrite::matMulRule(4, 4, 2, 2, 2), P.Body, Ctx), nullptr);
  // to-local-operands: only in a work-group, only when the tiles fit 48 KiB.
  Program T1 = tiled(P, {4, 4, 2, 2, 2}, false);
  Program T2 = T1;
  Trace.clear();
  ASSERT_TRUE(rewriteWith(T2, rewrite::tryStrategy(rewrite::ruleStrategy(*rewrite::findRule("to-local-operands"))),
                          Err, &Trace));
  EXPECT_TRUE(Trace.empty()) << "applied at the host";
  GemmSpec D;
  D.T = ScalarKind::F64;
  Program Big = tiled(parseOrDie(gemmText(D)), {256, 64, 32, 16, 4}, false);
  Trace.clear();
  ASSERT_TRUE(rewriteWith(Big, rewrite::tryStrategy(rewrite::oncePosition(rewrite::ruleStrategy(
                                   *rewrite::findRule("to-local-operands")))),
                          Err, &Trace));
  EXPECT_TRUE(Trace.empty()) << "80 KiB of f64 tiles copied to local memory";
}

TEST(MatMulRules, MemoryRulesPreserveResults) {
  GemmSpec S;
  S.InitC = true;
  Program P = parseOrDie(gemmText(S));
  Program Off = tiled(P, {4, 4, 2, 2, 2}, false), On = tiled(P, {4, 4, 2, 2, 2}, true);
  Program Back = On;
  std::string Err;
  std::vector<std::string> Trace;
  ASSERT_TRUE(rewriteWith(Back, rewrite::oncePosition(rewrite::ruleStrategy(
                                    *rewrite::findRule("from-local-operands"))),
                          Err, &Trace));
  ASSERT_EQ(Trace.size(), 1u);
  EXPECT_TRUE(mm::alphaEqual(Back.Body, Off.Body));
  std::mt19937_64 Rng(9);
  int64_t Buf;
  auto Sizes = gemmSizes(S, 8, 8, 6, Buf);
  EXPECT_EQ(compareRuns(Off, On, randomArgs(P, Sizes, Buf, Rng), 0), "");
}

TEST(MatMulRules, FmuladdToFmaWithinRounding) {
  std::mt19937_64 Rng(10);
  for (const GemmSpec &S : allSpecs()) {
    Program P = parseOrDie(gemmText(S)), Q = P;
    std::string Err;
    std::vector<std::string> Trace;
    ASSERT_TRUE(rewriteWith(Q, rewrite::normalize(rewrite::ruleStrategy(
                                   *rewrite::findRule("fmuladd-to-fma"))),
                            Err, &Trace));
    EXPECT_EQ(Trace.empty(), !S.Fused);
    int64_t Buf;
    auto Sizes = gemmSizes(S, 5, 4, 7, Buf);
    // One rounding less per step: |d| <= K ulp-ish of the partial sums.
    EXPECT_EQ(compareRuns(P, Q, randomArgs(P, Sizes, Buf, Rng), 1e-4), "");
  }
}

//===----------------------------------------------------------------------===//
// Exploration
//===----------------------------------------------------------------------===//

TEST(MatMulExplore, VariantsArePrunedAndMarked) {
  GemmSpec S;
  Program P = parseOrDie(gemmText(S));
  std::vector<rewrite::VariantParams> Vs = rewrite::exploreVariants(P);
  ASSERT_GE(Vs.size(), 4u);
  ASSERT_LE(Vs.size(), rewrite::MaxVariants);
  EXPECT_TRUE(Vs[0].Gemm && Vs[0].Tile[0] == 128 && Vs[0].Block[0] == 8 && Vs[0].Local);
  bool Default = false;
  for (const rewrite::VariantParams &V : Vs) {
    EXPECT_TRUE(V.Gemm);
    Default |= V.Tile[0] == 0;
    if (V.Tile[0])
      EXPECT_LE(V.WorkGroup[0] * V.WorkGroup[1], 256u);
  }
  // The candidate set holds more, every kernel option among them, within
  // the limits (local memory counts both buffers when double-buffered).
  std::vector<rewrite::VariantParams> Cs = rewrite::gemmCandidates(P);
  EXPECT_GT(Cs.size(), rewrite::MaxVariants);
  EXPECT_EQ(Cs.back().Tile[0], 0u); // the default lowering last
  bool Grouped = false, Pad0 = false, Vec = false, Dbl = false, Loop = false, NoLocal = false,
       Small = false;
  for (const rewrite::VariantParams &V : Cs) {
    if (!V.Tile[0])
      continue;
    Grouped |= V.Group[0] || V.Group[1];
    Pad0 |= V.Kernel.Pad == 0;
    Vec |= V.Kernel.VectorFill;
    Dbl |= V.Kernel.DoubleBuffer;
    Loop |= V.Kernel.UnrollLoop;
    NoLocal |= !V.Local;
    Small |= V.WorkGroup[0] * V.WorkGroup[1] < 256;
    unsigned Bufs = V.Kernel.DoubleBuffer ? 2 : 1;
    EXPECT_LE(Bufs * V.Tile[2] * (V.Tile[0] + V.Tile[1] + 2 * V.Kernel.Pad) * 4,
              V.Local ? 48u * 1024 : ~0u);
  }
  EXPECT_TRUE(Grouped && Pad0 && Vec && Dbl && Loop && NoLocal && Small);
  rewrite::GeneratedOpenCL G;
  std::string Err;
  ASSERT_TRUE(rewrite::generateOpenCL(P, "mm", G, Err)) << Err;
  EXPECT_EQ(G.NumVariants, Vs.size());
  EXPECT_NE(G.Source.find("//@idiom-variant 0 wg=16x16 ept=8x8: matrix tiles 128x128"),
            std::string::npos);
  EXPECT_NE(G.Source.find("__kernel __attribute__((reqd_work_group_size(16, 16, 1))) void mm("),
            std::string::npos);
  (void)Default;
  // f64: no 8x8 blocks of doubles (512 bytes of accumulators per work-item).
  GemmSpec D;
  D.T = ScalarKind::F64;
  for (const rewrite::VariantParams &V : rewrite::exploreVariants(parseOrDie(gemmText(D))))
    EXPECT_LE(V.Block[0] * V.Block[1] * 8, 256u);
  // One variant: variant 0 alone, no marker.
  ASSERT_TRUE(rewrite::generateOpenCL(P, "mm", G, Err, 1)) << Err;
  EXPECT_EQ(G.Source.find("//@idiom-variant"), std::string::npos);
  EXPECT_EQ(G.NumVariants, 1u);
}

TEST(MatMulExplore, EveryVariantPreservesResults) {
  GemmSpec S;
  S.InitC = true;
  // The variants evaluate STEP as written (no fmuladd-to-fma).
  Program P = parseOrDie(gemmText(S)), Ref = P;
  std::string Err;
  std::mt19937_64 Rng(11);
  for (const rewrite::VariantParams &V : rewrite::gemmCandidates(P)) {
    if (V.Tile[0] > 32 || V.Tile[1] > 32)
      continue; // the interpreter is slow on large tiles; the kernels are checked below
    Program L = P;
    ASSERT_TRUE(rewrite::lowerVariant(L, V, Err)) << Err;
    int64_t Buf;
    auto Sizes = gemmSizes(S, V.Tile[0] ? V.Tile[0] : 5, V.Tile[1] ? V.Tile[1] : 6,
                           V.Tile[2] ? 2 * V.Tile[2] : 7, Buf);
    EXPECT_EQ(compareRuns(Ref, L, randomArgs(P, Sizes, Buf, Rng), 0), "")
        << rewrite::describeVariant(V);
  }
}

//===----------------------------------------------------------------------===//
// Kernels on the device
//===----------------------------------------------------------------------===//

namespace {

size_t bytesOf(ScalarKind K) { return scalarBits(K) / 8; }

std::vector<uint8_t> toBytes(const Value &Arr, ScalarKind K) {
  std::vector<uint8_t> B(Arr.Elems.size() * bytesOf(K));
  for (size_t I = 0; I < Arr.Elems.size(); ++I) {
    if (K == ScalarKind::F32) {
      float F = static_cast<float>(Arr.Elems[I].F);
      std::memcpy(&B[I * 4], &F, 4);
    } else {
      std::memcpy(&B[I * 8], &Arr.Elems[I].F, 8);
    }
  }
  return B;
}

Value fromBytes(const std::vector<uint8_t> &B, size_t I, ScalarKind K) {
  if (K == ScalarKind::F32) {
    float F;
    std::memcpy(&F, &B[I * 4], 4);
    return Value::ofFloat(K, F);
  }
  double D;
  std::memcpy(&D, &B[I * 8], 8);
  return Value::ofFloat(K, D);
}

KernelArg scalarArg(const Value &V) {
  if (V.S == ScalarKind::F32)
    return KernelArg::scalar(static_cast<float>(V.F));
  if (V.S == ScalarKind::F64)
    return KernelArg::scalar(V.F);
  return KernelArg::scalar<int64_t>(V.asSigned());
}

size_t roundUp(size_t N, size_t M) { return (N + M - 1) / M * M; }

class MatMulExec : public ::testing::Test {
protected:
  static OpenCLRunner &runner() {
    static OpenCLRunner R;
    return R;
  }
  void SetUp() override {
    if (!runner().available())
      GTEST_SKIP() << "no OpenCL device";
  }

  /// Every variant of \p S's program at each size, against the interpreter
  /// of the program as written (fmuladd unfused, fma fused): bit-identical
  /// (same k order, fma correctly rounded, no other contraction).
  /// With \p Pick, the candidates (gemmCandidates) it selects instead of the
  /// explored variants.
  /// \p Text: the program, gemmText(S) when empty (a triangular one).
  void checkVariants(const GemmSpec &S, const std::vector<std::array<int64_t, 3>> &Sizes,
                     std::function<bool(const rewrite::VariantParams &)> Pick = nullptr,
                     const std::string &Text = "") {
    // The variants evaluate STEP as written (no fmuladd-to-fma).
    Program P = parseOrDie(Text.empty() ? gemmText(S) : Text), Ref = P;
    std::string Err;
    rewrite::GeneratedOpenCL G;
    std::vector<rewrite::VariantParams> Vs;
    if (Pick) {
      for (const rewrite::VariantParams &V : rewrite::gemmCandidates(P))
        if (Pick(V))
          Vs.push_back(V);
      ASSERT_GE(Vs.size(), 2u);
      ASSERT_TRUE(rewrite::generateOpenCLVariants(P, "mm", Vs, G, Err)) << Err;
    } else {
      Vs = rewrite::exploreVariants(P);
      ASSERT_TRUE(rewrite::generateOpenCL(P, "mm", G, Err)) << Err;
    }
    ASSERT_TRUE(runner().build(G.Source, Err)) << Err;
    ASSERT_EQ(G.NumVariants, Vs.size());
    std::mt19937_64 Rng(12);
    for (const auto &MNK : Sizes) {
      int64_t Buf;
      auto Sz = gemmSizes(S, MNK[0], MNK[1], MNK[2], Buf);
      ValueMap Args = randomArgs(P, Sz, Buf, Rng), Want = Args;
      Value R;
      ASSERT_TRUE(runProgram(Ref, Want, R, Err)) << Err;
      for (size_t K = 0; K < Vs.size(); ++K) {
        const rewrite::VariantParams &V = Vs[K];
        std::vector<KernelArg> KArgs;
        for (const funil::Param &Pa : P.Params)
          KArgs.push_back(Pa.Ty->isBuffer()
                              ? KernelArg::buffer(toBytes(Args[Pa.Name], Pa.Ty->Elem->S))
                              : scalarArg(Args[Pa.Name]));
        size_t L0 = V.WorkGroup[0] ? V.WorkGroup[0] : 4, L1 = V.WorkGroup[0] ? V.WorkGroup[1] : 4;
        size_t E0 = V.Tile[0] ? V.Block[1] : 1, E1 = V.Tile[0] ? V.Block[0] : 1;
        std::vector<size_t> Global{roundUp((MNK[1] + E0 - 1) / E0, L0),
                                   roundUp((MNK[0] + E1 - 1) / E1, L1)};
        ASSERT_TRUE(runner().run(rewrite::variantKernelName("mm", K), KArgs, Global, {L0, L1},
                                 Err))
            << Err;
        size_t CIdx = 2;
        for (size_t E = 0; E < Want["C"].Elems.size(); ++E) {
          Value Got = fromBytes(KArgs[CIdx].Bytes, E, S.T);
          ASSERT_TRUE(valuesClose(Got, Want["C"].Elems[E], 0))
              << "variant " << K << " (" << rewrite::describeVariant(V) << ") M,N,K = "
              << MNK[0] << "," << MNK[1] << "," << MNK[2] << " C[" << E << "]: device "
              << printValue(Got) << " vs " << printValue(Want["C"].Elems[E]) << "\n"
              << gemmText(S);
        }
        // A and B (and A2, B2 with two products) are untouched.
        for (size_t Pi = 0; Pi < P.Params.size(); ++Pi)
          if (P.Params[Pi].Ty->isBuffer() && P.Params[Pi].Name != "C")
            EXPECT_EQ(KArgs[Pi].Bytes, toBytes(Args[P.Params[Pi].Name], S.T))
                << P.Params[Pi].Name;
      }
    }
  }
};

} // namespace

TEST_F(MatMulExec, EveryVariantEveryLayoutOddSizes) {
  for (const GemmSpec &S : allSpecs())
    checkVariants(S, {{67, 45, 33}, {1, 1, 1}, {130, 129, 17}});
}

// Every candidate (all kernel options: strided groups, padding 0 and 4,
// vector fills, double buffering, the unroll pragma, 64- to 256-work-item
// groups, K tiles 8 to 32, global operands) on aligned f32 row-major
// operands, where the vector fast path runs on the complete tiles and the
// clamped path on the edges; the candidates with tiles up to 64x64 (every
// option again, smaller kernels) on other layouts, unfused steps, odd
// offsets and leading dimensions (no fast path), and f64.
TEST_F(MatMulExec, EveryCandidateAlignedAndOdd) {
  auto All = [](const rewrite::VariantParams &) { return true; };
  auto Small = [](const rewrite::VariantParams &V) {
    return V.Tile[0] <= 64 && V.Tile[1] <= 64;
  };
  GemmSpec S;
  S.Aligned = true;
  S.InitC = true;
  checkVariants(S, {{130, 132, 20}, {3, 5, 7}}, All);
  GemmSpec T;
  T.Aligned = true;
  T.ARow = false;
  T.BRow = false;
  T.Fused = false;
  T.Scaled = false;
  checkVariants(T, {{65, 72, 36}}, Small);
  GemmSpec U;
  U.CRow = false;
  checkVariants(U, {{67, 66, 33}}, Small);
  GemmSpec D;
  D.T = ScalarKind::F64;
  D.Aligned = true;
  D.ARow = false;
  checkVariants(D, {{70, 68, 17}}, Small);
}

// Triangular GEMMs on the device: every explored variant (tiles that skip
// above the triangle, diagonal tiles that mask their stores, the default
// lowering) equals the interpreter on the whole of C, the elements outside
// the triangle included.
TEST_F(MatMulExec, TriangularVariantsKeepCOutsideTheTriangle) {
  GemmSpec S;
  S.InitC = true;
  checkVariants(S, {{300, 300, 17}, {37, 37, 5}}, nullptr, triangleText(S, true, 1, 1));
  GemmSpec T;
  T.CRow = false;
  T.T = ScalarKind::F64;
  checkVariants(T, {{140, 200, 9}}, nullptr, triangleText(T, false, 2, 1));
  // Column-major C: an early return of the skipped work-groups before the
  // barriers broke the 64x64 4x4 variant here on PoCL (the skipped tiles
  // now run no K tile instead).
  GemmSpec U;
  U.CRow = false;
  checkVariants(U, {{140, 200, 9}}, nullptr, triangleText(U, true, 2, 1));
}

// TRMM band programs on the device: the candidates with tiles up to 64x64
// (every kernel option) and the default lowering, upper bands and lower
// triangles, equal the interpreter bit for bit at sizes the tiles do not
// divide (K tiles before, inside, across and after each work-group's band;
// partial K tiles).
TEST_F(MatMulExec, BandVariantsOddSizes) {
  auto Small = [](const rewrite::VariantParams &V) {
    return V.Tile[0] <= 64 && V.Tile[1] <= 64;
  };
  GemmSpec S;
  S.InitC = true;
  checkVariants(S, {{67, 45, 70}, {3, 5, 7}}, Small, bandText(S, false, 0, 1));
  GemmSpec T;
  T.Aligned = true;
  T.ARow = false;
  checkVariants(T, {{130, 66, 140}}, Small, bandText(T, true, 1, 2));
  GemmSpec D;
  D.T = ScalarKind::F64;
  D.CRow = false;
  D.Fused = false;
  checkVariants(D, {{70, 33, 90}}, Small, bandText(D, false, 3, 1));
}

// Two products per step (BLAS SYR2K) on the device: every explored variant
// (four __local tiles, fewer variants fit local memory) equals the
// interpreter on the whole of C at sizes the tiles do not divide, over the
// square and over the triangle (the elements above it, random sentinels,
// untouched; tiles wholly above it skipped, diagonal tiles masked).
TEST_F(MatMulExec, TwoProductVariantsSquareAndTriangle) {
  GemmSpec S;
  S.InitC = true;
  S.Scaled = false;
  checkVariants(S, {{130, 129, 17}, {5, 3, 1}}, nullptr, pairsText(gemmText(S), S, false));
  checkVariants(S, {{300, 300, 17}, {37, 37, 5}}, nullptr,
                pairsText(triangleText(S, true, 1, 1), S, true));
  GemmSpec T;
  T.CRow = false;
  T.Fused = false;
  T.T = ScalarKind::F64;
  checkVariants(T, {{140, 200, 9}}, nullptr, pairsText(triangleText(T, false, 2, 1), T, true));
  GemmSpec U;
  U.Aligned = true;
  checkVariants(U, {{132, 136, 20}}, nullptr, pairsText(triangleText(U, true, 1, 1), U, true));
}
