//===- ValidationAccum.cpp - Accumulations --------------------------------===//
//
// Part of Idiom (TranslationValidationImpl.h). Outer-loop accumulations and
// column reductions (AccumLifting.h): the map over x of a reduceSeq over k;
// each component of STEP against its stored value, INIT against the old
// accumulators, and a column reduction's POST against its stores.
//
//===----------------------------------------------------------------------===//

#include "TranslationValidationImpl.h"
#include "lift/AccumLifting.h"

using namespace llvm;

namespace idiom::tv {

template <class TB>
bool Validator<TB>::runAccum(const funil::Program &P, unsigned TimeoutMs,
                             std::string &Why) {
  const AccumSlices *A = L.Accum.get();
  if (!A)
    throw Unsupported{"accumulation lift without its slices"};
  // store Q... = map(\t => reduceSeq(\(acc, e) => STEP, INIT, Z), zip(...))
  const Expr &Map = *P.Body;
  size_t NOut = A->Column ? A->Posts.size() : A->Steps.size();
  if (P.IsReturn || P.Outs.size() != NOut || !Map.isCall("map") ||
      Map.Args.size() != 2 || Map.Args[0]->K != Expr::Lambda ||
      Map.Args[0]->Params.size() != 1)
    throw Unsupported{"accumulation program is not store Q = map(\t => ..., ...)"};
  for (size_t Q = 0; Q < P.Outs.size(); ++Q) {
    const Expr &In = A->TTypes.size() == 1 ? *Map.Args[1] : *Map.Args[1]->Args.at(Q);
    if (!funil::sameExpr(*P.Outs[Q], In))
      throw Unsupported{"accumulation output is not the view its map reads"};
  }
  const Expr &Fn = *Map.Args[0];
  // A column reduction finishes with apply(\r => POST, reduceSeq(...)).
  const Expr *Fin = nullptr;
  if (A->Column) {
    const Expr &Ap = *Fn.body();
    if (!Ap.isCall("apply") || Ap.Args.size() != 2 ||
        Ap.Args[0]->K != Expr::Lambda || Ap.Args[0]->Params.size() != 1)
      throw Unsupported{"column reduction element is not apply(\\r => POST, ...)"};
    Fin = Ap.Args[0].get();
  }
  const Expr &Red = Fin ? *Fn.body()->Args[1] : *Fn.body();
  if (!Red.isCall("reduceSeq") || Red.Args.size() != 3 ||
      Red.Args[0]->K != Expr::Lambda || Red.Args[0]->Params.size() != 2)
    throw Unsupported{"accumulation element is not reduceSeq(\\(acc, e) => STEP, INIT, zip)"};
  const Expr &Step = *Red.Args[0];
  bindParams();
  auto Tuple = [&](const std::vector<Type *> &Ts, const char *Prefix) {
    Sym T;
    for (size_t I = 0; I < Ts.size(); ++I) {
      Sym X;
      if (Ts[I])
        X.E = leaf(Prefix + std::to_string(I), sortOf(Ts[I]));
      T.Parts.push_back(X);
    }
    return Ts.size() == 1 ? T.Parts[0] : T;
  };
  auto Part = [](const Sym &T, size_t I, size_t N) -> const Sym & {
    return N == 1 ? T : T.Parts.at(I);
  };
  std::vector<Type *> AccTys;
  for (Value *V : A->Steps)
    AccTys.push_back(V->getType());
  Sym TS = Tuple(A->TTypes, "t"), ES = Tuple(A->ETypes, "e"),
      AccS = Tuple(AccTys, "acc");
  size_t NQ = AccTys.size();
  // The LLVM side: old elements as acc, input loads as their components.
  for (size_t Q = 0; Q < NQ; ++Q)
    for (Value *V : A->Old[Q])
      Memo.insert_or_assign(V, *Part(AccS, Q, NQ).E);
  for (const AccumSlices::Leaf &Lf : A->Leaves) {
    const Sym &X = Lf.InE ? Part(ES, Lf.Index, A->ETypes.size())
                          : Part(TS, Lf.Index, A->TTypes.size());
    if (!X.E)
      throw Unsupported{"an input load read as a matrix row"};
    Memo.insert_or_assign(Lf.Load, *X.E);
  }
  // Induction variables: start + step * the iteration index read from iota.
  Iter.assign(2, std::nullopt);
  unsigned XD = A->Column ? 0 : 1;
  if (A->KIndexInE >= 0)
    Iter[1 - XD] = *Part(ES, A->KIndexInE, A->ETypes.size()).E;
  if (A->XIndexInT >= 0)
    Iter[XD] = *Part(TS, A->XIndexInT, A->TTypes.size()).E;
  std::map<std::string, Sym> Env;
  Env[Fn.Params[0].Name] = TS;
  Sym InitGot = eval(Red.Args[1], Env);
  Env[Step.Params[0].Name] = AccS;
  Env[Step.Params[1].Name] = ES;
  Sym StepGot = eval(Step.body(), Env);
  TermT Differ = C.bool_val(false);
  for (size_t Q = 0; Q < NQ; ++Q) {
    const Sym &G = Part(StepGot, Q, NQ), &I = Part(InitGot, Q, NQ);
    TermT Want = tr(A->Steps[Q]);
    // INIT: the old element (accumulation) or the accumulator's start.
    std::optional<TermT> Old;
    if (A->Column)
      Old = tr(A->Inits.at(Q));
    else if (Part(TS, Q, A->TTypes.size()).E)
      Old = *Part(TS, Q, A->TTypes.size()).E;
    if (!G.E || !I.E || !Old || !TB::eq(G.E->get_sort(), Want.get_sort()) ||
        !TB::eq(I.E->get_sort(), Old->get_sort())) {
      Why = "accumulation STEP or INIT has another type than the slice";
      return false;
    }
    Differ = Differ || *G.E != Want || *I.E != *Old;
  }
  if (Fin) {
    // POST: each output's stored value, the reduction's results as r.
    Sym RS = Tuple(AccTys, "r");
    for (auto [V, Q] : A->Finals)
      Memo.insert_or_assign(V, *Part(RS, Q, NQ).E);
    Env[Fin->Params[0].Name] = RS;
    Sym PostGot = eval(Fin->body(), Env);
    for (size_t O = 0; O < NOut; ++O) {
      const Sym &G = Part(PostGot, O, NOut);
      TermT Want = A->Posts[O] ? tr(A->Posts[O])
                               : *Part(RS, A->PostResult[O], NQ).E;
      if (!G.E || !TB::eq(G.E->get_sort(), Want.get_sort())) {
        Why = "column reduction POST has another type than the slice";
        return false;
      }
      Differ = Differ || *G.E != Want;
    }
  }
  return proveNoDifference(Differ, TimeoutMs,
                           Fin ? "column reduction STEP, INIT or POST"
                               : "accumulation STEP or INIT",
                           Fin ? "column reduction" : "accumulation", Why);
}

#define IDIOM_TV_ACCUM(TB)                                                    \
  template bool Validator<TB>::runAccum(const funil::Program &, unsigned,      \
                                        std::string &);
IDIOM_TV_INSTANTIATE(IDIOM_TV_ACCUM)

} // namespace idiom::tv
