//===- UpdateEvaluationTest.cpp - Histogram laws without Z3 agree with Z3 -===//
//
// decideUpdateWithoutZ3 (UpdateEvaluation.h) answers, by structural identity
// or by exhaustive evaluation over at most 16 bits, the question that
// proveUpdateOperator otherwise gives Z3. For small updates that hold and
// that do not, Z3 (shortcuts off) must give the same proof, operator and
// reason; updates the procedures do not model must be left to Z3.

#include "TestIR.h"
#include "idiom/Constraints/HistogramFacts.h"
#include "idiom/Constraints/UpdateEvaluation.h"
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

/// A loop updating h[k[i]] (element type Ty) with BODY, which defines %upd
/// from the bin %b and the input %x (type Ty) and, when \p Guarded, the
/// condition %go under which the store runs.
std::string histogramIR(const std::string &Ty, const std::string &Body,
                        bool Guarded) {
  std::string Store = "  store " + Ty + " %upd, ptr %hp\n";
  return "declare i8 @llvm.smax.i8(i8, i8) #0\n"
         "declare i16 @llvm.umin.i16(i16, i16) #0\n"
         "attributes #0 = { nounwind willreturn memory(none) }\n"
         "define void @f(ptr %k, ptr %xs, ptr %h, i64 %n) {\n"
         "entry:\n  br label %loop\n"
         "loop:\n"
         "  %i = phi i64 [ 0, %entry ], [ %i.next, %latch ]\n"
         "  %kp = getelementptr i8, ptr %k, i64 %i\n"
         "  %kv = load i8, ptr %kp\n"
         "  %idx = zext i8 %kv to i64\n"
         "  %xp = getelementptr " + Ty + ", ptr %xs, i64 %i\n"
         "  %x = load " + Ty + ", ptr %xp\n"
         "  %hp = getelementptr " + Ty + ", ptr %h, i64 %idx\n"
         "  %b = load " + Ty + ", ptr %hp\n" + Body +
         (Guarded ? "  br i1 %go, label %then, label %latch\n"
                    "then:\n" + Store + "  br label %latch\n"
                  : Store + "  br label %latch\n") +
         "latch:\n"
         "  %i.next = add nuw nsw i64 %i, 1\n"
         "  %c = icmp ult i64 %i.next, %n\n"
         "  br i1 %c, label %loop, label %exit\n"
         "exit:\n  ret void\n}\n";
}

/// Which procedure must decide: none (Z3 only), or one of UpdateDecider.
enum class Expect { Z3Only, Structural, Evaluation };

struct Case {
  const char *Name;
  std::string Ty, Body;
  bool Guarded;
  Expect By;
  std::optional<Proof> Answer; ///< what Z3 answers (checked too)
};

std::vector<Case> cases() {
  using P = Proof;
  return {
      // Saturating counts: uadd.sat after add is refuted.
      {"saturating-u8", "i8",
       "  %go = icmp ult i8 %b, -1\n  %upd = add nuw i8 %b, 1\n", true,
       Expect::Evaluation, P::Proven},
      {"saturating-u16", "i16",
       "  %go = icmp ne i16 %b, -1\n  %upd = add i16 %b, 1\n", true,
       Expect::Evaluation, P::Proven},
      {"overflow-select", "i8",
       "  %s = add i8 %b, 3\n  %o = icmp ult i8 %s, %b\n"
       "  %upd = select i1 %o, i8 -1, i8 %s\n", false,
       Expect::Evaluation, P::Proven},
      // The guarded increment as a select, both ways round.
      {"select-increment", "i8",
       "  %e = icmp eq i8 %b, -1\n  %s = add i8 %b, 1\n"
       "  %upd = select i1 %e, i8 %b, i8 %s\n", false,
       Expect::Evaluation, P::Proven},
      // Wrapping adds: structural, or through two adds evaluated.
      {"wrapping-add", "i8", "  %upd = add i8 %b, %x\n", false,
       Expect::Structural, P::Proven},
      {"wrapping-add-i32", "i32", "  %upd = add i32 %x, %b\n", false,
       Expect::Structural, P::Proven},
      {"sub-i64", "i64", "  %upd = sub i64 %b, %x\n", false,
       Expect::Structural, P::Proven},
      {"two-adds", "i8", "  %s = add i8 %b, 1\n  %upd = add i8 %s, 2\n", false,
       Expect::Evaluation, P::Proven},
      {"add-with-input", "i8", "  %s = add i8 %b, %x\n  %upd = add i8 %s, 5\n",
       false, Expect::Evaluation, P::Proven},
      // Max with a constant: an intrinsic (structural) or compare and
      // select (no hint: every candidate before smax is refuted first).
      {"smax-call", "i8", "  %upd = call i8 @llvm.smax.i8(i8 %b, i8 10)\n",
       false, Expect::Structural, P::Proven},
      {"max-select", "i8",
       "  %g = icmp sgt i8 %b, 10\n  %upd = select i1 %g, i8 %b, i8 10\n",
       false, Expect::Evaluation, P::Proven},
      {"umin-call-u16", "i16",
       "  %upd = call i16 @llvm.umin.i16(i16 300, i16 %b)\n", false,
       Expect::Structural, P::Proven},
      // An independent guard and a dependent one.
      {"guarded-by-input", "i8",
       "  %gx = icmp ult i8 %x, 100\n  %gb = icmp ult i8 %b, -1\n"
       "  %go = and i1 %gx, %gb\n  %upd = add i8 %b, 1\n", true,
       Expect::Evaluation, P::Proven},
      // Not b (+) g(x): non-commutative, non-associative, or the guard
      // reading b the wrong way.
      {"x-minus-b", "i8", "  %upd = sub i8 %x, %b\n", false,
       Expect::Evaluation, P::Refuted},
      {"twice-plus-one", "i8",
       "  %m = mul i8 %b, 2\n  %upd = add i8 %m, 1\n", false,
       Expect::Evaluation, P::Refuted},
      {"wrong-way-guard", "i8",
       "  %go = icmp ne i8 %b, 0\n  %upd = add i8 %b, 1\n", true,
       Expect::Evaluation, P::Refuted},
      {"saturate-below-max", "i8",
       "  %go = icmp ult i8 %b, 200\n  %upd = add i8 %b, 1\n", true,
       Expect::Evaluation, P::Refuted},
      {"keep-on-overflow", "i8",
       "  %lim = sub i8 -1, %x\n  %go = icmp ule i8 %b, %lim\n"
       "  %upd = add i8 %b, %x\n", true, Expect::Evaluation, P::Refuted},
      {"signed-cap-u16", "i16",
       "  %go = icmp slt i16 %b, 1000\n  %upd = add i16 %b, 1\n", true,
       Expect::Evaluation, P::Refuted},
      // Left to Z3: a division by an input (poison at 0, where Z3 defines a
      // value), a 32-bit saturating count (too many points), two 16-bit
      // variables.
      {"udiv-by-input", "i8",
       "  %s = add i8 %b, 1\n  %upd = udiv i8 %s, %x\n", false,
       Expect::Z3Only, std::nullopt},
      {"saturating-u32", "i32",
       "  %go = icmp ult i32 %b, -1\n  %upd = add i32 %b, 1\n", true,
       Expect::Z3Only, P::Proven},
      {"two-adds-u16-input", "i16",
       "  %s = add i16 %b, %x\n  %upd = add i16 %s, 1\n", false,
       Expect::Z3Only, P::Proven},
  };
}

TEST(UpdateEvaluationTest, AgreesWithZ3) {
  // Ask Z3 itself, not the on-disk memo of laws, and with no resource
  // limit: the test compares answers, not budgets. Under the per-query
  // limit, saturating-u32's associativity is unknown in a process that has
  // not proved it already (HistogramCandidatesAreLawful proves it without a
  // limit and memoizes it in the process), so the outcome would depend on
  // the order the tests run in.
  setenv("IDIOM_CACHE_DIR", "off", 1);
  struct LimitGuard {
    unsigned Saved = z3ResourceLimit();
    LimitGuard() { setZ3ResourceLimit(0); }
    ~LimitGuard() { setZ3ResourceLimit(Saved); }
  } Guard;
  unsigned Decided = 0;
  for (const Case &K : cases()) {
    SCOPED_TRACE(K.Name);
    TestIR IR(histogramIR(K.Ty, K.Body, K.Guarded), "f");
    constraints::MatchEnv &Env = IR.env();
    std::string Why;
    auto N = analyzeNest(IR.loop("loop"), Env.SE, Why);
    ASSERT_TRUE(N) << Why;
    auto *St = dyn_cast<StoreInst>(IR.value("upd")->user_back());
    ASSERT_TRUE(St);
    auto U = analyzeUpdate(St, *N, Env.SE, Env.DT, Why);
    ASSERT_TRUE(U) << Why;

    UpdateOperator FastOp;
    std::string FastWhy;
    UpdateDecider By = UpdateDecider::StructuralIdentity;
    std::optional<Proof> Fast = decideUpdateWithoutZ3(*U, FastOp, FastWhy, &By);
    switch (K.By) {
    case Expect::Z3Only:
      EXPECT_FALSE(Fast);
      break;
    case Expect::Structural:
      ASSERT_TRUE(Fast);
      EXPECT_EQ(By, UpdateDecider::StructuralIdentity);
      break;
    case Expect::Evaluation:
      ASSERT_TRUE(Fast);
      EXPECT_EQ(By, UpdateDecider::ExhaustiveEvaluation);
      break;
    }

    setStructuralShortcuts(false);
    UpdateOperator Z3Op;
    std::string Z3Why;
    Proof Z3 = proveUpdateOperator(*U, 60000, Z3Op, Z3Why);
    setStructuralShortcuts(true);
    if (K.Answer)
      EXPECT_EQ(Z3, *K.Answer) << Z3Why;
    if (!Fast)
      continue;
    ++Decided;
    EXPECT_EQ(*Fast, Z3) << FastWhy << " / " << Z3Why;
    if (Z3 == Proof::Proven)
      EXPECT_EQ(FastOp.name(), Z3Op.name());
    else
      EXPECT_EQ(FastWhy, Z3Why);

    // The default path (shortcuts on) gives the same answer.
    UpdateOperator DefOp;
    std::string DefWhy;
    EXPECT_EQ(proveUpdateOperator(*U, 60000, DefOp, DefWhy), Z3);
    EXPECT_EQ(DefOp.name(), Z3Op.name());
  }
  EXPECT_GE(Decided, 15u);
}

/// The shared candidate tables: identities are identities.
TEST(UpdateEvaluationTest, CandidateIdentities) {
  for (unsigned W : {1u, 8u, 16u})
    for (UpdateOperator K : bitVectorUpdateOperators())
      for (uint64_t V = 0; V < (uint64_t(1) << W); V += W == 16 ? 257 : 1) {
        APInt A(W, V);
        EXPECT_EQ(applyUpdateOperator(K, A, updateOperatorIdentity(K, W)), A)
            << K.name() << " width " << W << " value " << V;
      }
}

} // namespace
