//===- CompensateTest.cpp - the compensated-sum rule ----------------------===//
//
// Part of Idiom. The rule `compensate` (rules/compensation.cpp): where it
// applies and where not; its error bound on random inputs, for the rule's
// right side and for every lowering the generator uses (the interpreter
// evaluates their combination trees); ill-conditioned sums that must come
// out correctly rounded where the plain sum does not; signed zeros and
// non-finite values; the kernels on PoCL, every variant, run twice.
//
//===----------------------------------------------------------------------===//

#include "DeviceUtil.h"
#include "OpenCLRunner.h"
#include "TestUtil.h"
#include "idiom/Rewrite/DefaultStrategies.h"
#include "idiom/Rewrite/Explore.h"
#include "idiom/Rewrite/OpenCLGen.h"
#include "idiom/Rewrite/Rules.h"
#include "idiom/Rewrite/Strategy.h"

#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstring>

using namespace idiom;
using namespace idiom::rwtest;

namespace {

std::string sumProgram(const char *T, const char *Op = "fadd(a, b)",
                       const char *Init = "-0.0") {
  return std::string("idiom s(x: [") + T + "], n0: i64) { return reduce(\\(a: " + T +
         ", b: " + T + ") => " + Op + ", " + Init + ":" + T +
         ", map(\\(t: " + T + ") => t, view(x, 0:i64, 1:i64, n0))); }";
}

/// The sum of x[i] * y[i] (a dot product, as the lifter writes it).
const char *DotF32 =
    "idiom d(x: [f32], y: [f32], n0: i64) { return reduce(\\(a: f32, b: f32) => fadd(a, b), "
    "-0.0:f32, map(\\(t: (f32, f32)) => fmul(t.0, t.1), zip(view(x, 0:i64, 1:i64, n0), "
    "view(y, 0:i64, 1:i64, n0)))); }";

/// \p P with `compensate` applied at the root; the trace must name it.
Program compensated(const Program &P, bool Expect = true) {
  Program Q = P;
  std::vector<std::string> Trace;
  std::string Err;
  EXPECT_TRUE(rewrite::rewriteProgram(
      Q, rewrite::ruleStrategy(*rewrite::findRule("compensate")), Err, &Trace))
      << Err;
  EXPECT_EQ(Trace.size(), Expect ? 1u : 0u) << printProgram(P);
  return Q;
}

funil::ScalarKind kindOf(const Program &P) { return P.Params[0].Ty->Elem->S; }

ValueMap argsFor(const Program &P, const std::vector<double> &X) {
  ValueMap A;
  std::vector<Value> Es;
  for (double V : X)
    Es.push_back(Value::ofFloat(kindOf(P), V));
  A["x"] = Value::array(Es);
  A["n0"] = Value::ofInt(funil::ScalarKind::I64, static_cast<int64_t>(X.size()));
  return A;
}

/// \p X followed by -0.0 (the identity: the sum is unchanged bit for bit)
/// up to a multiple of 16 elements: the interpreter rejects a split of a
/// length its chunk does not divide (the generator completes the last row),
/// and the vector variants split into rows of up to 16.
std::vector<double> pad16(std::vector<double> X) {
  while (X.size() % 16)
    X.push_back(-0.0);
  return X;
}

/// Runs sum program \p P on \p X (padded by pad16) in the interpreter.
double run(const Program &P, const std::vector<double> &X0, const ExecConfig &Cfg = {}) {
  std::vector<double> X = pad16(X0);
  ValueMap A = argsFor(P, X);
  Value R;
  std::string Err;
  EXPECT_TRUE(runProgram(P, A, R, Err, Cfg)) << Err << "\n" << printProgram(P);
  return R.F;
}

/// Every lowering of \p P that generateOpenCL emits (exploreVariants),
/// lowered.
std::vector<Program> lowerings(const Program &P) {
  std::vector<Program> Out;
  for (const rewrite::VariantParams &V : rewrite::exploreVariants(P)) {
    Program L = P;
    std::string Err;
    if (!rewrite::lowerVariant(L, V, Err))
      continue; // a variant the generator leaves out
    Out.push_back(L);
  }
  EXPECT_FALSE(Out.empty());
  return Out;
}

const ExecConfig Configs[] = {{4, 3}, {8, 5}, {2, 1}, {16, 7}};

/// The exact sum of \p X (doubles or floats) to long double precision:
/// Neumaier in long double, whose error (about 2^-64 of the sum plus n *
/// 2^-128 of sum |x|) is far below the bounds checked here.
long double refSum(const std::vector<double> &X) {
  long double S = 0, C = 0;
  for (double V : X) {
    long double T = S + V;
    C += std::fabs(S) >= std::fabs((long double)V) ? (S - T) + V : (V - T) + S;
    S = T;
  }
  return S + C;
}

double absSum(const std::vector<double> &X) {
  double A = 0;
  for (double V : X)
    A += std::fabs(V);
  return A;
}

/// Unit roundoff of \p K.
double unitRoundoff(funil::ScalarKind K) {
  return K == funil::ScalarKind::F32 ? std::ldexp(1.0, -24) : std::ldexp(1.0, -53);
}

/// The bound of docs/Rewrite.md, u|S| + (1 + u) gamma_{n-1}^2 sum|x| (any
/// combination order), checked as 2u|S| + 2 (n u)^2 sum|x| plus a margin of
/// 2^-60 sum|x| for the reference.
std::string checkBound(double Got, const std::vector<double> &X, funil::ScalarKind K) {
  long double S = refSum(X);
  double U = unitRoundoff(K), N = static_cast<double>(X.size());
  long double Err = std::fabs((long double)Got - S);
  long double Bound =
      2 * U * std::fabs(S) + (2 * (N * U) * (N * U) + std::ldexp(1.0, -60)) * absSum(X);
  if (Err <= Bound)
    return "";
  char Buf[256];
  snprintf(Buf, sizeof Buf, "got %.17g, exact %.20Lg, error %.3Lg > bound %.3Lg (n=%zu)", Got,
           S, Err, Bound, X.size());
  return Buf;
}

/// Random values of kind K over many binades, both signs.
std::vector<double> randomValues(size_t N, funil::ScalarKind K, std::mt19937_64 &Rng) {
  std::uniform_real_distribution<double> M(1, 2), E(-30, 30);
  std::vector<double> X;
  for (size_t I = 0; I < N; ++I) {
    double V = std::ldexp(M(Rng), static_cast<int>(E(Rng))) * ((Rng() & 1) ? -1 : 1);
    X.push_back(K == funil::ScalarKind::F32 ? static_cast<float>(V) : V);
  }
  return X;
}

bool sameBits(double A, double B) { return std::memcmp(&A, &B, sizeof A) == 0; }

TEST(Compensate, AppliesToFloatSums) {
  for (const char *T : {"f32", "f64"})
    for (const char *Op : {"fadd(a, b)", "fadd(b, a)"})
      for (const char *Init : {"-0.0", "0.0"}) {
        Program Q = compensated(parseOrDie(sumProgram(T, Op, Init)));
        EXPECT_TRUE(Q.Body->isCall("apply")) << printProgram(Q);
        EXPECT_TRUE(Q.Body->Args[1]->isCall("reduce"));
        EXPECT_TRUE(Q.Body->Args[1]->Args[0]->Params[0].Ty->isTuple());
        // The text round-trips.
        Program R;
        std::string Err;
        ASSERT_TRUE(parseProgram(printProgram(Q), R, Err)) << Err;
        EXPECT_EQ(printProgram(R), printProgram(Q));
      }
  compensated(parseOrDie(DotF32));
}

TEST(Compensate, DeclinesEverythingElse) {
  // Not a plain float sum: integers, products, differences, another start
  // value (not an identity of fadd), operands that are not the parameters.
  compensated(parseOrDie(sumProgram("i32", "add(a, b)", "0")), false);
  compensated(parseOrDie(sumProgram("f32", "fmul(a, b)", "1.0")), false);
  compensated(parseOrDie(sumProgram("f64", "fsub(a, b)")), false);
  compensated(parseOrDie(sumProgram("f64", "fadd(a, b)", "1.0")), false);
  compensated(parseOrDie(sumProgram("f64", "fadd(a, a)")), false);
  compensated(parseOrDie(sumProgram("f64", "fmax(a, b)", "-inf")), false);
  // Tuples (several accumulators) stay as they are.
  compensated(parseOrDie(
                  "idiom t(x: [f32], n0: i64) { return reduce(\\(a: (f32, f32), b: (f32, f32)) "
                  "=> (fadd(a.0, b.0), fmax(a.1, b.1)), (-0.0:f32, -inf:f32), map(\\(t: f32) => "
                  "(t, t), view(x, 0:i64, 1:i64, n0))); }"),
              false);
  // reduceSeq (a work-item's sequential loop) is not matched, and the rule
  // applies on the host only.
  compensated(parseOrDie("idiom s(x: [f32], n0: i64) { return reduceSeq(\\(a: f32, b: f32) "
                         "=> fadd(a, b), -0.0:f32, view(x, 0:i64, 1:i64, n0)); }"),
              false);
  Program P = parseOrDie(sumProgram("f32"));
  rewrite::RuleContext Ctx = rewrite::programContext(P);
  Ctx.Where = rewrite::Level::Global;
  EXPECT_FALSE(rewrite::applyRule(*rewrite::findRule("compensate"), P.Body, Ctx));
  Ctx.Where = rewrite::Level::Host;
  EXPECT_TRUE(rewrite::applyRule(*rewrite::findRule("compensate"), P.Body, Ctx));
}

TEST(Compensate, DefaultStrategiesCompensateFloatSumsOnly) {
  Program P = parseOrDie(sumProgram("f64"));
  std::vector<std::string> Trace;
  std::string Err;
  ASSERT_TRUE(rewrite::lowerProgram(P, Err, &Trace)) << Err;
  ASSERT_FALSE(Trace.empty());
  EXPECT_EQ(Trace[0], "compensate");
  EXPECT_TRUE(P.Body->isCall("apply"));
  Program I = parseOrDie(sumProgram("i64", "add(a, b)", "0"));
  Trace.clear();
  ASSERT_TRUE(rewrite::lowerProgram(I, Err, &Trace)) << Err;
  for (const std::string &T : Trace)
    EXPECT_NE(T, "compensate");
  // Every variant is compensated too.
  for (const Program &L : lowerings(parseOrDie(sumProgram("f32"))))
    EXPECT_TRUE(L.Body->isCall("apply")) << printProgram(L);
}

TEST(Compensate, SlotsAndFixedOrder) {
  using V = std::vector<unsigned>;
  EXPECT_EQ(rewrite::reductionSlotBytes(parseOrDie(sumProgram("f32"))), (V{4, 4}));
  EXPECT_EQ(rewrite::reductionSlotBytes(parseOrDie(sumProgram("f64"))), (V{8, 8}));
  EXPECT_EQ(rewrite::reductionSlotBytes(parseOrDie(sumProgram("i32", "add(a, b)", "0"))),
            (V{4}));
  EXPECT_EQ(rewrite::reductionSlotBytes(parseOrDie(sumProgram("f32", "fmax(a, b)", "-inf"))),
            (V{4}));
  EXPECT_EQ(rewrite::reductionSlotBytes(parseOrDie(
                "idiom m(x: [f32], y: [f32], n0: i64) { store view(y, 0:i64, 1:i64, n0) = "
                "map(\\(v: f32) => v, view(x, 0:i64, 1:i64, n0)); }")),
            V{});
  auto Src = [](const std::string &Text) {
    rewrite::GeneratedOpenCL G;
    std::string Err;
    EXPECT_TRUE(rewrite::generateOpenCL(parseOrDie(Text), "k", G, Err)) << Err;
    return G.Source;
  };
  std::string Marker = std::string(rewrite::FixedOrderMarker);
  std::string F = Src(sumProgram("f32"));
  // In the shared part, before the first variant; the CPU variant is the
  // blocked one, the GPU variant (256, 8) grid-stride.
  std::vector<rewrite::VariantParams> Vs = rewrite::exploreVariants(parseOrDie(sumProgram("f32")));
  ASSERT_EQ(Vs.size(), 8u);
  EXPECT_TRUE(Vs[2].Blocked);
  EXPECT_EQ(Vs[4].WorkGroup[0], 256u);
  EXPECT_EQ(Vs[4].Elems, 8u);
  ASSERT_NE(F.find(Marker + " cpu=2 gpu=4\n"), std::string::npos) << F;
  EXPECT_LT(F.find(Marker), F.find(rewrite::VariantMarker));
  EXPECT_NE(Src(sumProgram("f64", "fmax(a, b)", "-inf")).find(Marker + " cpu=2 gpu=4\n"),
            std::string::npos);
  // A reduction over a strided array has neither: variant 0 for both.
  EXPECT_NE(Src("idiom s(x: [f32], n0: i64) { return reduce(\\(a: f32, b: f32) => fadd(a, b), "
                "-0.0:f32, view(x, 0:i64, 2:i64, n0)); }")
                .find(Marker + " cpu=0 gpu=0\n"),
            std::string::npos);
  EXPECT_EQ(Src(sumProgram("i32", "add(a, b)", "0")).find(Marker), std::string::npos);
  EXPECT_EQ(Src("idiom m(x: [f32], y: [f32], n0: i64) { store view(y, 0:i64, 1:i64, n0) = "
                "map(\\(v: f32) => v, view(x, 0:i64, 1:i64, n0)); }")
                .find(Marker),
            std::string::npos);
}

TEST(Compensate, WithinTheBoundOnRandomInputs) {
  std::mt19937_64 Rng(2024);
  for (const char *T : {"f32", "f64"}) {
    Program P = parseOrDie(sumProgram(T));
    funil::ScalarKind K = kindOf(P);
    Program Q = compensated(P);
    std::vector<Program> Ls = lowerings(P);
    for (size_t N : {0, 1, 2, 3, 7, 64, 257, 1000})
      for (int Trial = 0; Trial < 3; ++Trial) {
        std::vector<double> X = randomValues(N, K, Rng);
        EXPECT_EQ(checkBound(run(Q, X), X, K), "") << T << " rule";
        for (size_t I = 0; I < Ls.size(); ++I)
          for (const ExecConfig &C : Configs)
            EXPECT_EQ(checkBound(run(Ls[I], X, C), X, K), "")
                << T << " lowering " << I << " L=" << C.LocalSize << " G=" << C.NumGroups;
      }
  }
}

/// Ill-conditioned series: exact value and the values.
struct Series {
  const char *Name;
  std::vector<double> X;
  double Exact; ///< the correctly rounded sum
};

std::vector<Series> illConditioned(funil::ScalarKind K) {
  bool F32 = K == funil::ScalarKind::F32;
  double Big = F32 ? 1e8 : 1e16; // ulp(Big) = 8 (f32), 2 (f64)
  double TwoP = F32 ? 16777216.0 : 9007199254740992.0; // 2^24, 2^53
  std::vector<Series> S;
  Series A{"big, 1, -big repeated", {}, 0};
  for (int I = 0; I < 300; ++I)
    A.X.insert(A.X.end(), {Big, 1, -Big});
  A.Exact = 300;
  S.push_back(A);
  Series B{"2^p, then ones, then -2^p", {TwoP}, 0};
  for (int I = 0; I < 500; ++I)
    B.X.push_back(1);
  B.X.push_back(-TwoP);
  B.Exact = 500;
  S.push_back(B);
  // Alternating large and small magnitudes; the exact sum is computed in
  // long double (exact here: integers below 2^64) and rounded once.
  Series C{"alternating big and small", {}, 0};
  for (int I = 0; I < 100; ++I)
    C.X.insert(C.X.end(), {Big, 1.0, -3.0 * Big / 4, 0.5});
  long double E = 0;
  for (double V : C.X)
    E += V;
  C.Exact = F32 ? static_cast<float>(E) : static_cast<double>(E);
  S.push_back(C);
  return S;
}

TEST(Compensate, IllConditionedSumsAreCorrectlyRounded) {
  for (const char *T : {"f32", "f64"}) {
    Program P = parseOrDie(sumProgram(T));
    funil::ScalarKind K = kindOf(P);
    Program Q = compensated(P);
    std::vector<Program> Ls = lowerings(P);
    for (const Series &S : illConditioned(K)) {
      // The plain sequential sum is wrong: the test can fail.
      EXPECT_NE(run(P, S.X), S.Exact) << T << " " << S.Name;
      EXPECT_EQ(run(Q, S.X), S.Exact) << T << " " << S.Name;
      for (size_t I = 0; I < Ls.size(); ++I)
        for (const ExecConfig &C : Configs)
          EXPECT_EQ(run(Ls[I], S.X, C), S.Exact)
              << T << " " << S.Name << " lowering " << I << " L=" << C.LocalSize
              << " G=" << C.NumGroups;
    }
  }
}

TEST(Compensate, SignedZerosAndNonFiniteValues) {
  const double Inf = INFINITY;
  for (const char *T : {"f32", "f64"}) {
    Program P = parseOrDie(sumProgram(T));
    double Max = kindOf(P) == funil::ScalarKind::F32 ? FLT_MAX : DBL_MAX;
    std::vector<Program> All = lowerings(P);
    All.push_back(compensated(P));
    for (const Program &L : All)
      for (const ExecConfig &C : Configs) {
        EXPECT_TRUE(sameBits(run(L, {-0.0, -0.0, -0.0}, C), -0.0)) << T;
        EXPECT_TRUE(sameBits(run(L, {}, C), -0.0)) << T;
        EXPECT_TRUE(sameBits(run(L, {-0.0, 0.0, -0.0}, C), 0.0)) << T;
        EXPECT_TRUE(sameBits(run(L, {1.0, -1.0}, C), 0.0)) << T;
        EXPECT_EQ(run(L, {1.0, Inf, 2.0}, C), Inf) << T;
        EXPECT_EQ(run(L, {-Inf, 1.0}, C), -Inf) << T;
        EXPECT_TRUE(std::isnan(run(L, {Inf, 1.0, -Inf}, C))) << T;
        EXPECT_TRUE(std::isnan(run(L, {1.0, NAN, 2.0}, C))) << T;
        // Overflow of a partial sum: +inf (the sequential order) or, in an
        // order that cancels first, the exact Max; never NaN.
        double O = run(L, {Max, Max, -Max}, C);
        EXPECT_TRUE(O == Inf || O == Max) << T << " " << O;
      }
  }
}

//===----------------------------------------------------------------------===//
// The kernels on PoCL: every variant, ill-conditioned series, twice.
//===----------------------------------------------------------------------===//

class CompensateExec : public ::testing::Test {
protected:
  static OpenCLRunner &runner() {
    static OpenCLRunner R;
    return R;
  }
  void SetUp() override {
    if (!runner().available())
      GTEST_SKIP() << "no OpenCL device";
  }

  /// Runs variant \p K of the built source on \p X with \p Groups groups;
  /// slot 0 of the final kernel.
  double runVariant(const Program &P, const rewrite::VariantParams &V, unsigned K,
                    const std::vector<double> &X, size_t Groups) {
    ValueMap A = argsFor(P, X);
    std::vector<KernelArg> KArgs = kernelArgs(P, A);
    size_t NParams = KArgs.size();
    std::vector<unsigned> Slots = rewrite::reductionSlotBytes(P);
    EXPECT_EQ(Slots.size(), 2u);
    size_t L = V.WorkGroup[0] ? V.WorkGroup[0] : 32;
    for (unsigned B : Slots)
      KArgs.push_back(KernelArg::buffer(std::vector<uint8_t>(Groups * B)));
    for (unsigned B : Slots)
      KArgs.push_back(KernelArg::local(L * B));
    std::string Name = rewrite::variantKernelName("k", K), Err;
    EXPECT_TRUE(runner().run(Name + "_partial", KArgs, {Groups * L}, {L}, Err)) << Err;
    std::vector<KernelArg> F{KernelArg::scalar<int64_t>(static_cast<int64_t>(Groups))};
    for (size_t J = 0; J < Slots.size(); ++J)
      F.push_back(KArgs[NParams + J]);
    for (unsigned B : Slots)
      F.push_back(KernelArg::buffer(std::vector<uint8_t>(B)));
    for (unsigned B : Slots)
      F.push_back(KernelArg::local(L * B));
    EXPECT_TRUE(runner().run(Name + "_final", F, {L}, {L}, Err)) << Err;
    return fromDeviceBytes(F[1 + Slots.size()].Bytes, 0, kindOf(P)).F;
  }
};

TEST_F(CompensateExec, EveryVariantIsCorrectlyRoundedAndRepeatable) {
  for (const char *T : {"f32", "f64"}) {
    Program P = parseOrDie(sumProgram(T));
    rewrite::GeneratedOpenCL G;
    std::string Err;
    ASSERT_TRUE(rewrite::generateOpenCL(P, "k", G, Err)) << Err;
    if (std::string(T) == "f64" && !runner().build(G.Source, Err))
      GTEST_SKIP() << "no fp64 on this device: " << Err;
    ASSERT_TRUE(runner().build(G.Source, Err)) << Err << "\n" << G.Source;
    std::vector<rewrite::VariantParams> Vs = rewrite::exploreVariants(P);
    ASSERT_EQ(G.NumVariants, Vs.size());
    std::mt19937_64 Rng(7);
    for (unsigned K = 0; K < Vs.size(); ++K)
      for (size_t Groups : {1, 3, 8}) {
        for (const Series &S : illConditioned(kindOf(P))) {
          double First = runVariant(P, Vs[K], K, S.X, Groups);
          EXPECT_EQ(First, S.Exact) << T << " " << S.Name << " variant " << K;
          EXPECT_TRUE(sameBits(runVariant(P, Vs[K], K, S.X, Groups), First));
        }
        std::vector<double> X = randomValues(4099, kindOf(P), Rng);
        EXPECT_EQ(checkBound(runVariant(P, Vs[K], K, X, Groups), X, kindOf(P)), "")
            << T << " variant " << K << " groups " << Groups;
        EXPECT_TRUE(sameBits(runVariant(P, Vs[K], K, {-0.0, -0.0}, Groups), -0.0));
      }
  }
}

} // namespace
