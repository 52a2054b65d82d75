//===- LinearAlgebraFacts.cpp - Facts behind the GEMM / GEMV atoms --------===//

#include "idiom/Constraints/ScevInt.h"
#include "idiom/Constraints/LinearAlgebraFacts.h"
#include "idiom/Constraints/LoopFacts.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/CFG.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace idiom {

Loop *chainPrologue(const Loop *L) {
  if (L->getSubLoops().size() != 2)
    return nullptr;
  Loop *P = L->getSubLoops()[0], *Rest = L->getSubLoops()[1];
  BasicBlock *Exit = P->getUniqueExitBlock();
  BasicBlock *Pre = Rest->getLoopPreheader();
  if (!P->getSubLoops().empty() || !Exit || !Pre)
    return nullptr;
  BasicBlock *BB = Exit;
  for (unsigned I = 0; I < 4 && BB && L->contains(BB); ++I) {
    if (BB == Pre || is_contained(successors(BB), Pre))
      return P;
    BB = BB->getUniqueSuccessor();
  }
  return nullptr;
}

/// The shallowest chain, counting its head, that may have a prologue.
static constexpr unsigned MinPrologueDepth = 3;

/// The loop after \p L in its chain: its only subloop or, for the head of
/// the chain, the subloop after a prologue.
static Loop *chainChild(const Loop *L, bool Head) {
  if (L->getSubLoops().size() == 1)
    return L->getSubLoops()[0];
  return Head && chainPrologue(L) ? L->getSubLoops()[1] : nullptr;
}

unsigned loopChainDepth(const Loop *L) {
  unsigned D = 1;
  for (const Loop *C = chainChild(L, true); C; C = chainChild(C, false))
    ++D;
  // A prologue only before a chain of two or more loops (GEMM-like nests):
  // shallower nests keep their meaning for the GEMV specs and lifters.
  return D < MinPrologueDepth && chainPrologue(L) ? 1 : D;
}

/// True when \p V is defined outside \p Outer or computed inside it by pure
/// arithmetic from such values (a hoistable guard condition).
static bool isInvariantIn(Value *V, const Loop *Outer, unsigned Depth = 0) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I || !Outer->contains(I))
    return true;
  if (Depth > 4 || isa<PHINode>(I) || I->mayReadOrWriteMemory() ||
      !(isa<CmpInst>(I) || isa<BinaryOperator>(I) || isa<CastInst>(I)))
    return false;
  for (Value *Op : I->operands())
    if (!isInvariantIn(Op, Outer, Depth + 1))
      return false;
  return true;
}

/// True when \p C, taken towards a band's or triangle's loop when it is \p
/// EnterOnTrue, holds exactly when that loop's count \p RowCount at the
/// current outer iteration is positive (PolyBench trmm's `i + 1 < m` before
/// `for (k = i + 1; k < m; k++)`): as L < R or L <= R, R - L (+ 1) is
/// RowCount; as L != R, R - L or L - R is RowCount, known non-negative (a
/// strict lower TRMV's `i != 0`). An unsigned comparison only of operands
/// known non-negative.
static bool isBandGuard(Value *C, bool EnterOnTrue, const SCEV *RowCount,
                        ScalarEvolution &SE) {
  auto *Cmp = dyn_cast<ICmpInst>(C);
  if (!Cmp || !RowCount || !Cmp->getOperand(0)->getType()->isIntegerTy())
    return false;
  ICmpInst::Predicate P =
      EnterOnTrue ? Cmp->getPredicate() : Cmp->getInversePredicate();
  const SCEV *L = SE.getSCEV(Cmp->getOperand(0));
  const SCEV *R = SE.getSCEV(Cmp->getOperand(1));
  Type *I64 = RowCount->getType();
  if (L->getType()->getIntegerBitWidth() > I64->getIntegerBitWidth())
    return false;
  // `i != 0` before a strict lower triangle's `for (j = 0; j < i; j++)`:
  // the count's being non-zero, which is its being positive since it never
  // is negative.
  if (P == ICmpInst::ICMP_NE) {
    const SCEV *D = SE.getMinusSCEV(SE.getSignExtendExpr(L, I64),
                                    SE.getSignExtendExpr(R, I64));
    const SCEV *Count = SE.getTruncateOrSignExtend(RowCount, I64);
    return SE.isKnownNonNegative(Count) &&
           (SE.getMinusSCEV(D, Count)->isZero() ||
            SE.getAddExpr(D, Count)->isZero());
  }
  if (ICmpInst::isGT(P) || ICmpInst::isGE(P)) {
    std::swap(L, R);
    P = ICmpInst::getSwappedPredicate(P);
  }
  bool Strict = P == ICmpInst::ICMP_SLT || P == ICmpInst::ICMP_ULT;
  if (!Strict && P != ICmpInst::ICMP_SLE && P != ICmpInst::ICMP_ULE)
    return false;
  if (ICmpInst::isUnsigned(P) &&
      !(SE.isKnownNonNegative(L) && SE.isKnownNonNegative(R)))
    return false;
  const SCEV *X = SE.getMinusSCEV(SE.getSignExtendExpr(R, I64),
                                  SE.getSignExtendExpr(L, I64));
  if (!Strict)
    X = SE.getAddExpr(X, SE.getOne(I64));
  return SE.getMinusSCEV(X, SE.getTruncateOrSignExtend(RowCount, I64))->isZero();
}

/// Walks from the header of \p L to the preheader of its subloop \p Sub and
/// records the zero-trip guards on the way.
static bool collectChainGuards(Loop *Outer, Loop *L, Loop *Sub, NestInfo &N,
                               ScalarEvolution &SE, std::string &Why) {
  BasicBlock *Cur = L->getHeader();
  BasicBlock *Target = Sub->getLoopPreheader();
  BasicBlock *Latch = L->getLoopLatch();
  auto SkipsToLatch = [&](BasicBlock *BB) {
    for (unsigned I = 0; I < 4 && BB; ++I) {
      if (BB == Latch)
        return true;
      BB = BB->getUniqueSuccessor();
    }
    return false;
  };
  // The prologue of the head is walked over; its zero-trip guard, if any, is
  // a guard of the nest too (whatever it skips, the call runs only when the
  // prologue would).
  Loop *Pro = L == Outer ? N.Prologue : nullptr;
  BasicBlock *ProPre = Pro ? Pro->getLoopPreheader() : nullptr;
  for (unsigned Steps = 0; Cur != Target; ++Steps) {
    auto *Br = dyn_cast<BranchInst>(Cur->getTerminator());
    if (!Br || Steps > 6) {
      Why = "inner loop is not reached by simple branches";
      return false;
    }
    if (Cur == ProPre) {
      Cur = Pro->getUniqueExitBlock();
      continue;
    }
    if (Br->isUnconditional()) {
      Cur = Br->getSuccessor(0);
      continue;
    }
    if (ProPre && is_contained(Br->successors(), ProPre)) {
      if (!isInvariantIn(Br->getCondition(), Outer)) {
        Why = "the loop before the inner loops is guarded by a condition "
              "that varies in the nest";
        return false;
      }
      N.Guards.push_back({Br->getCondition(), Br->getSuccessor(0) == ProPre});
      Cur = ProPre;
      continue;
    }
    Value *C = Br->getCondition();
    BasicBlock *T = Br->getSuccessor(0), *F = Br->getSuccessor(1);
    // A band's own zero-trip guard: the mask keeps such rows as they are;
    // so does a triangle's whose first row is empty (TriBase 0: a strict
    // lower TRMV, `j < i`).
    const SCEV *RowCount =
        (N.BandLoop && Sub == N.Loops[N.BandLoop]) ||
                (N.TriLoop && Sub == N.Loops[N.TriLoop])
            ? N.LoopRowCount
            : nullptr;
    if (RowCount && !isInvariantIn(C, Outer)) {
      bool EnterT = SkipsToLatch(F) && !SkipsToLatch(T);
      bool EnterF = SkipsToLatch(T) && !SkipsToLatch(F);
      if ((EnterT || EnterF) && isBandGuard(C, EnterT, RowCount, SE)) {
        Cur = EnterT ? T : F;
        continue;
      }
      Why = std::string("the ") + (N.BandLoop ? "band" : "triangle") +
            "'s loop is guarded by a condition that varies in the nest and "
            "is not its count's being positive";
      return false;
    }
    if (!isInvariantIn(C, Outer)) {
      Why = "inner loop is guarded by a condition that varies in the nest";
      return false;
    }
    if (SkipsToLatch(F) && !SkipsToLatch(T)) {
      N.Guards.push_back({C, true});
      Cur = T;
    } else if (SkipsToLatch(T) && !SkipsToLatch(F)) {
      N.Guards.push_back({C, false});
      Cur = F;
    } else {
      Why = "inner loop guard does not skip to the enclosing latch";
      return false;
    }
  }
  return true;
}

/// With \p TC the count of the loop at position \p D of chain \p N (N's
/// loops before it analysed): when it is a triangle's row count {B,+,s}<Outer>
/// (constants B >= 1, s >= 1) and N has no triangle yet, records it
/// (NestInfo::TriLoop) and returns the rectangle's extent B + s (n0 - 1), at
/// least 0; else null.
static const SCEV *triangleExtent(const SCEV *TC, unsigned D, NestInfo &N,
                                  ScalarEvolution &SE, int64_t MinBase,
                                  const SCEV *LoopTC) {
  auto *AR = dyn_cast<SCEVAddRecExpr>(TC);
  if (N.TriLoop || D == 0 || !AR || AR->getLoop() != N.Loops.front() ||
      !AR->isAffine())
    return nullptr;
  auto B = scevInt64(AR->getStart()), S = scevInt64(AR->getStepRecurrence(SE));
  if (!B || !S || *B < MinBase || *S < 1 || *B > (int64_t(1) << 32) ||
      *S > (int64_t(1) << 32))
    return nullptr;
  N.TriLoop = D;
  N.TriBase = *B;
  N.TriSlope = *S;
  N.TriRowCount = TC;
  N.LoopRowCount = LoopTC;
  Type *Ty = TC->getType();
  const SCEV *Last = SE.getAddExpr(N.TripCounts[0], SE.getMinusOne(Ty));
  const SCEV *Ext = SE.getAddExpr(AR->getStart(), SE.getMulExpr(AR->getStepRecurrence(SE), Last));
  return SE.getSMaxExpr(Ext, SE.getZero(Ty));
}

/// With \p TC the count of the innermost loop (position \p D) of chain \p
/// N, varying in the nest, and \p AR an induction recurrence of that loop
/// whose start \p RowStart varies (AR's start, in the rows' order of N):
/// when the start advances a >= 1 of its steps per iteration of N.Loops[0]
/// and TC is {K,+,-a}<N.Loops[0]> (the end fixed), records the band
/// (NestInfo::BandLoop; \p LoopTC the count as the loop computes it) and
/// returns K, at least 0; else null.
static const SCEV *bandExtent(const SCEV *TC, const SCEVAddRecExpr *AR,
                              const SCEV *RowStart, unsigned D, NestInfo &N,
                              ScalarEvolution &SE, const SCEV *LoopTC) {
  Loop *Outer = N.Loops.front();
  auto *Start = dyn_cast<SCEVAddRecExpr>(RowStart);
  auto *Count = dyn_cast<SCEVAddRecExpr>(TC);
  if (!Start || !Count || Start->getLoop() != Outer ||
      Count->getLoop() != Outer || !Start->isAffine() || !Count->isAffine() ||
      !SE.isLoopInvariant(Start->getStart(), Outer) ||
      !SE.isLoopInvariant(Count->getStart(), Outer))
    return nullptr;
  auto Move = scevInt64(Start->getStepRecurrence(SE));
  auto Step = scevInt64(AR->getStepRecurrence(SE));
  auto Shrink = scevInt64(Count->getStepRecurrence(SE));
  if (!Move || !Step || !Shrink || *Step == 0 || *Move % *Step ||
      *Move / *Step < 1 || *Move / *Step > (int64_t(1) << 32) ||
      *Shrink != -(*Move / *Step))
    return nullptr;
  N.BandLoop = D;
  N.BandLead = *Move / *Step;
  N.BandRowCount = TC;
  N.LoopRowCount = LoopTC;
  return SE.getSMaxExpr(Count->getStart(), SE.getZero(TC->getType()));
}

/// \p S, an affine recurrence of N.Loops[0] over its iterations t, as a
/// formula over k0 = TripCounts[0] - 1 - t when the rows run down
/// (NestInfo::RowsReversed): {X,+,c} becomes {X + c (TripCounts[0] - 1),+,
/// -c}; anything else as it is.
static const SCEV *rowOrder(const SCEV *S, const NestInfo &N,
                            ScalarEvolution &SE) {
  auto *AR = dyn_cast<SCEVAddRecExpr>(S);
  if (!N.RowsReversed || !AR || AR->getLoop() != N.Loops.front() ||
      !AR->isAffine())
    return S;
  Type *Ty = AR->getType();
  const SCEV *Last = SE.getTruncateOrSignExtend(
      SE.getMinusSCEV(N.TripCounts[0], SE.getOne(N.TripCounts[0]->getType())),
      Ty);
  const SCEV *Step = AR->getStepRecurrence(SE);
  return SE.getAddRecExpr(SE.getAddExpr(AR->getStart(), SE.getMulExpr(Step, Last)),
                          SE.getNegativeSCEV(Step), N.Loops.front(),
                          SCEV::FlagAnyWrap);
}

/// \p S as SCEV prints it, for a remark.
static std::string scevText(const SCEV *S) {
  std::string Text;
  raw_string_ostream OS(Text);
  S->print(OS);
  return Text;
}

/// True when an affine integer induction recurrence of \p L starts at a
/// value that varies in \p Outer (a band's loop, not a triangle's).
static bool hasMovingStart(Loop *L, Loop *Outer, ScalarEvolution &SE) {
  for (PHINode &P : L->getHeader()->phis()) {
    auto *AR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(&P));
    if (P.getType()->isIntegerTy() && AR && AR->getLoop() == L &&
        AR->isAffine() && !SE.isLoopInvariant(AR->getStart(), Outer))
      return true;
  }
  return false;
}

std::optional<NestInfo> analyzeLoopChain(Loop *Outer, unsigned Depth,
                                         ScalarEvolution &SE,
                                         std::string &Why, bool Triangle,
                                         bool Band, int64_t MinTriBase) {
  if (!Outer || Depth == 0) {
    Why = "no loop";
    return std::nullopt;
  }
  NestInfo N;
  N.Loops.push_back(Outer);
  while (N.Loops.size() < Depth) {
    Loop *C = chainChild(N.Loops.back(),
                         N.Loops.size() == 1 && Depth >= MinPrologueDepth);
    if (!C)
      break;
    N.Loops.push_back(C);
  }
  if (N.Loops.size() > 1 && Outer->getSubLoops().size() == 2 &&
      Depth >= MinPrologueDepth) {
    N.Prologue = chainPrologue(Outer);
    N.PrologueTripCount = canonicalTripCount(N.Prologue, SE, Why);
    if (!N.PrologueTripCount)
      return std::nullopt;
    if (!SE.isLoopInvariant(N.PrologueTripCount, Outer) && !Triangle) {
      Why = "trip count of the loop before the inner loops varies in the "
            "nest (not rectangular)";
      return std::nullopt;
    }
  }
  // The loops themselves first: their defects are the most useful reason.
  for (unsigned D = 0; D < N.Loops.size(); ++D) {
    Loop *L = N.Loops[D];
    const SCEV *TC = canonicalTripCount(L, SE, Why);
    if (!TC)
      return std::nullopt;
    // The count as the loop computes it, and in the rows' order.
    const SCEV *LoopTC = TC;
    TC = rowOrder(TC, N, SE);
    // A band (the innermost loop's count and start both move) is decided
    // with its induction variable below.
    // With Triangle too, a loop whose induction variables all start at
    // values invariant in the nest is a triangle's (a lower TRMV).
    const SCEV *BandCount = nullptr;
    if (!SE.isLoopInvariant(TC, Outer) && Band && D > 0 &&
        D + 1 == N.Loops.size() && N.Loops.size() == Depth &&
        (!Triangle || hasMovingStart(L, Outer, SE))) {
      BandCount = TC;
    } else if (!SE.isLoopInvariant(TC, Outer)) {
      TC = Triangle ? triangleExtent(TC, D, N, SE, MinTriBase, LoopTC)
                    : nullptr;
      if (!TC) {
        Why = "trip count of the loop at depth " + std::to_string(D + 1) +
              " varies in the nest (not rectangular" +
              (Triangle && Band
                   ? "; nor a triangle whose count grows from a constant by "
                     "a positive constant per outer iteration, nor a band "
                     "whose start advances a constant number of its steps "
                     "per outer iteration while its end stays fixed): its "
                     "count is " + scevText(LoopTC)
               : Triangle ? std::string("; nor a triangle whose count grows "
                                        "from a positive constant by a "
                                        "constant per outer iteration)")
                          : std::string(")"));
        return std::nullopt;
      }
      // A prologue of a triangle runs as many times as the triangle's loop.
      if (N.Prologue && N.PrologueTripCount == LoopTC)
        N.PrologueTripCount = TC;
    }
    PHINode *IV = nullptr;
    bool VaryingStart = false;
    for (PHINode &P : L->getHeader()->phis()) {
      auto *AR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(&P));
      if (!P.getType()->isIntegerTy() || !AR || AR->getLoop() != L ||
          !AR->isAffine() || !scevInt64(AR->getStepRecurrence(SE)))
        continue;
      if (!SE.isLoopInvariant(AR->getStart(), Outer)) {
        const SCEV *K =
            BandCount ? bandExtent(BandCount, AR, rowOrder(AR->getStart(), N, SE),
                                   D, N, SE, LoopTC)
                      : nullptr;
        if (!K) {
          VaryingStart = true;
          continue;
        }
        TC = K;
        IV = &P;
        N.IVStarts.push_back(cast<SCEVAddRecExpr>(AR->getStart())->getStart());
        N.IVSteps.push_back(*scevInt64(AR->getStepRecurrence(SE)));
        break;
      }
      if (BandCount)
        continue; // its count moves: only a moving start makes a band
      IV = &P;
      N.IVStarts.push_back(AR->getStart());
      N.IVSteps.push_back(*scevInt64(AR->getStepRecurrence(SE)));
      break;
    }
    if (BandCount && !N.BandLoop) {
      Why = "trip count of the loop at depth " + std::to_string(D + 1) +
            " varies in the nest (not rectangular; nor a band whose start "
            "advances a constant number of its steps per outer iteration "
            "while its end stays fixed)";
      return std::nullopt;
    }
    if (!IV) {
      Why = VaryingStart ? "induction variable of the loop at depth " +
                               std::to_string(D + 1) +
                               " starts at a value that varies in the nest "
                               "(not rectangular)"
                         : "loop has no affine induction variable";
      return std::nullopt;
    }
    N.IVs.push_back(IV);
    N.TripCounts.push_back(TC);
    // Rows that run down are counted from the last (NestInfo::RowsReversed);
    // undone below unless an inner loop is then a triangle or a band.
    if (D == 0 && Band && N.IVSteps[0] < 0 && N.Loops.size() > 1) {
      N.RowsReversed = true;
      const SCEV *Start = N.IVStarts[0];
      const SCEV *Last = SE.getTruncateOrSignExtend(
          SE.getMinusSCEV(TC, SE.getOne(TC->getType())), Start->getType());
      N.IVStarts[0] = SE.getAddExpr(
          Start, SE.getMulExpr(SE.getConstant(Start->getType(), N.IVSteps[0]), Last));
      N.IVSteps[0] = -N.IVSteps[0];
    }
  }
  if (N.RowsReversed && !N.TriLoop && !N.BandLoop) {
    N.RowsReversed = false;
    N.IVSteps[0] = -N.IVSteps[0];
    N.IVStarts[0] = cast<SCEVAddRecExpr>(SE.getSCEV(N.IVs[0]))->getStart();
  }
  if (N.Prologue && !SE.isLoopInvariant(N.PrologueTripCount, Outer)) {
    Why = "trip count of the loop before the inner loops varies in the "
          "nest (not rectangular, nor the count of a triangular loop)";
    return std::nullopt;
  }
  Loop *Last = N.Loops.back();
  std::string Want = std::to_string(Depth);
  if (N.Loops.size() < Depth) {
    Why = Last->getSubLoops().empty()
              ? "loop nest is " + std::to_string(N.Loops.size()) +
                    " deep, not " + Want
              : "loop at depth " + std::to_string(N.Loops.size()) +
                    " contains several loops (not a chain of " + Want + ")";
    return std::nullopt;
  }
  if (!Last->getSubLoops().empty()) {
    Why = "loop nest is deeper than " + Want;
    return std::nullopt;
  }
  for (unsigned D = 0; D + 1 < N.Loops.size(); ++D)
    if (!collectChainGuards(Outer, N.Loops[D], N.Loops[D + 1], N, SE, Why))
      return std::nullopt;
  return N;
}

SmallVector<unsigned, 3> ChainAccess::varyingLoops() const {
  SmallVector<unsigned, 3> Out;
  for (unsigned D = 0; D < Strides.size(); ++D)
    if (Strides[D] && !Strides[D]->isZero())
      Out.push_back(D);
  return Out;
}

namespace {
/// An integer SCEV split as Off + sum_d Strides[d] * k_d over a chain.
struct Linear {
  const SCEV *Off = nullptr;
  SmallVector<const SCEV *, 3> Strides;
};
} // namespace

/// Extends every component of \p L to \p Ty: the offset with the cast's own
/// kind, constant strides by sign (a loop counting down has a negative step).
static Linear extendLinear(const Linear &L, Type *Ty, bool Signed,
                           ScalarEvolution &SE) {
  Linear Out;
  Out.Off = Signed ? SE.getSignExtendExpr(L.Off, Ty)
                   : SE.getZeroExtendExpr(L.Off, Ty);
  for (const SCEV *S : L.Strides)
    Out.Strides.push_back(Signed || isa<SCEVConstant>(S)
                              ? SE.getSignExtendExpr(S, Ty)
                              : SE.getZeroExtendExpr(S, Ty));
  return Out;
}

/// Splits \p E over the loops of \p N; see ChainAccess.
static bool linearize(const SCEV *E, const NestInfo &N, ScalarEvolution &SE,
                      Linear &Out, bool &Extended, std::string &Why,
                      unsigned Depth = 0) {
  Loop *Outer = N.Loops.front();
  Out.Off = SE.getZero(E->getType());
  Out.Strides.assign(N.depth(), Out.Off);
  if (SE.isLoopInvariant(E, Outer)) {
    Out.Off = E;
    return true;
  }
  if (Depth > 16) {
    Why = "address expression is too deep";
    return false;
  }
  if (auto *AR = dyn_cast<SCEVAddRecExpr>(E)) {
    auto It = llvm::find(N.Loops, AR->getLoop());
    if (It == N.Loops.end()) {
      Why = "address recurs in a loop that is not part of the nest";
      return false;
    }
    if (!AR->isAffine()) {
      Why = "address is not affine in the loop";
      return false;
    }
    const SCEV *Step = AR->getStepRecurrence(SE);
    if (!SE.isLoopInvariant(Step, Outer)) {
      Why = "address stride varies in the nest (a product of induction "
            "variables)";
      return false;
    }
    if (!linearize(AR->getStart(), N, SE, Out, Extended, Why, Depth + 1))
      return false;
    unsigned D = It - N.Loops.begin();
    Out.Strides[D] = SE.getAddExpr(Out.Strides[D], Step);
    return true;
  }
  if (auto *Add = dyn_cast<SCEVAddExpr>(E)) {
    for (const SCEV *Op : Add->operands()) {
      Linear Part;
      if (!linearize(Op, N, SE, Part, Extended, Why, Depth + 1))
        return false;
      Out.Off = SE.getAddExpr(Out.Off, Part.Off);
      for (unsigned D = 0; D < N.depth(); ++D)
        Out.Strides[D] = SE.getAddExpr(Out.Strides[D], Part.Strides[D]);
    }
    return true;
  }
  if (auto *Mul = dyn_cast<SCEVMulExpr>(E)) {
    const SCEV *Variant = nullptr;
    SmallVector<const SCEV *, 4> Factors;
    for (const SCEV *Op : Mul->operands()) {
      if (SE.isLoopInvariant(Op, Outer)) {
        Factors.push_back(Op);
        continue;
      }
      if (Variant) {
        Why = "address multiplies two values that vary in the nest";
        return false;
      }
      Variant = Op;
    }
    if (!Variant || !linearize(Variant, N, SE, Out, Extended, Why, Depth + 1))
      return false;
    const SCEV *F = SE.getMulExpr(Factors);
    Out.Off = SE.getMulExpr(Out.Off, F);
    for (const SCEV *&S : Out.Strides)
      S = SE.getMulExpr(S, F);
    return true;
  }
  if (isa<SCEVZeroExtendExpr>(E) || isa<SCEVSignExtendExpr>(E)) {
    auto *Cast = cast<SCEVCastExpr>(E);
    Linear Narrow;
    if (!linearize(Cast->getOperand(), N, SE, Narrow, Extended, Why,
                   Depth + 1))
      return false;
    Extended = true;
    Out = extendLinear(Narrow, E->getType(), isa<SCEVSignExtendExpr>(E), SE);
    return true;
  }
  Why = "address is not affine in the nest's induction variables";
  return false;
}

/// \p S divided by the power of two \p Size when provably exact; else null.
static const SCEV *divideBySize(const SCEV *S, uint64_t Size,
                                ScalarEvolution &SE) {
  if (Size == 1 || S->isZero())
    return S;
  if (Size > (uint64_t(1) << 32))
    return nullptr;
  if (isa<SCEVConstant>(S)) {
    std::optional<int64_t> V = scevInt64(S);
    if (!V || *V % (int64_t)Size)
      return nullptr;
    return SE.getConstant(S->getType(), *V / (int64_t)Size, true);
  }
  if (auto *M = dyn_cast<SCEVMulExpr>(S)) {
    std::optional<int64_t> V = scevInt64(M->getOperand(0));
    if (!V || *V % (int64_t)Size)
      return nullptr;
    SmallVector<const SCEV *, 4> Ops(M->operands().begin(),
                                     M->operands().end());
    Ops[0] = SE.getConstant(S->getType(), *V / (int64_t)Size, true);
    return SE.getMulExpr(Ops);
  }
  if (auto *A = dyn_cast<SCEVAddExpr>(S)) {
    SmallVector<const SCEV *, 4> Ops;
    for (const SCEV *Op : A->operands()) {
      const SCEV *D = divideBySize(Op, Size, SE);
      if (!D)
        return nullptr;
      Ops.push_back(D);
    }
    return SE.getAddExpr(Ops);
  }
  // An offset that recurs in a loop around the chain (a batch index).
  if (auto *AR = dyn_cast<SCEVAddRecExpr>(S)) {
    const SCEV *Start = divideBySize(AR->getStart(), Size, SE);
    const SCEV *Step = AR->isAffine()
                           ? divideBySize(AR->getStepRecurrence(SE), Size, SE)
                           : nullptr;
    if (!Start || !Step)
      return nullptr;
    return SE.getAddRecExpr(Start, Step, AR->getLoop(), SCEV::FlagAnyWrap);
  }
  return nullptr;
}

std::optional<ChainAccess> analyzeChainAccess(Instruction *I,
                                              const NestInfo &N,
                                              ScalarEvolution &SE,
                                              std::string &Why) {
  ChainAccess A;
  A.Inst = I;
  Value *Ptr = nullptr;
  if (auto *LI = dyn_cast_or_null<LoadInst>(I)) {
    Ptr = LI->getPointerOperand();
    A.ElemTy = LI->getType();
    if (!LI->isSimple()) {
      Why = "volatile or atomic load";
      return std::nullopt;
    }
  } else if (auto *SI = dyn_cast_or_null<StoreInst>(I)) {
    Ptr = SI->getPointerOperand();
    A.ElemTy = SI->getValueOperand()->getType();
    A.IsStore = true;
    if (!SI->isSimple()) {
      Why = "volatile or atomic store";
      return std::nullopt;
    }
  } else {
    Why = "not a load or store";
    return std::nullopt;
  }
  if (!(A.ElemTy->isIntegerTy() || A.ElemTy->isFloatingPointTy())) {
    Why = "accessed element is not an integer or floating-point scalar";
    return std::nullopt;
  }
  if (N.Loops.empty() || !SE.isSCEVable(Ptr->getType())) {
    Why = "address cannot be analysed";
    return std::nullopt;
  }
  Loop *Outer = N.Loops.front();
  const SCEV *S = SE.getSCEV(Ptr);
  auto *BaseU = dyn_cast<SCEVUnknown>(SE.getPointerBase(S));
  if (!BaseU) {
    Why = "address has no single base pointer";
    return std::nullopt;
  }
  if (auto *BI = dyn_cast<Instruction>(BaseU->getValue()))
    if (Outer->contains(BI)) {
      Why = "base pointer is computed inside the nest";
      return std::nullopt;
    }
  A.Base = BaseU->getValue();
  Linear Lin;
  if (!linearize(SE.removePointerBase(S), N, SE, Lin, A.AssumesNoWrap, Why))
    return std::nullopt;
  uint64_t Size =
      I->getModule()->getDataLayout().getTypeAllocSize(A.ElemTy).getFixedValue();
  if (Size == 0 || (Size & (Size - 1))) {
    Why = "element size is not a power of two";
    return std::nullopt;
  }
  A.OffsetBytes = Lin.Off;
  A.Offset = divideBySize(Lin.Off, Size, SE);
  for (const SCEV *St : Lin.Strides) {
    const SCEV *E = divideBySize(St, Size, SE);
    if (!E) {
      Why = "address stride is not a whole number of elements";
      return std::nullopt;
    }
    A.Strides.push_back(E);
  }
  // Rows that run down, counted from the last (NestInfo::RowsReversed):
  // Off + S0 t = (Off + S0 (TripCounts[0] - 1)) - S0 k0.
  if (N.RowsReversed) {
    const SCEV *S0 = A.Strides[0];
    const SCEV *Last = SE.getTruncateOrSignExtend(
        SE.getMinusSCEV(N.TripCounts[0], SE.getOne(N.TripCounts[0]->getType())),
        S0->getType());
    const SCEV *Shift = SE.getMulExpr(S0, Last);
    if (A.Offset)
      A.Offset = SE.getAddExpr(A.Offset,
                               SE.getTruncateOrSignExtend(Shift, A.Offset->getType()));
    A.OffsetBytes = SE.getAddExpr(
        A.OffsetBytes,
        SE.getMulExpr(SE.getTruncateOrSignExtend(Shift, A.OffsetBytes->getType()),
                      SE.getConstant(A.OffsetBytes->getType(), Size)));
    A.Strides[0] = SE.getNegativeSCEV(S0);
  }
  // A band: along k0 at a fixed index of the band's IV (the rectangle's
  // coordinates), not at a fixed iteration count.
  if (N.BandLoop)
    A.Strides[0] = SE.getMinusSCEV(
        A.Strides[0],
        SE.getMulExpr(SE.getConstant(A.Strides[0]->getType(), N.BandLead),
                      A.Strides[N.BandLoop]));
  return A;
}

bool isMatrixAccess(const ChainAccess &A, const NestInfo &N, unsigned &Row,
                    unsigned &Col, std::string &Why) {
  SmallVector<unsigned, 3> V = A.varyingLoops();
  if (V.size() != 2) {
    Why = V.empty()       ? "address does not vary in the nest"
          : V.size() == 1 ? "address varies with only 1 loop of the nest, "
                            "not 2 (a vector, not a matrix)"
                          : "address varies with " + std::to_string(V.size()) +
                                " loops of the nest, not 2";
    return false;
  }
  bool Unit0 = A.Strides[V[0]]->isOne(), Unit1 = A.Strides[V[1]]->isOne();
  if (Unit0 && Unit1) {
    Why = "both indices have a stride of one element: rows overlap (a "
          "convolution-like a[i+k], not a matrix)";
    return false;
  }
  if (!Unit0 && !Unit1) {
    Why = "no index has a stride of one element";
    return false;
  }
  Col = Unit0 ? V[0] : V[1];
  Row = Unit0 ? V[1] : V[0];
  if (std::optional<int64_t> LdC = scevInt64(A.Strides[Row])) {
    int64_t Ld = *LdC < 0 ? -*LdC : *LdC;
    int64_t Len = 0;
    if (Col < N.TripCounts.size())
      if (std::optional<int64_t> TC = scevInt64(N.TripCounts[Col]))
        Len = *TC;
    if (Ld < 2 || Ld < Len) {
      Why = "leading dimension " + std::to_string(Ld) +
            " is shorter than a row: rows overlap (not a matrix)";
      return false;
    }
  }
  return true;
}

static bool isMulAddCall(const Instruction *I) {
  auto *II = dyn_cast<IntrinsicInst>(I);
  return II && (II->getIntrinsicID() == Intrinsic::fmuladd ||
                II->getIntrinsicID() == Intrinsic::fma);
}

/// The multiply that pairs with add opcode \p AddOp, or 0.
static unsigned mulFor(unsigned AddOp) {
  return AddOp == Instruction::FAdd  ? Instruction::FMul
         : AddOp == Instruction::Add ? Instruction::Mul
                                     : 0;
}

SmallVector<MulAddParts, 4> matchMulAdd(Value *V) {
  SmallVector<MulAddParts, 4> Out;
  auto Push = [&Out](Value *X, Value *Y, Value *Acc) {
    Out.push_back({X, Y, Acc});
    if (X != Y)
      Out.push_back({Y, X, Acc});
  };
  auto *I = dyn_cast_or_null<Instruction>(V);
  if (!I)
    return Out;
  if (isMulAddCall(I)) {
    Push(I->getOperand(0), I->getOperand(1), I->getOperand(2));
    return Out;
  }
  unsigned MulOp = mulFor(I->getOpcode());
  if (!MulOp)
    return Out;
  for (unsigned Side = 0; Side < 2; ++Side) {
    auto *M = dyn_cast<Instruction>(I->getOperand(Side));
    if (M && M->getOpcode() == MulOp)
      Push(M->getOperand(0), M->getOperand(1), I->getOperand(1 - Side));
  }
  return Out;
}

/// True when \p V does not change inside \p Outer.
static bool definedOutside(const Value *V, const Loop *Outer) {
  auto *I = dyn_cast<Instruction>(V);
  return !I || !Outer->contains(I);
}

SmallVector<Value *, 2> scaledLoadsOf(Value *V, const Loop *Outer) {
  SmallVector<Value *, 2> Out;
  if (isa_and_nonnull<LoadInst>(V)) {
    Out.push_back(V);
    return Out;
  }
  auto *I = dyn_cast_or_null<Instruction>(V);
  // -ld (a factor of -1): `y[j] -= A[k][j] * x[k]`, which clang writes as
  // llvm.fmuladd(-x, A, y).
  if (I && Outer && I->getOpcode() == Instruction::FNeg &&
      isa<LoadInst>(I->getOperand(0))) {
    Out.push_back(I->getOperand(0));
    return Out;
  }
  if (!I || !Outer ||
      (I->getOpcode() != Instruction::FMul && I->getOpcode() != Instruction::Mul))
    return Out;
  for (unsigned Side = 0; Side < 2; ++Side)
    if (isa<LoadInst>(I->getOperand(Side)) &&
        definedOutside(I->getOperand(1 - Side), Outer))
      Out.push_back(I->getOperand(Side));
  return Out;
}

bool isFinalValueOf(Value *V, PHINode *Sum, LoopInfo &LI) {
  return V && Sum && isFinalValueOf(V, Sum, LI.getLoopFor(Sum->getParent()));
}

bool isFinalValueOf(Value *V, PHINode *Sum, const Loop *L) {
  if (!V || !Sum)
    return false;
  if (!L || L->getHeader() != Sum->getParent() || !L->getLoopLatch() ||
      !L->getLoopPreheader())
    return false;
  int LatchIdx = Sum->getBasicBlockIndex(L->getLoopLatch());
  int PreIdx = Sum->getBasicBlockIndex(L->getLoopPreheader());
  if (LatchIdx < 0 || PreIdx < 0)
    return false;
  Value *Upd = Sum->getIncomingValue(LatchIdx);
  Value *Init = Sum->getIncomingValue(PreIdx);
  SmallVector<std::pair<Value *, unsigned>, 8> Work{{V, 0}};
  SmallPtrSet<Value *, 8> Seen;
  bool SawUpdate = false;
  while (!Work.empty()) {
    auto [X, Depth] = Work.pop_back_val();
    if (!Seen.insert(X).second)
      continue;
    if (X == Upd) {
      SawUpdate = true;
      continue;
    }
    auto *P = dyn_cast<PHINode>(X);
    if (P && !L->contains(P) && Depth < 4) {
      for (Value *In : P->incoming_values())
        if (In != Init)
          Work.push_back({In, Depth + 1});
      continue;
    }
    return false;
  }
  return SawUpdate;
}

bool isPrologueElement(Instruction *M, StoreInst *St, const NestInfo &N,
                       ScalarEvolution &SE, std::string &Why) {
  if (!M || !St || !N.Prologue || !N.Prologue->contains(M) ||
      !getLoadStorePointerOperand(M)) {
    Why = "not a memory access of the loop before the inner loops";
    return false;
  }
  // Both addresses over the chain, the prologue in the innermost loop's
  // place: the same base, offset and strides, so the same element on the
  // same iterations.
  NestInfo P = N;
  P.Loops.back() = N.Prologue;
  std::string W;
  auto AM = analyzeChainAccess(M, P, SE, W);
  auto AS = analyzeChainAccess(St, N, SE, W);
  bool Same = AM && AS && AM->Base == AS->Base && AM->ElemTy == AS->ElemTy &&
              AM->OffsetBytes == AS->OffsetBytes;
  for (unsigned D = 0; Same && D < N.depth(); ++D)
    Same = AM->Strides[D] == AS->Strides[D];
  if (!Same) {
    Why = "the loop before the inner loops does not access the element the "
          "store writes (same offset and strides, the loop in the innermost "
          "loop's place)";
    return false;
  }
  if (N.PrologueTripCount != N.TripCounts.back()) {
    Why = "the loop before the inner loops runs another number of times than "
          "the innermost loop";
    return false;
  }
  return true;
}

void chainAccessRange(const ChainAccess &A, const NestInfo &N,
                      ScalarEvolution &SE, const SCEV *&Lo, const SCEV *&Hi) {
  Type *I64 = Type::getInt64Ty(A.Inst->getContext());
  auto Wide = [&](const SCEV *S) { return SE.getTruncateOrSignExtend(S, I64); };
  Lo = Wide(A.Offset);
  Hi = Lo;
  for (unsigned D = 0; D < N.depth(); ++D) {
    const SCEV *Stride = Wide(A.Strides[D]);
    const SCEV *Span = SE.getMulExpr(
        Stride, SE.getMinusSCEV(Wide(N.TripCounts[D]), SE.getOne(I64)));
    if (SE.isKnownNonNegative(Stride)) {
      Hi = SE.getAddExpr(Hi, Span);
    } else if (SE.isKnownNegative(Stride)) {
      Lo = SE.getAddExpr(Lo, Span);
    } else {
      Lo = SE.getAddExpr(Lo, SE.getSMinExpr(Span, SE.getZero(I64)));
      Hi = SE.getAddExpr(Hi, SE.getSMaxExpr(Span, SE.getZero(I64)));
    }
  }
  Hi = SE.getAddExpr(Hi, SE.getOne(I64));
}

bool accessesSameElement(Instruction *M, StoreInst *St, ScalarEvolution &SE) {
  if (!M || !St)
    return false;
  Value *Ptr = nullptr;
  Type *Ty = nullptr;
  if (auto *LI = dyn_cast<LoadInst>(M)) {
    Ptr = LI->getPointerOperand();
    Ty = LI->getType();
  } else if (auto *SI = dyn_cast<StoreInst>(M)) {
    Ptr = SI->getPointerOperand();
    Ty = SI->getValueOperand()->getType();
  } else {
    return false;
  }
  Value *SPtr = St->getPointerOperand();
  if (Ty != St->getValueOperand()->getType())
    return false;
  if (Ptr == SPtr)
    return true;
  return SE.isSCEVable(Ptr->getType()) && SE.getSCEV(Ptr) == SE.getSCEV(SPtr);
}

bool isScaledSum(Value *V, PHINode *Sum, StoreInst *St, const Loop *Outer,
                 LoopInfo &LI, ScalarEvolution &SE, std::string &Why) {
  if (!V || !Sum || !St || !Outer) {
    Why = "arguments are not (value, phi, store, loop)";
    return false;
  }
  Loop *SumLoop = LI.getLoopFor(Sum->getParent());
  if (!SumLoop || SumLoop->getHeader() != Sum->getParent() ||
      !SumLoop->getLoopLatch()) {
    Why = "sum is not a header phi of a loop with one latch";
    return false;
  }
  // A store inside the sum's loop writes the running sum on every iteration
  // (what GVN leaves of `y[i] += a*x` once the load of y[i] is forwarded):
  // the last write is the final sum, if the element stays the same and the
  // value does not read it back.
  int LatchIdx = Sum->getBasicBlockIndex(SumLoop->getLoopLatch());
  if (LatchIdx < 0) {
    Why = "sum is not updated on its loop's latch";
    return false;
  }
  bool Running = SumLoop->contains(St);
  Value *Upd = Sum->getIncomingValue(LatchIdx);
  if (Running && !SE.isLoopInvariant(SE.getSCEV(St->getPointerOperand()),
                                     SumLoop)) {
    Why = "the output is stored inside the loop that accumulates the sum, "
          "at an address that varies in it";
    return false;
  }
  // Summands of V: (core, factor) pairs, factor null when there is none.
  SmallVector<std::pair<Value *, Value *>, 4> Terms;
  SmallVector<std::pair<Value *, unsigned>, 4> Work{{V, 0}};
  auto Product = [&](Value *P, Value *Q) {
    if (definedOutside(Q, Outer))
      Terms.push_back({P, Q});
    else if (definedOutside(P, Outer))
      Terms.push_back({Q, P});
    else
      Terms.push_back({nullptr, nullptr});
  };
  auto IsSum = [&](Value *X) {
    return Running ? X == Upd : isFinalValueOf(X, Sum, LI);
  };
  while (!Work.empty() && Terms.size() <= 4) {
    auto [X, Depth] = Work.pop_back_val();
    auto *I = dyn_cast<Instruction>(X);
    unsigned Op = I ? I->getOpcode() : 0;
    if (IsSum(X)) // the sum itself may be an fadd: not a sum of terms here
      Terms.push_back({X, nullptr});
    else if (I && Depth < 3 && (Op == Instruction::FAdd || Op == Instruction::Add)) {
      Work.push_back({I->getOperand(1), Depth + 1});
      Work.push_back({I->getOperand(0), Depth + 1});
    } else if (I && Depth < 3 && isMulAddCall(I)) {
      Product(I->getOperand(0), I->getOperand(1));
      Work.push_back({I->getOperand(2), Depth + 1});
    } else if (I && (Op == Instruction::FMul || Op == Instruction::Mul)) {
      Product(I->getOperand(0), I->getOperand(1));
    } else {
      Terms.push_back({X, nullptr});
    }
  }
  if (!Work.empty()) {
    Why = "the output is not alpha*sum + beta*C: too many terms";
    return false;
  }
  unsigned SumTerms = 0, OutTerms = 0;
  for (auto &[Core, Factor] : Terms) {
    if (!Core) {
      Why = "the output is not alpha*sum + beta*C: a product of two values "
            "that vary in the nest";
      return false;
    }
    if (IsSum(Core)) {
      ++SumTerms;
      continue;
    }
    auto *Ld = dyn_cast<LoadInst>(Core);
    if (!Running && Ld && accessesSameElement(Ld, St, SE)) {
      ++OutTerms;
      continue;
    }
    Why = "the output is not alpha*sum + beta*C: a term is neither the sum "
          "after its loop nor the stored element";
    return false;
  }
  if (SumTerms != 1 || OutTerms > 1) {
    Why = SumTerms == 0 ? "the output does not use the sum after its loop"
                        : "the output is not alpha*sum + beta*C: a term "
                          "appears twice";
    return false;
  }
  return true;
}

} // namespace idiom
