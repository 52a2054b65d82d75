//===- Rule.cpp - rewrite rules as data -----------------------------------===//
//
// Part of Idiom.
//
//===----------------------------------------------------------------------===//

#include "idiom/Rewrite/Rule.h"

#include "idiom/Rewrite/Histogram.h"
#include "idiom/Rewrite/RowLanes.h"
#include "idiom/Rewrite/Rules.h"

#include <new>
#include <stdexcept>

namespace idiom::rewrite {

const char *levelName(Level L) {
  switch (L) {
  case Level::Host:
    return "host";
  case Level::Global:
    return "global";
  case Level::Workgroup:
    return "workgroup";
  case Level::Local:
    return "local";
  case Level::Sequential:
    return "sequential";
  }
  return "?";
}

bool allowedAt(AppliesIn C, Level L) {
  switch (C) {
  case AppliesIn::Anywhere:
    return true;
  case AppliesIn::Host:
    return L == Level::Host;
  case AppliesIn::Thread:
    return L == Level::Global || L == Level::Local || L == Level::Sequential;
  case AppliesIn::Workgroup:
    return L == Level::Workgroup;
  }
  return false;
}

std::string RuleContext::fresh(const std::string &Base) {
  return funil::freshName(Base, Names, FreshFrom[Base]);
}

Bindings::~Bindings() {
  for (unsigned I = 0; I < N; ++I)
    entries()[I].~Entry();
}

const ExprPtr *Bindings::find(std::string_view Name) const {
  for (unsigned I = 0; I < N; ++I)
    if (entries()[I].Name == Name)
      return &entries()[I].Value;
  return nullptr;
}

ExprPtr &Bindings::operator[](std::string_view Name) {
  if (const ExprPtr *V = find(Name))
    return const_cast<ExprPtr &>(*V);
  if (N == MaxNames)
    throw std::length_error("a rule binds more than " + std::to_string(MaxNames) +
                            " names");
  Entry *E = new (Store + N * sizeof(Entry)) Entry{std::string(Name), nullptr};
  ++N;
  return E->Value;
}

const ExprPtr &Bindings::at(std::string_view Name) const {
  if (const ExprPtr *V = find(Name))
    return *V;
  throw std::out_of_range("no binding '" + std::string(Name) + "'");
}

funil::TypePtr RuleContext::typeOf(const ExprPtr &E) const {
  funil::TypePtr T;
  std::string Err;
  if (!funil::inferType(E, Env, T, Err))
    return nullptr;
  return T;
}

bool ruleMayMatch(const Rule &R, const funil::Expr &E) {
  if (R.Roots.empty())
    return true;
  if (E.K != funil::Expr::Call)
    return false;
  for (const std::string &N : R.Roots)
    if (N == E.Name)
      return true;
  return false;
}

ExprPtr applyRule(const Rule &R, const ExprPtr &E, RuleContext &Ctx) {
  if (!ruleMayMatch(R, *E))
    return nullptr;
  return applyRuleAtRoot(R, E, Ctx);
}

ExprPtr applyRuleAtRoot(const Rule &R, const ExprPtr &E, RuleContext &Ctx) {
  if (!allowedAt(R.Context, Ctx.Where))
    return nullptr;
  Bindings B;
  if (!R.Match(E, B))
    return nullptr;
  if (R.Condition && !R.Condition(B, Ctx))
    return nullptr;
  ExprPtr Out = R.Build(B, Ctx);
  if (Out && Ctx.Trace)
    Ctx.Trace->push_back(R.Name);
  return Out;
}

const std::vector<Rule> &allRules() {
  static const std::vector<Rule> All = [] {
    std::vector<Rule> V = algorithmicRules();
    for (const auto *F : {&compensationRules(), &fusionRules(), &viewRules()})
      V.insert(V.end(), F->begin(), F->end());
    const std::vector<Rule> &L = loweringRules();
    V.insert(V.end(), L.begin(), L.end());
    const std::vector<Rule> &W = vectorisationRules();
    V.insert(V.end(), W.begin(), W.end());
    const std::vector<Rule> &Mm = matMulRules();
    V.insert(V.end(), Mm.begin(), Mm.end());
    const std::vector<Rule> &Me = memoryRules();
    V.insert(V.end(), Me.begin(), Me.end());
    const std::vector<Rule> &H = histogramRules();
    V.insert(V.end(), H.begin(), H.end());
    const std::vector<Rule> &C = coalescingRules();
    V.insert(V.end(), C.begin(), C.end());
    const std::vector<Rule> &RL = rowLanesRules();
    V.insert(V.end(), RL.begin(), RL.end());
    return V;
  }();
  return All;
}

const Rule *findRule(const std::string &Name) {
  for (const Rule &R : allRules())
    if (R.Name == Name)
      return &R;
  return nullptr;
}

} // namespace idiom::rewrite
