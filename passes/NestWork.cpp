//===- NestWork.cpp - How much host work an idiom's nest does -------------===//

#include "NestWork.h"
#include "idiom/Constraints/IdiomMatch.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Operator.h"

using namespace llvm;

namespace idiom {

/// Sum over rows k0 = 0 .. N0-1 of max(0, K - L k0) (a band or skewed
/// loop): r K - L r (r - 1) / 2 with r = min(N0, ceil(K / L)).
static const SCEV *bandRows(const SCEV *N0, const SCEV *K, int64_t L,
                            ScalarEvolution &SE) {
  Type *I64 = N0->getType();
  const SCEV *LS = SE.getConstant(I64, L);
  const SCEV *Rows = SE.getUMinExpr(
      N0, SE.getUDivExpr(SE.getAddExpr(K, SE.getConstant(I64, L - 1)), LS));
  const SCEV *Pairs = SE.getUDivExpr(
      SE.getMulExpr(Rows, SE.getMinusSCEV(Rows, SE.getOne(I64))),
      SE.getConstant(I64, 2));
  return SE.getMinusSCEV(SE.getMulExpr(Rows, K), SE.getMulExpr(LS, Pairs));
}

const SCEV *nestIterations(const NestInfo &N, ScalarEvolution &SE) {
  if (N.depth() == 0)
    return nullptr;
  Type *I64 = Type::getInt64Ty(N.Loops.front()->getHeader()->getContext());
  SmallVector<const SCEV *, 4> TC;
  for (const SCEV *S : N.TripCounts)
    TC.push_back(SE.getTruncateOrZeroExtend(S, I64));
  // The loop counted row by row with the outermost one, if any.
  unsigned Special = N.BandLoop ? N.BandLoop
                     : N.Skew   ? 1
                     : N.TriLoop ? N.TriLoop
                                 : 0;
  const SCEV *Total = SE.getOne(I64);
  if (Special && Special < TC.size()) {
    const SCEV *N0 = TC[0], *Rows;
    if (N.BandLoop && N.BandLead >= 1)
      Rows = bandRows(N0, TC[Special], N.BandLead, SE);
    else if (!N.BandLoop && N.Skew >= 1)
      Rows = bandRows(N0, TC[Special], N.Skew, SE);
    else if (!N.BandLoop && !N.Skew && N.TriBase >= 0 && N.TriSlope >= 1)
      // N0 TriBase + TriSlope N0 (N0 - 1) / 2
      Rows = SE.getAddExpr(
          SE.getMulExpr(N0, SE.getConstant(I64, N.TriBase)),
          SE.getMulExpr(SE.getConstant(I64, N.TriSlope),
                        SE.getUDivExpr(SE.getMulExpr(N0, SE.getMinusSCEV(
                                                             N0, SE.getOne(I64))),
                                       SE.getConstant(I64, 2))));
    else
      return nullptr;
    Total = Rows;
    for (unsigned D = 1; D < TC.size(); ++D)
      if (D != Special)
        Total = SE.getMulExpr(Total, TC[D]);
    return Total;
  }
  for (const SCEV *S : TC)
    Total = SE.getMulExpr(Total, S);
  return Total;
}

/// \p V, computed in every iteration, is one link of a serial chain whose
/// previous value is \p Acc: an fadd, fsub or fmul of Acc, or an fmuladd
/// or fma whose addend is Acc, without `reassoc`.
static bool isChainLink(const Value *V, const Value *Acc) {
  const auto *I = dyn_cast<Instruction>(V);
  if (!I || !I->getType()->isFloatingPointTy() || !isa<FPMathOperator>(I) ||
      I->hasAllowReassoc())
    return false;
  switch (I->getOpcode()) {
  case Instruction::FAdd:
  case Instruction::FSub:
  case Instruction::FMul:
    return I->getOperand(0) == Acc || I->getOperand(1) == Acc;
  default:
    break;
  }
  if (const auto *II = dyn_cast<IntrinsicInst>(I))
    if (II->getIntrinsicID() == Intrinsic::fmuladd ||
        II->getIntrinsicID() == Intrinsic::fma)
      return II->getArgOperand(2) == Acc;
  return false;
}

bool carriesFPChain(const Loop &L, ScalarEvolution &SE) {
  BasicBlock *Latch = L.getLoopLatch();
  if (!Latch)
    return false;
  // In a register: a header phi whose value from the latch is a link of it.
  for (PHINode &P : L.getHeader()->phis())
    if (P.getType()->isFloatingPointTy() &&
        P.getBasicBlockIndex(Latch) >= 0 &&
        isChainLink(P.getIncomingValueForBlock(Latch), &P))
      return true;
  // In memory: a store, on every iteration (the header's or the latch's),
  // of a link of a load of the same loop-invariant address.
  for (BasicBlock *BB : {L.getHeader(), Latch})
    for (Instruction &I : *BB) {
      auto *St = dyn_cast<StoreInst>(&I);
      if (!St || St->isVolatile())
        continue;
      Value *Ptr = St->getPointerOperand();
      if (!SE.isSCEVable(Ptr->getType()) ||
          !SE.isLoopInvariant(SE.getSCEV(Ptr), &L))
        continue;
      const auto *Link = dyn_cast<Instruction>(St->getValueOperand());
      if (!Link)
        continue;
      for (const Use &U : Link->operands()) {
        const auto *Ld = dyn_cast<LoadInst>(U.get());
        if (Ld && Ld->getPointerOperand() == Ptr && L.contains(Ld) &&
            isChainLink(Link, Ld))
          return true;
      }
    }
  return false;
}

NestWork analyzeNestWork(const IdiomMatch &M, ArrayRef<const SCEV *> Sizes,
                         ScalarEvolution &SE) {
  NestWork W;
  const NestInfo &N = M.Nest;
  if (N.depth() == 0)
    return W;
  const SCEV *Iters = nestIterations(N, SE);
  if (!Iters || isa<SCEVCouldNotCompute>(Iters))
    return W;
  W.FPChain = carriesFPChain(*N.Loops.back(), SE);
  const SCEV *Trip = SE.getOne(Iters->getType());
  for (const SCEV *S : Sizes)
    Trip = SE.getMulExpr(Trip, SE.getTruncateOrZeroExtend(S, Iters->getType()));
  if (W.FPChain || Iters != Trip)
    W.Iters = Iters;
  return W;
}

} // namespace idiom
