//===- GridDependence.cpp - Dependence questions over grid subscripts -----===//
//
// Part of Idiom. See GridDependence.h.
//
//===----------------------------------------------------------------------===//
#include "GridDependence.h"
#include "NegatedLaw.h"
#include "ScevTranslator.h"
#include "idiom/Constraints/GridSubscripts.h"
#include "idiom/Constraints/TimeReport.h"
#include "idiom/Constraints/Z3Budget.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/PatternMatch.h"

#include <z3++.h>

using namespace llvm;

namespace idiom {
namespace {

using z3detail::ScevTranslator;

/// A condition known on entry to the nest: `A Pred B`.
struct EntryFact {
  CmpInst::Predicate Pred;
  const SCEV *A, *B;
};

/// True for a sum of at most 16 terms, each a constant below 2^20 in
/// magnitude or such a constant times an extension of a value of at most
/// 32 bits, or a signed minimum or maximum of such sums: its value fits in
/// 56 bits, so the i64 comparison that tested it and Z3's integers agree.
bool smallLinear(const SCEV *S) {
  if (isa<SCEVSMaxExpr>(S) || isa<SCEVSMinExpr>(S))
    return all_of(cast<SCEVMinMaxExpr>(S)->operands(), smallLinear);
  SmallVector<const SCEV *, 16> Terms;
  if (auto *A = dyn_cast<SCEVAddExpr>(S))
    Terms.append(A->operands().begin(), A->operands().end());
  else
    Terms.push_back(S);
  if (Terms.size() > 16)
    return false;
  auto SmallConst = [](const SCEV *X) {
    auto *C = dyn_cast<SCEVConstant>(X);
    return C && C->getAPInt().getSignificantBits() <= 21;
  };
  auto NarrowExt = [](const SCEV *X) {
    auto *E = dyn_cast<SCEVIntegralCastExpr>(X);
    return E && (isa<SCEVZeroExtendExpr>(E) || isa<SCEVSignExtendExpr>(E)) &&
           E->getOperand()->getType()->getIntegerBitWidth() <= 32;
  };
  for (const SCEV *T : Terms) {
    if (SmallConst(T) || NarrowExt(T))
      continue;
    auto *M = dyn_cast<SCEVMulExpr>(T);
    if (!M || M->getNumOperands() != 2 || !SmallConst(M->getOperand(0)) ||
        !NarrowExt(M->getOperand(1)))
      return false;
  }
  return true;
}

/// Collects the integer comparisons (through `and`s) that hold whenever
/// the block \p BB runs: the conditions of the branches on its chain of
/// single predecessors.
void entryFacts(BasicBlock *BB, ScalarEvolution &SE,
                SmallVectorImpl<EntryFact> &Out) {
  using namespace PatternMatch;
  for (unsigned Steps = 0; BB && Steps < 16; ++Steps) {
    BasicBlock *P = BB->getSinglePredecessor();
    auto *Br = P ? dyn_cast<BranchInst>(P->getTerminator()) : nullptr;
    if (Br && Br->isConditional() &&
        Br->getSuccessor(0) != Br->getSuccessor(1)) {
      bool When = Br->getSuccessor(0) == BB;
      SmallVector<Value *, 8> Work{Br->getCondition()};
      while (!Work.empty() && Out.size() < 32) {
        Value *C = Work.pop_back_val();
        Value *X, *Y;
        if (When ? match(C, m_LogicalAnd(m_Value(X), m_Value(Y)))
                 : match(C, m_LogicalOr(m_Value(X), m_Value(Y)))) {
          Work.push_back(X);
          Work.push_back(Y);
          continue;
        }
        auto *Cmp = dyn_cast<ICmpInst>(C);
        if (!Cmp || !Cmp->getOperand(0)->getType()->isIntegerTy())
          continue;
        const SCEV *A = SE.getSCEV(Cmp->getOperand(0));
        const SCEV *B = SE.getSCEV(Cmp->getOperand(1));
        if (Cmp->isSigned() || Cmp->isEquality())
          if (smallLinear(A) && smallLinear(B))
            Out.push_back(
                {When ? Cmp->getPredicate() : Cmp->getInversePredicate(), A,
                 B});
      }
    }
    BB = P;
  }
}

std::optional<z3::expr> factExpr(const EntryFact &F, ScevTranslator &T) {
  auto A = T.tr(F.A), B = T.tr(F.B);
  if (!A || !B)
    return std::nullopt;
  switch (F.Pred) {
  case CmpInst::ICMP_EQ:
    return *A == *B;
  case CmpInst::ICMP_NE:
    return *A != *B;
  case CmpInst::ICMP_SLT:
    return *A < *B;
  case CmpInst::ICMP_SLE:
    return *A <= *B;
  case CmpInst::ICMP_SGT:
    return *A > *B;
  case CmpInst::ICMP_SGE:
    return *A >= *B;
  default:
    return std::nullopt;
  }
}

/// The element index of \p A over \p N: Offset + sum_d Strides[d] * k_d,
/// with k_d the iteration number {0,+,1} of loop d.
const SCEV *elementIndex(const AffineAccess &A, const NestInfo &N) {
  ScalarEvolution &SE = *N.SE;
  const SCEV *I = A.Offset;
  for (unsigned D = 0; D < N.depth(); ++D) {
    if (A.Strides[D]->getType() != I->getType())
      return nullptr;
    I = SE.getAddExpr(I,
                      SE.getAddRecExpr(SE.getZero(I->getType()), A.Strides[D],
                                       N.Loops[D], SCEV::FlagAnyWrap));
  }
  return I;
}

std::optional<Proof> gridDependenceImpl(const AffineAccess &St,
                                        const AffineAccess &Other,
                                        const NestInfo &N, unsigned TimeoutMs,
                                        Proof &Within) {
  if (!N.SE || N.depth() < 2 || N.Skew || N.TriLoop)
    return std::nullopt;
  ScalarEvolution &SE = *N.SE;
  const SCEV *IS = elementIndex(St, N), *IO = elementIndex(Other, N);
  std::optional<GridSubscripts> GS =
      IS ? gridSubscripts(IS, 1, SE) : std::nullopt;
  std::optional<GridSubscripts> GO =
      IO ? gridSubscripts(IO, 1, SE) : std::nullopt;
  if (!GS || !GO || GS->Sizes != GO->Sizes || GS->Origin != GO->Origin)
    return std::nullopt;
  TimeScope TS("z3 dependence: grid subscripts");
  z3::context &C = sharedZ3Context();
  z3::solver S(C, z3::solver::simple());
  applyZ3Limits(C, S, TimeoutMs);
  ScevTranslator T(C, S, &N);
  // Iteration numbers: k_d for the store, kk_d for the other access; a
  // recurrence of an enclosing loop is one symbol for both.
  z3::expr_vector K(C), KK(C);
  std::map<const Loop *, unsigned> Depth;
  for (unsigned D = 0; D < N.depth(); ++D) {
    K.push_back(C.int_const(("gk" + std::to_string(D)).c_str()));
    KK.push_back(C.int_const(("gkk" + std::to_string(D)).c_str()));
    Depth[N.Loops[D]] = D;
  }
  std::map<const SCEV *, z3::expr> Outer;
  T.Recurrence = [&](const SCEVAddRecExpr *AR,
                     unsigned Dp) -> std::optional<z3::expr> {
    auto It = Depth.find(AR->getLoop());
    if (It == Depth.end()) {
      if (!SE.isLoopInvariant(AR, N.Loops.front()))
        return std::nullopt;
      auto O = Outer.find(AR);
      if (O == Outer.end())
        O = Outer
                .emplace(AR, C.int_const(
                                 ("go" + std::to_string(Outer.size())).c_str()))
                .first;
      return O->second;
    }
    if (!AR->isAffine())
      return std::nullopt;
    auto Start = T.tr(AR->getStart(), Dp + 1);
    auto Step = T.tr(AR->getStepRecurrence(SE), Dp + 1);
    if (!Start || !Step)
      return std::nullopt;
    return *Start + *Step * K[It->second];
  };
  for (unsigned D = 0; D < N.depth(); ++D) {
    auto TC = T.tr(N.TripCounts[D]);
    if (!TC)
      return std::nullopt;
    S.add(K[D] >= 0 && K[D] < *TC && KK[D] >= 0 && KK[D] < *TC);
  }
  SmallVector<EntryFact, 8> Facts;
  if (BasicBlock *PH = N.Loops.front()->getLoopPreheader())
    entryFacts(PH, SE, Facts);
  for (const EntryFact &F : Facts)
    if (auto E = factExpr(F, T))
      S.add(*E);
  std::vector<z3::expr> SubS, SubO;
  for (unsigned J = 0; J < GS->Subs.size(); ++J) {
    auto A = T.tr(GS->Subs[J]), B = T.tr(GO->Subs[J]);
    if (!A || !B)
      return std::nullopt;
    SubS.push_back(*A);
    SubO.push_back(B->substitute(K, KK));
  }
  // Every subscript but the outermost within its extent, for both.
  z3::expr Out = C.bool_val(false);
  for (unsigned J = 0; J < GS->Sizes.size(); ++J) {
    auto Ext = T.tr(GS->Sizes[J]);
    if (!Ext)
      return std::nullopt;
    Out =
        Out || SubS[J] < 0 || SubS[J] >= *Ext || SubO[J] < 0 || SubO[J] >= *Ext;
  }
  S.push();
  S.add(Out);
  Proof Inside = decideNegatedLaw(S);
  S.pop();
  if (Inside != Proof::Proven)
    return std::nullopt;
  z3::expr Same = C.bool_val(true), Differ = C.bool_val(false);
  for (unsigned J = 0; J < SubS.size(); ++J)
    Same = Same && SubS[J] == SubO[J];
  for (unsigned D = 0; D < N.depth(); ++D)
    Differ = Differ || K[D] != KK[D];
  S.push();
  S.add(Same && Differ);
  Proof Across = decideNegatedLaw(S);
  S.pop();
  if (Across == Proof::Unknown)
    return std::nullopt;
  if (Across == Proof::Refuted)
    return Proof::Refuted;
  z3::expr SameK = C.bool_val(true);
  for (unsigned D = 0; D < N.depth(); ++D)
    SameK = SameK && K[D] == KK[D];
  S.add(Same && SameK);
  Within = decideNegatedLaw(S);
  return Proof::Proven;
}

} // namespace

std::optional<Proof> gridDependence(const AffineAccess &St,
                                    const AffineAccess &Other,
                                    const NestInfo &N, unsigned TimeoutMs,
                                    Proof &Within) {
  try {
    return gridDependenceImpl(St, Other, N, TimeoutMs, Within);
  } catch (const z3::exception &) {
    return std::nullopt; // the general query says why
  }
}

} // namespace idiom
