//===- SearchLifting.cpp - Lift a bisection search into FunIL -------------===//

#include "SearchLifting.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace idiom {

void searchRange(const BisectionInfo &B, ScalarEvolution &SE, const SCEV *&Lo, const SCEV *&Hi,
                 SmallVectorImpl<const SCEV *> &NonNegative) {
  Type *I64 = Type::getInt64Ty(B.Phi[0]->getContext());
  const SCEV *Lo0 = SE.getSignExtendExpr(SE.getSCEV(B.Init[B.LowPart]), I64);
  const SCEV *Hi0 = SE.getSignExtendExpr(SE.getSCEV(B.Init[1 - B.LowPart]), I64);
  Lo = SE.getAddExpr(Lo0, SE.getOne(I64));
  Hi = SE.getSMaxExpr(Hi0, Lo);
  const SCEV *Bound = SE.getConstant(I64, int64_t(1) << (B.width() - 2));
  for (const SCEV *X : {Lo0, Hi0}) {
    NonNegative.push_back(X);
    NonNegative.push_back(SE.getMinusSCEV(Bound, X));
  }
}

std::string searchParamName(unsigned K) { return "q" + std::to_string(K); }

std::string searchCountText(const std::string &Lo0, const std::string &Hi0, unsigned W) {
  auto Wide = [&](const std::string &X) { return W == 64 ? X : "sext.i64(" + X + ")"; };
  return "add(ilog2(smax(sub(" + Wide(Hi0) + ", " + Wide(Lo0) + "), 1:i64)), 1:i64)";
}

std::string searchText(
    const BisectionInfo &B, unsigned K, const std::string &Buf, const std::string &First,
    const std::string &Count, const std::function<std::string(Value *)> &Expr,
    const std::function<std::string(const std::vector<std::pair<Value *, std::string>> &,
                                    Value *)> &Subst) {
  unsigned Low = B.LowPart, High = 1 - Low, W = B.width();
  std::string Q = searchParamName(K), T = "i" + std::to_string(W);
  std::string Lo0 = Expr(B.Init[Low]), Hi0 = Expr(B.Init[High]);
  std::string Cont = Subst({{B.Next[Low], Q + ".0"}, {B.Next[High], Q + ".1"}}, B.Cond);
  if (!B.ContinueWhen)
    Cont = "not(" + Cont + ")";
  std::vector<std::pair<Value *, std::string>> State{{B.Phi[Low], Q + ".0"},
                                                     {B.Phi[High], Q + ".1"}};
  std::string Mid = Subst(State, B.Mid);
  if (!B.Mid->getType()->isIntegerTy(64))
    Mid = "sext.i64(" + Mid + ")"; // GEP indices are sign-extended
  State.push_back({B.Probe, "at(view(" + Buf + ", 0:i64, 1:i64, " + Count + "), sub(" + Mid +
                                ", " + First + "))"});
  std::string LoN = Subst(State, B.Next[Low]), HiN = Subst(State, B.Next[High]);
  if (Lo0.empty() || Hi0.empty() || Cont.empty() || Mid.empty() || LoN.empty() || HiN.empty())
    return "";
  return "iterate(" + searchCountText(Lo0, Hi0, W) + ", \\(" + Q + ": (" + T + ", " + T +
         ")) => select(" + Cont + ", (" + LoN + ", " + HiN + "), " + Q + "), (" + Lo0 + ", " +
         Hi0 + "))." + (B.ResultPart == Low ? "0" : "1");
}

} // namespace idiom
