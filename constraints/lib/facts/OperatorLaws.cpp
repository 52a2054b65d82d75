//===- OperatorLaws.cpp - Reduction operators whose laws are known --------===//

#include "idiom/Constraints/OperatorLaws.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace idiom {

/// min or max picked by select(X P Y, T, F) with {X, Y} = {T, F}.
static std::optional<ReductionOp> selectOrder(const CmpInst *Cmp,
                                              const Value *T) {
  bool Less;
  enum { Signed, Unsigned, Float } Kind;
  switch (Cmp->getPredicate()) {
  case CmpInst::ICMP_SLT: case CmpInst::ICMP_SLE: Less = true; Kind = Signed; break;
  case CmpInst::ICMP_SGT: case CmpInst::ICMP_SGE: Less = false; Kind = Signed; break;
  case CmpInst::ICMP_ULT: case CmpInst::ICMP_ULE: Less = true; Kind = Unsigned; break;
  case CmpInst::ICMP_UGT: case CmpInst::ICMP_UGE: Less = false; Kind = Unsigned; break;
  case CmpInst::FCMP_OLT: case CmpInst::FCMP_OLE: case CmpInst::FCMP_ULT:
  case CmpInst::FCMP_ULE: Less = true; Kind = Float; break;
  case CmpInst::FCMP_OGT: case CmpInst::FCMP_OGE: case CmpInst::FCMP_UGT:
  case CmpInst::FCMP_UGE: Less = false; Kind = Float; break;
  default: return std::nullopt;
  }
  // select(X < Y, X, Y) is min; picking Y when X < Y is max.
  bool Min = Less == (T == Cmp->getOperand(0));
  switch (Kind) {
  case Signed: return Min ? ReductionOp::SMin : ReductionOp::SMax;
  case Unsigned: return Min ? ReductionOp::UMin : ReductionOp::UMax;
  case Float: return Min ? ReductionOp::FMin : ReductionOp::FMax;
  }
  return std::nullopt;
}

std::optional<ReductionOp> textbookOperator(const Instruction *Link,
                                            const Value *Acc,
                                            const Value *Elem) {
  if (!Link || !Acc || !Elem || Acc == Elem)
    return std::nullopt;
  Type *Ty = Acc->getType();
  if (!Ty->isIntegerTy() && !Ty->isFloatingPointTy())
    return std::nullopt;
  auto IsPair = [&](const Value *X, const Value *Y) {
    return (X == Acc && Y == Elem) || (X == Elem && Y == Acc);
  };
  if (auto *II = dyn_cast<IntrinsicInst>(Link)) {
    switch (II->getIntrinsicID()) {
    case Intrinsic::fmuladd: case Intrinsic::fma: return ReductionOp::FAdd;
    default: break;
    }
    if (II->arg_size() != 2 || !IsPair(II->getArgOperand(0), II->getArgOperand(1)))
      return std::nullopt;
    switch (II->getIntrinsicID()) {
    case Intrinsic::smin: return ReductionOp::SMin;
    case Intrinsic::smax: return ReductionOp::SMax;
    case Intrinsic::umin: return ReductionOp::UMin;
    case Intrinsic::umax: return ReductionOp::UMax;
    case Intrinsic::minnum: return ReductionOp::FMin;
    case Intrinsic::maxnum: return ReductionOp::FMax;
    default: return std::nullopt;
    }
  }
  if (auto *BO = dyn_cast<BinaryOperator>(Link)) {
    if (!IsPair(BO->getOperand(0), BO->getOperand(1)))
      return std::nullopt;
    bool Int = BO->getType()->isIntegerTy();
    switch (BO->getOpcode()) {
    case Instruction::Add: return Int ? std::optional(ReductionOp::Add) : std::nullopt;
    case Instruction::Mul: return Int ? std::optional(ReductionOp::Mul) : std::nullopt;
    case Instruction::And: return Int ? std::optional(ReductionOp::And) : std::nullopt;
    case Instruction::Or: return Int ? std::optional(ReductionOp::Or) : std::nullopt;
    case Instruction::Xor: return Int ? std::optional(ReductionOp::Xor) : std::nullopt;
    case Instruction::FAdd: return ReductionOp::FAdd;
    case Instruction::FMul: return ReductionOp::FMul;
    default: return std::nullopt;
    }
  }
  if (auto *Sel = dyn_cast<SelectInst>(Link)) {
    auto *Cmp = dyn_cast<CmpInst>(Sel->getCondition());
    if (!Cmp || !IsPair(Cmp->getOperand(0), Cmp->getOperand(1)) ||
        !IsPair(Sel->getTrueValue(), Sel->getFalseValue()))
      return std::nullopt;
    return selectOrder(Cmp, Sel->getTrueValue());
  }
  return std::nullopt;
}

} // namespace idiom
