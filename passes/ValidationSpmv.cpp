//===- ValidationSpmv.cpp - SpMV programs ---------------------------------===//
//
// Part of Idiom (TranslationValidationImpl.h). CSR and JDS SpMV programs
// (SpmvLifting.h): the canonical shape and its data movement, then STEP,
// INIT and POST against the slices as GEMM's are (checkSlices).
//
//===----------------------------------------------------------------------===//

#include "TranslationValidationImpl.h"
#include "lift/GemmLifting.h"

using namespace llvm;

namespace idiom::tv {

template <class TB>
bool Validator<TB>::runSpmv(const funil::Program &P, unsigned TimeoutMs,
                            std::string &Why) {
  const GemmSlice *G = L.Gemm.get();
  if (!G || !L.Csr || L.Params.size() < 5)
    throw Unsupported{"SpMV lift without its slices"};
  auto IsView = [&](const Expr &E, size_t Buf) {
    return E.isCall("view") && E.Args.size() == 4 && E.Args[0]->K == Expr::Var &&
           E.Args[0]->Name == L.Params[Buf].Name;
  };
  auto IsMap = [](const Expr &E) {
    return E.isCall("map") && E.Args.size() == 2 && E.Args[0]->K == Expr::Lambda &&
           E.Args[0]->Params.size() == 1;
  };
  if (L.Csr->Format != 0)
    return runJds(P, IsView, IsMap, TimeoutMs, Why);
  // store view(y) = map(\r => POST, zip(view(ptr), view(ptr)))
  // (and a third view(y), the old y[i], when the loop reads it)
  const Expr &Rows = *P.Body;
  size_t Arity = Rows.Args.size() == 2 && Rows.Args[1]->isCall("zip")
                     ? Rows.Args[1]->Args.size()
                     : 0;
  if (P.IsReturn || P.Outs.size() != 1 || !IsView(*P.Outs[0], 4) || !IsMap(Rows) ||
      (Arity != 2 && Arity != 3) || !IsView(*Rows.Args[1]->Args[0], 0) ||
      !IsView(*Rows.Args[1]->Args[1], 0) ||
      (Arity == 3 && !funil::sameExpr(*Rows.Args[1]->Args[2], *P.Outs[0])) ||
      (Arity == 2 && !L.Gemm->COld.empty()))
    throw Unsupported{"SpMV program is not store view(y) = map(f, zip(view(ptr), "
                      "view(ptr)[, view(y)]))"};
  const Expr &RowFn = *Rows.Args[0];
  std::vector<const Expr *> Reds = reduceSeqCalls(*RowFn.body());
  // reduceSeq(step, init, zip(view(val), map(\c => at(view(x), i), view(col))))
  const Expr *Zip = Reds.size() == 1 && Reds[0]->Args.size() == 3
                        ? Reds[0]->Args[2].get()
                        : nullptr;
  if (!Zip || Reds[0]->Args[0]->K != Expr::Lambda ||
      Reds[0]->Args[0]->Params.size() != 2 || !Zip->isCall("zip") ||
      Zip->Args.size() != 2 || !IsView(*Zip->Args[0], 1) || !IsMap(*Zip->Args[1]) ||
      !IsView(*Zip->Args[1]->Args[1], 2) ||
      !Zip->Args[1]->Args[0]->body()->isCall("at") ||
      !IsView(*Zip->Args[1]->Args[0]->body()->Args[0], 3))
    throw Unsupported{"SpMV row function is not POST(reduceSeq(step, init, "
                      "zip(view(val), map(\\c => at(view(x), i), view(col)))))"};
  return checkSlices(*G, *Reds[0]->Args[0], Reds[0]->Args[1], RowFn.body(),
                     Arity == 3 ? RowFn.Params[0].Name : std::string(), 3,
                     "SpMV", TimeoutMs, Why);
}

/// The JDS program (SpmvLifting.h): store view(y) = scatter(\i => ...,
/// map(\i => POST, iota(n))), the reduction over zip(map(\d => at(view(val),
/// ...), view(ptr)), map(\d => at(view(x), ...), view(ptr))), buffers cnt,
/// ptr, val, col, x, perm, y in that order; its STEP, INIT and POST are
/// checked against the slice as CSR's are.
template <class TB>
template <class V, class Mp>
bool Validator<TB>::runJds(const funil::Program &P, V IsView, Mp IsMap,
                           unsigned TimeoutMs, std::string &Why) {
  // Every buffer is passed from the element the loop reads first (the
  // runtime completes the ranges): its views start at 0.
  auto IsView0 = [&](const Expr &E, size_t Buf) {
    return IsView(E, Buf) && E.Args[1]->K == Expr::Lit &&
           E.Args[1]->signedValue() == 0;
  };
  const Expr &Sc = *P.Body;
  const Expr *Rows = Sc.isCall("scatter") && Sc.Args.size() == 2 &&
                             Sc.Args[0]->K == Expr::Lambda
                         ? Sc.Args[1].get()
                         : nullptr;
  if (P.IsReturn || P.Outs.size() != 1 || !IsView0(*P.Outs[0], 6) || !Rows ||
      !IsMap(*Rows) || !Rows->Args[1]->isCall("iota") || !L.Gemm->COld.empty())
    throw Unsupported{"JDS SpMV program is not store view(y) = scatter(f, "
                      "map(g, iota(n)))"};
  const Expr &RowFn = *Rows->Args[0];
  std::vector<const Expr *> Reds = reduceSeqCalls(*RowFn.body());
  const Expr *Zip = Reds.size() == 1 && Reds[0]->Args.size() == 3
                        ? Reds[0]->Args[2].get()
                        : nullptr;
  auto IsGather = [&](const Expr &E, size_t Buf) {
    return IsMap(E) && IsView0(*E.Args[1], 1) &&
           E.Args[0]->body()->isCall("at") &&
           IsView0(*E.Args[0]->body()->Args[0], Buf);
  };
  if (!Zip || Reds[0]->Args[0]->K != Expr::Lambda ||
      Reds[0]->Args[0]->Params.size() != 2 || !Zip->isCall("zip") ||
      Zip->Args.size() != 2 || !IsGather(*Zip->Args[0], 2) ||
      !IsGather(*Zip->Args[1], 4))
    throw Unsupported{"JDS SpMV row function is not POST(reduceSeq(step, init, "
                      "zip(map(\\d => at(view(val), p), view(ptr)), "
                      "map(\\d => at(view(x), i), view(ptr)))))"};
  // The data movement: row i reads cnt[i] diagonals, val and col at the
  // position ptr[k] + i - nz0, x at col - c0, and y is written at perm[i]
  // (+ a constant) - y0; the widenings and the constant are the lifter's.
  std::string Nz0, C0, Y0;
  for (const LiftedParam &Pa : L.Params)
    if (Pa.K == LiftedParam::Kind::Index) {
      if (Pa.RtS == RunTimeValue::CsrFirstNonzero)
        Nz0 = Pa.Name;
      else if (Pa.RtS == RunTimeValue::CsrFirstColumn)
        C0 = Pa.Name;
      else if (Pa.RtS == RunTimeValue::CsrFirstResult)
        Y0 = Pa.Name;
    }
  auto Strip = [](const Expr *E) {
    while (E->K == Expr::Cast || E->isCall("add"))
      E = E->Args[0].get(); // a widening, or perm[i] + a constant
    return E;
  };
  auto IsVar = [](const Expr &E, const std::string &N) {
    return E.K == Expr::Var && E.Name == N;
  };
  auto AtVar = [&](const Expr *E, size_t Buf, const std::string &N) {
    return E->isCall("at") && IsView0(*E->Args[0], Buf) && IsVar(*E->Args[1], N);
  };
  const std::string &Row = RowFn.Params[0].Name;
  auto IsPos = [&](const Expr &E, const std::string &D) {
    const Expr *Sum = E.isCall("sub") ? E.Args[0].get() : nullptr;
    return Sum && IsVar(*E.Args[1], Nz0) && Sum->isCall("add") &&
           IsVar(*Strip(Sum->Args[0].get()), D) && IsVar(*Sum->Args[1], Row);
  };
  // cnt[i], or cnt[i / D] (one count per block of D rows)
  auto Diagonals = [&](const Expr &Map) {
    const Expr *C = Strip(Map.Args[1]->Args[3].get());
    if (C->isCall("at") && C->Args[1]->isCall("udiv") &&
        IsVar(*C->Args[1]->Args[0], Row) && C->Args[1]->Args[1]->K == Expr::Lit &&
        C->Args[1]->Args[1]->signedValue() == (int64_t)L.Csr->RowsPerCount)
      return IsView0(*C->Args[0], 0);
    return L.Csr->RowsPerCount == 1 && AtVar(C, 0, Row);
  };
  const Expr &ValFn = *Zip->Args[0]->Args[0], &XFn = *Zip->Args[1]->Args[0];
  const Expr &XIdx = *XFn.body()->Args[1];
  const Expr *ColAt = XIdx.isCall("sub") && IsVar(*XIdx.Args[1], C0)
                          ? Strip(XIdx.Args[0].get())
                          : nullptr;
  const Expr &PermFn = *Sc.Args[0];
  const Expr &YIdx = *PermFn.body();
  if (!IsPos(*ValFn.body()->Args[1], ValFn.Params[0].Name) || !ColAt ||
      !ColAt->isCall("at") || !IsView0(*ColAt->Args[0], 3) ||
      !IsPos(*ColAt->Args[1], XFn.Params[0].Name) ||
      !Diagonals(*Zip->Args[0]) || !Diagonals(*Zip->Args[1]) ||
      PermFn.Params.size() != 1 || !YIdx.isCall("sub") || !IsVar(*YIdx.Args[1], Y0) ||
      !AtVar(Strip(YIdx.Args[0].get()), 5, PermFn.Params[0].Name))
    throw Unsupported{"JDS SpMV program reads or writes other elements than "
                      "val[ptr[k] + i], x[col[ptr[k] + i]] for k < cnt[i] and "
                      "y[perm[i]]"};
  return checkSlices(*L.Gemm, *Reds[0]->Args[0], Reds[0]->Args[1], RowFn.body(),
                     std::string(), 3, "SpMV", TimeoutMs, Why);
}

#define IDIOM_TV_SPMV(TB)                                                     \
  template bool Validator<TB>::runSpmv(const funil::Program &, unsigned,       \
                                       std::string &);
IDIOM_TV_INSTANTIATE(IDIOM_TV_SPMV)

} // namespace idiom::tv
