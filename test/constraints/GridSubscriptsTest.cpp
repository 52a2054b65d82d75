//===- GridSubscriptsTest.cpp - gridSubscripts ---------------------------===//
//
// gridSubscripts (GridSubscripts.h) on the byte offsets of accesses of a
// variable-length 2-D grid `float (*u)[n]`, offset by %o elements: NAS MG's
// prolongation writes u[2*i + a][2*j + c]. The subscripts, extents and
// origin it recovers, and the indices it refuses (a product of two
// iteration numbers, monomials that are no chain, a coefficient that is no
// whole number of elements).
//
//===----------------------------------------------------------------------===//

#include "idiom/Constraints/GridSubscripts.h"
#include "TestIR.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "gtest/gtest.h"
#include <string>

using namespace llvm;
using namespace idiom;
using namespace idiom::constraints::test;

namespace {

/// A 2-D nest i < 10, j < 10 storing to u at element index IDX (an
/// instruction sequence computing %idx from %i, %j, %n, %m, %o).
std::string nestIR(const std::string &Idx) {
  return "define void @f(ptr noalias %u, i64 %n, i64 %m, i64 %o) {\n"
         "entry:\n  br label %outer\n"
         "outer:\n"
         "  %i = phi i64 [ 0, %entry ], [ %i.next, %latch ]\n"
         "  br label %inner\n"
         "inner:\n"
         "  %j = phi i64 [ 0, %outer ], [ %j.next, %inner ]\n" +
         Idx +
         "  %p = getelementptr inbounds float, ptr %u, i64 %idx\n"
         "  store float 1.0, ptr %p\n"
         "  %j.next = add nuw nsw i64 %j, 1\n"
         "  %jc = icmp ult i64 %j.next, 10\n"
         "  br i1 %jc, label %inner, label %latch\n"
         "latch:\n"
         "  %i.next = add nuw nsw i64 %i, 1\n"
         "  %ic = icmp ult i64 %i.next, 10\n"
         "  br i1 %ic, label %outer, label %exit\n"
         "exit:\n  ret void\n}\n";
}

std::optional<GridSubscripts> gridOf(TestIR &IR, uint64_t Scale = 4) {
  ScalarEvolution &SE = IR.env().SE;
  const SCEV *Off =
      SE.getMinusSCEV(SE.getSCEV(IR.value("p")), SE.getSCEV(IR.value("u")));
  return gridSubscripts(Off, Scale, SE);
}

// u[2*i + 1][2*j + 1] + o: rows of n, subscripts {1,+,2} in both loops.
TEST(GridSubscriptsTest, StridedRowsAndOrigin) {
  TestIR IR(
      nestIR("  %r = shl i64 %i, 1\n  %r1 = or disjoint i64 %r, 1\n"
             "  %rn = mul nsw i64 %r1, %n\n  %c = shl i64 %j, 1\n"
             "  %c1 = or disjoint i64 %c, 1\n  %rc = add nsw i64 %rn, %c1\n"
             "  %idx = add nsw i64 %rc, %o\n"),
      "f");
  ScalarEvolution &SE = IR.env().SE;
  auto G = gridOf(IR);
  ASSERT_TRUE(G);
  ASSERT_EQ(G->Sizes.size(), 1u);
  EXPECT_EQ(G->Sizes[0], SE.getSCEV(IR.value("n")));
  EXPECT_EQ(G->Origin, SE.getSCEV(IR.value("o")));
  ASSERT_EQ(G->Subs.size(), 2u);
  for (unsigned D = 0; D < 2; ++D) {
    auto *AR = dyn_cast<SCEVAddRecExpr>(G->Subs[D]);
    ASSERT_TRUE(AR) << D;
    EXPECT_EQ(AR->getLoop(), IR.loop(D == 0 ? "inner" : "outer"));
    EXPECT_EQ(AR->getStart(), SE.getOne(AR->getType()));
    EXPECT_EQ(AR->getStepRecurrence(SE), SE.getConstant(AR->getType(), 2));
  }
}

// i * j: a product of two iteration numbers is no subscript.
TEST(GridSubscriptsTest, ProductOfIterationsRefused) {
  TestIR IR(nestIR("  %ij = mul nsw i64 %i, %j\n  %rn = mul nsw i64 %i, %n\n"
                   "  %idx = add nsw i64 %rn, %ij\n"),
            "f");
  EXPECT_FALSE(gridOf(IR));
}

// i*n + j*m: the monomials n and m, neither the other times one factor,
// are no chain.
TEST(GridSubscriptsTest, MonomialsThatAreNoChainRefused) {
  TestIR IR(nestIR("  %in = mul nsw i64 %i, %n\n  %jm = mul nsw i64 %j, %m\n"
                   "  %idx = add nsw i64 %in, %jm\n"),
            "f");
  EXPECT_FALSE(gridOf(IR));
}

// A byte offset that is no whole number of elements (Scale 8 for a
// 4-byte step) is refused.
TEST(GridSubscriptsTest, CoefficientNotAWholeElementRefused) {
  TestIR IR(
      nestIR("  %rn = mul nsw i64 %i, %n\n  %idx = add nsw i64 %rn, %j\n"),
      "f");
  EXPECT_TRUE(gridOf(IR, 4));
  EXPECT_FALSE(gridOf(IR, 8));
}

} // namespace
