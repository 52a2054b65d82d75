//===- UpdateEvaluation.cpp - Histogram update laws without Z3 ------------===//
//
// See UpdateEvaluation.h. The translation mirrored here is UpdateTranslator
// in lib/z3/HistogramZ3.cpp: b is the value read, instructions that depend on
// b are translated (or the whole question is Unknown), other instructions
// without memory access and not phis are expanded, everything else is a
// leaf. Where that translation would differ from an evaluation here, these
// procedures give up rather than guess.
//
//===----------------------------------------------------------------------===//

#include "idiom/Constraints/UpdateEvaluation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ConstantFolding.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include <algorithm>

using namespace llvm;

namespace idiom {

ArrayRef<UpdateOperator> bitVectorUpdateOperators() {
  static const UpdateOperator Ops[] = {
      {ReductionOp::Add, false}, {ReductionOp::Add, true},
      {ReductionOp::Or, false},  {ReductionOp::And, false},
      {ReductionOp::Xor, false}, {ReductionOp::Mul, false},
      {ReductionOp::SMax, false}, {ReductionOp::SMin, false},
      {ReductionOp::UMax, false}, {ReductionOp::UMin, false}};
  return Ops;
}

APInt updateOperatorIdentity(UpdateOperator K, unsigned Width) {
  switch (K.Op) {
  case ReductionOp::Mul: return APInt(Width, 1);
  case ReductionOp::And: case ReductionOp::UMin: return APInt::getMaxValue(Width);
  case ReductionOp::SMax: return APInt::getSignedMinValue(Width);
  case ReductionOp::SMin: return APInt::getSignedMaxValue(Width);
  default: return APInt(Width, 0);
  }
}

APInt applyUpdateOperator(UpdateOperator K, const APInt &A, const APInt &B) {
  switch (K.Op) {
  case ReductionOp::Add: return K.Saturating ? A.uadd_sat(B) : A + B;
  case ReductionOp::Or: return A | B;
  case ReductionOp::And: return A & B;
  case ReductionOp::Xor: return A ^ B;
  case ReductionOp::Mul: return A * B;
  case ReductionOp::SMax: return A.sgt(B) ? A : B;
  case ReductionOp::SMin: return A.slt(B) ? A : B;
  case ReductionOp::UMax: return A.ugt(B) ? A : B;
  case ReductionOp::UMin: return A.ult(B) ? A : B;
  default: llvm_unreachable("not a bit-vector update candidate");
  }
}

std::optional<ReductionOp> updateOperatorHint(const BinUpdateInfo &U) {
  for (User *Us : U.Acc->users()) {
    auto *I = dyn_cast<Instruction>(Us);
    if (!I || !U.UpdateInsts.count(I))
      continue;
    switch (I->getOpcode()) {
    case Instruction::Add: case Instruction::Sub: return ReductionOp::Add;
    case Instruction::FAdd: case Instruction::FSub: return ReductionOp::FAdd;
    case Instruction::Mul: return ReductionOp::Mul;
    case Instruction::FMul: return ReductionOp::FMul;
    case Instruction::Or: return ReductionOp::Or;
    case Instruction::And: return ReductionOp::And;
    case Instruction::Xor: return ReductionOp::Xor;
    default: break;
    }
    if (auto *II = dyn_cast<IntrinsicInst>(I))
      switch (II->getIntrinsicID()) {
      case Intrinsic::fmuladd: case Intrinsic::fma: return ReductionOp::FAdd;
      case Intrinsic::smax: return ReductionOp::SMax;
      case Intrinsic::smin: return ReductionOp::SMin;
      case Intrinsic::umax: return ReductionOp::UMax;
      case Intrinsic::umin: return ReductionOp::UMin;
      case Intrinsic::maxnum: case Intrinsic::maximum: return ReductionOp::FMax;
      case Intrinsic::minnum: case Intrinsic::minimum: return ReductionOp::FMin;
      case Intrinsic::uadd_sat: return ReductionOp::Add;
      default: break;
      }
  }
  return std::nullopt;
}

std::string updateRefusal(const BinUpdateInfo &U, bool HasDepGuard,
                          bool BitVector, const std::string &Tried) {
  bool ReadsAccInCond = HasDepGuard;
  for (Instruction *I : U.UpdateInsts)
    ReadsAccInCond |= isa<SelectInst>(I) && U.UpdateInsts.count(
        dyn_cast_or_null<Instruction>(cast<SelectInst>(I)->getCondition()));
  return ReadsAccInCond && BitVector
             ? "update tests the value it updates, but is not a saturating "
               "add at the type's maximum nor a min/max: Z3 finds no "
               "associative, commutative (+) with update(b, x) = b (+) g(x) "
               "(tried " + Tried + ")"
             : "Z3 finds no associative, commutative (+) with update(b, x) "
               "= b (+) g(x) (tried " + Tried + ")";
}

namespace {

bool modelledInt(Type *T) {
  return T->isIntegerTy() && T->getIntegerBitWidth() <= 64;
}

bool dependsOnAcc(const BinUpdateInfo &U, Value *V) {
  auto *I = dyn_cast<Instruction>(V);
  return V == U.Acc || (I && U.UpdateInsts.count(I));
}

/// F = `b op t` with t independent of b and op the first candidate tried.
std::optional<UpdateOperator> structuralOperator(const BinUpdateInfo &U) {
  if (!modelledInt(U.ElemTy))
    return std::nullopt;
  for (const UpdateGuard &G : U.Guards)
    if (G.DependsOnAcc)
      return std::nullopt;
  auto *I = dyn_cast<Instruction>(U.NewValue);
  if (!I || !U.UpdateInsts.count(I) || I->getType() != U.ElemTy)
    return std::nullopt;
  std::optional<ReductionOp> Op;
  bool Commutes = true;
  if (isa<BinaryOperator>(I)) {
    switch (I->getOpcode()) {
    case Instruction::Add: Op = ReductionOp::Add; break;
    case Instruction::Sub: Op = ReductionOp::Add; Commutes = false; break;
    case Instruction::Mul: Op = ReductionOp::Mul; break;
    case Instruction::And: Op = ReductionOp::And; break;
    case Instruction::Or: Op = ReductionOp::Or; break;
    case Instruction::Xor: Op = ReductionOp::Xor; break;
    default: break;
    }
  } else if (auto *II = dyn_cast<IntrinsicInst>(I)) {
    switch (II->getIntrinsicID()) {
    case Intrinsic::smax: Op = ReductionOp::SMax; break;
    case Intrinsic::smin: Op = ReductionOp::SMin; break;
    case Intrinsic::umax: Op = ReductionOp::UMax; break;
    case Intrinsic::umin: Op = ReductionOp::UMin; break;
    default: break;
    }
  }
  if (!Op || (isa<CallInst>(I) && cast<CallInst>(I)->arg_size() != 2))
    return std::nullopt;
  Value *A = I->getOperand(0), *B = I->getOperand(1);
  bool Shape = (A == U.Acc && !dependsOnAcc(U, B)) ||
               (Commutes && B == U.Acc && !dependsOnAcc(U, A));
  // The first candidate tried is the non-saturating one of the hint's
  // operator; a later one could only be reached if the first failed.
  if (!Shape || updateOperatorHint(U) != Op)
    return std::nullopt;
  return UpdateOperator{*Op, false};
}

/// The instructions of F and of the guards, operands first, and their
/// leaves, as HistogramZ3.cpp's UpdateTranslator would translate them.
class UpdateSlice {
public:
  explicit UpdateSlice(const BinUpdateInfo &U) : U(U) {}

  /// False when something is not modelled here.
  bool build() {
    if (!visit(U.NewValue, 0))
      return false;
    for (const UpdateGuard &G : U.Guards)
      if (!visit(G.Cond, 0))
        return false;
    return true;
  }

  /// Sets the values of every instruction for b = \p B and leaves \p Xs;
  /// false when a fold is not an integer constant (e.g. poison).
  bool evaluate(Constant *B, ArrayRef<Constant *> Xs, const DataLayout &DL) {
    Vals[U.Acc] = B;
    for (size_t K = 0; K < Leaves.size(); ++K)
      Vals[Leaves[K]] = Xs[K];
    SmallVector<Constant *, 4> Ops;
    for (Instruction *I : Order) {
      Ops.clear();
      for (Value *Op : I->operands())
        Ops.push_back(isa<Constant>(Op) ? cast<Constant>(Op) : Vals.lookup(Op));
      Constant *R = ConstantFoldInstOperands(I, Ops, DL);
      if (!R || !isa<ConstantInt>(R))
        return false;
      Vals[I] = R;
    }
    return true;
  }
  /// The value of \p V after evaluate.
  const APInt &value(Value *V) const {
    return cast<ConstantInt>(Vals.lookup(V))->getValue();
  }

  SmallVector<Value *, 4> Leaves; ///< free variables besides b, in order

private:
  bool modelled(Instruction *I) {
    if (!modelledInt(I->getType()))
      return false;
    for (Value *Op : I->operands())
      if (!isa<Function>(Op) && !modelledInt(Op->getType()))
        return false;
    if (isa<BinaryOperator>(I))
      switch (I->getOpcode()) {
      case Instruction::Add: case Instruction::Sub: case Instruction::Mul:
      case Instruction::And: case Instruction::Or: case Instruction::Xor:
      case Instruction::UDiv: case Instruction::SDiv: case Instruction::URem:
      case Instruction::SRem: case Instruction::Shl: case Instruction::LShr:
      case Instruction::AShr:
        return true;
      default:
        return false;
      }
    if (auto *Cast = dyn_cast<CastInst>(I))
      return Cast->getOpcode() == Instruction::ZExt ||
             Cast->getOpcode() == Instruction::SExt ||
             Cast->getOpcode() == Instruction::Trunc;
    if (isa<ICmpInst>(I) || isa<SelectInst>(I) || isa<FreezeInst>(I))
      return true;
    if (auto *II = dyn_cast<IntrinsicInst>(I))
      switch (II->getIntrinsicID()) {
      case Intrinsic::smin: case Intrinsic::smax: case Intrinsic::umin:
      case Intrinsic::umax: case Intrinsic::uadd_sat: case Intrinsic::usub_sat:
        return II->arg_size() == 2;
      default:
        return false;
      }
    return false;
  }

  bool visit(Value *V, unsigned Depth) {
    if (V == U.Acc || Seen.count(V))
      return true;
    auto *I = dyn_cast<Instruction>(V);
    bool Dependent = I && U.UpdateInsts.count(I);
    if (Dependent || (I && !isa<PHINode>(I) && !I->mayReadOrWriteMemory())) {
      // UpdateTranslator expands independent instructions 64 deep, then
      // makes a leaf; stay well inside that.
      if (Depth > 32 || !modelled(I))
        return false;
      for (Value *Op : I->operands())
        if (!isa<Function>(Op) && !visit(Op, Dependent ? Depth : Depth + 1))
          return false;
      Seen.insert(V);
      Order.push_back(I);
      return true;
    }
    Seen.insert(V);
    if (isa<ConstantInt>(V))
      return modelledInt(V->getType());
    // UpdateTranslator makes any other integer value a fresh constant; here
    // only values that are not constants (undef, constant expressions).
    if (isa<Constant>(V) || !modelledInt(V->getType()))
      return false;
    Leaves.push_back(V);
    return true;
  }

  const BinUpdateInfo &U;
  SmallPtrSet<Value *, 16> Seen;
  SmallVector<Instruction *, 8> Order;
  DenseMap<Value *, Constant *> Vals;
};

/// The exhaustive decision (see the header); nothing when it does not apply.
std::optional<Proof> decideByEvaluation(const BinUpdateInfo &U,
                                        UpdateOperator &Op, std::string &Why) {
  if (!modelledInt(U.ElemTy) || !U.Store)
    return std::nullopt;
  UpdateSlice S(U);
  if (!S.build())
    return std::nullopt;
  unsigned W = U.ElemTy->getIntegerBitWidth(), LeafBits = 0;
  for (Value *L : S.Leaves)
    LeafBits += L->getType()->getIntegerBitWidth();
  if (W + LeafBits > MaxEvaluationBits)
    return std::nullopt;
  bool HasDep = false;
  for (const UpdateGuard &G : U.Guards)
    HasDep |= G.DependsOnAcc;

  std::vector<UpdateOperator> Cands(bitVectorUpdateOperators().begin(),
                                    bitVectorUpdateOperators().end());
  if (auto H = updateOperatorHint(U))
    std::stable_partition(Cands.begin(), Cands.end(),
                          [&](const UpdateOperator &K) { return K.Op == *H; });
  std::vector<bool> Alive(Cands.size(), true);

  const DataLayout &DL = U.Store->getModule()->getDataLayout();
  uint64_t NB = uint64_t(1) << W;
  std::vector<Constant *> Bs(NB);
  for (uint64_t B = 0; B < NB; ++B)
    Bs[B] = ConstantInt::get(U.ElemTy, B);
  std::vector<APInt> F(NB, APInt(W, 0));
  std::vector<bool> Indep(NB);
  SmallVector<Constant *, 4> Xs(S.Leaves.size());
  for (uint64_t X = 0; X < (uint64_t(1) << LeafBits); ++X) {
    unsigned Shift = 0;
    for (size_t K = 0; K < S.Leaves.size(); ++K) {
      unsigned LW = S.Leaves[K]->getType()->getIntegerBitWidth();
      Xs[K] = ConstantInt::get(S.Leaves[K]->getType(),
                               (X >> Shift) & ((uint64_t(1) << LW) - 1));
      Shift += LW;
    }
    // F(b, x) and C(x) at every b.
    for (uint64_t B = 0; B < NB; ++B) {
      if (!S.evaluate(Bs[B], Xs, DL))
        return std::nullopt;
      bool Dep = true, Ind = true;
      for (const UpdateGuard &G : U.Guards) {
        bool Holds = S.value(G.Cond).isOne() == G.ExpectTrue;
        (G.DependsOnAcc ? Dep : Ind) &= Holds;
      }
      F[B] = HasDep && !Dep ? APInt(W, B) : S.value(U.NewValue);
      Indep[B] = Ind;
    }
    for (size_t K = 0; K < Cands.size(); ++K) {
      if (!Alive[K])
        continue;
      const APInt &G = F[updateOperatorIdentity(Cands[K], W).getZExtValue()];
      for (uint64_t B = 0; B < NB && Alive[K]; ++B)
        if (Indep[B] && F[B] != applyUpdateOperator(Cands[K], APInt(W, B), G))
          Alive[K] = false;
    }
  }
  std::string Tried;
  for (size_t K = 0; K < Cands.size(); ++K) {
    if (Alive[K]) {
      Op = Cands[K];
      return Proof::Proven;
    }
    Tried += (Tried.empty() ? "" : ", ") + Cands[K].name();
  }
  Why = updateRefusal(U, HasDep, /*BitVector=*/true, Tried);
  return Proof::Refuted;
}

} // namespace

std::optional<Proof> decideUpdateWithoutZ3(const BinUpdateInfo &U,
                                           UpdateOperator &Op,
                                           std::string &Why,
                                           UpdateDecider *By) {
  if (auto K = structuralOperator(U)) {
    Op = *K;
    if (By)
      *By = UpdateDecider::StructuralIdentity;
    return Proof::Proven;
  }
  std::optional<Proof> P = decideByEvaluation(U, Op, Why);
  if (P && By)
    *By = UpdateDecider::ExhaustiveEvaluation;
  return P;
}

} // namespace idiom
