//===- HostFloat.cpp - How the host back end evaluates fused and min/max ops -===//

#include "HostFloat.h"
#include "idiom/Constraints/IdiomMatch.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/SimplifyQuery.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;

namespace idiom {

/// The last +/- setting of \p Feature in a "target-features" list, or 0.
static char featureSetting(StringRef List, StringRef Feature) {
  char Last = 0;
  SmallVector<StringRef, 64> Parts;
  List.split(Parts, ',');
  for (StringRef P : Parts)
    if (P.size() > 1 && P.drop_front() == Feature && (P[0] == '+' || P[0] == '-'))
      Last = P[0];
  return Last;
}

HostMulAdd hostMulAdd(const Function &F) {
  Triple T(F.getParent()->getTargetTriple());
  if (F.getFnAttribute("use-soft-float").getValueAsString() == "true")
    return HostMulAdd::Unknown;
  if (T.isAArch64())
    return HostMulAdd::Fused; // isFMAFasterThanFMulAndFAdd: f32, f64 always
  if (T.getArch() != Triple::x86_64 && T.getArch() != Triple::x86)
    return HostMulAdd::Unknown;
  StringRef Features = F.getFnAttribute("target-features").getValueAsString();
  bool FMA = featureSetting(Features, "fma") == '+' ||
             featureSetting(Features, "fma4") == '+';
  return FMA ? HostMulAdd::Fused : HostMulAdd::Unfused;
}

static bool isNonNaNConstant(const Value *V) {
  auto *C = dyn_cast<ConstantFP>(V);
  return C && !C->isNaN();
}

HostMinMax hostMinMax(const CallInst &CI) {
  auto *II = dyn_cast<IntrinsicInst>(&CI);
  if (!II || (II->getIntrinsicID() != Intrinsic::maxnum &&
              II->getIntrinsicID() != Intrinsic::minnum))
    return HostMinMax::Unknown;
  const Function &F = *CI.getFunction();
  Triple T(F.getParent()->getTargetTriple());
  if (T.getArch() != Triple::x86_64 || !CI.getType()->isFloatingPointTy() ||
      !(CI.getType()->isFloatTy() || CI.getType()->isDoubleTy()) ||
      F.getFnAttribute("use-soft-float").getValueAsString() == "true")
    return HostMinMax::Unknown;
  Value *X = CI.getArgOperand(0), *Y = CI.getArgOperand(1);
  // NoNaNsFPMath or nnan: the native instruction with (x, y).
  if (CI.hasNoNaNs() ||
      F.getFnAttribute("no-nans-fp-math").getValueAsString() == "true")
    return HostMinMax::Select;
  // A known non-NaN operand goes second: (x, y) when y is one, (y, x) when
  // x is one, which is the guarded form without its NaN test.
  if (isNonNaNConstant(Y))
    return HostMinMax::Select;
  if (isNonNaNConstant(X))
    return HostMinMax::Guarded;
  // -Os/-Oz prefers the libm call for a scalar.
  if (F.hasMinSize())
    return HostMinMax::Unknown;
  // The selection DAG's own non-NaN analysis may or may not see what the IR's
  // sees; where the IR proves an operand non-NaN, the choice is not known.
  SimplifyQuery SQ(F.getParent()->getDataLayout(), &CI);
  if (isKnownNeverNaN(X, 0, SQ) || isKnownNeverNaN(Y, 0, SQ))
    return HostMinMax::Unknown;
  return HostMinMax::Guarded;
}

const char *const HostContractionWhy =
    "adds a product that the host's back end may contract into one fma "
    "(-ffp-contract=fast on a target with FMA), which the kernel would not "
    "mirror";

/// \p V without the fneg and fpext the fma combines look through.
static const Value *peelNegExt(const Value *V) {
  while (auto *I = dyn_cast<Instruction>(V)) {
    if (I->getOpcode() != Instruction::FNeg && I->getOpcode() != Instruction::FPExt)
      break;
    V = I->getOperand(0);
  }
  return V;
}

static bool isContractOp(const Value *V, unsigned Opcode) {
  auto *I = dyn_cast<Instruction>(V);
  return I && I->getOpcode() == Opcode && I->hasAllowContract();
}

/// An fadd or fsub with `contract` of the constant +1.0 or -1.0.
static bool isContractUnitAdd(const Value *V) {
  if (!isContractOp(V, Instruction::FAdd) && !isContractOp(V, Instruction::FSub))
    return false;
  for (const Value *Op : cast<Instruction>(V)->operands())
    if (auto *C = dyn_cast<ConstantFP>(Op);
        C && (C->isExactlyValue(1.0) || C->isExactlyValue(-1.0)))
      return true;
  return false;
}

bool mayContractOnHost(const Instruction &I) {
  unsigned Op = I.getOpcode();
  if ((Op != Instruction::FAdd && Op != Instruction::FSub &&
       Op != Instruction::FMul) ||
      !I.hasAllowContract() ||
      hostMulAdd(*I.getFunction()) == HostMulAdd::Unfused)
    return false;
  for (const Value *V : I.operands()) {
    V = peelNegExt(V);
    if (Op == Instruction::FMul) {
      if (isContractUnitAdd(V))
        return true;
      continue;
    }
    if (isContractOp(V, Instruction::FMul))
      return true;
    if (auto *II = dyn_cast<IntrinsicInst>(V);
        II && (II->getIntrinsicID() == Intrinsic::fma ||
               II->getIntrinsicID() == Intrinsic::fmuladd) &&
        isContractOp(peelNegExt(II->getArgOperand(2)), Instruction::FMul))
      return true;
  }
  return false;
}

const Instruction *
hostContractionIn(const Loop &L,
                  const SmallPtrSetImpl<const Instruction *> *Licensed) {
  for (const BasicBlock *BB : L.blocks())
    for (const Instruction &I : *BB)
      if (mayContractOnHost(I) && !(Licensed && Licensed->count(&I)))
        return &I;
  return nullptr;
}

/// True when \p V is \p Phi or carries it through float adds, subtractions
/// and selects of loop \p L (a chain of a sum's links), within \p Depth.
static bool carriesAcc(const Value *V, const PHINode *Phi, const Loop &L,
                       unsigned Depth = 16) {
  if (V == Phi)
    return true;
  auto *I = dyn_cast<Instruction>(V);
  if (!I || !Depth || !L.contains(I) ||
      (I->getOpcode() != Instruction::FAdd &&
       I->getOpcode() != Instruction::FSub && !isa<SelectInst>(I)))
    return false;
  for (const Value *Op : I->operands())
    if (carriesAcc(Op, Phi, L, Depth - 1))
      return true;
  return false;
}

void sumContractions(const IdiomMatch &M,
                     SmallPtrSetImpl<const Instruction *> &Out) {
  if (M.Kind != IdiomKind::ScalarReduction || !M.FPReassociated ||
      M.Nest.Loops.empty())
    return;
  const Loop &L = *M.Nest.Loops.back();
  for (const ReductionInfo &R : M.Reductions) {
    if (R.Op != ReductionOp::FAdd || !R.Phi || !R.Update)
      continue;
    // From the latch value back to the phi, one link at a time.
    const Value *V = R.Update;
    for (unsigned Steps = 0; V != R.Phi && Steps < 16; ++Steps) {
      auto *I = dyn_cast<Instruction>(V);
      if (auto *Sel = dyn_cast_or_null<SelectInst>(I)) {
        V = Sel->getTrueValue() == R.Phi ? Sel->getFalseValue()
                                         : Sel->getTrueValue();
        continue;
      }
      if (!I || (I->getOpcode() != Instruction::FAdd &&
                 I->getOpcode() != Instruction::FSub))
        break;
      bool Acc0 = carriesAcc(I->getOperand(0), R.Phi, L),
           Acc1 = carriesAcc(I->getOperand(1), R.Phi, L);
      // acc + t, t + acc or acc - t; never t - acc (not a sum of t).
      if (Acc0 == Acc1 || (Acc1 && I->getOpcode() == Instruction::FSub))
        break;
      const Value *Acc = I->getOperand(Acc0 ? 0 : 1);
      const Value *Term = peelNegExt(I->getOperand(Acc0 ? 1 : 0));
      const Value *AccP = peelNegExt(Acc);
      // The only fusable operand is the term, a plain product: the fusion
      // is fma(x, y, acc). An fma chain in the term, or an accumulator side
      // the back end could fuse, changes more than that.
      bool AccFusable = isContractOp(AccP, Instruction::FMul);
      if (auto *II = dyn_cast<IntrinsicInst>(AccP);
          II && (II->getIntrinsicID() == Intrinsic::fma ||
                 II->getIntrinsicID() == Intrinsic::fmuladd))
        AccFusable = true;
      if (isContractOp(Term, Instruction::FMul) && !AccFusable)
        Out.insert(I);
      V = Acc;
    }
  }
}

} // namespace idiom
