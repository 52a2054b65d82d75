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

#include "llvm/ADT/MapVector.h"
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

/// A subscript as Const + sum of Coeffs[L] * k_L (GridSubscripts.h: sums
/// of constants times iteration numbers, folded by ScalarEvolution into
/// add recurrences with constant steps); false for anything else.
bool linearSubscript(const SCEV *S, int64_t &Const,
                     SmallVectorImpl<std::pair<const Loop *, int64_t>> &Coeffs) {
  if (auto *C = dyn_cast<SCEVConstant>(S)) {
    if (C->getAPInt().getSignificantBits() > 41)
      return false;
    Const += C->getAPInt().getSExtValue();
    return true;
  }
  if (auto *A = dyn_cast<SCEVAddExpr>(S))
    return all_of(A->operands(), [&](const SCEV *Op) {
      return linearSubscript(Op, Const, Coeffs);
    });
  if (auto *AR = dyn_cast<SCEVAddRecExpr>(S)) {
    auto *Step = dyn_cast<SCEVConstant>(AR->getOperand(1));
    if (!AR->isAffine() || !Step || Step->getAPInt().getSignificantBits() > 41)
      return false;
    Coeffs.push_back({AR->getLoop(), Step->getAPInt().getSExtValue()});
    return linearSubscript(AR->getStart(), Const, Coeffs);
  }
  return false;
}

/// The per-dimension carries of one access (GridSubscripts.h): a subscript
/// whose constant term is negative and whose iteration numbers all count
/// up (`u[i3][i2][n1 - 2]`, recovered as subscript -2 in dimension 0 and
/// one more row in dimension 1, the term n1 being a row's stride) is read
/// as the same element one row further down: subscript + extent, and one
/// less in the next dimension. Carry[J] is 1 for such a dimension, else 0.
SmallVector<int, 3> gridCarries(const GridSubscripts &G) {
  SmallVector<int, 3> Carry(G.Subs.size(), 0);
  for (unsigned J = 0; J < G.Sizes.size(); ++J) {
    int64_t Const = 0;
    SmallVector<std::pair<const Loop *, int64_t>, 3> Coeffs;
    if (linearSubscript(G.Subs[J], Const, Coeffs) && Const < 0 &&
        all_of(Coeffs, [](auto &P) { return P.second >= 0; }))
      Carry[J] = 1;
  }
  return Carry;
}

/// The run-time conditions (each a SCEV that must be non-negative, valid
/// in the nest's preheader) under which every subscript of \p G but the
/// outermost, carried by \p Carry, lies in its extent on every iteration of
/// nest \p N: its smallest value is at least 0 and its largest below the
/// extent (the corners of the iteration box; a recurrence of an enclosing
/// loop is its value on entry). False when a subscript is not linear.
bool extentConditions(const GridSubscripts &G, ArrayRef<int> Carry,
                      const NestInfo &N, SmallVectorImpl<const SCEV *> &Out) {
  ScalarEvolution &SE = *N.SE;
  for (unsigned J = 0; J < G.Sizes.size(); ++J) {
    int64_t Const = 0;
    SmallVector<std::pair<const Loop *, int64_t>, 3> Coeffs;
    if (!linearSubscript(G.Subs[J], Const, Coeffs))
      return false;
    Type *Ty = G.Sizes[J]->getType();
    auto Ext = [&](const SCEV *X) { return SE.getTruncateOrSignExtend(X, Ty); };
    const SCEV *Lo = SE.getConstant(Ty, Const - (J > 0 ? Carry[J - 1] : 0),
                                    /*isSigned=*/true);
    if (Carry[J])
      Lo = SE.getAddExpr(Lo, G.Sizes[J]);
    const SCEV *Hi = Lo;
    for (auto &[L, C] : Coeffs) {
      const SCEV *Last = nullptr;
      for (unsigned D = 0; D < N.depth(); ++D)
        if (N.Loops[D] == L)
          Last = SE.getMinusSCEV(Ext(N.TripCounts[D]), SE.getOne(Ty));
      const SCEV *Term = SE.getMulExpr(SE.getConstant(Ty, C, true),
                                       Last ? Last
                                            : SE.getAddRecExpr(
                                                  SE.getZero(Ty), SE.getOne(Ty),
                                                  L, SCEV::FlagAnyWrap));
      if (!Last) { // an enclosing loop's iteration: its value on entry
        Lo = SE.getAddExpr(Lo, Term);
        Hi = SE.getAddExpr(Hi, Term);
      } else if (C < 0) {
        Lo = SE.getAddExpr(Lo, Term);
      } else {
        Hi = SE.getAddExpr(Hi, Term);
      }
    }
    Out.push_back(Lo);
    Out.push_back(
        SE.getMinusSCEV(SE.getMinusSCEV(G.Sizes[J], SE.getOne(Ty)), Hi));
  }
  return true;
}

std::optional<Proof> gridDependenceImpl(const AffineAccess &St,
                                        const AffineAccess &Other,
                                        const NestInfo &N, unsigned TimeoutMs,
                                        Proof &Within,
                                        SmallVectorImpl<const SCEV *> *Assume,
                                        ArrayRef<const AffineAccess *> Hints) {
  if (!N.SE || N.depth() < 2 || N.Skew || N.TriLoop)
    return std::nullopt;
  ScalarEvolution &SE = *N.SE;
  const SCEV *IS = elementIndex(St, N), *IO = elementIndex(Other, N);
  std::optional<GridSubscripts> GS =
      IS ? gridSubscripts(IS, 1, SE) : std::nullopt;
  std::optional<GridSubscripts> GO =
      IO ? gridSubscripts(IO, 1, SE) : std::nullopt;
  // With Assume: sign extensions read as the extents' zero extensions, and
  // a gap in one access's chain filled from the other's (gridSubscripts).
  SmallVector<const SCEV *, 4> SignConds;
  if (Assume && IS && IO &&
      (!GS || !GO || GS->Sizes != GO->Sizes || GS->Origin != GO->Origin)) {
    GridAssume A{&SignConds, nullptr};
    GS = gridSubscripts(IS, 1, SE, &A);
    GO = gridSubscripts(IO, 1, SE, &A);
    std::optional<GridSubscripts> GH;
    if (!GS && !GO)
      for (const AffineAccess *H : Hints)
        if (const SCEV *IH = elementIndex(*H, N))
          if ((GH = gridSubscripts(IH, 1, SE, &A)))
            break;
    if (GH) {
      A.Like = &*GH;
      GS = gridSubscripts(IS, 1, SE, &A);
      GO = gridSubscripts(IO, 1, SE, &A);
    } else if (GS && !GO) {
      A.Like = &*GS;
      GO = gridSubscripts(IO, 1, SE, &A);
    } else if (GO && !GS) {
      A.Like = &*GO;
      GS = gridSubscripts(IS, 1, SE, &A);
    }
  }
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
  MapVector<const SCEV *, z3::expr> Outer;
  T.Recurrence = [&](const SCEVAddRecExpr *AR,
                     unsigned Dp) -> std::optional<z3::expr> {
    auto It = Depth.find(AR->getLoop());
    if (It == Depth.end()) {
      if (!SE.isLoopInvariant(AR, N.Loops.front()))
        return std::nullopt;
      auto O = Outer.find(AR);
      if (O == Outer.end())
        O = Outer
                .try_emplace(AR, C.int_const(
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
  // Carries (gridCarries): the same flat index, another split of it.
  SmallVector<int, 3> CarryS = gridCarries(*GS), CarryO = gridCarries(*GO);
  for (unsigned J = 0; J < GS->Sizes.size(); ++J) {
    auto Ext = T.tr(GS->Sizes[J]);
    if (!Ext)
      return std::nullopt;
    SubS[J] = SubS[J] + CarryS[J] * *Ext;
    SubS[J + 1] = SubS[J + 1] - CarryS[J];
    SubO[J] = SubO[J] + CarryO[J] * *Ext;
    SubO[J + 1] = SubO[J + 1] - CarryO[J];
  }
  // Every subscript but the outermost within its extent, for both.
  z3::expr Out = C.bool_val(false);
  for (unsigned J = 0; J < GS->Sizes.size(); ++J) {
    auto Ext = T.tr(GS->Sizes[J]);
    Out =
        Out || SubS[J] < 0 || SubS[J] >= *Ext || SubO[J] < 0 || SubO[J] >= *Ext;
  }
  S.push();
  S.add(Out);
  Proof Inside = decideNegatedLaw(S);
  S.pop();
  if (Inside != Proof::Proven) {
    // Not proven from the entry conditions: with Assume, the run-time
    // conditions that put both accesses in extent on every iteration are
    // recorded, and the questions below are asked under them.
    if (!Assume)
      return std::nullopt;
    SmallVector<const SCEV *, 8> Conds;
    if (!extentConditions(*GS, CarryS, N, Conds) ||
        !extentConditions(*GO, CarryO, N, Conds))
      return std::nullopt;
    // Conditions that never hold (a row longer than its stride on every
    // run) would make every question below vacuous: refused.
    for (const SCEV *Cond : Conds) {
      if (SE.isKnownNegative(Cond))
        return std::nullopt;
      auto E = T.tr(Cond);
      if (!E)
        return std::nullopt;
      S.add(*E >= 0);
    }
    if (decideNegatedLaw(S) != Proof::Refuted) // unsat or unknown: not satisfiable
      return std::nullopt;
    S.add(!Out);
    Assume->append(Conds.begin(), Conds.end());
  }
  if (Assume)
    Assume->append(SignConds.begin(), SignConds.end());
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
                                    Proof &Within,
                                    SmallVectorImpl<const SCEV *> *Assume,
                                    ArrayRef<const AffineAccess *> Hints) {
  try {
    return gridDependenceImpl(St, Other, N, TimeoutMs, Within, Assume, Hints);
  } catch (const z3::exception &) {
    return std::nullopt; // the general query says why
  }
}

} // namespace idiom
