//===- GatherFactsTest.cpp - Which loads are gathers ----------------------===//
//
// analyzeGather (GatherFacts.h): x[idx[i]] with the index computed from
// affine loads is a gather; a load through an array the loop writes, two
// levels of indirection, an index without a load, an index that depends on
// a value carried across iterations and a base computed in the loop are
// not.

#include "TestIR.h"
#include "idiom/Constraints/GatherFacts.h"
#include "llvm/IR/Instructions.h"
#include "gtest/gtest.h"
#include <string>

using namespace llvm;
using namespace idiom;
using namespace idiom::constraints::test;

namespace {

/// y[i] = x[INDEX] over i < n: BODY defines %ix (i64) from %p (perm[i],
/// i32), %i and the arguments; STORE_BASE is the array stored to.
std::string gatherIR(const std::string &Body, const std::string &StoreBase = "%y") {
  return "define void @f(ptr %y, ptr %x, ptr %perm, i64 %n, i64 %s) {\n"
         "entry:\n  br label %loop\n"
         "loop:\n"
         "  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]\n"
         "  %acc = phi i64 [ 0, %entry ], [ %acc.next, %loop ]\n"
         "  %pp = getelementptr i32, ptr %perm, i64 %i\n"
         "  %p = load i32, ptr %pp\n" +
         Body +
         "  %xp = getelementptr float, ptr %x, i64 %ix\n"
         "  %v = load float, ptr %xp\n"
         "  %yp = getelementptr float, ptr " + StoreBase + ", i64 %i\n"
         "  store float %v, ptr %yp\n"
         "  %acc.next = add i64 %acc, 1\n"
         "  %i.next = add nuw nsw i64 %i, 1\n"
         "  %c = icmp ult i64 %i.next, %n\n"
         "  br i1 %c, label %loop, label %exit\n"
         "exit:\n  ret void\n}\n";
}

/// True when analyzeGather takes the load %v of \p IR; Why otherwise.
bool gatherOf(const std::string &IR, std::string &Why) {
  TestIR T(IR, "f");
  constraints::MatchEnv &Env = T.env();
  std::optional<NestInfo> N = analyzeNest(T.loop("loop"), Env.SE, Why);
  if (!N)
    return false;
  auto *Ld = dyn_cast_or_null<LoadInst>(T.value("v"));
  if (!Ld) {
    Why = "no load %v";
    return false;
  }
  std::optional<GatherInfo> G = analyzeGather(Ld, *N, Env.SE, Why);
  return G && G->Load == Ld && G->Base == T.value("x") && G->Index == T.value("ix");
}

TEST(GatherFacts, PermutedLoadIsAGather) {
  std::string Why;
  EXPECT_TRUE(gatherOf(gatherIR("  %ix = sext i32 %p to i64\n"), Why)) << Why;
}

TEST(GatherFacts, ShiftedAndOffsetIndexIsAGather) {
  std::string Why;
  EXPECT_TRUE(gatherOf(gatherIR("  %q = ashr i32 %p, 2\n  %r = sext i32 %q to i64\n"
                                "  %ix = add i64 %r, %s\n"),
                       Why))
      << Why;
}

TEST(GatherFacts, ArrayWrittenByTheLoopIsNot) {
  std::string Why;
  EXPECT_FALSE(gatherOf(gatherIR("  %ix = sext i32 %p to i64\n", "%x"), Why));
  EXPECT_NE(Why.find("which the loop also writes"), std::string::npos) << Why;
}

TEST(GatherFacts, IndexWithoutALoadIsNot) {
  std::string Why;
  EXPECT_FALSE(gatherOf(gatherIR("  %ix = mul i64 %i, %s\n"), Why));
  EXPECT_NE(Why.find("reads no array"), std::string::npos) << Why;
}

TEST(GatherFacts, TwoLevelsOfIndirectionAreNot) {
  std::string Why;
  EXPECT_FALSE(gatherOf(gatherIR("  %pe = sext i32 %p to i64\n"
                                 "  %qp = getelementptr i32, ptr %perm, i64 %pe\n"
                                 "  %q = load i32, ptr %qp\n"
                                 "  %ix = sext i32 %q to i64\n"),
                        Why));
  EXPECT_NE(Why.find("two levels"), std::string::npos) << Why;
}

TEST(GatherFacts, IndexFromACarriedValueIsNot) {
  std::string Why;
  EXPECT_FALSE(gatherOf(gatherIR("  %pe = sext i32 %p to i64\n  %ix = add i64 %pe, %acc\n"),
                        Why));
  EXPECT_NE(Why.find("not an induction variable"), std::string::npos) << Why;
}

} // namespace
