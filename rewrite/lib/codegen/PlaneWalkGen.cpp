//===- PlaneWalkGen.cpp - register-rotating plane walks -----------------===//
//
// Part of Idiom. See PlaneWalkGen.h.
//
//===----------------------------------------------------------------------===//

#include "PlaneWalkGen.h"

#include "ScalarC.h"
#include "idiom/FunIL/Printer.h"

namespace idiom::rewrite::codegen {

using funil::Expr;

namespace {

/// True when \p Z is zip(V.0, .., V.K-1) of projections of variable \p V.
bool zipOfProjections(const ExprPtr &Z, const std::string &V, size_t K) {
  if (!Z->isCall("zip") || Z->Args.size() != K)
    return false;
  for (size_t I = 0; I < K; ++I) {
    const ExprPtr &A = Z->Args[I];
    if (A->K != Expr::Proj || A->Index != I || A->Args[0]->K != Expr::Var ||
        A->Args[0]->Name != V)
      return false;
  }
  return true;
}

/// True when \p F is a one-parameter lambda.
bool lambda1(const ExprPtr &F) { return F->K == Expr::Lambda && F->Params.size() == 1; }

} // namespace

bool emitPlaneWalk(Emitter &Em, const ExprPtr &Walk, const CVal &Target) {
  // mapGlobal(2, \c => mapSeq(PF, c), split(P, zip(views)))
  if (!Walk->isCall("mapGlobal") || Walk->Attr != 2 || !lambda1(Walk->Args[0]) ||
      !Walk->Args[1]->isCall("split") || Target.K != CVal::Array)
    return false;
  const ExprPtr &Chunk = Walk->Args[0];
  const ExprPtr &Seq = Chunk->body();
  if (!Seq->isCall("mapSeq") || Seq->Args[1]->K != Expr::Var ||
      Seq->Args[1]->Name != Chunk->Params[0].Name || !lambda1(Seq->Args[0]))
    return false;
  const ExprPtr &Split = Walk->Args[1];
  const ExprPtr &Views = Split->Args[1];
  if (!Views->isCall("zip") || Views->Args.size() < 2)
    return false;
  size_t K = Views->Args.size();
  const ExprPtr &V0 = Views->Args[0];
  for (const ExprPtr &V : Views->Args) {
    if (!V->isCall("view") || V->Args.size() != 8 || V->Args[0]->K != Expr::Var ||
        V->Args[0]->Name != V0->Args[0]->Name)
      return false;
    for (size_t A = 2; A < 8; ++A)
      if (funil::printExpr(*V->Args[A]) != funil::printExpr(*V0->Args[A]))
        return false;
  }
  // \p => mapGlobal(1, \r => mapGlobal(0, g, zip(r.0, ..)), zip(p.0, ..))
  const ExprPtr &PF = Seq->Args[0];
  const ExprPtr &Rows = PF->body();
  if (!Rows->isCall("mapGlobal") || Rows->Attr != 1 || !lambda1(Rows->Args[0]) ||
      !zipOfProjections(Rows->Args[1], PF->Params[0].Name, K))
    return false;
  const ExprPtr &RF = Rows->Args[0];
  const ExprPtr &Elems = RF->body();
  if (!Elems->isCall("mapGlobal") || Elems->Attr != 0 || !lambda1(Elems->Args[0]) ||
      !zipOfProjections(Elems->Args[1], RF->Params[0].Name, K))
    return false;
  const ExprPtr &G = Elems->Args[0];
  CVal Buf = Em.emit(V0->Args[0]);
  if (Buf.K != CVal::Buffer)
    return false;

  std::vector<std::string> Off;
  for (const ExprPtr &V : Views->Args)
    Off.push_back(Em.settle(Em.emit(V->Args[1]), "o").Expr);
  std::string S0 = Em.emit(V0->Args[2]).Expr, N0 = Em.emit(V0->Args[3]).Expr;
  std::string S1 = Em.emit(V0->Args[4]).Expr, N1 = Em.emit(V0->Args[5]).Expr;
  std::string S2 = Em.emit(V0->Args[6]).Expr, N2 = Em.emit(V0->Args[7]).Expr;
  std::string P = Em.emit(Split->Args[0]).Expr;
  std::string T = clType(Buf.S);

  // Which view feeds which, one step down the walk (uniform).
  std::vector<std::string> Src(K), Reg(K), Next(K);
  for (size_t I = 0; I < K; ++I) {
    Src[I] = Em.fresh("src");
    Em.line("long " + Src[I] + " = -1;");
    for (size_t J = 0; J < K; ++J)
      Em.line("if ((" + Off[I] + ") + (" + S0 + ") == (" + Off[J] + ")) " + Src[I] +
              " = " + std::to_string(J) + ";");
  }
  std::string I2 = Em.fresh("i2"), I1 = Em.fresh("i1"), I0 = Em.fresh("i0");
  Em.line("const long " + I2 + " = get_global_id(2);");
  Em.line("const long " + I1 + " = get_global_id(1);");
  Em.line("const long " + I0 + " = get_global_id(0);");
  std::string First = Em.fresh("p0"), End = Em.fresh("pe"), Pl = Em.fresh("p");
  Em.open("if (" + I1 + " < " + N1 + " && " + I0 + " < " + N2 + ")");
  Em.line("const long " + First + " = " + I2 + " * " + P + ";");
  Em.line("const long " + End + " = min(" + First + " + " + P + ", " + N0 + ");");
  auto Rest = [&](const std::string &Plane) {
    return "(" + S0 + ") * " + Plane + " + (" + S1 + ") * " + I1 + " + (" + S2 + ") * " + I0;
  };
  // The chunk's first plane: every view loaded.
  for (size_t I = 0; I < K; ++I) {
    Reg[I] = Em.fresh("z");
    Em.line(T + " " + Reg[I] + " = 0;");
  }
  Em.open("if (" + First + " < " + End + ")");
  for (size_t I = 0; I < K; ++I)
    Em.line(Reg[I] + " = " + Buf.Expr + "[(" + Off[I] + ") + " + Rest(First) + "];");
  Em.close();
  Em.open("for (long " + Pl + " = " + First + "; " + Pl + " < " + End + "; ++" + Pl + ")");
  CVal Tuple;
  Tuple.K = CVal::Tuple;
  for (size_t I = 0; I < K; ++I)
    Tuple.Elems.push_back(CVal::scalar(Reg[I], Buf.S));
  CVal Res = Em.settle(Em.apply(G, {Tuple}));
  // The next plane's values before this plane's store (software
  // pipelining: the loads are in flight while the store issues; a map's
  // output never feeds its own inputs): a view's value from the register
  // of the view that fed it (Src), else a load.
  std::string Nx = Em.fresh("pn");
  Em.line("const long " + Nx + " = " + Pl + " + 1;");
  for (size_t I = 0; I < K; ++I) {
    Next[I] = Em.fresh("v");
    std::string Sel = "(" + T + ")0";
    for (size_t J = K; J-- > 0;)
      Sel = "(" + Src[I] + " == " + std::to_string(J) + " ? " + Reg[J] + " : " + Sel + ")";
    Em.line(T + " " + Next[I] + " = " + Sel + ";");
    Em.open("if (" + Nx + " < " + End + " && " + Src[I] + " < 0)");
    Em.line(Next[I] + " = " + Buf.Expr + "[(" + Off[I] + ") + " + Rest(Nx) + "];");
    Em.close();
  }
  CVal Out = Em.elementOf(Em.elementOf(Em.elementOf(Target, Pl), I1), I0);
  Em.assign(Out, Res);
  for (size_t I = 0; I < K; ++I)
    Em.line(Reg[I] + " = " + Next[I] + ";");
  Em.close();
  Em.close();
  return true;
}

} // namespace idiom::rewrite::codegen
