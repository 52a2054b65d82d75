//===- OperatorLawsTest.cpp - Structural shortcuts agree with Z3 ----------===//
//
// proveAssocComm and proveIdentity skip Z3 for textbook operators
// (OperatorLaws.h), and proveNoLoopCarriedDependence for pairs of accesses
// with constant offsets, equal constant strides and a constant trip count.
// For every shape that textbookOperator recognises, on every accumulator
// type a reduction may have, Z3 must prove the same laws; every dependence
// question decided by arithmetic must get Z3's answer and reason.

#include "TestIR.h"
#include "idiom/Constraints/HistogramLaws.h"
#include "idiom/Constraints/OperatorLaws.h"
#include "idiom/Constraints/TimeReport.h"
#include "idiom/Constraints/Z3Budget.h"
#include "idiom/Constraints/Z3Checks.h"
#include "llvm/IR/Instructions.h"
#include "gtest/gtest.h"
#include <cstdlib>
#include <string>

using namespace llvm;
using namespace idiom;
using namespace idiom::constraints::test;

namespace {

/// A loop `acc = BODY(acc, v)` over x[0..n) of element type Ty; BODY defines
/// %upd from %acc and %v (and may define helpers).
std::string reductionIR(const std::string &Ty, const std::string &Init,
                        const std::string &Body) {
  return "declare i8 @llvm.smin.i8(i8, i8)\n"
         "declare i16 @llvm.smax.i16(i16, i16)\n"
         "declare i32 @llvm.smin.i32(i32, i32)\n"
         "declare i32 @llvm.smax.i32(i32, i32)\n"
         "declare i32 @llvm.umin.i32(i32, i32)\n"
         "declare i64 @llvm.umax.i64(i64, i64)\n"
         "declare float @llvm.minnum.f32(float, float)\n"
         "declare double @llvm.maxnum.f64(double, double)\n"
         "declare double @llvm.fmuladd.f64(double, double, double)\n"
         "define " + Ty + " @f(ptr %x, ptr %y, i64 %n) {\n"
         "entry:\n  br label %loop\n"
         "loop:\n"
         "  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]\n"
         "  %acc = phi " + Ty + " [ " + Init + ", %entry ], [ %upd, %loop ]\n"
         "  %p = getelementptr " + Ty + ", ptr %x, i64 %i\n"
         "  %v = load " + Ty + ", ptr %p\n"
         "  %q = getelementptr " + Ty + ", ptr %y, i64 %i\n"
         "  %w = load " + Ty + ", ptr %q\n" + Body +
         "  %i.next = add nuw nsw i64 %i, 1\n"
         "  %c = icmp ult i64 %i.next, 1000\n"
         "  br i1 %c, label %loop, label %exit\n"
         "exit:\n  %r = phi " + Ty + " [ %upd, %loop ]\n  ret " + Ty + " %r\n}\n";
}

struct Case {
  const char *Name;
  std::string Ty, Init, Body;
  std::optional<ReductionOp> Textbook; ///< what textbookOperator must say
};

std::vector<Case> cases() {
  std::vector<Case> Out;
  for (const char *Ty : {"i8", "i16", "i32", "i64"}) {
    std::string T = Ty;
    for (auto [Op, R] : {std::pair{"add", ReductionOp::Add},
                         {"mul", ReductionOp::Mul},
                         {"and", ReductionOp::And},
                         {"or", ReductionOp::Or},
                         {"xor", ReductionOp::Xor}}) {
      Out.push_back({Op, T, "0", "  %upd = " + std::string(Op) + " " + T + " %acc, %v\n", R});
      Out.push_back({Op, T, "0", "  %upd = " + std::string(Op) + " " + T + " %v, %acc\n", R});
    }
    // Compare and select, every order predicate, both select orders.
    for (const char *P : {"slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"}) {
      std::string Pr = P;
      bool Less = Pr[1] == 'l';
      bool Signed = Pr[0] == 's';
      ReductionOp Min = Signed ? ReductionOp::SMin : ReductionOp::UMin;
      ReductionOp Max = Signed ? ReductionOp::SMax : ReductionOp::UMax;
      Out.push_back({P, T, "0", "  %k = icmp " + Pr + " " + T + " %v, %acc\n"
                                "  %upd = select i1 %k, " + T + " %v, " + T + " %acc\n",
                     Less ? Min : Max});
      Out.push_back({P, T, "0", "  %k = icmp " + Pr + " " + T + " %acc, %v\n"
                                "  %upd = select i1 %k, " + T + " %v, " + T + " %acc\n",
                     Less ? Max : Min});
    }
    // Not textbook: Z3 decides (and refutes or proves) as before.
    Out.push_back({"sub", T, "0", "  %upd = sub " + T + " %acc, %v\n", std::nullopt});
    Out.push_back({"add-twice", T, "0", "  %s = add " + T + " %v, %v\n"
                                        "  %upd = add " + T + " %acc, %s\n",
                   ReductionOp::Add});
    Out.push_back({"shl", T, "0", "  %upd = shl " + T + " %acc, %v\n", std::nullopt});
    Out.push_back({"udiv", T, "1", "  %upd = udiv " + T + " %acc, %v\n", std::nullopt});
  }
  Out.push_back({"smin.i8", "i8", "0", "  %upd = call i8 @llvm.smin.i8(i8 %acc, i8 %v)\n", ReductionOp::SMin});
  Out.push_back({"smax.i16", "i16", "0", "  %upd = call i16 @llvm.smax.i16(i16 %v, i16 %acc)\n", ReductionOp::SMax});
  Out.push_back({"smin.i32", "i32", "0", "  %upd = call i32 @llvm.smin.i32(i32 %acc, i32 %v)\n", ReductionOp::SMin});
  Out.push_back({"smax.i32", "i32", "0", "  %upd = call i32 @llvm.smax.i32(i32 %acc, i32 %v)\n", ReductionOp::SMax});
  Out.push_back({"umin.i32", "i32", "0", "  %upd = call i32 @llvm.umin.i32(i32 %v, i32 %acc)\n", ReductionOp::UMin});
  Out.push_back({"umax.i64", "i64", "0", "  %upd = call i64 @llvm.umax.i64(i64 %acc, i64 %v)\n", ReductionOp::UMax});
  for (const char *Ty : {"float", "double"}) {
    std::string T = Ty;
    Out.push_back({"fadd", T, "0.0", "  %upd = fadd " + T + " %acc, %v\n", ReductionOp::FAdd});
    Out.push_back({"fadd", T, "0.0", "  %upd = fadd fast " + T + " %v, %acc\n", ReductionOp::FAdd});
    Out.push_back({"fmul", T, "1.0", "  %upd = fmul " + T + " %acc, %v\n", ReductionOp::FMul});
    // The element replaces the accumulator only under an ordered predicate
    // (ordered with the element on the true arm, unordered with it on the
    // false arm); the other forms are refused (FloatSelectWhereNaNWins).
    for (const char *P : {"olt", "ole", "ogt", "oge", "ult", "ule", "ugt", "uge"}) {
      std::string Pr = P;
      bool Less = Pr[1] == 'l', Ordered = Pr[0] == 'o';
      std::string Arms = Ordered ? T + " %v, " + T + " %acc" : T + " %acc, " + T + " %v";
      Out.push_back({P, T, "0.0", "  %k = fcmp " + Pr + " " + T + " %v, %acc\n"
                                  "  %upd = select i1 %k, " + Arms + "\n",
                     Less == Ordered ? ReductionOp::FMin : ReductionOp::FMax});
    }
    Out.push_back({"fsub", T, "0.0", "  %upd = fsub " + T + " %acc, %v\n", std::nullopt});
    Out.push_back({"fdiv", T, "1.0", "  %upd = fdiv " + T + " %acc, %v\n", std::nullopt});
  }
  Out.push_back({"minnum", "float", "0.0", "  %upd = call float @llvm.minnum.f32(float %acc, float %v)\n", ReductionOp::FMin});
  Out.push_back({"maxnum", "double", "0.0", "  %upd = call double @llvm.maxnum.f64(double %v, double %acc)\n", ReductionOp::FMax});
  Out.push_back({"fmuladd", "double", "0.0",
                 "  %upd = call double @llvm.fmuladd.f64(double %v, double %w, double %acc)\n",
                 ReductionOp::FAdd});
  return Out;
}

TEST(OperatorLawsTest, TextbookOperatorsAgreeWithZ3) {
  // Ask Z3 itself, not the on-disk memo of laws (when this test is the first
  // to use it in the process).
  setenv("IDIOM_CACHE_DIR", "off", 1);
  unsigned Textbook = 0;
  for (const Case &C : cases()) {
    SCOPED_TRACE(std::string(C.Name) + " on " + C.Ty + ":\n" + C.Body);
    TestIR IR(reductionIR(C.Ty, C.Init, C.Body), "f");
    std::string Why;
    auto N = analyzeNest(IR.loop("loop"), IR.env().SE, Why);
    ASSERT_TRUE(N) << Why;
    auto R = analyzeReduction(cast<PHINode>(IR.value("acc")), *N, Why);
    ASSERT_TRUE(R) << Why;
    std::optional<ReductionOp> Op =
        textbookOperator(R->FirstLink, R->Phi, R->Operands.front());
    EXPECT_EQ(Op, C.Textbook);
    std::string W1, W2, W3, W4;
    Proof Fast = proveAssocComm(*R, 20000, W1);
    Proof FastId = proveIdentity(*R, 20000, W3);
    setStructuralShortcuts(false);
    Proof Slow = proveAssocComm(*R, 20000, W2);
    Proof SlowId = proveIdentity(*R, 20000, W4);
    setStructuralShortcuts(true);
    if (Op) {
      ++Textbook;
      // Z3 proves what the shortcut assumes.
      EXPECT_EQ(Slow, Proof::Proven) << W2;
      EXPECT_EQ(Fast, Proof::Proven);
      if (*Op == R->Op) {
        EXPECT_EQ(SlowId, Proof::Proven) << W4;
        EXPECT_EQ(FastId, Proof::Proven);
      }
    }
    // Either way the answers are Z3's.
    EXPECT_EQ(Fast, Slow) << W1 << " / " << W2;
    EXPECT_EQ(FastId, SlowId) << W3 << " / " << W4;
    EXPECT_EQ(W1, W2);
    EXPECT_EQ(W3, W4);
  }
  EXPECT_GT(Textbook, 60u);
}

TEST(OperatorLawsTest, FloatSelectWhereNaNWins) {
  // A NaN element replaces the accumulator: not associative, refused.
  for (const char *P : {"olt", "ole", "ogt", "oge", "ult", "ule", "ugt", "uge"}) {
    std::string Pr = P;
    std::string Arms = Pr[0] == 'o' ? "float %acc, float %v" : "float %v, float %acc";
    TestIR IR(reductionIR("float", "0.0", "  %k = fcmp " + Pr + " float %v, %acc\n"
                                          "  %upd = select i1 %k, " + Arms + "\n"),
              "f");
    SCOPED_TRACE(Pr);
    std::string Why;
    auto N = analyzeNest(IR.loop("loop"), IR.env().SE, Why);
    ASSERT_TRUE(N) << Why;
    EXPECT_FALSE(analyzeReduction(cast<PHINode>(IR.value("acc")), *N, Why));
    EXPECT_NE(Why.find("replaces the accumulator when either is NaN"), std::string::npos) << Why;
  }
}

TEST(OperatorLawsTest, NeedsAccumulatorAndElement) {
  TestIR IR(reductionIR("i32", "0", "  %s = add i32 %v, %w\n  %upd = add i32 %acc, %s\n"), "f");
  auto *S = cast<Instruction>(IR.value("s"));
  auto *Acc = IR.value("acc");
  EXPECT_EQ(textbookOperator(S, IR.value("v"), IR.value("w")), ReductionOp::Add);
  EXPECT_EQ(textbookOperator(S, Acc, IR.value("v")), std::nullopt);
  EXPECT_EQ(textbookOperator(S, IR.value("v"), IR.value("v")), std::nullopt);
  EXPECT_EQ(textbookOperator(nullptr, Acc, IR.value("v")), std::nullopt);
}

TEST(OperatorLawsTest, SelectsThatAreNotMinMax) {
  TestIR IR(reductionIR("i32", "0",
                        "  %e = icmp eq i32 %v, %acc\n"
                        "  %s1 = select i1 %e, i32 %v, i32 %acc\n"
                        "  %l = icmp slt i32 %v, %acc\n"
                        "  %s2 = select i1 %l, i32 %v, i32 %v\n"
                        "  %s3 = select i1 %l, i32 %v, i32 %w\n"
                        "  %m = icmp slt i32 %v, %w\n"
                        "  %s4 = select i1 %m, i32 %v, i32 %acc\n"
                        "  %upd = add i32 %acc, %v\n"),
            "f");
  Value *Acc = IR.value("acc"), *V = IR.value("v");
  for (const char *S : {"s1", "s2", "s3", "s4"})
    EXPECT_EQ(textbookOperator(cast<Instruction>(IR.value(S)), Acc, V), std::nullopt) << S;
  EXPECT_EQ(textbookOperator(cast<Instruction>(IR.value("upd")), Acc, V), ReductionOp::Add);
}

/// A 1-D loop of \p Trips iterations over float a[]: a load of a[s*i + LoadOff]
/// and a store to a[s*i + StoreOff], the load first (the store writes the
/// loaded value plus one) or the store first (the load feeds a store to b).
std::string dependenceIR(int64_t S, int64_t StoreOff, int64_t LoadOff,
                         int64_t Trips, bool LoadFirst) {
  std::string Ld = "  %lo = add nsw i64 %si, " + std::to_string(LoadOff) + "\n"
                   "  %pl = getelementptr inbounds float, ptr %a, i64 %lo\n"
                   "  %v = load float, ptr %pl\n";
  std::string St = "  %so = add nsw i64 %si, " + std::to_string(StoreOff) + "\n"
                   "  %ps = getelementptr inbounds float, ptr %a, i64 %so\n";
  std::string Body =
      LoadFirst ? Ld + "  %w = fadd float %v, 1.0\n" + St + "  store float %w, ptr %ps\n"
                : St + "  store float 2.0, ptr %ps\n" + Ld +
                      "  %pb = getelementptr inbounds float, ptr %b, i64 %i\n"
                      "  store float %v, ptr %pb\n";
  return "define void @f(ptr noalias %a, ptr noalias %b) {\n"
         "entry:\n  br label %loop\n"
         "loop:\n"
         "  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]\n"
         "  %si = mul nsw i64 %i, " + std::to_string(S) + "\n" + Body +
         "  %i.next = add nuw nsw i64 %i, 1\n"
         "  %c = icmp ult i64 %i.next, " + std::to_string(Trips) + "\n"
         "  br i1 %c, label %loop, label %exit\n"
         "exit:\n  ret void\n}\n";
}

TEST(OperatorLawsTest, ConstantStrideDependencesAgreeWithZ3) {
  setenv("IDIOM_CACHE_DIR", "off", 1);
  TimeReport::enable(/*PrintAtExit=*/false);
  unsigned Before = TimeReport::calls("dependence: constant strides");
  unsigned Proven = 0, Refuted = 0;
  for (int64_t S : {1, 2, -1, 0})
    for (int64_t StoreOff : {0, 1, 4})
      for (int64_t LoadOff : {0, 1, 2, 5})
        for (int64_t Trips : {1, 2, 3, 60})
          for (bool LoadFirst : {true, false}) {
            std::string Text = dependenceIR(S, StoreOff, LoadOff, Trips, LoadFirst);
            SCOPED_TRACE(Text);
            TestIR IR(Text, "f");
            std::string Why;
            auto N = analyzeNest(IR.loop("loop"), IR.env().SE, Why);
            ASSERT_TRUE(N) << Why;
            SmallVector<AffineAccess, 4> Accs;
            for (BasicBlock *BB : N->Loops.front()->blocks())
              for (Instruction &I : *BB)
                if (isa<LoadInst>(I) || isa<StoreInst>(I)) {
                  auto A = analyzeAccess(&I, *N, IR.env().SE, Why);
                  ASSERT_TRUE(A) << Why;
                  Accs.push_back(*A);
                }
            std::string W1, W2;
            Proof Fast = proveNoLoopCarriedDependence(Accs, *N, IR.env().SE, 20000, W1);
            setStructuralShortcuts(false);
            Proof Slow = proveNoLoopCarriedDependence(Accs, *N, IR.env().SE, 20000, W2);
            setStructuralShortcuts(true);
            EXPECT_EQ(Fast, Slow) << W1 << " / " << W2;
            EXPECT_EQ(W1, W2);
            Proven += Slow == Proof::Proven;
            Refuted += Slow == Proof::Refuted;
          }
  // The shortcut decided the pairs that Z3 was asked about (a refuted pair
  // ends the search, so not every pair is reached).
  EXPECT_GT(TimeReport::calls("dependence: constant strides") - Before, 300u);
  // Both answers occur often.
  EXPECT_GT(Proven, 40u);
  EXPECT_GT(Refuted, 40u);
}

} // namespace

namespace {

TEST(OperatorLawsTest, HistogramCandidatesAreLawful) {
  setenv("IDIOM_CACHE_DIR", "off", 1);
  // A check of the candidate table itself, once, not a per-loop query: the
  // 64-bit saturating add needs more than the per-query resource limit.
  unsigned SavedLimit = z3ResourceLimit();
  setZ3ResourceLimit(0);
  for (unsigned W : {0u, 1u, 8u, 16u, 32u, 64u}) {
    std::string Why;
    EXPECT_EQ(proveHistogramCandidateLaws(W, 60000, Why), Proof::Proven)
        << "width " << W << ": " << Why;
  }
  setZ3ResourceLimit(SavedLimit);
}

} // namespace
