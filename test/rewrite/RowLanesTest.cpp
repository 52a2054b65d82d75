//===- RowLanesTest.cpp - row reductions by lanes (CSR-vector) ------------===//
//
// Part of Idiom. The row-lanes family (RowLanes.h): where reduce-seq-lanes
// and map-row-lanes apply and where not, interpreter equality of both
// rules on CSR matrices (integers exact, floating point within the bound of
// a reassociated sum), the exploration with and without the reassociation
// licence, and every explored variant of float, double and int SpMV
// programs run on the OpenCL device (PoCL) against the interpreter on
// skewed rows, empty rows, one huge row and row counts that no group size
// divides; and Z3 proofs of the kernel's index arithmetic for every
// explored (W, R): each (row, lane) is one work-item of the runtime's
// NDRange, the lane stride reads each element of a row once, and the
// halving tree combines every lane once without a race.
//
//===----------------------------------------------------------------------===//

#include "DeviceUtil.h"
#include "OpenCLRunner.h"
#include "ProofUtil.h"
#include "TestUtil.h"
#include "idiom/Rewrite/Explore.h"
#include "idiom/Rewrite/OpenCLGen.h"
#include "idiom/Rewrite/RowLanes.h"
#include "idiom/Rewrite/Rules.h"
#include "idiom/Rewrite/Strategy.h"

#include <gtest/gtest.h>
#include <z3++.h>

#include <cmath>

using namespace idiom;
using namespace idiom::rwtest;

namespace idiom::rwtest {
/// For RuleTest's EveryRegisteredRuleIsTested: the rules tested here.
bool rowLanesRuleTested(const std::string &Name) {
  // reduce-seq-lanes-v4-4: test/rewrite/GemvLanesTest.cpp (VectorLanesRule)
  return Name == "reduce-seq-lanes" || Name == "reduce-seq-lanes-v4-4" ||
         Name == "map-row-lanes";
}
} // namespace idiom::rwtest

namespace {

/// y = A x as the SpMV lifter writes it (docs/FunIL.md), float, fused step.
const char *const SpmvF32 =
    "idiom t(ptr: [i32], val: [f32], col: [i32], xv: [f32], y: [f32], n0: i64, nz0: i64, "
    "c0: i64, nx: i64) { store view(y, 0:i64, 1:i64, n0) = map(\\(r: (i32, i32)) => "
    "reduceSeq(\\(acc: f32, x: (f32, f32)) => fmuladd(x.0, x.1, acc), 0.0:f32, "
    "zip(view(val, sub(sext.i64(r.0), nz0), 1:i64, sub(sext.i64(r.1), sext.i64(r.0))), "
    "map(\\(c: i32) => at(view(xv, 0:i64, 1:i64, nx), sub(sext.i64(c), c0)), view(col, "
    "sub(sext.i64(r.0), nz0), 1:i64, sub(sext.i64(r.1), sext.i64(r.0)))))), "
    "zip(view(ptr, 0:i64, 1:i64, n0), view(ptr, 1:i64, 1:i64, n0))); }";

/// y = al * A x + y, double, long row pointers, unfused step.
const char *const SpmvF64 =
    "idiom t(ptr: [i64], val: [f64], col: [i32], xv: [f64], y: [f64], n0: i64, nz0: i64, "
    "c0: i64, nx: i64, al: f64) { store view(y, 0:i64, 1:i64, n0) = "
    "map(\\(r: (i64, i64, f64)) => fadd(fmul(al, reduceSeq(\\(acc: f64, x: (f64, f64)) => "
    "fadd(acc, fmul(x.0, x.1)), 0.0:f64, zip(view(val, sub(r.0, nz0), 1:i64, sub(r.1, r.0)), "
    "map(\\(c: i32) => at(view(xv, 0:i64, 1:i64, nx), sub(sext.i64(c), c0)), view(col, "
    "sub(r.0, nz0), 1:i64, sub(r.1, r.0)))))), r.2), zip(view(ptr, 0:i64, 1:i64, n0), "
    "view(ptr, 1:i64, 1:i64, n0), view(y, 0:i64, 1:i64, n0))); }";

/// y = A x + y with the row's sum starting from the old y[i] (INIT reads
/// it), float, fused step.
const char *const SpmvF32Init =
    "idiom t(ptr: [i32], val: [f32], col: [i32], xv: [f32], y: [f32], n0: i64, nz0: i64, "
    "c0: i64, nx: i64) { store view(y, 0:i64, 1:i64, n0) = map(\\(r: (i32, i32, f32)) => "
    "reduceSeq(\\(acc: f32, x: (f32, f32)) => fma(x.0, x.1, acc), r.2, "
    "zip(view(val, sub(sext.i64(r.0), nz0), 1:i64, sub(sext.i64(r.1), sext.i64(r.0))), "
    "map(\\(c: i32) => at(view(xv, 0:i64, 1:i64, nx), sub(sext.i64(c), c0)), view(col, "
    "sub(sext.i64(r.0), nz0), 1:i64, sub(sext.i64(r.1), sext.i64(r.0)))))), "
    "zip(view(ptr, 0:i64, 1:i64, n0), view(ptr, 1:i64, 1:i64, n0), view(y, 0:i64, 1:i64, n0))); }";

/// Integer y = A x starting from 7 (wrapping: exact in any order).
const char *const SpmvI32 =
    "idiom t(ptr: [i32], val: [i32], col: [i32], xv: [i32], y: [i32], n0: i64, nz0: i64, "
    "c0: i64, nx: i64) { store view(y, 0:i64, 1:i64, n0) = map(\\(r: (i32, i32)) => "
    "reduceSeq(\\(acc: i32, x: (i32, i32)) => add(mul(x.0, x.1), acc), 7:i32, "
    "zip(view(val, sub(sext.i64(r.0), nz0), 1:i64, sub(sext.i64(r.1), sext.i64(r.0))), "
    "map(\\(c: i32) => at(view(xv, 0:i64, 1:i64, nx), sub(sext.i64(c), c0)), view(col, "
    "sub(sext.i64(r.0), nz0), 1:i64, sub(sext.i64(r.1), sext.i64(r.0)))))), "
    "zip(view(ptr, 0:i64, 1:i64, n0), view(ptr, 1:i64, 1:i64, n0))); }";

/// A CSR matrix whose row pointers start at NZ0 = 3 and whose columns
/// start at C0 = 2.
struct Csr {
  std::vector<int64_t> Ptr, Col;
  int64_t Rows = 0, Cols = 0;
};
constexpr int64_t NZ0 = 3, C0 = 2;

Csr makeCsr(const std::vector<int64_t> &Lens, int64_t Cols, std::mt19937_64 &Rng) {
  Csr M;
  M.Rows = static_cast<int64_t>(Lens.size());
  M.Cols = Cols;
  M.Ptr.push_back(NZ0);
  for (int64_t L : Lens) {
    for (int64_t K = 0; K < L; ++K)
      M.Col.push_back(C0 + static_cast<int64_t>(Rng() % Cols));
    M.Ptr.push_back(M.Ptr.back() + L);
  }
  return M;
}

/// Row lengths: skewed (mostly short, some long, one huge, some empty).
std::vector<int64_t> skewedLens(int64_t N, std::mt19937_64 &Rng) {
  std::vector<int64_t> L;
  for (int64_t I = 0; I < N; ++I) {
    uint64_t U = Rng() % 100;
    L.push_back(U < 15 ? 0 : U < 85 ? static_cast<int64_t>(Rng() % 6) : U < 98 ? 30 + Rng() % 200 : 700);
  }
  if (N > 3)
    L[N / 2] = 5000;
  return L;
}

Value arrayOf(ScalarKind K, const std::vector<int64_t> &V) {
  std::vector<Value> E;
  for (int64_t X : V)
    E.push_back(Value::ofInt(K, X));
  return Value::array(E);
}

/// Arguments of an SpMV program for matrix \p M: random values and x (ints
/// large enough to wrap), y random.
ValueMap spmvArgs(const Program &P, const Csr &M, std::mt19937_64 &Rng) {
  ValueMap A;
  auto Elem = [&](const char *N) { return P.findParam(N)->Ty->Elem->S; };
  auto Rand = [&](ScalarKind K, int64_t N) {
    std::vector<Value> E;
    std::uniform_real_distribution<double> D(-4, 4);
    for (int64_t I = 0; I < N; ++I)
      E.push_back(isFloat(K) ? Value::ofFloat(K, D(Rng))
                             : Value::ofInt(K, static_cast<int32_t>(Rng())));
    return Value::array(E);
  };
  A["ptr"] = arrayOf(Elem("ptr"), M.Ptr);
  A["col"] = arrayOf(Elem("col"), M.Col);
  A["val"] = Rand(Elem("val"), static_cast<int64_t>(M.Col.size()));
  A["xv"] = Rand(Elem("xv"), M.Cols);
  A["y"] = Rand(Elem("y"), M.Rows);
  A["n0"] = Value::ofInt(ScalarKind::I64, M.Rows);
  A["nz0"] = Value::ofInt(ScalarKind::I64, NZ0);
  A["c0"] = Value::ofInt(ScalarKind::I64, C0);
  A["nx"] = Value::ofInt(ScalarKind::I64, M.Cols);
  if (P.findParam("al"))
    A["al"] = Value::ofFloat(ScalarKind::F64, -1.25);
  return A;
}

/// "" when every y[i] of \p Got is \p Want's (integers) or within the
/// bound of a reassociated row sum (floats): 2 gamma(L + 2) (|al| sum |a x|
/// + |y|) + 4u |want|, L the row's length.
std::string checkY(const Program &P, const Csr &M, const ValueMap &Args, const Value &Want,
                   const std::function<Value(size_t)> &Got) {
  ScalarKind K = P.findParam("y")->Ty->Elem->S;
  double U = K == ScalarKind::F32 ? std::ldexp(1.0, -24) : std::ldexp(1.0, -53);
  double Al = P.findParam("al") ? std::fabs(Args.at("al").F) : 1.0;
  for (int64_t I = 0; I < M.Rows; ++I) {
    Value G = Got(static_cast<size_t>(I));
    const Value &W = Want.Elems[I];
    if (!isFloat(K)) {
      if (G.Bits != W.Bits)
        return "y[" + std::to_string(I) + "]: " + printValue(G) + " vs " + printValue(W);
      continue;
    }
    int64_t L = M.Ptr[I + 1] - M.Ptr[I];
    double Abs = 0;
    for (int64_t P0 = M.Ptr[I] - NZ0; P0 < M.Ptr[I + 1] - NZ0; ++P0)
      Abs += std::fabs(Args.at("val").Elems[P0].F * Args.at("xv").Elems[M.Col[P0] - C0].F);
    double Gam = (L + 2) * U / (1 - (L + 2) * U);
    double Bound = 2 * Gam * (Al * Abs + std::fabs(Args.at("y").Elems[I].F)) +
                   4 * U * std::fabs(W.F);
    if (!(std::fabs(G.F - W.F) <= Bound))
      return "y[" + std::to_string(I) + "]: " + printValue(G) + " vs " + printValue(W) +
             " beyond the bound " + std::to_string(Bound);
  }
  return "";
}

/// The matrices every test runs: skewed with 999 rows (no group size
/// divides it), all rows empty, one huge row.
std::vector<Csr> matrices(std::mt19937_64 &Rng) {
  return {makeCsr(skewedLens(999, Rng), 3000, Rng), makeCsr(std::vector<int64_t>(37, 0), 5, Rng),
          makeCsr({20000}, 20000, Rng)};
}

Program applyOnce(const Program &P, const rewrite::Rule &R) {
  Program Q = P;
  std::string Err;
  std::vector<std::string> Trace;
  EXPECT_TRUE(rewrite::rewriteProgram(Q, rewrite::oncePosition(rewrite::ruleStrategy(R)), Err,
                                      &Trace))
      << Err;
  EXPECT_EQ(Trace.size(), 1u) << R.Name << " did not apply";
  return Q;
}

TEST(RowLanes, RulesAgreeWithTheInterpreter) {
  std::mt19937_64 Rng(7);
  for (const char *Text : {SpmvF32, SpmvF32Init, SpmvF64, SpmvI32}) {
    Program P = parseOrDie(Text);
    Program Lanes = applyOnce(P, *rewrite::findRule("reduce-seq-lanes"));
    Program Groups = applyOnce(Lanes, *rewrite::findRule("map-row-lanes"));
    std::string Err;
    Program Re;
    ASSERT_TRUE(parseProgram(printProgram(Groups), Re, Err)) << Err;
    EXPECT_EQ(printProgram(Re), printProgram(Groups));
    ASSERT_TRUE(typeCheckProgram(Groups, Err)) << Err;
    // The interpreter's split needs a multiple of R = 2 rows.
    for (Csr M : {makeCsr(skewedLens(40, Rng), 300, Rng), makeCsr({0, 0}, 3, Rng),
                  makeCsr({1500, 1}, 1500, Rng)}) {
      ValueMap Args = spmvArgs(P, M, Rng);
      ValueMap Want = Args;
      Value R;
      ASSERT_TRUE(runProgram(P, Want, R, Err)) << Err;
      for (const Program *Q : {&Lanes, &Groups}) {
        ValueMap Got = Args;
        ASSERT_TRUE(runProgram(*Q, Got, R, Err)) << Err;
        EXPECT_EQ(checkY(P, M, Args, Want["y"], [&](size_t I) { return Got["y"].Elems[I]; }),
                  "")
            << printProgram(*Q);
      }
    }
  }
}

TEST(RowLanes, SideConditions) {
  auto Applies = [](const char *Rule, const std::string &Text) {
    Program P = parseOrDie(Text);
    std::string Err;
    std::vector<std::string> Trace;
    EXPECT_TRUE(rewrite::rewriteProgram(
        P, rewrite::tryStrategy(rewrite::oncePosition(rewrite::ruleStrategy(*rewrite::findRule(Rule)))),
        Err, &Trace))
        << Err;
    return !Trace.empty();
  };
  auto Red = [](const std::string &T, const std::string &Step) {
    return "idiom t(x: [" + T + "], n: i64) { return reduceSeq(\\(acc: " + T + ", v: " + T +
           ") => " + Step + ", 0:" + T + ", view(x, 0:i64, 1:i64, n)); }";
  };
  EXPECT_TRUE(Applies("reduce-seq-lanes", Red("f32", "fadd(v, acc)")));
  EXPECT_TRUE(Applies("reduce-seq-lanes", Red("f64", "fma(v, v, acc)")));
  EXPECT_TRUE(Applies("reduce-seq-lanes", Red("i64", "add(acc, mul(v, 3:i64))")));
  // Not a sum of per-element terms: the accumulator is used in the term,
  // scaled, or combined by another operator.
  EXPECT_FALSE(Applies("reduce-seq-lanes", Red("f32", "fadd(acc, fmul(acc, v))")));
  EXPECT_FALSE(Applies("reduce-seq-lanes", Red("f32", "fmul(acc, v)")));
  EXPECT_FALSE(Applies("reduce-seq-lanes", Red("f32", "fsub(acc, v)")));
  EXPECT_FALSE(Applies("reduce-seq-lanes", Red("f32", "fmuladd(acc, v, v)")));
  EXPECT_FALSE(Applies("reduce-seq-lanes", Red("i32", "smax(acc, v)")));
  EXPECT_FALSE(Applies("reduce-seq-lanes", Red("i32", "xor(acc, v)")));
  // map-row-lanes: a map with no lane reduction, and one with two.
  EXPECT_FALSE(Applies("map-row-lanes", SpmvF32));
  Program P = parseOrDie(SpmvI32);
  Program L = applyOnce(P, *rewrite::findRule("reduce-seq-lanes"));
  std::string Two = printProgram(L);
  size_t At = Two.find("add(7:i32, ");
  ASSERT_NE(At, std::string::npos) << Two;
  size_t End = Two.find("), zip(view(ptr");
  std::string Sum = Two.substr(At, End + 1 - At);
  Two.replace(At, Sum.size(), "add(" + Sum + ", " + Sum + ")");
  EXPECT_FALSE(Applies("map-row-lanes", Two)) << Two;
  EXPECT_TRUE(Applies("map-row-lanes", printProgram(L)));
}

bool anyRowLanes(const std::vector<rewrite::VariantParams> &Vs) {
  for (const rewrite::VariantParams &V : Vs)
    if (V.RowLanes)
      return true;
  return false;
}

TEST(RowLanes, ExplorationFollowsTheLicence) {
  rewrite::ExploreOptions Exact;
  Exact.FPReassoc = false;
  for (const char *Float : {SpmvF32, SpmvF64}) {
    Program P = parseOrDie(Float);
    std::vector<rewrite::VariantParams> Vs = rewrite::exploreVariants(P);
    ASSERT_EQ(Vs.size(), 8u);
    EXPECT_TRUE(anyRowLanes(Vs));
    EXPECT_EQ(Vs[7].RowLanes, 256u);
    EXPECT_EQ(Vs[7].RowsPerGroup, 1u);
    EXPECT_TRUE(Vs[7].RowBlocks); // the load-balanced schedule of that form
    EXPECT_TRUE(rewrite::laneRowReductionIsFloat(P.Body));
    // Without the licence: one row per work-item, each summed in order.
    std::vector<rewrite::VariantParams> E =
        rewrite::exploreVariants(P, rewrite::MaxVariants, nullptr, Exact);
    EXPECT_FALSE(anyRowLanes(E));
    rewrite::GeneratedOpenCL G;
    std::string Err;
    ASSERT_TRUE(rewrite::generateOpenCL(P, "k", G, Err, rewrite::MaxVariants, Exact)) << Err;
    EXPECT_EQ(G.Source.find("lane_sums"), std::string::npos);
    EXPECT_EQ(G.Source.find("ept=1/"), std::string::npos);
    EXPECT_EQ(G.Source.find("ept=blocks/"), std::string::npos);
    EXPECT_EQ(G.Source.find("row_blocks"), std::string::npos);
    ASSERT_TRUE(rewrite::generateOpenCL(P, "k", G, Err)) << Err;
    EXPECT_NE(G.Source.find("ept=1/32"), std::string::npos);
    EXPECT_NE(G.Source.find("ept=blocks/256"), std::string::npos);
  }
  // Integer sums are exact in any order: lanes also without the licence.
  Program I = parseOrDie(SpmvI32);
  EXPECT_TRUE(anyRowLanes(rewrite::exploreVariants(I, rewrite::MaxVariants, nullptr, Exact)));
  EXPECT_FALSE(rewrite::laneRowReductionIsFloat(I.Body));
  // A map of row maxima is not a sum: no lanes.
  std::string Max = SpmvI32;
  Max.replace(Max.find("add(mul(x.0, x.1), acc)"), 23, "smax(mul(x.0, x.1), acc)");
  EXPECT_FALSE(anyRowLanes(rewrite::exploreVariants(parseOrDie(Max))));
}

TEST(RowLanes, KernelShape) {
  Program P = parseOrDie(SpmvF32);
  rewrite::GeneratedOpenCL G;
  std::string Err;
  ASSERT_TRUE(rewrite::generateOpenCL(P, "k", G, Err)) << Err;
  ASSERT_EQ(G.NumVariants, 8u);
  size_t V5 = G.Source.find("//@idiom-variant 5 wg=256 ept=1/32:");
  ASSERT_NE(V5, std::string::npos) << G.Source;
  std::string K = G.Source.substr(V5, G.Source.find("//@idiom-variant 6") - V5);
  EXPECT_NE(K.find("reqd_work_group_size(256, 1, 1))) void k_v5("), std::string::npos) << K;
  EXPECT_NE(K.find("__local float lane_sums[256];"), std::string::npos) << K;
  EXPECT_NE(K.find("i += 32L"), std::string::npos) << K; // coalesced lane stride
  // Every barrier is at the kernel's top level (work-group uniform).
  size_t Pos = 0, Barriers = 0;
  while ((Pos = K.find("barrier(", Pos)) != std::string::npos) {
    size_t Line = K.rfind('\n', Pos);
    EXPECT_EQ(K.substr(Line + 1, Pos - Line - 1), "  ") << K;
    ++Barriers, ++Pos;
  }
  EXPECT_EQ(Barriers, 6u); // the partial sums, then log2(32) halving steps
}

TEST(RowLanes, EveryVariantOnTheDevice) {
  OpenCLRunner R;
  if (!R.available())
    GTEST_SKIP() << "no OpenCL device";
  std::mt19937_64 Rng(11);
  for (const char *Text : {SpmvF32, SpmvF32Init, SpmvF64, SpmvI32}) {
    Program P = parseOrDie(Text);
    std::vector<rewrite::VariantParams> Vs = rewrite::exploreVariants(P);
    rewrite::GeneratedOpenCL G;
    std::string Err;
    ASSERT_TRUE(rewrite::generateOpenCL(P, "k", G, Err)) << Err;
    ASSERT_EQ(G.NumVariants, Vs.size());
    ASSERT_TRUE(R.build(G.Source, Err)) << Err;
    for (const Csr &M : matrices(Rng)) {
      ValueMap Args = spmvArgs(P, M, Rng), Want = Args;
      Value Res;
      ASSERT_TRUE(runProgram(P, Want, Res, Err)) << Err;
      // (variant, partition): row blocks run with two partitions.
      std::vector<std::pair<size_t, int>> Runs;
      for (size_t K = 0; K < Vs.size(); ++K)
        for (int Part = 0; Part < (Vs[K].RowBlocks ? 2 : 1); ++Part)
          Runs.push_back({K, Part});
      for (auto [K, Part] : Runs) {
        const rewrite::VariantParams &V = Vs[K];
        size_t L = V.WorkGroup[0] ? V.WorkGroup[0] : 64;
        size_t Items = V.RowLanes ? M.Rows * V.RowLanes : (M.Rows + V.Elems - 1) / V.Elems;
        // Row blocks (the load-balanced variant): any partition of the rows
        // into blocks of at most L rows is correct; blocks of 1, L, 3, 100,
        // 2, 5, 9, 17, 33, 65 and 129 rows in turn (every lane count w from
        // 256 down to 1), then one row per block.
        std::vector<int64_t> Blocks{0};
        for (size_t B = 0; V.RowBlocks && Blocks.back() < M.Rows; ++B) {
          const int64_t Sizes[] = {1, int64_t(L), 3, 100, 2, 5, 9, 17, 33, 65, 129};
          Blocks.push_back(std::min(M.Rows, Blocks.back() + (Part ? 1 : Sizes[B % 11])));
        }
        if (V.RowBlocks)
          Items = (Blocks.size() - 1) * L;
        size_t Global = (Items + L - 1) / L * L;
        ValueMap In = Args;
        std::vector<KernelArg> KA = kernelArgs(P, In);
        if (V.RowBlocks) {
          std::vector<uint8_t> Bytes(Blocks.size() * sizeof(int64_t));
          std::memcpy(Bytes.data(), Blocks.data(), Bytes.size());
          KA.push_back(KernelArg::buffer(std::move(Bytes)));
        }
        ASSERT_TRUE(R.run(rewrite::variantKernelName("k", K), KA, {Global}, {L}, Err)) << Err;
        size_t YArg = 4;
        ScalarKind YK = P.Params[YArg].Ty->Elem->S;
        EXPECT_EQ(checkY(P, M, Args, Want["y"],
                         [&](size_t I) { return fromDeviceBytes(KA[YArg].Bytes, I, YK); }),
                  "")
            << "variant " << K << " (" << G.VariantDescs[K] << ") rows " << M.Rows << "\n"
            << Text;
      }
    }
  }
}

/// (lanes W, rows per work-group R) of every explored row-lanes variant.
std::vector<std::pair<uint64_t, uint64_t>> laneShapes() {
  std::vector<std::pair<uint64_t, uint64_t>> Out;
  for (const rewrite::VariantParams &V : rewrite::exploreVariants(parseOrDie(SpmvF32)))
    if (V.RowLanes)
      Out.push_back({V.RowLanes, V.RowsPerGroup});
  return Out;
}

TEST(RowLanesIndexProof, EveryRowLaneIsOneWorkItem) {
  // Work-item lid of group G works on row G*R + lid/W, lane lid%W
  // (RowLanesGen.cpp; ProofUtil.h).
  ASSERT_EQ(laneShapes().size(), 6u);
  for (auto [W, R] : laneShapes())
    expectLaneLayout(W, R, 0); // and each halving step reads its own row
}

TEST(RowLanesIndexProof, LanesReadEveryElementOnce) {
  // Lane l reads elements l + W*j while they are below the row's length:
  // element e is read by lane e % W (j = e / W) and by no other.
  for (auto [W, R] : laneShapes()) {
    z3::context C;
    z3::expr len = C.bv_const("len", 64), e = C.bv_const("e", 64), l = C.bv_const("l", 64),
             j = C.bv_const("j", 64);
    z3::expr Wk = C.bv_val(W, 64), Big = C.bv_val(uint64_t(1) << 40, 64);
    z3::expr Assume = z3::ult(len, Big) && z3::ult(e, len) && z3::ult(l, Wk) && z3::ult(j, Big);
    EXPECT_TRUE(proved(C, Assume && l + Wk * j == e, l == z3::urem(e, Wk) && j == z3::udiv(e, Wk)))
        << "W=" << W;
    EXPECT_TRUE(proved(C, Assume, z3::urem(e, Wk) + Wk * z3::udiv(e, Wk) == e)) << "W=" << W;
  }
}

TEST(RowLanesIndexProof, HalvingTreeCombinesEveryLaneOnce) {
  // Step s (W/2, ..., 1): lane l < s combines slots l and l + s of its
  // row's W slots into l. Reads stay in the row, no lane writes a slot
  // another lane reads in the same step, and if slot l holds the lanes
  // t with t % 2s == l before the step, it holds those with t % s == l
  // after it: after s = 1, slot 0 holds every lane once.
  for (auto [W, R] : laneShapes())
    for (uint64_t S = W / 2; S >= 1; S /= 2) {
      z3::context C;
      z3::expr l = C.bv_const("l", 64), l2 = C.bv_const("l2", 64), t = C.bv_const("t", 64);
      z3::expr Sk = C.bv_val(S, 64), Wk = C.bv_val(W, 64);
      EXPECT_TRUE(proved(C, z3::ult(l, Sk), z3::ult(l + Sk, Wk)));
      EXPECT_TRUE(proved(C, z3::ult(l, Sk) && z3::ult(l2, Sk), l2 != l + Sk));
      EXPECT_TRUE(proved(C, z3::ult(l, Sk) && z3::ult(t, Wk),
                         (z3::urem(t, Sk * 2) == l || z3::urem(t, Sk * 2) == l + Sk) ==
                             (z3::urem(t, Sk) == l)))
          << "W=" << W << " s=" << S;
    }
}

} // namespace

