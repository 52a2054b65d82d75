//===- ExprUtil.cpp - variables, substitution, beta reduction -------------===//
//
// Part of Idiom.
//
//===----------------------------------------------------------------------===//

#include "idiom/FunIL/ExprUtil.h"

namespace idiom::funil {

void freeVars(const Expr &E, std::set<std::string> &Out) {
  if (E.K == Expr::Var) {
    Out.insert(E.Name);
    return;
  }
  if (E.K == Expr::Lambda) {
    std::set<std::string> Inner;
    freeVars(*E.body(), Inner);
    for (const Param &P : E.Params)
      Inner.erase(P.Name);
    Out.insert(Inner.begin(), Inner.end());
    return;
  }
  for (const ExprPtr &A : E.Args)
    freeVars(*A, Out);
}

void allNames(const Expr &E, std::set<std::string> &Out) {
  if (E.K == Expr::Var)
    Out.insert(E.Name);
  for (const Param &P : E.Params)
    Out.insert(P.Name);
  for (const ExprPtr &A : E.Args)
    allNames(*A, Out);
}

std::string freshName(const std::string &Base, std::set<std::string> &Avoid) {
  std::string N = Base;
  for (unsigned I = 1; Avoid.count(N); ++I)
    N = Base + "_" + std::to_string(I);
  Avoid.insert(N);
  return N;
}

ExprPtr withArgs(const Expr &E, std::vector<ExprPtr> Args) {
  auto C = std::make_shared<Expr>(E);
  C->Args = std::move(Args);
  return C;
}

ExprPtr substitute(const ExprPtr &E, const std::map<std::string, ExprPtr> &S) {
  if (S.empty())
    return E;
  if (E->K == Expr::Var) {
    auto It = S.find(E->Name);
    return It == S.end() ? E : It->second;
  }
  if (E->K == Expr::Lambda) {
    std::map<std::string, ExprPtr> Inner = S;
    for (const Param &P : E->Params)
      Inner.erase(P.Name);
    if (Inner.empty())
      return E;
    // Rename parameters that would capture free variables of replacements.
    std::set<std::string> RepFree;
    for (const auto &KV : Inner)
      freeVars(*KV.second, RepFree);
    std::vector<Param> Ps = E->Params;
    std::set<std::string> Avoid = RepFree;
    allNames(*E, Avoid);
    for (const auto &KV : Inner)
      Avoid.insert(KV.first);
    for (Param &P : Ps) {
      if (!RepFree.count(P.Name))
        continue;
      std::string New = freshName(P.Name, Avoid);
      Inner[P.Name] = Expr::var(New);
      P.Name = New;
    }
    return Expr::lambda(std::move(Ps), substitute(E->body(), Inner), E->Loc);
  }
  std::vector<ExprPtr> Args;
  bool Changed = false;
  for (const ExprPtr &A : E->Args) {
    Args.push_back(substitute(A, S));
    Changed |= Args.back() != A;
  }
  return Changed ? withArgs(*E, std::move(Args)) : E;
}

ExprPtr simplifyProjections(const ExprPtr &E) {
  std::vector<ExprPtr> Args;
  bool Changed = false;
  for (const ExprPtr &A : E->Args) {
    Args.push_back(simplifyProjections(A));
    Changed |= Args.back() != A;
  }
  ExprPtr R = Changed ? withArgs(*E, std::move(Args)) : E;
  if (R->K == Expr::Proj && R->Args[0]->K == Expr::Tuple &&
      R->Index < R->Args[0]->Args.size())
    return R->Args[0]->Args[R->Index];
  return R;
}

ExprPtr betaApply(const ExprPtr &Fn, const std::vector<ExprPtr> &Args) {
  std::map<std::string, ExprPtr> S;
  for (size_t I = 0; I < Fn->Params.size() && I < Args.size(); ++I)
    S[Fn->Params[I].Name] = Args[I];
  return simplifyProjections(substitute(Fn->body(), S));
}

} // namespace idiom::funil
