//===- ValidationIndirect.cpp - Gathers and searches ----------------------===//
//
// Part of Idiom (TranslationValidationImpl.h). Reads whose index is data:
// a gathered element (`at` of a gathered buffer, with the obligation that
// the index is the loop's) and a bisection search (SearchLifting.h: the
// iterate against the loop's step, condition, interval and count, and its
// boundary read against the loop's midpoint).
//
//===----------------------------------------------------------------------===//

#include "TranslationValidationImpl.h"
#include "lift/SearchLifting.h"
#include "idiom/FunIL/Printer.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"

using namespace llvm;

namespace idiom::tv {

template <class TB>
auto Validator<TB>::evalSearch(const Expr &E, std::map<std::string, Sym> &Env) -> Sym {
  if (E.Args.size() != 3 || E.Args[1]->K != Expr::Lambda || E.Args[1]->Params.size() != 1 ||
      E.Args[2]->K != Expr::Tuple || E.Args[2]->Args.size() != 2 || ActiveSearch)
    throw Unsupported{"iterate that is not a lifted search"};
  const Expr &Fn = *E.Args[1];
  const std::string &Q = Fn.Params[0].Name;
  unsigned K = 0;
  while (K < M.Searches.size() && searchParamName(K) != Q)
    ++K;
  const ExprPtr &Body = Fn.body();
  if (K == M.Searches.size() || !Body->isCall("select") || Body->Args.size() != 3 ||
      Body->Args[2]->K != Expr::Var || Body->Args[2]->Name != Q)
    throw Unsupported{"iterate that is not a lifted search"};
  const BisectionInfo &B = M.Searches[K];
  unsigned Low = B.LowPart, High = 1 - Low, W = B.width();
  // The count the step lemma bounds the loop by (BisectionFacts.h), on
  // the initial interval's own text.
  if (funil::printExpr(*E.Args[0]) !=
      searchCountText(funil::printExpr(*E.Args[2]->Args[0]),
                      funil::printExpr(*E.Args[2]->Args[1]), W))
    throw Unsupported{"search count is not floor(log2(max(hi - lo, 1))) + 1"};
  Sym Init = eval(E.Args[2], Env);
  if (Init.Parts.size() != 2 || !Init.Parts[0].E || !Init.Parts[1].E)
    throw Unsupported{"search interval is not a pair of scalars"};
  SearchMismatch.push_back(*Init.Parts[0].E != tr(B.Init[Low]));
  SearchMismatch.push_back(*Init.Parts[1].E != tr(B.Init[High]));
  // The loop's step and condition on a symbolic interval.
  TermT Lo = leaf("search" + std::to_string(K) + "_lo", C.bv_sort(W));
  TermT Hi = leaf("search" + std::to_string(K) + "_hi", C.bv_sort(W));
  TermT Probe = leaf("search" + std::to_string(K) + "_probe", sortOf(B.ProbeTy));
  auto Saved = Memo;
  Memo.insert_or_assign(B.Phi[Low], Lo);
  Memo.insert_or_assign(B.Phi[High], Hi);
  Memo.insert_or_assign(B.Probe, Probe);
  TermT WantLo = tr(B.Next[Low]), WantHi = tr(B.Next[High]), WantMid = tr(B.Mid);
  if (WantMid.get_sort().bv_size() < 64)
    WantMid = TB::sext(WantMid, 64 - WantMid.get_sort().bv_size());
  Memo = Saved;
  Memo.insert_or_assign(B.Next[Low], Lo);
  Memo.insert_or_assign(B.Next[High], Hi);
  TermT WantCont = tr(B.Cond);
  if (!B.ContinueWhen)
    WantCont = !WantCont;
  Memo = Saved;
  std::map<std::string, Sym> SEnv = Env;
  Sym State;
  State.Parts = {Sym{Lo, {}}, Sym{Hi, {}}};
  SEnv[Q] = State;
  ActiveSearch = &B;
  ActiveProbe = Probe;
  ActiveMid = WantMid;
  Sym GotCont = eval(Body->Args[0], SEnv);
  Sym GotStep = eval(Body->Args[1], SEnv);
  ActiveSearch = nullptr;
  if (!GotCont.E || GotStep.Parts.size() != 2 || !GotStep.Parts[0].E || !GotStep.Parts[1].E)
    throw Unsupported{"search step is not select(condition, (lo, hi), state)"};
  SearchMismatch.push_back(*GotCont.E != WantCont);
  SearchMismatch.push_back(*GotStep.Parts[0].E != WantLo);
  SearchMismatch.push_back(*GotStep.Parts[1].E != WantHi);
  Sym Out;
  Out.Parts = {Sym{searchLeaf(K, 0), {}}, Sym{searchLeaf(K, 1), {}}};
  return Out;
}

template <class TB>
auto Validator<TB>::evalProbe(const Expr &E, std::map<std::string, Sym> &Env)
    -> std::optional<Sym> {
  if (E.Args.size() != 2 || !E.Args[0]->isCall("view") || E.Args[0]->Args.size() != 4 ||
      E.Args[0]->Args[0]->K != Expr::Var)
    return std::nullopt;
  const Expr &V = *E.Args[0];
  const LiftedParam *Buf = nullptr;
  for (const LiftedParam &P : L.Params)
    if (P.K == LiftedParam::Kind::Buffer && P.Name == V.Args[0]->Name &&
        P.Base == ActiveSearch->ProbeBase)
      Buf = &P;
  if (!Buf)
    return std::nullopt;
  // The buffer from its first element; the index `sub(mid, first)` with
  // first the buffer's first element (a literal or its index parameter).
  const Expr &Idx = *E.Args[1];
  if (V.Args[1]->K != Expr::Lit || V.Args[1]->signedValue() != 0 ||
      V.Args[2]->K != Expr::Lit || V.Args[2]->signedValue() != 1 || !Idx.isCall("sub") ||
      Idx.Args.size() != 2)
    throw Unsupported{"boundary read through a view the lifter does not write"};
  const Expr &F = *Idx.Args[1];
  bool FirstOk = false;
  if (F.K == Expr::Lit) {
    auto *SC = dyn_cast<SCEVConstant>(Buf->Lo);
    FirstOk = SC && SC->getAPInt().getSExtValue() == F.signedValue();
  } else if (F.K == Expr::Var) {
    for (const LiftedParam &P : L.Params)
      FirstOk |= P.K == LiftedParam::Kind::Index && P.Name == F.Name && P.S == Buf->Lo;
  }
  if (!FirstOk)
    throw Unsupported{"boundary read does not start at the buffer's first element"};
  Sym Mid = eval(Idx.Args[0], Env);
  if (!Mid.E)
    throw Unsupported{"boundary index is not a scalar"};
  SearchMismatch.push_back(*Mid.E != *ActiveMid);
  return Sym{*ActiveProbe, {}};
}

template <class TB> auto Validator<TB>::gatherLeaf(Value *Ld) -> TermT {
  auto It = Memo.find(Ld);
  if (It != Memo.end())
    return It->second;
  TermT X = leaf("gather" + std::to_string(Memo.size()), sortOf(Ld->getType()));
  Memo.try_emplace(Ld, X);
  return X;
}

template <class TB>
auto Validator<TB>::evalGather(const Expr &E, std::map<std::string, Sym> &Env)
    -> std::optional<Sym> {
  if (E.Args.size() != 2 || !E.Args[0]->isCall("view") || E.Args[0]->Args.size() != 4 ||
      E.Args[0]->Args[0]->K != Expr::Var)
    return std::nullopt;
  const Expr &V = *E.Args[0];
  for (const RunTimeExtent &X : L.Extents) {
    if (!X.GatherLoad || L.Params.at(X.Buffer).Name != V.Args[0]->Name)
      continue;
    // The whole buffer from its first element, as the lifter writes it.
    if (V.Args[1]->K != Expr::Lit || V.Args[1]->signedValue() != 0 ||
        V.Args[2]->K != Expr::Lit || V.Args[2]->signedValue() != 1 ||
        V.Args[3]->K != Expr::Var || V.Args[3]->Name != L.Params.at(X.CountParam).Name)
      throw Unsupported{"gather through a view the lifter does not write"};
    Sym K = eval(E.Args[1], Env);
    auto First = Params.find(L.Params.at(X.FirstParam).Name);
    if (!K.E || First == Params.end())
      throw Unsupported{"gather without its index or first element"};
    TermT Want = tr(X.GatherIndex);
    unsigned W = Want.get_sort().bv_size();
    if (W < 64)
      Want = TB::sext(Want, 64 - W);
    // A struct field (issue 13): the element Scale * index + Offset.
    Want = Want * C.bv_val((uint64_t)X.GatherScale, 64) +
           C.bv_val((uint64_t)X.GatherOffset, 64);
    GatherMismatch.push_back(*K.E != Want - First->second);
    return Sym{gatherLeaf(X.GatherLoad), {}};
  }
  return std::nullopt;
}

#define IDIOM_TV_INDIRECT(TB)                                                 \
  template Validator<TB>::Sym Validator<TB>::evalSearch(                       \
      const Expr &, std::map<std::string, Validator<TB>::Sym> &);              \
  template std::optional<Validator<TB>::Sym> Validator<TB>::evalProbe(         \
      const Expr &, std::map<std::string, Validator<TB>::Sym> &);              \
  template Validator<TB>::TermT Validator<TB>::gatherLeaf(Value *);            \
  template std::optional<Validator<TB>::Sym> Validator<TB>::evalGather(        \
      const Expr &, std::map<std::string, Validator<TB>::Sym> &);
IDIOM_TV_INSTANTIATE(IDIOM_TV_INDIRECT)

} // namespace idiom::tv
