//===- Gemv.cpp - matrix-vector products as maps of row sums ----------------===//
//
// Part of Idiom. See Gemv.h.
//
//===----------------------------------------------------------------------===//

#include "idiom/Rewrite/Gemv.h"

#include "idiom/FunIL/ExprUtil.h"
#include "idiom/FunIL/TypeCheck.h"
#include "idiom/Rewrite/Rules.h"
#include "idiom/Rewrite/RowLanes.h"

#include <set>

namespace idiom::rewrite {

using funil::Expr;
using funil::ExprPtr;
using funil::Program;

namespace {

bool isLiteral(const ExprPtr &E, uint64_t V) { return E->K == Expr::Lit && E->Bits == V; }

/// A 2-D view(X, o, s0, n0, s1, n1).
bool isView2D(const ExprPtr &E) { return E->isCall("view") && E->Args.size() == 6; }

/// Row 0 of 2-D view \p V: view(X, o, s1, n1).
ExprPtr rowZero(const ExprPtr &V) {
  return Expr::call("view", {V->Args[0], V->Args[1], V->Args[4], V->Args[5]});
}

/// The matrix operand view(B, oB, sBj, N, sBk, K) of GEMV body \p Body,
/// or nullptr.
ExprPtr matrixView(const ExprPtr &Body) {
  if (!Body->isCall("map") || Body->Args[0]->K != Expr::Lambda)
    return nullptr;
  const ExprPtr &Inner = Body->Args[0]->body();
  if (!Inner->isCall("map") || !Inner->Args[1]->isCall("zip") ||
      !isView2D(Inner->Args[1]->Args[0]))
    return nullptr;
  return Inner->Args[1]->Args[0];
}

/// P := New when New type checks, else false with \p Err naming \p What.
bool replaceChecked(Program &P, Program New, const char *What, std::string &Err) {
  if (!funil::typeCheckProgram(New, Err)) {
    Err = std::string(What) + " does not type check: " + Err;
    return false;
  }
  P = std::move(New);
  Err.clear();
  return true;
}

} // namespace

bool isGemvProgram(const Program &P) {
  if (P.IsReturn || P.Outs.size() != 1 || !isView2D(P.Outs[0]) ||
      !isCanonicalGemm(P.Body) || isTwoProductGemm(P.Body))
    return false;
  return isLiteral(P.Outs[0]->Args[3], 1);
}

GemvLayout gemvLayout(const Program &P) {
  ExprPtr B = isGemvProgram(P) ? matrixView(P.Body) : nullptr;
  if (!B)
    return GemvLayout::Unknown;
  if (isLiteral(B->Args[4], 1))
    return GemvLayout::RowContiguous;
  if (isLiteral(B->Args[2], 1))
    return GemvLayout::ColumnContiguous;
  return GemvLayout::Unknown;
}

bool gemvSumIsFloat(const Program &P) {
  if (!isGemvProgram(P))
    return false;
  for (const funil::Param &Pa : P.Params)
    if (Pa.Ty->isBuffer() && Pa.Name == P.Outs[0]->Args[0]->Name)
      return funil::isFloat(Pa.Ty->Elem->S);
  return false;
}

bool gemvAsRowMap(Program &P, std::string &Err) {
  Err = "not a GEMV program with one row";
  if (!isGemvProgram(P))
    return false;
  const ExprPtr &Body = P.Body;
  const ExprPtr &F = Body->Args[0], &In = Body->Args[1];
  if (F->K != Expr::Lambda || F->Params.size() != 1 || !In->isCall("zip") ||
      In->Args.size() != 2 || !isView2D(In->Args[0]) || !isView2D(In->Args[1]) ||
      !isLiteral(In->Args[0]->Args[3], 1) || !isLiteral(In->Args[1]->Args[3], 1))
    return false;
  Program Out = P;
  Out.Outs = {rowZero(P.Outs[0])};
  Out.Body = funil::betaApply(
      F, {Expr::tuple({rowZero(In->Args[0]), rowZero(In->Args[1])})});
  return replaceChecked(P, std::move(Out), "the GEMV as a map of row sums", Err);
}

bool gemvAsSplitK(Program &P, unsigned S, std::string &Err) {
  Err = "not a GEMV^T in place (s[j] += sum) as a map of float row sums";
  const ExprPtr &Body = P.Body;
  if (P.IsReturn || P.Outs.size() != 1 || S < 2 || !Body->isCall("map") ||
      Body->Args[0]->K != Expr::Lambda || Body->Args[0]->Params.size() != 1)
    return false;
  const ExprPtr &F = Body->Args[0], &In = Body->Args[1], &Out = P.Outs[0];
  const ExprPtr &Red = F->body();
  const std::string &Q = F->Params[0].Name;
  if (!In->isCall("zip") || In->Args.size() != 2 || !isView2D(In->Args[0]) ||
      !Out->isCall("view") || Out->Args.size() != 4 ||
      !funil::sameExpr(*In->Args[1], *Out) || !Red->isCall("reduceSeq") ||
      Red->Args[1]->K != Expr::Proj || Red->Args[1]->Index != 1 ||
      Red->Args[1]->Args[0]->K != Expr::Var || Red->Args[1]->Args[0]->Name != Q ||
      laneCombineOp(Red->Args[0]) != "fadd")
    return false;
  funil::TypePtr T = Red->Args[0]->Params[0].Ty;
  std::set<std::string> Used;
  funil::freeVars(*Body, Used);
  for (const funil::Param &Pa : P.Params)
    Used.insert(Pa.Name);
  std::string TV = "t", AV = "a", BV = "b";
  while (Used.count(TV) || Used.count(AV) || Used.count(BV)) {
    TV += "_"; AV += "_"; BV += "_";
  }
  const ExprPtr &N = Out->Args[3];
  ExprPtr Sl = Expr::intLit(funil::ScalarKind::I64, S);
  ExprPtr J = Expr::call("srem", {Expr::var(TV), N});
  ExprPtr Zero = Expr::floatLit(T->S, -0.0);
  ExprPtr Part = Expr::call(
      "reduceSeq", {Red->Args[0], Zero,
                    Expr::call("at", {Expr::call("strided", {Sl, Red->Args[2]}),
                                      Expr::call("sdiv", {Expr::var(TV), N})})});
  // q := (row j of the matrix, -0.0): the output is read only as the bins
  ExprPtr Sum = funil::betaApply(Expr::lambda(F->Params, Part),
                                 {Expr::tuple({Expr::call("at", {In->Args[0], J}), Zero})});
  std::set<std::string> Free;
  funil::freeVars(*Sum, Free);
  if (Free.count(Out->Args[0]->Name)) {
    Err = "the GEMV^T's sum reads its own output beyond its initial value";
    return false;
  }
  Program R = P;
  R.Body = Expr::call(
      "reduceIndexed",
      {Expr::lambda({{AV, T}, {BV, T}}, Expr::call("fadd", {Expr::var(AV), Expr::var(BV)})), Out,
       Expr::lambda({{TV, funil::Type::scalar(funil::ScalarKind::I64)}}, Expr::tuple({J, Sum})),
       Expr::call("iota", {Expr::call("mul", {N, Sl})})});
  return replaceChecked(P, std::move(R), "the split-K GEMV^T", Err);
}

} // namespace idiom::rewrite
