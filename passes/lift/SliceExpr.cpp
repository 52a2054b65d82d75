//===- SliceExpr.cpp - FunIL text of a lifted slice's scalar function -----===//

#include "SliceExpr.h"
#include "../Lifting.h"
#include "HostFloat.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace idiom {

const char *const SliceSumMark = "\x01";

std::string sliceExpr(Value *V, SliceReading &R, const SliceExprRules &X,
                      SmallVectorImpl<Value *> &Finals, std::string &Why,
                      unsigned Depth) {
  auto Fail = [&](const std::string &W) {
    if (Why.empty())
      Why = W;
  };
  auto Sub = [&](Value *Op) {
    return sliceExpr(Op, R, X, Finals, Why, Depth + 1);
  };
  std::string Upd = std::string("the ") + X.Idiom + " update ";
  if (!Why.empty())
    return "";
  auto L = R.Leaves.find(V);
  if (L != R.Leaves.end())
    return L->second;
  auto Mm = R.Memo.find(V);
  if (Mm != R.Memo.end())
    return Mm->second;
  std::string S;
  auto *I = dyn_cast<Instruction>(V);
  if (R.Finals && X.IsFinal(V)) {
    Finals.push_back(V);
    S = SliceSumMark;
  } else if (auto *C = dyn_cast<Constant>(V)) {
    if (!X.TypeText(C->getType()).empty())
      S = funilLiteralText(C);
    if (S.empty())
      Fail(Upd + "uses a constant without a FunIL literal");
  } else if (!I || !X.Body->contains(I)) {
    S = X.Scalar(V);
  } else if (Depth > 32) {
    Fail(Upd + "is too deep an expression");
  } else if (isa<LoadInst>(I)) {
    Fail(Upd + X.LoadWhy);
  } else if (isa<PHINode>(I)) {
    Fail(Upd + X.PhiWhy);
  } else if (X.TypeText(I->getType()).empty()) {
    Fail(Upd + "computes a value of a type the lifter does not express");
  } else if (auto *BO = dyn_cast<BinaryOperator>(I);
             BO && X.RefuseHostContraction && mayContractOnHost(*BO)) {
    Fail(Upd + HostContractionWhy);
  } else if (auto *BO = dyn_cast<BinaryOperator>(I)) {
    std::string A = Sub(BO->getOperand(0));
    S = std::string(BO->getOpcodeName()) + "(" + A + ", " +
        Sub(BO->getOperand(1)) + ")";
  } else if (isa<UnaryOperator>(I) && I->getOpcode() == Instruction::FNeg) {
    S = "fneg(" + Sub(I->getOperand(0)) + ")";
  } else if (auto *Cast = dyn_cast<CastInst>(I)) {
    S = std::string(Cast->getOpcodeName()) + "." +
        X.TypeText(Cast->getType()) + "(" + Sub(Cast->getOperand(0)) + ")";
  } else if (auto *II = dyn_cast<IntrinsicInst>(I);
             II && (II->getIntrinsicID() == Intrinsic::fmuladd ||
                    II->getIntrinsicID() == Intrinsic::fma)) {
    // llvm.fmuladd as the host's back end evaluates it (HostFloat.h), or
    // fused under the licence (which LLVM's definition allows).
    bool MulAdd = II->getIntrinsicID() == Intrinsic::fmuladd;
    HostMulAdd H = hostMulAdd(*II->getFunction());
    if (X.RefuseUnknownMulAdd && MulAdd && H == HostMulAdd::Unknown &&
        !X.FuseMulAdd) {
      Fail("llvm.fmuladd on a target whose fusion choice is not known");
      return "";
    }
    bool Fused = !MulAdd || H == HostMulAdd::Fused;
    if (MulAdd && !Fused && X.FuseMulAdd)
      Fused = R.LicensedFusion = true;
    std::string A = Sub(II->getArgOperand(0));
    std::string B = Sub(II->getArgOperand(1));
    S = std::string(Fused ? "fma(" : "fmuladd(") + A + ", " + B + ", " +
        Sub(II->getArgOperand(2)) + ")";
  } else if (auto *Cmp = dyn_cast<CmpInst>(I);
             Cmp && X.AllowSelect && Cmp->getPredicate() != CmpInst::FCMP_FALSE &&
             Cmp->getPredicate() != CmpInst::FCMP_TRUE) {
    std::string A = Sub(Cmp->getOperand(0));
    S = std::string(isa<ICmpInst>(Cmp) ? "icmp_" : "fcmp_") +
        CmpInst::getPredicateName(Cmp->getPredicate()).str() + "(" + A + ", " +
        Sub(Cmp->getOperand(1)) + ")";
  } else if (auto *Sel = dyn_cast<SelectInst>(I); Sel && X.AllowSelect) {
    std::string C = Sub(Sel->getCondition());
    std::string A = Sub(Sel->getTrueValue());
    S = "select(" + C + ", " + A + ", " + Sub(Sel->getFalseValue()) + ")";
  } else if (auto *CI = dyn_cast<CallInst>(I); CI && X.Call) {
    std::vector<std::string> Args;
    for (Value *A : CI->args())
      Args.push_back(Sub(A));
    if (Why.empty())
      S = X.Call(CI, Args);
  } else {
    Fail(Upd + "has an operation the lifter does not express (" +
         I->getOpcodeName() + ")");
  }
  if (S.size() > 16 * 1024)
    Fail(Upd + "is too large an expression");
  R.Memo[V] = S;
  return S;
}

std::string sliceScalarParam(Value *V, std::vector<LiftedParam> &Scalars,
                             DenseMap<Value *, std::string> &Names) {
  auto It = Names.find(V);
  if (It != Names.end())
    return It->second;
  Type *T = V->getType();
  if (!T->isFloatTy() && !T->isDoubleTy() && !T->isIntegerTy(32) &&
      !T->isIntegerTy(64))
    return "";
  LiftedParam P;
  P.K = LiftedParam::Kind::Scalar;
  P.V = V;
  P.Name = "s" + std::to_string(Scalars.size());
  Scalars.push_back(P);
  return Names[V] = P.Name;
}

std::string sliceIndexParam(const SCEV *S, const std::string &Name,
                            std::vector<LiftedParam> &Indices,
                            std::map<const SCEV *, std::string> &Names) {
  if (auto *C = dyn_cast<SCEVConstant>(S))
    return std::to_string(C->getAPInt().getSExtValue()) + ":i64";
  auto It = Names.find(S);
  if (It != Names.end())
    return It->second;
  LiftedParam P;
  P.K = LiftedParam::Kind::Index;
  P.Name = Name;
  P.S = S;
  Indices.push_back(P);
  return Names[S] = Name;
}

} // namespace idiom
