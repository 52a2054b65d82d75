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
  unsigned From = 0;
  return freshName(Base, Avoid, From);
}

std::string freshName(const std::string &Base, std::set<std::string> &Avoid,
                      unsigned &From) {
  if (Avoid.insert(Base).second)
    return Base;
  std::string N;
  do
    N = Base + "_" + std::to_string(++From);
  while (!Avoid.insert(N).second);
  return N;
}

ExprPtr withArgs(const Expr &E, std::vector<ExprPtr> Args) {
  // Every field but Args, without copying E's operands first.
  auto C = std::make_shared<Expr>();
  C->K = E.K;
  C->Name = E.Name;
  C->LitKind = E.LitKind;
  C->Bits = E.Bits;
  C->F = E.F;
  C->Attr = E.Attr;
  C->Index = E.Index;
  C->Params = E.Params;
  C->Args = std::move(Args);
  C->Loc = E.Loc;
  return C;
}

namespace {

/// True when variable \p V occurs free in \p E (freeVars without the set).
bool occursFree(const std::string &V, const Expr &E) {
  if (E.K == Expr::Var)
    return E.Name == V;
  if (E.K == Expr::Lambda)
    for (const Param &P : E.Params)
      if (P.Name == V)
        return false;
  for (const ExprPtr &A : E.Args)
    if (occursFree(V, *A))
      return true;
  return false;
}

/// \p E with operand I replaced by Fn(operand I) for every I; E itself
/// when no operand changed (no copy of the operands then).
template <typename F> ExprPtr mapArgs(const ExprPtr &E, F Fn) {
  const std::vector<ExprPtr> &Old = E->Args;
  for (size_t I = 0; I < Old.size(); ++I) {
    ExprPtr R = Fn(Old[I]);
    if (R == Old[I])
      continue;
    std::vector<ExprPtr> Args;
    Args.reserve(Old.size());
    Args.insert(Args.end(), Old.begin(), Old.begin() + I);
    Args.push_back(std::move(R));
    for (size_t J = I + 1; J < Old.size(); ++J)
      Args.push_back(Fn(Old[J]));
    return withArgs(*E, std::move(Args));
  }
  return E;
}

} // namespace

ExprPtr substitute(const ExprPtr &E, const std::map<std::string, ExprPtr> &S) {
  if (S.empty())
    return E;
  if (E->K == Expr::Var) {
    auto It = S.find(E->Name);
    return It == S.end() ? E : It->second;
  }
  if (E->K == Expr::Lambda) {
    // Parameters shadow: copy S only when one of them is substituted.
    const std::map<std::string, ExprPtr> *In = &S;
    std::map<std::string, ExprPtr> Inner;
    for (const Param &P : E->Params)
      if (S.count(P.Name)) {
        if (In == &S)
          Inner = S;
        In = &Inner;
        Inner.erase(P.Name);
      }
    if (In->empty())
      return E;
    bool Captures = false;
    for (const Param &P : E->Params)
      for (const auto &KV : *In)
        Captures = Captures || occursFree(P.Name, *KV.second);
    if (!Captures) {
      ExprPtr Body = substitute(E->body(), *In);
      return Body == E->body() ? E : Expr::lambda(E->Params, std::move(Body), E->Loc);
    }
    if (In == &S)
      Inner = S;
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
  return mapArgs(E, [&](const ExprPtr &A) { return substitute(A, S); });
}

ExprPtr simplifyProjections(const ExprPtr &E) {
  ExprPtr R = mapArgs(E, [](const ExprPtr &A) { return simplifyProjections(A); });
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

ExprPtr replaceSubterm(const ExprPtr &E, const ExprPtr &Old, const ExprPtr &New) {
  if (E == Old)
    return New;
  std::vector<ExprPtr> Args;
  bool Changed = false;
  for (const ExprPtr &A : E->Args) {
    Args.push_back(replaceSubterm(A, Old, New));
    Changed |= Args.back() != A;
  }
  return Changed ? withArgs(*E, std::move(Args)) : E;
}

void findOutsideLambdas(const ExprPtr &E, const std::function<bool(const ExprPtr &)> &Pred,
                        std::vector<ExprPtr> &Out) {
  if (E->K == Expr::Lambda)
    return;
  if (Pred(E)) {
    Out.push_back(E);
    return;
  }
  for (const ExprPtr &A : E->Args)
    findOutsideLambdas(A, Pred, Out);
}

} // namespace idiom::funil
