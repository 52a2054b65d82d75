//===- IndependentIterationsTest.cpp - proveIndependentIterations --------===//
//
// proveIndependentIterations (Z3Checks.h) on a triangular nest whose every
// number is a constant, against the answer by enumeration: the outer loop j
// < T stores a[cs*j + os] after an inner loop k < j + d that sums a[cl*k +
// ol]. Two iterations j1 != j2 depend on each other when the store of one
// meets the store or a load of the other.
//
//===----------------------------------------------------------------------===//

#include "TestIR.h"
#include "idiom/Constraints/Z3Checks.h"
#include "gtest/gtest.h"
#include <cstdlib>
#include <string>

using namespace llvm;
using namespace idiom;
using namespace idiom::constraints::test;

namespace {

std::string triangleIR(int64_t T, int64_t D, int64_t CS, int64_t OS,
                       int64_t CL, int64_t OL) {
  auto N = [](int64_t V) { return std::to_string(V); };
  return "define void @f(ptr noalias %a) {\n"
         "entry:\n  br label %outer\n"
         "outer:\n"
         "  %j = phi i64 [ 0, %entry ], [ %j.next, %latch ]\n"
         "  %kn = add nuw nsw i64 %j, " + N(D) + "\n"
         "  br label %inner\n"
         "inner:\n"
         "  %k = phi i64 [ 0, %outer ], [ %k.next, %inner ]\n"
         "  %s = phi float [ 0.0, %outer ], [ %s.next, %inner ]\n"
         "  %lk = mul nsw i64 %k, " + N(CL) + "\n"
         "  %lo = add nsw i64 %lk, " + N(OL) + "\n"
         "  %pl = getelementptr inbounds float, ptr %a, i64 %lo\n"
         "  %v = load float, ptr %pl\n"
         "  %s.next = fadd float %s, %v\n"
         "  %k.next = add nuw nsw i64 %k, 1\n"
         "  %kc = icmp ult i64 %k.next, %kn\n"
         "  br i1 %kc, label %inner, label %latch\n"
         "latch:\n"
         "  %sl = phi float [ %s.next, %inner ]\n"
         "  %sj = mul nsw i64 %j, " + N(CS) + "\n"
         "  %so = add nsw i64 %sj, " + N(OS) + "\n"
         "  %ps = getelementptr inbounds float, ptr %a, i64 %so\n"
         "  store float %sl, ptr %ps\n"
         "  %j.next = add nuw nsw i64 %j, 1\n"
         "  %jc = icmp ult i64 %j.next, " + N(T) + "\n"
         "  br i1 %jc, label %outer, label %exit\n"
         "exit:\n  ret void\n}\n";
}

bool dependsByEnumeration(int64_t T, int64_t D, int64_t CS, int64_t OS,
                          int64_t CL, int64_t OL) {
  for (int64_t J1 = 0; J1 < T; ++J1)
    for (int64_t J2 = 0; J2 < T; ++J2) {
      if (J1 == J2)
        continue;
      if (CS * J1 + OS == CS * J2 + OS)
        return true; // two stores
      for (int64_t K = 0; K < J2 + D; ++K)
        if (CS * J1 + OS == CL * K + OL)
          return true; // the store of j1, a load of j2
    }
  return false;
}

/// The counts of the triangles' answers: Proven, Refuted, and the nests
/// with anti dependences only.
struct TriangleCounts {
  unsigned Proven = 0, Refuted = 0, AntiOnly = 0;
};

bool flowOrOutputByEnumeration(int64_t T, int64_t D, int64_t CS, int64_t OS,
                               int64_t CL, int64_t OL);

/// Runs \p Prove on the 288 triangles (triangleIR) and compares each answer
/// with the enumeration \p Depends; a refutation names its dependence.
template <class ProveFn, class DependsFn>
TriangleCounts checkTriangles(ProveFn Prove, DependsFn Depends) {
  setenv("IDIOM_CACHE_DIR", "off", 1);
  TriangleCounts N;
  for (int64_t T : {1, 3, 6})
    for (int64_t D : {1, 2})
      for (int64_t CS : {0, 1, 2, -1})
        for (int64_t OS : {0, 3})
          for (int64_t CL : {1, 2})
            for (int64_t OL : {0, 1, 5}) {
              std::string Text = triangleIR(T, D, CS, OS, CL, OL);
              SCOPED_TRACE(Text);
              TestIR IR(Text, "f");
              std::string Why;
              Proof P = Prove(IR.loop("outer"), IR.env().SE, 20000u, Why);
              bool Dep = Depends(T, D, CS, OS, CL, OL);
              EXPECT_EQ(P, Dep ? Proof::Refuted : Proof::Proven) << Why;
              if (P == Proof::Refuted)
                EXPECT_NE(Why.find("loop-carried"), std::string::npos) << Why;
              N.Proven += P == Proof::Proven;
              N.Refuted += P == Proof::Refuted;
              N.AntiOnly += dependsByEnumeration(T, D, CS, OS, CL, OL) &&
                            !flowOrOutputByEnumeration(T, D, CS, OS, CL, OL);
            }
  return N;
}

TEST(IndependentIterationsTest, TriangleAgreesWithEnumeration) {
  TriangleCounts N =
      checkTriangles(proveIndependentIterations, dependsByEnumeration);
  // Both answers occur often.
  EXPECT_GT(N.Proven, 30u);
  EXPECT_GT(N.Refuted, 30u);
}

/// proveOnlyAntiDependences' answer by enumeration: a store of j1 meets a
/// load of a later j2 (flow) or, unless the store writes one element in
/// every iteration (CS = 0: an in-place accumulator, which the atom leaves
/// to the lifter), the store of another j2 (output). The inner loop only
/// reads.
bool flowOrOutputByEnumeration(int64_t T, int64_t D, int64_t CS, int64_t OS,
                               int64_t CL, int64_t OL) {
  for (int64_t J1 = 0; J1 < T; ++J1)
    for (int64_t J2 = 0; J2 < T; ++J2) {
      if (J1 == J2)
        continue;
      if (CS != 0 && CS * J1 + OS == CS * J2 + OS)
        return true;
      if (J1 < J2)
        for (int64_t K = 0; K < J2 + D; ++K)
          if (CS * J1 + OS == CL * K + OL)
            return true;
    }
  return false;
}

// proveOnlyAntiDependences on the same nests: anti dependences (a store of
// a later iteration over an element an earlier one read) are allowed; a
// refusal is a flow or output dependence.
TEST(IndependentIterationsTest, OnlyAntiAgreesWithEnumeration) {
  TriangleCounts N =
      checkTriangles(proveOnlyAntiDependences, flowOrOutputByEnumeration);
  EXPECT_GT(N.Proven, 30u);
  EXPECT_GT(N.Refuted, 30u);
  // Nests that only anti dependences order: the case the atom adds.
  EXPECT_GT(N.AntiOnly, 10u);
}

// The iterations that meet are all beyond 16 (the witness the report
// prefers): the answer is still a dependence, with a witness.
TEST(IndependentIterationsTest, LargeWitness) {
  TestIR IR(triangleIR(200, 1, 1, 100, 1, 0), "f");
  std::string Why;
  EXPECT_EQ(proveIndependentIterations(IR.loop("outer"), IR.env().SE, 20000, Why),
            Proof::Refuted);
  EXPECT_NE(Why.find("loop-carried flow dependence"), std::string::npos) << Why;
}

// An address read from memory is not analysed: "not proven", with why.
TEST(IndependentIterationsTest, IndirectAddressIsNotProven) {
  TestIR IR("define void @f(ptr noalias %a, ptr noalias %idx) {\n"
            "entry:\n  br label %loop\n"
            "loop:\n"
            "  %j = phi i64 [ 0, %entry ], [ %j.next, %loop ]\n"
            "  %pi = getelementptr inbounds i64, ptr %idx, i64 %j\n"
            "  %x = load i64, ptr %pi\n"
            "  %ps = getelementptr inbounds float, ptr %a, i64 %x\n"
            "  store float 1.0, ptr %ps\n"
            "  %j.next = add nuw nsw i64 %j, 1\n"
            "  %c = icmp ult i64 %j.next, 100\n"
            "  br i1 %c, label %loop, label %exit\n"
            "exit:\n  ret void\n}\n",
            "f");
  std::string Why;
  EXPECT_EQ(proveIndependentIterations(IR.loop("loop"), IR.env().SE, 20000, Why),
            Proof::Unknown);
  EXPECT_NE(Why.find("is not affine"), std::string::npos) << Why;
}

} // namespace
