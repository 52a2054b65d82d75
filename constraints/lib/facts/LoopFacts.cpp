//===- LoopFacts.cpp - Structural facts about loop nests -----------------===//

#include "idiom/Constraints/LoopFacts.h"
#include "idiom/Constraints/BisectionFacts.h"
#include "idiom/Constraints/ScevInt.h"
#include "idiom/Constraints/StencilFacts.h"
#include "idiom/Constraints/ValueText.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/ConstantRange.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"
#include <set>

using namespace llvm;

namespace idiom {

bool NestInfo::contains(const Instruction *I) const {
  return !Loops.empty() && Loops.front()->contains(I);
}

bool hasCanonicalShape(Loop *L, std::string &Why) {
  if (!L->getLoopPreheader()) {
    Why = "loop has no preheader";
    return false;
  }
  BasicBlock *Latch = L->getLoopLatch();
  if (!Latch) {
    Why = "loop has several latches";
    return false;
  }
  if (L->getExitingBlock() != Latch) {
    Why = "loop has an early exit";
    return false;
  }
  if (!L->getExitBlock()) {
    Why = "loop has several exit blocks";
    return false;
  }
  return true;
}

const SCEV *canonicalTripCount(Loop *L, ScalarEvolution &SE, std::string &Why) {
  if (!hasCanonicalShape(L, Why))
    return nullptr;
  const SCEV *BTC = SE.getBackedgeTakenCount(L);
  if (isa<SCEVCouldNotCompute>(BTC)) {
    Why = "trip count is not computable";
    return nullptr;
  }
  // Trip counts are i64 (getTripCountFromExitCount may only widen).
  if (!BTC->getType()->isIntegerTy() ||
      BTC->getType()->getIntegerBitWidth() > 64) {
    Why = "trip count is wider than 64 bits";
    return nullptr;
  }
  Type *I64 = Type::getInt64Ty(L->getHeader()->getContext());
  const SCEV *TC = SE.getTripCountFromExitCount(BTC, I64, L);
  if (!TC || isa<SCEVCouldNotCompute>(TC)) {
    Why = "trip count is not computable";
    return nullptr;
  }
  return TC;
}

/// True when branch condition \p C, leading into the inner loop when it is
/// \p When, is the entry test of a triangular inner loop whose count at
/// the current outer iteration is \p RowCount: A < B (signed or unsigned,
/// either way round) with B - A, computed in i64 without overflow (A and B
/// sign- or zero-extended from fewer bits, or both non-negative), equal to
/// the count (SCEV), so that the test fails exactly when the count is not
/// positive.
static bool isEntryTest(Value *C, bool When, const SCEV *RowCount, Loop *Outer,
                        ScalarEvolution &SE) {
  auto *Cmp = dyn_cast<ICmpInst>(C);
  if (!Cmp || !RowCount)
    return false;
  CmpInst::Predicate P = When ? Cmp->getPredicate() : Cmp->getInversePredicate();
  Value *A = Cmp->getOperand(0), *B = Cmp->getOperand(1);
  if (P == CmpInst::ICMP_SGT || P == CmpInst::ICMP_UGT) {
    std::swap(A, B);
    P = CmpInst::getSwappedPredicate(P);
  }
  if ((P != CmpInst::ICMP_SLT && P != CmpInst::ICMP_ULT) || !A->getType()->isIntegerTy() ||
      A->getType()->getIntegerBitWidth() > 64)
    return false;
  const SCEV *SA = SE.getSCEV(A), *SB = SE.getSCEV(B);
  Type *I64 = RowCount->getType();
  bool Signed = P == CmpInst::ICMP_SLT;
  if (A->getType()->getIntegerBitWidth() == 64) {
    auto NonNegative = [&](const SCEV *X) {
      return SE.isKnownNonNegative(X) || SE.isKnownNonNegative(SE.applyLoopGuards(X, Outer));
    };
    if (!NonNegative(SA) || !NonNegative(SB))
      return false;
  } else {
    SA = Signed ? SE.getSignExtendExpr(SA, I64) : SE.getZeroExtendExpr(SA, I64);
    SB = Signed ? SE.getSignExtendExpr(SB, I64) : SE.getZeroExtendExpr(SB, I64);
  }
  return SE.getMinusSCEV(SE.getMinusSCEV(SB, SA), RowCount)->isZero();
}

/// Follows the blocks of Outer from its header to the inner loop's preheader
/// and records the loop-invariant branch conditions on the way. A condition
/// that varies with the outer loop is accepted only as the entry test of a
/// triangular inner loop whose count is \p RowCount (isEntryTest; the
/// triangle's mask covers it); \p Tested says whether one was found.
static bool collectGuards(Loop *Outer, Loop *Inner, NestInfo &N, std::string &Why,
                          const SCEV *RowCount, bool &Tested) {
  ScalarEvolution &SE = *N.SE;
  // The stitched code tests the guards before the whole nest: each must be
  // invariant in its outermost loop, not only in the loop it sits in.
  Loop *Outermost = N.Loops.front();
  BasicBlock *Cur = Outer->getHeader();
  BasicBlock *Target = Inner->getLoopPreheader();
  BasicBlock *Latch = Outer->getLoopLatch();
  for (unsigned Steps = 0; Cur != Target; ++Steps) {
    auto *Br = dyn_cast<BranchInst>(Cur->getTerminator());
    if (!Br || Steps > 4) {
      Why = "inner loop is not reached by simple branches";
      return false;
    }
    if (Br->isUnconditional()) {
      Cur = Br->getSuccessor(0);
      continue;
    }
    Value *C = Br->getCondition();
    bool Varies = !Outer->isLoopInvariant(C) || !Outermost->isLoopInvariant(C);
    if (Varies && !RowCount) {
      Why = "inner loop is guarded by a condition that varies in the outer loop";
      return false;
    }
    BasicBlock *T = Br->getSuccessor(0), *F = Br->getSuccessor(1);
    auto SkipsToLatch = [&](BasicBlock *BB) {
      for (unsigned I = 0; I < 4 && BB; ++I) {
        if (BB == Latch)
          return true;
        BB = BB->getUniqueSuccessor();
      }
      return false;
    };
    if (SkipsToLatch(F) != SkipsToLatch(T) && Varies) {
      bool When = SkipsToLatch(F);
      if (!isEntryTest(C, When, RowCount, Outer, SE)) {
        Why = "inner loop is guarded by a condition that varies in the outer loop";
        return false;
      }
      Tested = true;
      Cur = When ? T : F;
    } else if (SkipsToLatch(F) && !SkipsToLatch(T)) {
      N.Guards.push_back({C, true});
      Cur = T;
    } else if (SkipsToLatch(T) && !SkipsToLatch(F)) {
      N.Guards.push_back({C, false});
      Cur = F;
    } else {
      Why = "inner loop guard does not skip to the outer latch";
      return false;
    }
  }
  return true;
}

/// analyzeNest's nest: with \p Searches (the bisection searches of its
/// body) a nest of depth 1 whatever Outer's inner loops, else a chain of
/// one to three loops, each the only loop inside the one before;
/// \p InnerCount is set when an inner loop's trip count fails.
static std::optional<NestInfo> countedNest(Loop *Outer, ScalarEvolution &SE,
                                           const SmallVectorImpl<BisectionInfo> *Searches,
                                           std::string &Why, bool &InnerCount) {
  NestInfo N;
  N.SE = &SE;
  N.Loops.push_back(Outer);
  if (Searches) {
    for (const BisectionInfo &B : *Searches) {
      N.Searches.push_back(B.L);
      N.SearchResults.push_back(B.Result);
    }
  } else if (!Outer->getSubLoops().empty()) {
    if (Outer->getSubLoops().size() != 1) {
      Why = "loop nest is deeper than three or not perfectly nested";
      return std::nullopt;
    }
    Loop *Inner = Outer->getSubLoops()[0];
    std::string SearchWhy;
    std::optional<SmallVector<BisectionInfo, 1>> Bs;
    if (!Inner->getSubLoops().empty())
      Bs = analyzeBisections(Inner, SE, SearchWhy);
    if (Bs) {
      // An extended 2-D nest: bisection searches in the inner loop's body.
      for (const BisectionInfo &B : *Bs) {
        N.Searches.push_back(B.L);
        N.SearchResults.push_back(B.Result);
      }
      N.Loops.push_back(Inner);
    } else {
      while (N.Loops.back()->getSubLoops().size() == 1 && N.Loops.size() < 3)
        N.Loops.push_back(N.Loops.back()->getSubLoops()[0]);
      if (!N.Loops.back()->getSubLoops().empty()) {
        Why = "loop nest is deeper than three or not perfectly nested";
        return std::nullopt;
      }
    }
  }
  const SCEV *RowCount = nullptr; // a triangular inner loop's own count
  for (Loop *L : N.Loops) {
    const SCEV *TC = canonicalTripCount(L, SE, Why);
    InnerCount = !TC && L != Outer;
    if (!TC)
      return std::nullopt;
    PHINode *IV = nullptr;
    const SCEV *SkewedStart = nullptr;
    for (PHINode &P : L->getHeader()->phis()) {
      // Integer induction variables of at most 64 bits whose constant step
      // fits in an int64_t; wider ones are not induction variables here.
      if (!P.getType()->isIntegerTy() ||
          P.getType()->getIntegerBitWidth() > 64)
        continue;
      auto *AR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(&P));
      if (!AR || AR->getLoop() != L || !AR->isAffine())
        continue;
      const SCEV *Step = AR->getStepRecurrence(SE);
      auto *CStep = dyn_cast<SCEVConstant>(Step);
      if (CStep && CStep->getAPInt().getSignificantBits() > 63)
        continue;
      // A step that is not a constant must be the same for the whole nest:
      // the blocks of 2s of an FFT stage, `j += 2 * s`
      // (docs/ConstraintLanguage.md, "Blocked loops (FFT stages)").
      if (!CStep && !SE.isLoopInvariant(Step, Outer))
        continue;
      int64_t IStep = CStep ? CStep->getAPInt().getSExtValue() : 0;
      if (!SE.isLoopInvariant(AR->getStart(), Outer)) {
        // A triangular inner loop: its start {S0,+,a}<Outer> with a a
        // positive multiple of its own step (Skew = a / step iterations).
        auto *SR = dyn_cast<SCEVAddRecExpr>(AR->getStart());
        auto A = SR && SR->getLoop() == Outer && SR->isAffine()
                     ? scevInt64(SR->getStepRecurrence(SE))
                     : std::nullopt;
        if (L != Outer && !IV && !SkewedStart && IStep > 0 && A && *A > 0 && *A % IStep == 0 &&
            SE.isLoopInvariant(SR->getStart(), Outer)) {
          SkewedStart = SR->getStart();
          N.Skew = *A / IStep;
          IV = &P;
        }
        continue;
      }
      if (SkewedStart) { // a plain induction variable after all
        SkewedStart = nullptr;
        N.Skew = 0;
      }
      IV = &P;
      N.IVStarts.push_back(AR->getStart());
      N.IVSteps.push_back(CStep ? CStep->getAPInt().getSExtValue() : 0);
      N.IVSymbolicSteps.push_back(CStep ? nullptr : Step);
      break;
    }
    if (SkewedStart) {
      // The count at outer iteration k0 must be T0 - Skew * k0.
      auto *TR = dyn_cast<SCEVAddRecExpr>(TC);
      auto St = TR && TR->getLoop() == Outer && TR->isAffine()
                    ? scevInt64(TR->getStepRecurrence(SE))
                    : std::nullopt;
      if (!St || *St != -N.Skew || !SE.isLoopInvariant(TR->getStart(), Outer)) {
        Why = "inner trip count varies with the outer loop (not rectangular)";
        return std::nullopt;
      }
      RowCount = TC;
      TC = SE.getSMaxExpr(TR->getStart(), SE.getZero(TC->getType()));
      N.IVStarts.push_back(SkewedStart);
      N.IVSteps.push_back(
          cast<SCEVConstant>(cast<SCEVAddRecExpr>(SE.getSCEV(IV))->getStepRecurrence(SE))
              ->getAPInt()
              .getSExtValue());
      N.IVSymbolicSteps.push_back(nullptr);
    } else if (!SE.isLoopInvariant(TC, Outer)) {
      Why = "inner trip count varies with the outer loop (not rectangular)";
      return std::nullopt;
    }
    if (!IV) {
      Why = "loop has no affine induction variable";
      return std::nullopt;
    }
    N.IVs.push_back(IV);
    N.TripCounts.push_back(TC);
  }
  if (N.Skew && N.depth() != 2) {
    Why = "inner trip count varies with the outer loop (not rectangular)";
    return std::nullopt;
  }
  for (unsigned D = 0; D + 1 < N.depth() && !Searches; ++D) {
    Loop *Out = N.Loops[D], *Inner = N.Loops[D + 1];
    bool Tested = false;
    if (!collectGuards(Out, Inner, N, Why, RowCount, Tested))
      return std::nullopt;
    // Without an entry test, every row must run: the last row's count
    // T0 - Skew (n0 - 1) is positive (j = i .. n), proved by SCEV.
    auto EveryRowRuns = [&] {
      const SCEV *T0 = cast<SCEVAddRecExpr>(RowCount)->getStart();
      const SCEV *K = SE.getConstant(T0->getType(), N.Skew);
      const SCEV *L = SE.getAddExpr(T0, K), *R = SE.getMulExpr(K, N.TripCounts[0]);
      return SE.isKnownPredicate(ICmpInst::ICMP_SGT, L, R) ||
             SE.isLoopEntryGuardedByCond(Outer, ICmpInst::ICMP_SGT, L, R);
    };
    if (RowCount && !Tested && !EveryRowRuns()) {
      Why = "inner trip count varies with the outer loop (not rectangular; a triangle "
            "j = i + c, but not entered under a test of its count, and SCEV does not "
            "prove that its last row runs)";
      return std::nullopt;
    }
    // A triangle's rows from the first empty one on (Skew k0 >= T0) run no
    // inner iteration: the nest stops before them, so that what the outer
    // body reads is read by the loop too.
    if (RowCount) {
      const SCEV *Rows = SE.getUDivExpr(
          SE.getAddExpr(N.TripCounts[1], SE.getConstant(N.TripCounts[1]->getType(), N.Skew - 1)),
          SE.getConstant(N.TripCounts[1]->getType(), N.Skew));
      N.TripCounts[0] = SE.getUMinExpr(N.TripCounts[0], Rows);
    }
    // Everything in a loop outside the loop inside it must be free of
    // memory operations and calls, so the nest is perfectly nested; simple
    // loads (inputs hoisted there) make an extended nest. The seeds of
    // reads forwarded from one iteration to the next (isForwardSeed: loads
    // whose only users are header phis of the nest) belong to those reads,
    // which the map spec accepts as ForwardedRead phis.
    for (BasicBlock *BB : Out->blocks()) {
      if (Inner->contains(BB))
        continue;
      for (Instruction &I : *BB) {
        if (auto *Ld = dyn_cast<LoadInst>(&I); Ld && Ld->isSimple()) {
          if (!N.OuterLoad && !isForwardSeed(Ld, Outer))
            N.OuterLoad = Ld;
          continue;
        }
        if (I.mayReadOrWriteMemory() || isa<CallBase>(I)) {
          Why = std::string(D ? "middle" : "outer") +
                " loop body has work outside the inner loop: " + valueText(&I);
          return std::nullopt;
        }
      }
    }
  }
  return N;
}

std::optional<NestInfo> analyzeNest(Loop *Outer, ScalarEvolution &SE,
                                    std::string &Why) {
  bool InnerCount = false;
  auto N = countedNest(Outer, SE, nullptr, Why, InnerCount);
  if (N || Outer->getSubLoops().empty())
    return N;
  // Not a rectangular nest: a single loop whose inner loops are all
  // bisection searches is a nest of depth 1 (BisectionFacts.h).
  std::string SearchWhy, SearchNestWhy;
  auto Bs = analyzeBisections(Outer, SE, SearchWhy);
  if (!Bs) {
    if (InnerCount)
      Why += " (nor is it a bisection search: " + SearchWhy + ")";
    return std::nullopt;
  }
  N = countedNest(Outer, SE, &*Bs, SearchNestWhy, InnerCount);
  if (!N)
    Why = SearchNestWhy;
  return N;
}

bool isPlainNest(const NestInfo &N, std::string &Why) {
  if (N.depth() == 2 && !N.Searches.empty())
    Why = "loop nest is deeper than two or not perfectly nested";
  else if (N.Skew)
    Why = "inner trip count varies with the outer loop (not rectangular)";
  else if (N.OuterLoad)
    Why = "outer loop body has work outside the inner loop: " + valueText(N.OuterLoad);
  else
    return true;
  return false;
}

bool AffineAccess::isInvariant() const {
  for (const SCEV *S : Strides)
    if (!S->isZero())
      return false;
  return true;
}

/// Divides \p S by the power of two \p Size when provably exact, keeping the
/// sign of constant factors; null otherwise.
static const SCEV *divideExact(const SCEV *S, uint64_t Size,
                               ScalarEvolution &SE) {
  if (Size == 1)
    return S;
  if (Size > (uint64_t(1) << 32))
    return nullptr;
  if (auto *C = dyn_cast<SCEVConstant>(S)) {
    if (C->getAPInt().getSignificantBits() > 63)
      return nullptr;
    int64_t V = C->getAPInt().getSExtValue();
    if (V % (int64_t)Size)
      return nullptr;
    return SE.getConstant(S->getType(), V / (int64_t)Size, true);
  }
  // A product is exact when one factor is: 8 * n1 * n2, or a VLA's row
  // offset n2 * (8 + 8 * n1) (SCEV puts the constant factor first when
  // there is one).
  if (auto *M = dyn_cast<SCEVMulExpr>(S)) {
    SmallVector<const SCEV *, 4> Ops(M->operands().begin(), M->operands().end());
    for (const SCEV *&Op : Ops)
      if (const SCEV *D = divideExact(Op, Size, SE)) {
        Op = D;
        return SE.getMulExpr(Ops);
      }
    return nullptr;
  }
  if (auto *A = dyn_cast<SCEVAddExpr>(S)) {
    SmallVector<const SCEV *, 4> Ops;
    for (const SCEV *Op : A->operands()) {
      const SCEV *D = divideExact(Op, Size, SE);
      if (!D)
        return nullptr;
      Ops.push_back(D);
    }
    return SE.getAddExpr(Ops);
  }
  // A recurrence of an enclosing loop (a plane offset {8*n*n,+,8*n*n}<i>
  // of a 2-D nest inside a 3-D one): exact when its start and step are.
  if (auto *AR = dyn_cast<SCEVAddRecExpr>(S); AR && AR->isAffine()) {
    const SCEV *Start = divideExact(AR->getStart(), Size, SE);
    const SCEV *Step =
        Start ? divideExact(AR->getStepRecurrence(SE), Size, SE) : nullptr;
    if (!Step)
      return nullptr;
    return SE.getAddRecExpr(Start, Step, AR->getLoop(), SCEV::FlagAnyWrap);
  }
  return nullptr;
}

std::optional<AffineAccess> analyzeAccess(Instruction *I, const NestInfo &N,
                                          ScalarEvolution &SE,
                                          std::string &Why) {
  AffineAccess A;
  A.Inst = I;
  Value *Ptr = nullptr;
  if (auto *LI = dyn_cast<LoadInst>(I)) {
    if (!LI->isSimple()) {
      Why = "volatile or atomic load";
      return std::nullopt;
    }
    Ptr = LI->getPointerOperand();
    A.ElemTy = LI->getType();
  } else if (auto *SI = dyn_cast<StoreInst>(I)) {
    if (!SI->isSimple()) {
      Why = "volatile or atomic store";
      return std::nullopt;
    }
    Ptr = SI->getPointerOperand();
    A.ElemTy = SI->getValueOperand()->getType();
    A.IsStore = true;
  } else {
    Why = "not a load or store";
    return std::nullopt;
  }
  if (!(A.ElemTy->isIntegerTy() || A.ElemTy->isFloatTy() ||
        A.ElemTy->isDoubleTy())) {
    Why = "accessed element is not an integer, float or double";
    return std::nullopt;
  }
  Loop *Outer = N.Loops.front();
  const SCEV *S = SE.getSCEV(Ptr);
  const SCEV *Base = SE.getPointerBase(S);
  auto *BaseU = dyn_cast<SCEVUnknown>(Base);
  if (!BaseU) {
    Why = "address has no single base pointer";
    return std::nullopt;
  }
  if (auto *BI = dyn_cast<Instruction>(BaseU->getValue()))
    if (Outer->contains(BI)) {
      Why = "base pointer is computed inside the loop";
      return std::nullopt;
    }
  A.Base = BaseU->getValue();
  const SCEV *Off = SE.removePointerBase(S);
  A.Strides.assign(N.depth(), nullptr);
  for (int D = N.depth() - 1; D >= 0; --D) {
    auto *AR = dyn_cast<SCEVAddRecExpr>(Off);
    if (AR && AR->getLoop() == N.Loops[D]) {
      if (!AR->isAffine()) {
        Why = "address is not affine in the loop";
        return std::nullopt;
      }
      A.Strides[D] = AR->getStepRecurrence(SE);
      Off = AR->getStart();
    } else {
      A.Strides[D] = SE.getZero(Off->getType());
    }
  }
  // A triangular nest counts k1 from the first row's start: the address
  // Off + s0 k0 + s1 (k1' - Skew k0) has outer stride s0 - Skew s1.
  if (N.Skew && N.depth() == 2)
    A.Strides[0] = SE.getMinusSCEV(
        A.Strides[0],
        SE.getMulExpr(SE.getConstant(A.Strides[1]->getType(), N.Skew), A.Strides[1]));
  for (const SCEV *St : A.Strides)
    if (!SE.isLoopInvariant(St, Outer)) {
      Why = "address stride varies in the loop";
      return std::nullopt;
    }
  if (!SE.isLoopInvariant(Off, Outer)) {
    Why = "address is not affine in the loop's induction variables";
    return std::nullopt;
  }
  // A single loop whose addresses move with an enclosing loop would be
  // launched once per iteration of that loop for one row of work (issue
  // "whole programs faster": never thousands of launches for microseconds
  // of work); a 2-D nest inside a 3-D one launches a plane at a time.
  if (N.depth() == 1 && SCEVExprContains(Off, [](const SCEV *X) {
        return isa<SCEVAddRecExpr>(X);
      })) {
    Why = "address moves with an enclosing loop (one row per launch)";
    return std::nullopt;
  }
  const DataLayout &DL = I->getModule()->getDataLayout();
  uint64_t Size = DL.getTypeAllocSize(A.ElemTy);
  if (Size == 0 || (Size & (Size - 1))) {
    Why = "element size is not a power of two";
    return std::nullopt;
  }
  A.Offset = divideExact(Off, Size, SE);
  for (const SCEV *&St : A.Strides)
    if (St && !(St = divideExact(St, Size, SE))) {
      Why = "address stride is not a whole number of elements";
      return std::nullopt;
    }
  if (!A.Offset) {
    Why = "address offset is not a whole number of elements";
    return std::nullopt;
  }
  return A;
}

bool isPureCall(const Instruction *I) {
  auto *CB = dyn_cast<CallInst>(I);
  if (!CB)
    return false;
  if (auto *II = dyn_cast<IntrinsicInst>(CB)) {
    switch (II->getIntrinsicID()) {
    case Intrinsic::fmuladd: case Intrinsic::fma: case Intrinsic::sqrt:
    case Intrinsic::fabs: case Intrinsic::smin: case Intrinsic::smax:
    case Intrinsic::umin: case Intrinsic::umax: case Intrinsic::minnum:
    case Intrinsic::maxnum: case Intrinsic::exp: case Intrinsic::log:
    case Intrinsic::sin: case Intrinsic::cos: case Intrinsic::pow:
    case Intrinsic::floor: case Intrinsic::ceil: case Intrinsic::abs:
      return true;
    default:
      return false;
    }
  }
  const Function *F = CB->getCalledFunction();
  if (!F || !CB->doesNotAccessMemory() || !CB->doesNotThrow())
    return false;
  static const std::set<std::string> Math = {
      "sqrt", "sqrtf", "fabs", "fabsf", "exp", "expf", "log", "logf",
      "sin", "sinf", "cos", "cosf", "pow", "powf", "floor", "floorf",
      "ceil", "ceilf", "fmin", "fminf", "fmax", "fmaxf"};
  return Math.count(F->getName().str()) != 0;
}

bool isErrnoLibmCall(const Instruction *I) {
  auto *CB = dyn_cast<CallInst>(I);
  if (!CB || isa<IntrinsicInst>(CB) || CB->isNoBuiltin() || CB->isInlineAsm())
    return false;
  const Function *F = CB->getCalledFunction();
  if (!F || !F->isDeclaration() || F->isVarArg() || !CB->doesNotThrow() ||
      !CB->onlyWritesMemory() || CB->hasOperandBundles())
    return false;
  // The functions of funil/LibmErrno.h's table (constraints/ does not see
  // FunIL; the lifter refuses a call without a rule).
  static const std::set<std::string> Names = {
      "sqrt", "sqrtf", "log", "logf", "exp", "expf",
      "pow",  "powf",  "sin", "sinf", "cos", "cosf"};
  std::string N = F->getName().str();
  if (!Names.count(N))
    return false;
  Type *T = CB->getType();
  bool IsFloat = N.back() == 'f';
  if (!(IsFloat ? T->isFloatTy() : T->isDoubleTy()))
    return false;
  unsigned Arity = N.rfind("pow", 0) == 0 ? 2 : 1;
  if (CB->arg_size() != Arity)
    return false;
  for (const Use &A : CB->args())
    if (A->getType() != T)
      return false;
  return true;
}

bool isPureOrErrnoCall(const Instruction *I) {
  return isPureCall(I) || isErrnoLibmCall(I);
}

std::string approximateLibmName(const Instruction *I) {
  auto *CB = dyn_cast<CallInst>(I);
  if (!CB || !isPureOrErrnoCall(I))
    return "";
  std::string Base;
  if (auto *II = dyn_cast<IntrinsicInst>(CB)) {
    switch (II->getIntrinsicID()) {
    case Intrinsic::exp: Base = "exp"; break;
    case Intrinsic::log: Base = "log"; break;
    case Intrinsic::sin: Base = "sin"; break;
    case Intrinsic::cos: Base = "cos"; break;
    case Intrinsic::pow: Base = "pow"; break;
    default: return "";
    }
    return Base + (CB->getType()->isFloatTy() ? "f" : "");
  }
  std::string N = CB->getCalledFunction()->getName().str();
  for (const char *K : {"exp", "log", "sin", "cos", "pow"})
    if (N == K || N == std::string(K) + "f")
      return N;
  return "";
}

bool isPureScalarOp(const Instruction *I, bool AllowErrno) {
  if (AllowErrno && isErrnoLibmCall(I))
    return true;
  if (isa<BinaryOperator>(I) || isa<CmpInst>(I) || isa<SelectInst>(I) ||
      isa<UnaryOperator>(I) || isa<FreezeInst>(I))
    return !I->getType()->isVectorTy() && !I->getType()->isPointerTy();
  if (auto *C = dyn_cast<CastInst>(I))
    return !isa<PtrToIntInst>(C) && !isa<IntToPtrInst>(C) &&
           !isa<AddrSpaceCastInst>(C) && !C->getType()->isVectorTy() &&
           !C->getType()->isPointerTy() && !C->getSrcTy()->isPointerTy();
  return isPureCall(I);
}

bool isNestIV(const PHINode *Phi, const NestInfo &N) {
  for (Loop *L : N.Loops)
    if (Phi->getParent() == L->getHeader())
      for (const PHINode *IV : N.IVs)
        if (IV == Phi)
          return true;
  return false;
}

std::optional<DerivedIV> derivedIV(const PHINode *Phi, const NestInfo &N) {
  if (!N.SE || !Phi->getType()->isIntegerTy() ||
      Phi->getType()->getIntegerBitWidth() > 64 || isNestIV(Phi, N))
    return std::nullopt;
  for (unsigned D = 0; D < N.depth(); ++D) {
    if (Phi->getParent() != N.Loops[D]->getHeader())
      continue;
    auto *AR = dyn_cast<SCEVAddRecExpr>(N.SE->getSCEV(const_cast<PHINode *>(Phi)));
    if (!AR || AR->getLoop() != N.Loops[D] || !AR->isAffine() ||
        !N.SE->isLoopInvariant(AR->getStart(), N.Loops.front()) ||
        !N.SE->isLoopInvariant(AR->getStepRecurrence(*N.SE), N.Loops.front()))
      return std::nullopt;
    return DerivedIV{D, AR->getStart(), AR->getStepRecurrence(*N.SE)};
  }
  return std::nullopt;
}

bool isTriangleStart(const PHINode *Phi, const NestInfo &N) {
  if (!N.Skew || N.depth() != 2 || Phi->getParent() != N.Loops[0]->getHeader() ||
      !N.SE->isSCEVable(Phi->getType()))
    return false;
  auto *IV = dyn_cast<SCEVAddRecExpr>(N.SE->getSCEV(N.IVs[1]));
  return IV && IV->getStart() == N.SE->getSCEV(const_cast<PHINode *>(Phi));
}

bool isNestSearchPhi(const PHINode *Phi, const NestInfo &N) {
  for (Loop *S : N.Searches)
    if (Phi->getParent() == S->getHeader())
      return true;
  return false;
}

bool isNestSearchResult(const PHINode *Phi, const NestInfo &N) {
  return is_contained(N.SearchResults, Phi);
}

/// True when \p P is a header phi of a loop of \p N whose latch value,
/// through at most 8 phis of the same header, is a load of the nest: the
/// shape of a read forwarded from the previous iteration.
static bool hasForwardedReadShape(const PHINode *P, const NestInfo &N) {
  const Loop *L = nullptr;
  for (const Loop *X : N.Loops)
    if (X->getHeader() == P->getParent())
      L = X;
  BasicBlock *Latch = L ? L->getLoopLatch() : nullptr;
  const Value *V = P;
  for (unsigned Depth = 0; Latch && Depth < 8; ++Depth) {
    auto *Q = dyn_cast<PHINode>(V);
    if (!Q || Q->getParent() != P->getParent() ||
        Q->getBasicBlockIndex(Latch) < 0)
      return false;
    V = Q->getIncomingValueForBlock(Latch);
    if (auto *Ld = dyn_cast<LoadInst>(V))
      return N.contains(Ld);
  }
  return false;
}

bool isPureSlice(Value *Root, const NestInfo &N, std::string &Why,
                 bool AllowErrno, bool AllowForwarded) {
  SmallVector<Value *, 16> Work{Root};
  SmallPtrSet<Value *, 32> Seen;
  while (!Work.empty()) {
    Value *V = Work.pop_back_val();
    if (!Seen.insert(V).second)
      continue;
    auto *I = dyn_cast<Instruction>(V);
    if (!I || !N.contains(I))
      continue; // constant, argument, or defined before the nest
    if (auto *P = dyn_cast<PHINode>(I)) {
      if (!isNestIV(P, N) && !derivedIV(P, N) &&
          !(AllowForwarded && hasForwardedReadShape(P, N))) {
        Why = "value depends on a phi that is not the induction variable: " +
              valueText(P);
        return false;
      }
      continue;
    }
    if (isa<LoadInst>(I))
      continue;
    if (!isPureScalarOp(I, AllowErrno)) {
      Why = "value computed by an instruction with side effects or "
            "unsupported operation: " + valueText(I);
      return false;
    }
    for (Value *Op : I->operands())
      Work.push_back(Op);
  }
  return true;
}

const char *reductionOpName(ReductionOp Op) {
  switch (Op) {
  case ReductionOp::Add: return "add";
  case ReductionOp::Mul: return "mul";
  case ReductionOp::And: return "and";
  case ReductionOp::Or: return "or";
  case ReductionOp::Xor: return "xor";
  case ReductionOp::SMin: return "smin";
  case ReductionOp::SMax: return "smax";
  case ReductionOp::UMin: return "umin";
  case ReductionOp::UMax: return "umax";
  case ReductionOp::FAdd: return "fadd";
  case ReductionOp::FMul: return "fmul";
  case ReductionOp::FMin: return "fmin";
  case ReductionOp::FMax: return "fmax";
  case ReductionOp::ArgIndex: return "argindex";
  case ReductionOp::Other: return "other";
  }
  return "?";
}

Constant *reductionIdentity(ReductionOp Op, Type *Ty) {
  switch (Op) {
  case ReductionOp::Add: case ReductionOp::Or: case ReductionOp::Xor:
  case ReductionOp::UMax:
    return ConstantInt::get(Ty, 0);
  case ReductionOp::Mul:
    return ConstantInt::get(Ty, 1);
  case ReductionOp::And: case ReductionOp::UMin:
    return ConstantInt::getAllOnesValue(Ty);
  case ReductionOp::SMin:
    return ConstantInt::get(Ty, APInt::getSignedMaxValue(Ty->getIntegerBitWidth()));
  case ReductionOp::SMax:
    return ConstantInt::get(Ty, APInt::getSignedMinValue(Ty->getIntegerBitWidth()));
  case ReductionOp::FAdd:
    return ConstantFP::getNegativeZero(Ty);
  case ReductionOp::FMul:
    return ConstantFP::get(Ty, 1.0);
  case ReductionOp::FMin:
    return ConstantFP::getInfinity(Ty, false);
  case ReductionOp::FMax:
    return ConstantFP::getInfinity(Ty, true);
  case ReductionOp::ArgIndex: // depends on the tie rule: argIndexSentinel
  case ReductionOp::Other:
    return nullptr;
  }
  return nullptr;
}

/// True when V (inside the loop) depends on Phi through in-loop operands.
static bool dependsOn(Value *V, PHINode *Phi, const Loop *L) {
  SmallVector<Value *, 16> Work{V};
  SmallPtrSet<Value *, 32> Seen;
  while (!Work.empty()) {
    Value *X = Work.pop_back_val();
    if (X == Phi)
      return true;
    auto *I = dyn_cast<Instruction>(X);
    if (!I || !L->contains(I) || isa<PHINode>(I) || !Seen.insert(X).second)
      continue;
    for (Value *Op : I->operands())
      Work.push_back(Op);
  }
  return false;
}

/// True for `llvm.fmuladd` / `llvm.fma`: acc + x*y when acc is operand 2.
static bool isMulAdd(const Instruction *I) {
  auto *II = dyn_cast<IntrinsicInst>(I);
  return II && (II->getIntrinsicID() == Intrinsic::fmuladd ||
                II->getIntrinsicID() == Intrinsic::fma);
}

/// Links of one chain must be the same operation; fadd and fmuladd mix.
static unsigned linkKey(const Instruction *I) {
  if (isMulAdd(I))
    return Instruction::FAdd;
  if (auto *II = dyn_cast<IntrinsicInst>(I))
    return 1000 + II->getIntrinsicID();
  return I->getOpcode();
}

/// Operator of a binary instruction or min/max intrinsic usable as a link of
/// a reduction chain.
static std::optional<ReductionOp> linkOp(Instruction *I) {
  if (isMulAdd(I))
    return ReductionOp::FAdd;
  switch (I->getOpcode()) {
  case Instruction::Add: return ReductionOp::Add;
  case Instruction::Mul: return ReductionOp::Mul;
  case Instruction::And: return ReductionOp::And;
  case Instruction::Or: return ReductionOp::Or;
  case Instruction::Xor: return ReductionOp::Xor;
  case Instruction::FAdd: return ReductionOp::FAdd;
  case Instruction::FMul: return ReductionOp::FMul;
  case Instruction::Sub: case Instruction::FSub: case Instruction::SDiv:
  case Instruction::UDiv: case Instruction::FDiv: case Instruction::SRem:
  case Instruction::URem: case Instruction::Shl: case Instruction::LShr:
  case Instruction::AShr:
    return ReductionOp::Other;
  default: break;
  }
  if (auto *II = dyn_cast<IntrinsicInst>(I)) {
    switch (II->getIntrinsicID()) {
    case Intrinsic::smin: return ReductionOp::SMin;
    case Intrinsic::smax: return ReductionOp::SMax;
    case Intrinsic::umin: return ReductionOp::UMin;
    case Intrinsic::umax: return ReductionOp::UMax;
    case Intrinsic::minnum: return ReductionOp::FMin;
    case Intrinsic::maxnum: return ReductionOp::FMax;
    default: break;
    }
  }
  return std::nullopt;
}

/// Recognises `select(X pred Phi, X, Phi)` and its mirror images as min/max.
/// A floating-point form is accepted only when the element replaces the
/// accumulator under an ordered predicate (`x > acc ? x : acc`, or
/// `x ule acc ? acc : x`): then a NaN element never replaces the accumulator
/// and a NaN start value is kept, so the update is associative over the
/// non-NaN elements and the parallel result equals the loop's up to the sign
/// of a zero (checked at run time, Stitching.cpp). Forms where a NaN element
/// replaces the accumulator (`acc > x ? acc : x`) set \p Refused and return
/// nothing.
static std::optional<ReductionOp> selectMinMax(SelectInst *Sel, PHINode *Phi,
                                               Value *&X,
                                               std::string &Refused) {
  auto *Cmp = dyn_cast<CmpInst>(Sel->getCondition());
  // Other users of the compare may only be selects: the index of an
  // argmin/argmax (analyzeArgIndex), which every header phi's analysis and
  // the stores/live-out checks then account for.
  if (!Cmp || !all_of(Cmp->users(), [](User *U) { return isa<SelectInst>(U); }))
    return std::nullopt;
  Value *T = Sel->getTrueValue(), *F = Sel->getFalseValue();
  if (T != Phi && F != Phi)
    return std::nullopt;
  X = T == Phi ? F : T;
  CmpInst::Predicate P = Cmp->getPredicate();
  if (Cmp->getOperand(0) == Phi && Cmp->getOperand(1) == X)
    P = CmpInst::getSwappedPredicate(P);
  else if (!(Cmp->getOperand(0) == X && Cmp->getOperand(1) == Phi))
    return std::nullopt;
  // Now the compare reads `X P Phi`; the select picks X when it holds.
  bool PicksXWhenTrue = T == X;
  bool Greater;
  std::optional<ReductionOp> Signed, Unsigned, Float;
  switch (P) {
  case CmpInst::ICMP_SGT: case CmpInst::ICMP_SGE: Greater = true; Signed = ReductionOp::SMax; break;
  case CmpInst::ICMP_SLT: case CmpInst::ICMP_SLE: Greater = false; Signed = ReductionOp::SMin; break;
  case CmpInst::ICMP_UGT: case CmpInst::ICMP_UGE: Greater = true; Unsigned = ReductionOp::UMax; break;
  case CmpInst::ICMP_ULT: case CmpInst::ICMP_ULE: Greater = false; Unsigned = ReductionOp::UMin; break;
  case CmpInst::FCMP_OGT: case CmpInst::FCMP_OGE: case CmpInst::FCMP_UGT:
  case CmpInst::FCMP_UGE: Greater = true; Float = ReductionOp::FMax; break;
  case CmpInst::FCMP_OLT: case CmpInst::FCMP_OLE: case CmpInst::FCMP_ULT:
  case CmpInst::FCMP_ULE: Greater = false; Float = ReductionOp::FMin; break;
  default: return std::nullopt;
  }
  bool IsMax = Greater == PicksXWhenTrue;
  if (Float && !Cmp->hasNoNaNs()) {
    // The element replaces the accumulator when P holds (PicksXWhenTrue) or
    // when it fails; that must be false on NaN.
    bool ReplacesOnlyWhenOrdered = PicksXWhenTrue ? CmpInst::isOrdered(P)
                                                  : CmpInst::isUnordered(P);
    if (!ReplacesOnlyWhenOrdered) {
      Refused = std::string("floating-point ") + (IsMax ? "max" : "min") +
                " reduction whose element replaces the accumulator when "
                "either is NaN (write `if (x > m) m = x;` to ignore NaN "
                "elements): the result depends on the order of evaluation";
      return std::nullopt;
    }
  }
  if (Signed)
    return IsMax ? ReductionOp::SMax : ReductionOp::SMin;
  if (Unsigned)
    return IsMax ? ReductionOp::UMax : ReductionOp::UMin;
  return IsMax ? ReductionOp::FMax : ReductionOp::FMin;
}

Value *ReductionInfo::result() const {
  if (CarryPhi)
    return CarryUpdate;
  return Update;
}

/// In a nest of two or three loops, the chain of header phis \p Phi belongs
/// to, outermost first (\p Chain[d] in the header of N.Loops[d]): each phi
/// starts its loop from the phi of the loop around it, so the innermost phi
/// accumulates over the whole flattened nest. False with \p Why when
/// \p Phi is not such a phi.
static bool findCarriedChain(PHINode *Phi, const NestInfo &N,
                             SmallVectorImpl<PHINode *> &Chain, std::string &Why) {
  unsigned Depth = N.depth(), Level = 0;
  while (Level < Depth && Phi->getParent() != N.Loops[Level]->getHeader())
    ++Level;
  Chain.assign(Depth, nullptr);
  if (Level < Depth)
    Chain[Level] = Phi;
  // Up: the phi's value on entry to its loop is the enclosing loop's phi.
  for (unsigned D = Level; D > 0 && D < Depth && Chain[D]; --D) {
    PHINode *P = Chain[D];
    if (P->getNumIncomingValues() == 2)
      Chain[D - 1] = dyn_cast<PHINode>(
          P->getIncomingValueForBlock(N.Loops[D]->getLoopPreheader()));
  }
  // Down: the inner loop's phi that starts from this one.
  for (unsigned D = Level; D + 1 < Depth && Chain[D]; ++D) {
    BasicBlock *PH = N.Loops[D + 1]->getLoopPreheader();
    for (PHINode &P : N.Loops[D + 1]->getHeader()->phis())
      if (P.getNumIncomingValues() == 2 && P.getIncomingValueForBlock(PH) == Chain[D])
        Chain[D + 1] = &P;
  }
  for (unsigned D = 0; D < Depth; ++D)
    if (!Chain[D] || Chain[D]->getParent() != N.Loops[D]->getHeader() ||
        Chain[D]->getNumIncomingValues() != 2 || Chain[D]->getType() != Phi->getType()) {
      Why = Depth == 2 ? "the accumulator is not carried through both loops of the nest (the "
                         "inner loop's phi must start from the outer loop's)"
                       : "the accumulator is not carried through every loop of the nest "
                         "(each inner loop's phi must start from the phi of the loop "
                         "around it)";
      return false;
    }
  return true;
}

/// Nests of two or three loops: true when \p Carry, the header phi of
/// \p Outer, receives from \p Outer's latch the final value \p RowResult of
/// the loop \p Inner inside it (through \p Inner's exit phi, or the carry
/// itself where a guard skips \p Inner), and feeds only \p Next (the phi of
/// \p Inner that starts from it) and such row results. Sets \p CarryUpdate
/// to the latch value.
static bool carriesRowResult(PHINode *Carry, Value *RowResult, PHINode *Next,
                             Loop *Outer, Loop *Inner, Value *&CarryUpdate,
                             std::string &Why) {
  CarryUpdate = Carry->getIncomingValueForBlock(Outer->getLoopLatch());
  SmallPtrSet<Value *, 8> RowValues{RowResult};
  // Walk back from the latch value through exit and merge phis of the outer
  // body: every incoming value must be the row's result or the carry.
  SmallVector<Value *, 8> Work{CarryUpdate};
  SmallPtrSet<Value *, 8> Seen;
  while (!Work.empty()) {
    Value *V = Work.pop_back_val();
    if (!Seen.insert(V).second || V == RowResult || V == Carry)
      continue;
    auto *P = dyn_cast<PHINode>(V);
    if (!P || !Outer->contains(P) || Inner->contains(P)) {
      Why = "the outer loop does not pass the inner loop's final value to the "
            "next row: " + valueText(V);
      return false;
    }
    RowValues.insert(P);
    for (Value *In : P->incoming_values())
      Work.push_back(In);
  }
  if (!Seen.count(RowResult) && CarryUpdate != RowResult) {
    Why = "the outer loop does not accumulate the inner loop's final value";
    return false;
  }
  for (User *U : Carry->users())
    if (U != Next && !RowValues.count(U)) {
      Why = "the accumulator is read between rows: " + valueText(U);
      return false;
    }
  // Inside the outer loop, the row values feed only each other and the carry.
  for (Value *V : RowValues)
    for (User *U : V->users()) {
      auto *UI = dyn_cast<Instruction>(U);
      if (!UI || UI == Next || UI == Carry || RowValues.count(UI) ||
          !Outer->contains(UI))
        continue;
      if (Inner->contains(UI) && V == RowResult)
        continue; // the inner chain (checked by the caller or a level below)
      Why = "the accumulator is read between rows: " + valueText(UI);
      return false;
    }
  return true;
}

std::optional<ReductionInfo> analyzeReduction(PHINode *Phi, const NestInfo &N,
                                              std::string &Why) {
  Loop *L = N.Loops.back();
  PHINode *Carry = nullptr;
  SmallVector<PHINode *, 3> CarryChain;
  if (N.depth() >= 2) {
    if (!findCarriedChain(Phi, N, CarryChain, Why))
      return std::nullopt;
    Carry = CarryChain.front();
    Phi = CarryChain.back();
  }
  if (N.depth() > 3 || Phi->getParent() != L->getHeader() ||
      Phi->getNumIncomingValues() != 2) {
    Why = "not a header phi of a single loop";
    return std::nullopt;
  }
  Type *Ty = Phi->getType();
  if (!(Ty->isIntegerTy() && Ty->getIntegerBitWidth() <= 64 &&
        Ty->getIntegerBitWidth() >= 8) &&
      !Ty->isFloatTy() && !Ty->isDoubleTy()) {
    Why = "accumulator type is not an integer, float or double";
    return std::nullopt;
  }
  ReductionInfo R;
  R.Phi = Phi;
  R.CarryPhi = Carry;
  if (CarryChain.size() > 2)
    R.MidCarries.assign(CarryChain.begin() + 1, CarryChain.end() - 1);
  R.Init = Carry ? Carry->getIncomingValueForBlock(N.Loops.front()->getLoopPreheader())
                 : Phi->getIncomingValueForBlock(L->getLoopPreheader());
  R.Update = dyn_cast<Instruction>(Phi->getIncomingValueForBlock(L->getLoopLatch()));
  if (!R.Update || !L->contains(R.Update)) {
    Why = "accumulator is not updated in the loop";
    return std::nullopt;
  }
  SmallPtrSet<Instruction *, 8> Chain;
  Instruction *U = R.Update;
  if (auto *Sel = dyn_cast<SelectInst>(U)) {
    Value *X = nullptr;
    std::string Refused;
    auto Op = selectMinMax(Sel, Phi, X, Refused);
    if (!Refused.empty()) {
      Why = Refused;
      return std::nullopt;
    }
    if (Op) {
      if (dependsOn(X, Phi, L)) {
        Why = "min/max operand depends on the accumulator";
        return std::nullopt;
      }
      R.Op = *Op;
      R.Operands.push_back(X);
      R.MulPartners.push_back(nullptr);
      R.FirstLink = Sel;
      Chain.insert(Sel);
      Chain.insert(cast<Instruction>(Sel->getCondition()));
      U = nullptr;
    } else if (Sel->getTrueValue() == Phi || Sel->getFalseValue() == Phi) {
      R.Cond = Sel->getCondition();
      R.CondNegated = Sel->getTrueValue() == Phi;
      if (dependsOn(R.Cond, Phi, L)) {
        Why = "update condition depends on the accumulator";
        return std::nullopt;
      }
      Value *Other = R.CondNegated ? Sel->getFalseValue() : Sel->getTrueValue();
      Chain.insert(Sel);
      U = dyn_cast<Instruction>(Other);
      if (!U || !L->contains(U) || !U->hasOneUse()) {
        Why = "conditional update is not an operation on the accumulator";
        return std::nullopt;
      }
    }
  }
  if (U) {
    auto Op = linkOp(U);
    if (!Op) {
      Why = "update is not a known reduction operator: " + valueText(U);
      return std::nullopt;
    }
    R.Op = *Op;
    SmallVector<Value *, 4> Rev, RevPartners;
    Instruction *Cur = U;
    while (true) {
      if (!linkOp(Cur) || *linkOp(Cur) != R.Op ||
          linkKey(Cur) != linkKey(U)) {
        Why = "update chain mixes operators: " + valueText(Cur);
        return std::nullopt;
      }
      Chain.insert(Cur);
      Value *Next;
      if (isMulAdd(Cur)) {
        Value *X = Cur->getOperand(0), *Y = Cur->getOperand(1);
        Next = Cur->getOperand(2);
        if (dependsOn(X, Phi, L) || dependsOn(Y, Phi, L) ||
            !dependsOn(Next, Phi, L)) {
          Why = "multiply-add does not accumulate into the addend";
          return std::nullopt;
        }
        Rev.push_back(X);
        RevPartners.push_back(Y);
      } else {
        Value *A = Cur->getOperand(0), *B = Cur->getOperand(1);
        bool DA = dependsOn(A, Phi, L), DB = dependsOn(B, Phi, L);
        if (DA == DB) {
          Why = DA ? "both operands of the update depend on the accumulator"
                   : "update does not use the accumulator";
          return std::nullopt;
        }
        Next = DA ? A : B;
        Rev.push_back(DA ? B : A);
        RevPartners.push_back(nullptr);
      }
      if (Next == Phi) {
        R.FirstLink = Cur;
        break;
      }
      auto *NI = dyn_cast<Instruction>(Next);
      if (!NI || !L->contains(NI) || !NI->hasOneUse()) {
        Why = "accumulator chain value is used elsewhere in the loop";
        return std::nullopt;
      }
      Cur = NI;
    }
    R.Operands.assign(Rev.rbegin(), Rev.rend());
    R.MulPartners.assign(RevPartners.rbegin(), RevPartners.rend());
  }
  // The accumulator may feed only its own chain, and compares that only
  // choose between values (the index of an argmin/argmax, analyzeArgIndex;
  // any other use of such a select is rejected where it is used: stores,
  // live-outs, and other accumulators, whose conditions and operands must be
  // pure slices that read no accumulator).
  for (User *Us : Phi->users()) {
    auto *UI = dyn_cast<Instruction>(Us);
    if (UI && isa<CmpInst>(UI) && !Chain.count(UI) && !UI->user_empty() &&
        all_of(UI->users(), [&](User *CU) {
          auto *S = dyn_cast<SelectInst>(CU);
          return S && S->getCondition() == UI;
        }))
      continue;
    if (!UI || !Chain.count(UI)) {
      Why = "accumulator is read elsewhere in the loop or after it";
      return std::nullopt;
    }
  }
  for (User *Us : R.Update->users()) {
    auto *UI = dyn_cast<Instruction>(Us);
    if (UI == Phi)
      continue;
    // The running value stored on every iteration to an address invariant
    // in the nest (an array element -O2 keeps in a register but stores back,
    // NAS's rms[m]): in Update's block, so it runs whenever Update does.
    auto *St = dyn_cast_or_null<StoreInst>(UI);
    if (St && St->isSimple() && St->getValueOperand() == R.Update &&
        St->getParent() == R.Update->getParent() &&
        N.Loops.front()->isLoopInvariant(St->getPointerOperand())) {
      R.Stores.push_back(St);
      continue;
    }
    if (!UI || L->contains(UI) || !isa<PHINode>(UI)) {
      Why = "updated accumulator is read elsewhere in the loop";
      return std::nullopt;
    }
  }
  for (size_t K = 0; K < R.Operands.size(); ++K)
    if (!isPureSlice(R.Operands[K], N, Why, true) ||
        (R.MulPartners[K] && !isPureSlice(R.MulPartners[K], N, Why, true)))
      return std::nullopt;
  if (R.Cond && !isPureSlice(R.Cond, N, Why, true))
    return std::nullopt;
  // From the innermost loop out: each carry receives the final value of
  // the loop inside it.
  Value *RowResult = R.Update;
  for (unsigned D = CarryChain.size(); D-- > 1;) {
    Value *CarryUpdate = nullptr;
    if (!carriesRowResult(CarryChain[D - 1], RowResult, CarryChain[D], N.Loops[D - 1],
                          N.Loops[D], CarryUpdate, Why))
      return std::nullopt;
    RowResult = CarryUpdate;
  }
  if (Carry)
    R.CarryUpdate = RowResult;
  return R;
}

Constant *argIndexSentinel(const ReductionInfo &R) {
  Type *Ty = R.Phi->getType();
  unsigned W = Ty->getIntegerBitWidth();
  return ConstantInt::get(Ty, R.ArgLast ? APInt::getSignedMinValue(W)
                                        : APInt::getSignedMaxValue(W));
}

std::optional<ReductionInfo> analyzeArgIndex(PHINode *Phi, const NestInfo &N,
                                             ScalarEvolution &SE,
                                             std::string &Why) {
  Loop *L = N.Loops.back();
  if (N.depth() != 1 || Phi->getParent() != L->getHeader() ||
      Phi->getNumIncomingValues() != 2 || !Phi->getType()->isIntegerTy()) {
    Why = "not an integer header phi of a single loop";
    return std::nullopt;
  }
  auto *Sel = dyn_cast<SelectInst>(
      Phi->getIncomingValueForBlock(L->getLoopLatch()));
  if (!Sel || !L->contains(Sel) ||
      (Sel->getTrueValue() != Phi) == (Sel->getFalseValue() != Phi)) {
    Why = "index is not updated as select(c, x, index)";
    return std::nullopt;
  }
  bool XWhenTrue = Sel->getFalseValue() == Phi;
  Value *X = XWhenTrue ? Sel->getTrueValue() : Sel->getFalseValue();
  // The min/max accumulator the same compare chooses for: a header phi m
  // whose min/max reduction compares m with its element x as this compare
  // does (compare+select on that very compare, or a min/max intrinsic of m
  // and x, where instcombine has split the select off).
  auto *Cmp = dyn_cast<CmpInst>(Sel->getCondition());
  if (!Cmp) {
    Why = "index update is not tied to a min/max update: its condition is "
          "not a compare";
    return std::nullopt;
  }
  std::optional<ReductionInfo> V;
  std::string ValueWhy;
  for (PHINode &P : L->getHeader()->phis()) {
    if (&P == Phi || (Cmp->getOperand(0) != &P && Cmp->getOperand(1) != &P))
      continue;
    std::string VWhy;
    auto R = analyzeReduction(&P, N, VWhy);
    if (!R) {
      if (ValueWhy.empty())
        ValueWhy = valueText(&P) + " is not a reduction: " + VWhy;
      continue;
    }
    if (R->Cond || R->Operands.size() != 1)
      continue;
    Value *Other = Cmp->getOperand(0) == &P ? Cmp->getOperand(1) : Cmp->getOperand(0);
    if (Other != R->Operands.front())
      continue;
    switch (R->Op) {
    case ReductionOp::SMin: case ReductionOp::SMax: case ReductionOp::UMin:
    case ReductionOp::UMax: case ReductionOp::FMin: case ReductionOp::FMax:
      break;
    default:
      continue;
    }
    auto *VSel = dyn_cast<SelectInst>(R->FirstLink);
    if (VSel && VSel->getCondition() != Cmp)
      continue;
    if (VSel && XWhenTrue != (VSel->getTrueValue() == Other)) {
      Why = "index update takes the new index when the min/max update keeps "
            "its value";
      return std::nullopt;
    }
    V = R;
    break;
  }
  if (!V) {
    Why = "index update is not tied to a min/max update: its condition is "
          "not the compare of a min/max accumulator with its element" +
          (ValueWhy.empty() ? std::string() : " (" + ValueWhy + ")");
    return std::nullopt;
  }
  PHINode *VPhi = V->Phi;
  // The compare read as `element P accumulator`, P as when the index takes
  // the element; its direction must be the min/max's.
  CmpInst::Predicate P = Cmp->getPredicate();
  if (Cmp->getOperand(0) == VPhi)
    P = CmpInst::getSwappedPredicate(P);
  if (!XWhenTrue)
    P = CmpInst::getInversePredicate(P);
  // Non-strict (<=, >=): the later of two equal values wins.
  bool TrueWhenEqual =
      P == CmpInst::ICMP_SLE || P == CmpInst::ICMP_SGE || P == CmpInst::ICMP_ULE ||
      P == CmpInst::ICMP_UGE || P == CmpInst::FCMP_OLE || P == CmpInst::FCMP_OGE;
  if (isa<FCmpInst>(Cmp) && !CmpInst::isOrdered(P)) {
    Why = "argmin/argmax whose element wins when a value is NaN";
    return std::nullopt;
  }
  bool Direction = false;
  switch (V->Op) {
  case ReductionOp::SMin: Direction = P == CmpInst::ICMP_SLT || P == CmpInst::ICMP_SLE; break;
  case ReductionOp::SMax: Direction = P == CmpInst::ICMP_SGT || P == CmpInst::ICMP_SGE; break;
  case ReductionOp::UMin: Direction = P == CmpInst::ICMP_ULT || P == CmpInst::ICMP_ULE; break;
  case ReductionOp::UMax: Direction = P == CmpInst::ICMP_UGT || P == CmpInst::ICMP_UGE; break;
  case ReductionOp::FMin: Direction = P == CmpInst::FCMP_OLT || P == CmpInst::FCMP_OLE; break;
  case ReductionOp::FMax: Direction = P == CmpInst::FCMP_OGT || P == CmpInst::FCMP_OGE; break;
  default: break;
  }
  if (!Direction) {
    Why = std::string("index update takes the new index on another comparison "
                      "than the ") + reductionOpName(V->Op) + " takes its element";
    return std::nullopt;
  }
  auto *XI = dyn_cast<Instruction>(X);
  if (!XI || !L->contains(XI)) {
    Why = "index update does not store an induction-dependent value";
    return std::nullopt;
  }
  // x must increase with the iteration: the smaller x is the earlier one.
  const SCEV *S = SE.getSCEV(X);
  auto *AR = dyn_cast<SCEVAddRecExpr>(S);
  const SCEVConstant *Step =
      AR && AR->getLoop() == L && AR->isAffine()
          ? dyn_cast<SCEVConstant>(AR->getStepRecurrence(SE))
          : nullptr;
  if (!Step || !Step->getAPInt().isStrictlyPositive()) {
    Why = "index update does not store an increasing function of the "
          "induction variable: " + valueText(X);
    return std::nullopt;
  }
  // ... without wrapping, and never equal to the identity index
  // (argIndexSentinel): SCEV's signed range of x over the loop.
  ConstantRange Range = SE.getSignedRange(S);
  unsigned W = X->getType()->getIntegerBitWidth();
  if (Range.isSignWrappedSet() ||
      (TrueWhenEqual ? Range.getSignedMin().isMinSignedValue()
                     : Range.getSignedMax().isMaxSignedValue())) {
    Why = "index may wrap around or reach the " + std::to_string(W) +
          "-bit limit: " + valueText(X);
    return std::nullopt;
  }
  if (dependsOn(X, Phi, L) || !isPureSlice(X, N, Why, false))
    return std::nullopt;
  for (User *U : Phi->users())
    if (U != Sel) {
      Why = "index is read elsewhere in the loop or after it";
      return std::nullopt;
    }
  for (User *U : Sel->users()) {
    auto *UI = dyn_cast<Instruction>(U);
    if (UI != Phi && (!UI || L->contains(UI) || !isa<PHINode>(UI))) {
      Why = "updated index is read elsewhere in the loop";
      return std::nullopt;
    }
  }
  ReductionInfo R;
  R.Phi = Phi;
  R.Init = Phi->getIncomingValueForBlock(L->getLoopPreheader());
  R.Update = Sel;
  R.Op = ReductionOp::ArgIndex;
  R.Operands.push_back(X);
  R.MulPartners.push_back(nullptr);
  R.FirstLink = Sel;
  R.ArgOf = VPhi;
  R.ArgLast = TrueWhenEqual;
  return R;
}

} // namespace idiom
