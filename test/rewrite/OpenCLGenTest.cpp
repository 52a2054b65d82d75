//===- OpenCLGenTest.cpp - generated OpenCL: signatures and execution -----===//
//
// Part of Idiom. Checks the kernel signatures of runtime/include/idiomrt.h
// and, where an OpenCL device is present (PoCL), runs the generated kernels
// and compares them with the reference interpreter.
//
//===----------------------------------------------------------------------===//

#include "Examples.h"
#include "DeviceUtil.h"
#include "OpenCLRunner.h"
#include "TestUtil.h"
#include "idiom/Rewrite/Explore.h"
#include "idiom/Rewrite/OpenCLGen.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace idiom;
using namespace idiom::rwtest;
namespace ex = idiom::funil::test;

namespace {

rewrite::GeneratedOpenCL generate(const char *Text, const char *Name) {
  Program P = parseOrDie(Text);
  rewrite::GeneratedOpenCL G;
  std::string Err;
  EXPECT_TRUE(rewrite::generateOpenCL(P, Name, G, Err)) << Err;
  return G;
}

bool contains(const std::string &S, const std::string &Sub) {
  return S.find(Sub) != std::string::npos;
}

TEST(OpenCLGen, MapSignatures) {
  rewrite::GeneratedOpenCL G = generate(ex::Saxpy, "saxpy_k");
  EXPECT_TRUE(contains(G.Source, "__kernel void saxpy_k(__global const float *x, "
                                 "__global float *y, const float a, const long n0) {"))
      << G.Source;
  EXPECT_TRUE(contains(G.Source, "if (i0 < n0)")) << G.Source;
  EXPECT_FALSE(contains(G.Source, "cl_khr_fp64"));
  EXPECT_FALSE(contains(G.Source, "barrier"));
  EXPECT_TRUE(contains(G.LoweredFunIL, "mapGlobal(0, ")) << G.LoweredFunIL;

  G = generate(ex::Scale2D, "scale2d");
  EXPECT_TRUE(contains(G.Source, "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"));
  EXPECT_TRUE(contains(G.Source,
                       "__kernel void scale2d(__global const double *a, __global double *b, "
                       "const double s, const long n0, const long n1, const long lda) {"))
      << G.Source;
  // NDRange dimension 0 is the innermost loop.
  EXPECT_TRUE(contains(G.Source, "const long i1 = get_global_id(1);\n  if (i1 < n0) {"))
      << G.Source;
  EXPECT_TRUE(contains(G.Source, "const long i0 = get_global_id(0);\n    if (i0 < n1) {"))
      << G.Source;
  EXPECT_TRUE(contains(G.Source, "b[(lda * i1) + i0] = ")) << G.Source;
}

TEST(OpenCLGen, ReductionSignatures) {
  rewrite::GeneratedOpenCL G = generate(ex::DotAndMax, "dot");
  EXPECT_TRUE(contains(G.Source,
                       "__kernel void dot_partial(__global const float *x, __global const "
                       "float *y, const long n0, __global float *part_0, __global float "
                       "*part_1, __local float *scratch_0, __local float *scratch_1) {"))
      << G.Source;
  EXPECT_TRUE(contains(G.Source,
                       "__kernel void dot_final(const long m, __global float *part_0, "
                       "__global float *part_1, __global float *out_0, __global float "
                       "*out_1, __local float *scratch_0, __local float *scratch_1) {"))
      << G.Source;
  // Grid-stride loop, local tree, one write per group.
  EXPECT_TRUE(contains(G.Source, "i < n0; i += ((long)get_global_size(0))")) << G.Source;
  EXPECT_TRUE(contains(G.Source, "barrier(CLK_LOCAL_MEM_FENCE);"));
  EXPECT_TRUE(contains(G.Source, "if (get_local_id(0) == 0) {\n      part_0[wg] = "))
      << G.Source;
  EXPECT_TRUE(contains(G.Source, "out_1[wg] = ")) << G.Source;

  G = generate(ex::CountPositive, "cnt");
  EXPECT_TRUE(contains(G.Source, "__global int *part_0, __global double *part_1, "
                                 "__local int *scratch_0, __local double *scratch_1"))
      << G.Source;
  EXPECT_TRUE(contains(G.Source, "#pragma OPENCL EXTENSION cl_khr_fp64 : enable"));
}

TEST(OpenCLGen, BarriersAreNeverUnderWorkItemConditions) {
  for (const char *T : {ex::DotAndMax, ex::SumI32, ex::CountPositive}) {
    rewrite::GeneratedOpenCL G = generate(T, "k");
    // Track nesting: a barrier may sit inside for-loops with uniform bounds
    // (wg, it) but never inside an `if` or a work-item loop (l).
    std::vector<std::string> Stack;
    size_t Pos = 0;
    std::string Src = G.Source;
    while (Pos < Src.size()) {
      size_t End = Src.find('\n', Pos);
      std::string Line = Src.substr(Pos, End - Pos);
      Pos = End == std::string::npos ? Src.size() : End + 1;
      std::string Trim = Line.substr(Line.find_first_not_of(' ') == std::string::npos
                                         ? 0 : Line.find_first_not_of(' '));
      if (Trim == "}") {
        if (!Stack.empty())
          Stack.pop_back();
        continue;
      }
      if (Trim.find("barrier(") == 0)
        for (const std::string &S : Stack)
          EXPECT_TRUE(S.rfind("for (long wg", 0) == 0 || S.rfind("for (long it", 0) == 0 ||
                      S.rfind("__kernel", 0) == 0)
              << "barrier inside: " << S;
      if (!Trim.empty() && Trim.back() == '{')
        Stack.push_back(Trim);
    }
  }
}

TEST(OpenCLGen, Errors) {
  std::string Err;
  rewrite::GeneratedOpenCL G;
  Program P = parseOrDie("idiom f(x: [f32], b: bool, n: i64) { store view(x, 0:i64, 1:i64, n) = "
                         "map(\\(v: f32) => select(b, v, 0.0:f32), view(x, 0:i64, 1:i64, n)); }");
  EXPECT_FALSE(rewrite::generateOpenCL(P, "f", G, Err));
  EXPECT_EQ(Err, "OpenCL generation: parameter 'b' is bool, which OpenCL kernels cannot take");
  P = parseOrDie(ex::Saxpy);
  EXPECT_FALSE(rewrite::generateOpenCL(P, "9lives", G, Err));
  EXPECT_EQ(Err, "invalid kernel name '9lives'");
  P = parseOrDie("idiom f(x: [f32], n: i64) { return fadd(reduce(\\(a: f32, b: f32) => "
                 "fadd(a, b), 0.0:f32, view(x, 0:i64, 1:i64, n)), 1.0:f32); }");
  EXPECT_FALSE(rewrite::generateOpenCL(P, "f", G, Err));
  EXPECT_EQ(Err, "OpenCL generation: a reduction must be lowered to the two-stage form "
                 "at(mapWorkgroup(...), 0)");
  Program Bad;
  Bad.Name = "b";
  Bad.Body = funil::Expr::var("nope");
  EXPECT_FALSE(rewrite::generateOpenCL(Bad, "b", G, Err));
  EXPECT_EQ(Err, "0:0: unknown variable 'nope'");
}

//===----------------------------------------------------------------------===//
// Execution on an OpenCL device (PoCL), compared with the interpreter.
//===----------------------------------------------------------------------===//

size_t roundUp(size_t N, size_t M) { return N == 0 ? M : (N + M - 1) / M * M; }

class OpenCLExec : public ::testing::Test {
protected:
  static OpenCLRunner &runner() {
    static OpenCLRunner R;
    return R;
  }
  void SetUp() override {
    if (!runner().available())
      GTEST_SKIP() << "no OpenCL device";
  }

  /// Runs map program \p Text on random inputs on the device and in the
  /// interpreter; buffers must agree within \p Tol.
  void checkMap(const char *Text, const std::map<std::string, int64_t> &Sizes,
                int64_t BufLen, std::vector<size_t> Global, std::vector<size_t> Local,
                double Tol) {
    Program P = parseOrDie(Text);
    rewrite::GeneratedOpenCL G;
    std::string Err;
    ASSERT_TRUE(rewrite::generateOpenCL(P, "k", G, Err)) << Err;
    ASSERT_TRUE(runner().build(G.Source, Err)) << Err << "\n" << G.Source;
    std::mt19937_64 Rng(99);
    ValueMap Args = randomArgs(P, Sizes, BufLen, Rng), Want = Args;
    Value R;
    ASSERT_TRUE(runProgram(P, Want, R, Err)) << Err;
    std::vector<KernelArg> KArgs;
    for (const funil::Param &Pa : P.Params)
      KArgs.push_back(Pa.Ty->isBuffer() ? KernelArg::buffer(toDeviceBytes(Args[Pa.Name], Pa.Ty->Elem->S))
                                        : scalarKernelArg(Args[Pa.Name]));
    ASSERT_TRUE(runner().run("k", KArgs, Global, Local, Err)) << Err;
    for (size_t I = 0; I < P.Params.size(); ++I) {
      const funil::Param &Pa = P.Params[I];
      if (!Pa.Ty->isBuffer())
        continue;
      for (size_t E = 0; E < Want[Pa.Name].Elems.size(); ++E)
        EXPECT_TRUE(valuesClose(fromDeviceBytes(KArgs[I].Bytes, E, Pa.Ty->Elem->S),
                                Want[Pa.Name].Elems[E], Tol))
            << Pa.Name << "[" << E << "]: device "
            << printValue(fromDeviceBytes(KArgs[I].Bytes, E, Pa.Ty->Elem->S)) << " vs "
            << printValue(Want[Pa.Name].Elems[E]);
    }
  }

  /// Runs reduction \p Text with G groups of L work-items, then the final
  /// kernel; accumulators must agree with the interpreter within \p Tol.
  void checkReduce(const char *Text, int64_t N, size_t Groups, size_t L, double Tol) {
    Program P = parseOrDie(Text);
    rewrite::GeneratedOpenCL G;
    std::string Err;
    ASSERT_TRUE(rewrite::generateOpenCL(P, "r", G, Err)) << Err;
    ASSERT_TRUE(runner().build(G.Source, Err)) << Err << "\n" << G.Source;
    std::mt19937_64 Rng(5);
    ValueMap Args = randomArgs(P, {{"n0", N}}, N, Rng), Copy = Args;
    Value Want;
    ASSERT_TRUE(runProgram(P, Copy, Want, Err)) << Err;
    std::vector<Value> WantLeaves;
    std::function<void(const Value &)> Flat = [&](const Value &V) {
      if (V.K == Value::Tuple)
        for (const Value &E : V.Elems)
          Flat(E);
      else
        WantLeaves.push_back(V);
    };
    Flat(Want);
    std::vector<KernelArg> KArgs;
    for (const funil::Param &Pa : P.Params)
      KArgs.push_back(Pa.Ty->isBuffer() ? KernelArg::buffer(toDeviceBytes(Args[Pa.Name], Pa.Ty->Elem->S))
                                        : scalarKernelArg(Args[Pa.Name]));
    size_t NParams = KArgs.size();
    std::vector<size_t> Slots = reduceSlotBytes(P, WantLeaves);
    for (size_t B : Slots)
      KArgs.push_back(KernelArg::buffer(std::vector<uint8_t>(Groups * B)));
    for (size_t B : Slots)
      KArgs.push_back(KernelArg::local(L * B));
    ASSERT_TRUE(runner().run("r_partial", KArgs, {Groups * L}, {L}, Err)) << Err;
    std::vector<KernelArg> FArgs{KernelArg::scalar<int64_t>(Groups)};
    for (size_t K = 0; K < Slots.size(); ++K)
      FArgs.push_back(KArgs[NParams + K]);
    for (size_t B : Slots)
      FArgs.push_back(KernelArg::buffer(std::vector<uint8_t>(B)));
    for (size_t B : Slots)
      FArgs.push_back(KernelArg::local(L * B));
    ASSERT_TRUE(runner().run("r_final", FArgs, {L}, {L}, Err)) << Err;
    for (size_t K = 0; K < WantLeaves.size(); ++K) {
      Value Got = fromDeviceBytes(FArgs[1 + Slots.size() + K].Bytes, 0, WantLeaves[K].S);
      EXPECT_TRUE(valuesClose(Got, WantLeaves[K], Tol))
          << "accumulator " << K << ": device " << printValue(Got) << " vs "
          << printValue(WantLeaves[K]) << " (n=" << N << ", G=" << Groups
          << ", L=" << L << ")";
    }
  }
};

//===----------------------------------------------------------------------===//
// Every explored variant, from one multi-variant source, on odd lengths and
// misaligned offsets (the ragged last row and the scalar path of the
// vector variants), against the interpreter of the original program.
//===----------------------------------------------------------------------===//

class VariantExec : public OpenCLExec {
protected:
  /// Builds the multi-variant source of \p P once; the variants' parameters.
  std::vector<rewrite::VariantParams> build(const Program &P) {
    rewrite::GeneratedOpenCL G;
    std::string Err;
    EXPECT_TRUE(rewrite::generateOpenCL(P, "k", G, Err)) << Err;
    EXPECT_TRUE(runner().build(G.Source, Err)) << Err << "\n" << G.Source;
    std::vector<rewrite::VariantParams> Vs = rewrite::exploreVariants(P);
    EXPECT_EQ(G.NumVariants, Vs.size());
    return Vs;
  }

  /// Map: NDRange dimension 0 over \p Inner (ceil(Inner / E) work-items),
  /// dimension 1 over \p Outer when given, dimension 2 over \p Planes when
  /// given (ceil(Planes / P) work-items for a plane walk of P).
  void checkMapVariants(const char *Text, const std::map<std::string, int64_t> &Sizes,
                        int64_t BufLen, const std::string &Inner,
                        const std::string &Outer = "", const std::string &Planes = "") {
    Program P = parseOrDie(Text);
    std::vector<rewrite::VariantParams> Vs = build(P);
    std::mt19937_64 Rng(31);
    ValueMap Args = randomArgs(P, Sizes, BufLen, Rng), Want = Args;
    Value R;
    std::string Err;
    ASSERT_TRUE(runProgram(P, Want, R, Err)) << Err;
    for (size_t K = 0; K < Vs.size(); ++K) {
      const rewrite::VariantParams &V = Vs[K];
      std::vector<KernelArg> KArgs;
      for (const funil::Param &Pa : P.Params)
        KArgs.push_back(Pa.Ty->isBuffer()
                            ? KernelArg::buffer(toDeviceBytes(Args[Pa.Name], Pa.Ty->Elem->S))
                            : scalarKernelArg(Args[Pa.Name]));
      size_t L0 = V.WorkGroup[0] ? V.WorkGroup[0] : (Outer.empty() ? 16 : 4);
      size_t L1 = V.WorkGroup[0] ? std::max(1u, V.WorkGroup[1]) : 4;
      size_t N0 = static_cast<size_t>(Sizes.at(Inner));
      std::vector<size_t> Global{roundUp((N0 + V.Elems - 1) / V.Elems, L0)}, Local{L0};
      if (V.RowWalk) { // a 1-D NDRange of chunks of whole rows
        ASSERT_FALSE(Outer.empty()) << "a row walk of a 1-D map";
        Global = {(static_cast<size_t>(Sizes.at(Outer)) + V.RowWalk - 1) / V.RowWalk};
        Local = {1};
      } else if (!Outer.empty()) {
        Global.push_back(roundUp(static_cast<size_t>(Sizes.at(Outer)), L1));
        Local.push_back(L1);
      }
      if (!Planes.empty()) {
        size_t Walk = std::max(1u, V.Planes);
        Global.push_back((static_cast<size_t>(Sizes.at(Planes)) + Walk - 1) / Walk);
        Local.push_back(1);
      }
      ASSERT_TRUE(runner().run(rewrite::variantKernelName("k", K), KArgs, Global, Local, Err))
          << Err;
      for (size_t I = 0; I < P.Params.size(); ++I) {
        const funil::Param &Pa = P.Params[I];
        if (!Pa.Ty->isBuffer())
          continue;
        for (size_t E = 0; E < Want[Pa.Name].Elems.size(); ++E) {
          Value Got = fromDeviceBytes(KArgs[I].Bytes, E, Pa.Ty->Elem->S);
          ASSERT_TRUE(valuesClose(Got, Want[Pa.Name].Elems[E], 0))
              << "variant " << K << " (" << rewrite::describeVariant(V) << ") " << Pa.Name
              << "[" << E << "]: device " << printValue(Got) << " vs "
              << printValue(Want[Pa.Name].Elems[E]);
        }
      }
    }
  }

  /// Reduction: G groups of the variant's work-group size (or 32).
  void checkReduceVariants(const char *Text, const std::map<std::string, int64_t> &Sizes,
                           int64_t BufLen, size_t Groups, double Tol) {
    Program P = parseOrDie(Text);
    std::vector<rewrite::VariantParams> Vs = build(P);
    std::mt19937_64 Rng(17);
    ValueMap Args = randomArgs(P, Sizes, BufLen, Rng), Copy = Args;
    Value Want;
    std::string Err;
    ASSERT_TRUE(runProgram(P, Copy, Want, Err)) << Err;
    std::vector<Value> Leaves;
    std::function<void(const Value &)> Flat = [&](const Value &V) {
      if (V.K == Value::Tuple)
        for (const Value &E : V.Elems)
          Flat(E);
      else
        Leaves.push_back(V);
    };
    Flat(Want);
    for (size_t K = 0; K < Vs.size(); ++K) {
      size_t L = Vs[K].WorkGroup[0] ? Vs[K].WorkGroup[0] : 32;
      std::vector<KernelArg> KArgs;
      for (const funil::Param &Pa : P.Params)
        KArgs.push_back(Pa.Ty->isBuffer()
                            ? KernelArg::buffer(toDeviceBytes(Args[Pa.Name], Pa.Ty->Elem->S))
                            : scalarKernelArg(Args[Pa.Name]));
      size_t NParams = KArgs.size();
      std::vector<size_t> Slots = reduceSlotBytes(P, Leaves);
      for (size_t B : Slots)
        KArgs.push_back(KernelArg::buffer(std::vector<uint8_t>(Groups * B)));
      for (size_t B : Slots)
        KArgs.push_back(KernelArg::local(L * B));
      std::string Name = rewrite::variantKernelName("k", K);
      ASSERT_TRUE(runner().run(Name + "_partial", KArgs, {Groups * L}, {L}, Err)) << Err;
      std::vector<KernelArg> FArgs{KernelArg::scalar<int64_t>(Groups)};
      for (size_t J = 0; J < Slots.size(); ++J)
        FArgs.push_back(KArgs[NParams + J]);
      for (size_t B : Slots)
        FArgs.push_back(KernelArg::buffer(std::vector<uint8_t>(B)));
      for (size_t B : Slots)
        FArgs.push_back(KernelArg::local(L * B));
      ASSERT_TRUE(runner().run(Name + "_final", FArgs, {L}, {L}, Err)) << Err;
      for (size_t J = 0; J < Leaves.size(); ++J) {
        Value Got = fromDeviceBytes(FArgs[1 + Slots.size() + J].Bytes, 0, Leaves[J].S);
        ASSERT_TRUE(valuesClose(Got, Leaves[J], Tol))
            << "variant " << K << " (" << rewrite::describeVariant(Vs[K]) << ") accumulator "
            << J << ": device " << printValue(Got) << " vs " << printValue(Leaves[J]);
      }
    }
  }
};

/// saxpy at element offset o of both buffers.
const char *SaxpyAt =
    "idiom sxo(x: [f32], y: [f32], o: i64, n0: i64) { store view(y, o, 1:i64, n0) = "
    "map(\\(t: (f32, f32)) => fadd(fmul(2.5:f32, t.0), t.1), zip(view(x, o, 1:i64, n0), "
    "view(y, o, 1:i64, n0))); }";
/// A dot product of doubles, x at offset o, y at 0.
const char *DotAt =
    "idiom dto(x: [f64], y: [f64], o: i64, n0: i64) { return reduce(\\(a: f64, b: f64) => "
    "fadd(a, b), 0.0:f64, map(\\(t: (f64, f64)) => fmul(t.0, t.1), zip(view(x, o, 1:i64, n0), "
    "view(y, 0:i64, 1:i64, n0)))); }";
/// Bytes summed into an i32 and their maximum, at offset o.
const char *BytesAt =
    "idiom bto(x: [i8], o: i64, n0: i64) { return reduce(\\(a: (i32, i32), b: (i32, i32)) => "
    "(add(a.0, b.0), smax(a.1, b.1)), (0:i32, -2147483648:i32), map(\\(v: i8) => "
    "(sext.i32(v), sext.i32(v)), view(x, o, 1:i64, n0))); }";

TEST_F(VariantExec, MapsAtOddLengthsAndOffsets) {
  for (int64_t O : {0, 1, 3})
    for (int64_t N : {1, 7, 1001, 4096})
      checkMapVariants(SaxpyAt, {{"n0", N}, {"o", O}}, N + 5, "n0");
  checkMapVariants(ex::TwoOuts, {{"n0", 999}}, 999, "n0");
  checkMapVariants(ex::Scale2D, {{"n0", 13}, {"n1", 10}, {"lda", 12}}, 13 * 12, "n1", "n0");
}

/// A 3-D 7-point stencil as the lift writes it (bench/heat3d.c): the seven
/// reads are views of x with one plane stride sp, row stride sr and their
/// own offsets (o - sp and o + sp: the z-neighbours the plane walk reuses).
const char *Stencil3D =
    "idiom st3(x: [f64], y: [f64], n0: i64, n1: i64, n2: i64, sp: i64, sr: i64, o: i64) { "
    "store view(y, o, sp, n0, sr, n1, 1:i64, n2) = map(\\(p: ([[f64]_n2]_n1, [[f64]_n2]_n1, "
    "[[f64]_n2]_n1, [[f64]_n2]_n1, [[f64]_n2]_n1, [[f64]_n2]_n1, [[f64]_n2]_n1)) => "
    "map(\\(r: ([f64]_n2, [f64]_n2, [f64]_n2, [f64]_n2, [f64]_n2, [f64]_n2, [f64]_n2)) => "
    "map(\\(t: (f64, f64, f64, f64, f64, f64, f64)) => fadd(t.0, fmul(0.1:f64, "
    "fsub(fadd(fadd(fadd(fadd(fadd(t.1, t.2), t.3), t.4), t.5), t.6), fmul(6.0:f64, t.0)))), "
    "zip(r.0, r.1, r.2, r.3, r.4, r.5, r.6)), zip(p.0, p.1, p.2, p.3, p.4, p.5, p.6)), "
    "zip(view(x, o, sp, n0, sr, n1, 1:i64, n2), view(x, sub(o, sp), sp, n0, sr, n1, 1:i64, n2), "
    "view(x, add(o, sp), sp, n0, sr, n1, 1:i64, n2), view(x, sub(o, sr), sp, n0, sr, n1, 1:i64, n2), "
    "view(x, add(o, sr), sp, n0, sr, n1, 1:i64, n2), view(x, sub(o, 1:i64), sp, n0, sr, n1, 1:i64, n2), "
    "view(x, add(o, 1:i64), sp, n0, sr, n1, 1:i64, n2))); }";

/// Jacobi's 5-point stencil as the lift writes it (bench/jacobi2d.c): the
/// interior of a grid with row stride ld, the four reads views of x at
/// their own offsets.
const char *Stencil2D =
    "idiom st2(x: [f64], y: [f64], n0: i64, n1: i64, ld: i64, o: i64) { "
    "store view(y, o, ld, n0, 1:i64, n1) = map(\\(r: ([f64]_n1, [f64]_n1, [f64]_n1, "
    "[f64]_n1)) => map(\\(t: (f64, f64, f64, f64)) => fmul(0.25:f64, fadd(fadd(fadd(t.0, "
    "t.1), t.2), t.3)), zip(r.0, r.1, r.2, r.3)), zip(view(x, sub(o, ld), ld, n0, 1:i64, n1), "
    "view(x, add(o, ld), ld, n0, 1:i64, n1), view(x, sub(o, 1:i64), ld, n0, 1:i64, n1), "
    "view(x, add(o, 1:i64), ld, n0, 1:i64, n1))); }";

TEST_F(VariantExec, Stencil2DEveryVariant) {
  // Bit-exact against the interpreter in every variant, the row walks of
  // 16 and 64 rows (CPU devices) included: 37 rows (two whole chunks of 16
  // and a ragged one of 5; one ragged chunk of 64), 5 rows (fewer than a
  // chunk), 64 rows (whole chunks of both), 1 row.
  for (int64_t N0 : {37, 5, 64, 1}) {
    int64_t N1 = 11, LD = N1 + 2;
    checkMapVariants(Stencil2D, {{"n0", N0}, {"n1", N1}, {"ld", LD}, {"o", LD + 1}},
                     LD * (N0 + 2), "n1", "n0");
  }
  Program P = parseOrDie(Stencil2D);
  bool Walks = false;
  for (const rewrite::VariantParams &V : rewrite::exploreVariants(P))
    Walks |= V.RowWalk == 16;
  EXPECT_TRUE(Walks) << "a 2-D map offers the row walk";
}

TEST_F(VariantExec, Stencil3DEveryVariant) {
  // The interior of a 23 x 9 x 11 grid: 21 planes (the plane walks of 16, 8
  // and 4 end with ragged chunks of 5, 5 and 1), rows of 9
  // points (narrower than every work-group), bit-exact against the
  // interpreter in every variant, the plane walks included.
  int64_t N2 = 9, N1 = 7, N0 = 21, SR = N2 + 2, SP = SR * (N1 + 2);
  checkMapVariants(Stencil3D,
                   {{"n0", N0}, {"n1", N1}, {"n2", N2}, {"sp", SP}, {"sr", SR},
                    {"o", SP + SR + 1}},
                   SP * (N0 + 2), "n2", "n1", "n0");
  // fewer planes than one walk's chunk
  checkMapVariants(Stencil3D,
                   {{"n0", 2}, {"n1", 3}, {"n2", 5}, {"sp", 35}, {"sr", 7}, {"o", 43}},
                   35 * 4, "n2", "n1", "n0");
}

TEST_F(VariantExec, ReductionsAtOddLengthsAndOffsets) {
  for (int64_t O : {0, 1, 2})
    for (int64_t N : {0, 3, 1001, 5000})
      checkReduceVariants(DotAt, {{"n0", N}, {"o", O}}, N + 4, 3, 1e-9);
  for (int64_t O : {0, 1, 5})
    checkReduceVariants(BytesAt, {{"n0", 3333}, {"o", O}}, 3340, 4, 0);
  checkReduceVariants(ex::DotAndMax, {{"n0", 4099}}, 4099, 2, 1e-4);
  checkReduceVariants(ex::CountPositive, {{"n0", 2001}}, 2001, 5, 1e-12);
}

TEST_F(OpenCLExec, Saxpy) { checkMap(ex::Saxpy, {{"n0", 1000}}, 1000, {1008}, {16}, 0); }
TEST_F(OpenCLExec, TwoOuts) { checkMap(ex::TwoOuts, {{"n0", 77}}, 77, {80}, {16}, 0); }
TEST_F(OpenCLExec, Scale3D) {
  // A 3-D NDRange: dimension 0 over the elements, 1 the rows, 2 the planes,
  // each rounded up past its length (the kernel guards its bounds).
  checkMap(ex::Scale3D, {{"n0", 5}, {"n1", 6}, {"n2", 7}, {"sp", 60}, {"sr", 9}}, 300,
           {8, 8, 5}, {4, 2, 1}, 0);
}

TEST_F(OpenCLExec, Scale2D) {
  checkMap(ex::Scale2D, {{"n0", 13}, {"n1", 10}, {"lda", 12}}, 13 * 12, {12, 16}, {4, 4}, 0);
}
TEST_F(OpenCLExec, DotAndMax) {
  for (int64_t N : {0, 1, 5, 1000, 4099})
    checkReduce(ex::DotAndMax, N, 4, 32, 1e-4);
  checkReduce(ex::DotAndMax, 3000, 7, 1, 1e-4);
  checkReduce(ex::DotAndMax, 3000, 1, 64, 1e-4);
}
TEST_F(OpenCLExec, SumI32) {
  for (int64_t N : {0, 3, 999})
    checkReduce(ex::SumI32, N, 3, 16, 0);
}
TEST_F(OpenCLExec, CountPositive) { checkReduce(ex::CountPositive, 2000, 5, 8, 1e-12); }

} // namespace
