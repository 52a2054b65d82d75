//===- ValidationGemm.cpp - GEMM programs ---------------------------------===//
//
// Part of Idiom (TranslationValidationImpl.h). The canonical GEMM program
// (GemmLifting.h) and its triangular forms: the shape, the triangle's mask,
// and STEP, INIT and POST against the slices the lifter recorded
// (checkSlices, also SpMV's).
//
//===----------------------------------------------------------------------===//

#include "TranslationValidationImpl.h"
#include "lift/GemmLifting.h"
#include "idiom/FunIL/Printer.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"

using namespace llvm;

namespace idiom::tv {

/// The canonical GEMM program (GemmLifting.h): checks its shape, then proves
/// STEP, INIT and POST equal to the slices the lifter recorded, over shared
/// symbols for acc, x.0 (A's element), x.1 (B's element), the old C element
/// (q.1) and the reduction's result (reduceSeq in POST).
template <class TB>
bool Validator<TB>::runGemm(const funil::Program &P, unsigned TimeoutMs,
                           std::string &Why) {
  const GemmSlice *G = L.Gemm.get();
  if (!G || L.Params.size() < 3)
    throw Unsupported{"GEMM lift without its slices"};
  auto IsView = [&](const Expr &E, size_t Buf) {
    return E.isCall("view") && E.Args.size() == 6 && E.Args[0]->K == Expr::Var &&
           E.Args[0]->Name == L.Params[Buf].Name;
  };
  // A triangle (NestInfo::TriLoop): the maps also zip their indices,
  // iota(M) and iota(N), and the element is select(MASK, POST, q.1). Two
  // products per step (SYR2K): the maps zip view(A2) and view(B2) last.
  // A band (NestInfo::BandLoop, TRMM): the rows zip iota(M), the
  // reduction iota(K), and STEP is select(MASK, acc, STEP'). A TRMV (a
  // GEMV with a band or a triangle on its reduction: GemmSlice::
  // TriangleOnReduction) the same with the columns zipping iota(N).
  const bool Gemv = M.Nest.depth() == 2;
  const bool RedTri = M.Nest.TriLoop != 0 && G->TriangleOnReduction;
  const bool Tri = M.Nest.TriLoop != 0 && !RedTri;
  const bool Band = M.Nest.BandLoop != 0 || RedTri;
  const bool Two = !G->ElemA2.empty();
  const size_t Arity = (Tri ? 3 : 2) + (Two ? 1 : 0);
  if (Two && L.Params.size() < 5)
    throw Unsupported{"GEMM of two products without its buffers A2 and B2"};
  if (Band && (Tri || Two))
    throw Unsupported{"a band with a triangle or two products"};
  // The maps whose zips carry the band's index.
  auto Indexed = [&](bool Rows) { return Tri || (Band && Rows != Gemv); };
  const size_t ColArity = Band && Gemv ? 3 : Arity;
  auto IsMap = [&](const Expr &E, bool Rows) {
    size_t N = Band ? (Indexed(Rows) ? 3 : 2) : Arity;
    return E.isCall("map") && E.Args.size() == 2 && E.Args[0]->K == Expr::Lambda &&
           E.Args[0]->Params.size() == 1 && E.Args[1]->isCall("zip") &&
           E.Args[1]->Args.size() == N &&
           (!Indexed(Rows) || E.Args[1]->Args[2]->isCall("iota"));
  };
  // store view(C) = map(\r => map(\q => POST, zip(view(B), r.1)),
  //                     zip(view(A), view(C)))
  const Expr &Rows = *P.Body;
  if (P.IsReturn || P.Outs.size() != 1 || !IsView(*P.Outs[0], 2) || !IsMap(Rows, true) ||
      !IsView(*Rows.Args[1]->Args[0], 0) ||
      (Two && !IsView(*Rows.Args[1]->Args[Arity - 1], 3)) ||
      !funil::sameExpr(*Rows.Args[1]->Args[1], *P.Outs[0]))
    throw Unsupported{"GEMM program is not store view(C) = map(f, zip(view(A), view(C)))"};
  const Expr &RowFn = *Rows.Args[0];
  const std::string &R = RowFn.Params[0].Name;
  const Expr &Cols = *RowFn.body();
  if (!IsMap(Cols, false) || !IsView(*Cols.Args[1]->Args[0], 1) ||
      (Two && !IsView(*Cols.Args[1]->Args[Arity - 1], 4)) ||
      funil::printExpr(*Cols.Args[1]->Args[1]) != R + ".1")
    throw Unsupported{"GEMM row function is not map(g, zip(view(B), r.1))"};
  const Expr &ColFn = *Cols.Args[0];
  const std::string &Q = ColFn.Params[0].Name;
  ExprPtr Elem = ColFn.body();
  if (Tri) {
    if (!Elem->isCall("select") || Elem->Args.size() != 3 ||
        funil::printExpr(*Elem->Args[2]) != Q + ".1")
      throw Unsupported{"triangular GEMM element is not select(mask, POST, q.1)"};
    if (!checkTriangleMask(Elem->Args[0], R, Q, TimeoutMs, Why))
      return false;
    Elem = Elem->Args[1];
  }
  std::vector<const Expr *> Reds = reduceSeqCalls(*Elem);
  std::string Last = std::to_string(Arity - 1);
  std::string Zip = "zip(" + R + ".0, " + Q + ".0" +
                    (Two ? ", " + R + "." + Last + ", " + Q + "." + Last : "") + ")";
  auto IsZip = [&](const Expr &E) {
    if (!Band)
      return funil::printExpr(E) == Zip;
    return E.isCall("zip") && E.Args.size() == 3 && E.Args[2]->isCall("iota") &&
           funil::printExpr(*E.Args[0]) == R + ".0" &&
           funil::printExpr(*E.Args[1]) == Q + ".0";
  };
  if (Reds.size() != 1 || Reds[0]->Args.size() != 3 ||
      Reds[0]->Args[0]->K != Expr::Lambda || Reds[0]->Args[0]->Params.size() != 2 ||
      !IsZip(*Reds[0]->Args[2]))
    throw Unsupported{"GEMM element function is not POST(reduceSeq(step, init, "
                      "zip(r.0, q.0)), q.1)"};
  const Expr *StepFn = Reds[0]->Args[0].get();
  ExprPtr Unmasked;
  if (Band) {
    // STEP = select(MASK, acc, STEP'): MASK is the band's complement, and
    // STEP' is checked as a GEMM's STEP; a TRMV's triangle select(MASK,
    // STEP', acc), MASK the triangle.
    const Expr &Sel = *StepFn->body();
    const std::string &Acc = StepFn->Params[0].Name;
    const unsigned Kept = RedTri ? 2 : 1;
    if (!Sel.isCall("select") || Sel.Args.size() != 3 ||
        funil::printExpr(*Sel.Args[Kept]) != Acc)
      throw Unsupported{RedTri ? "TRMV step is not select(mask, STEP, acc)"
                               : "TRMM step is not select(mask, acc, STEP)"};
    if (!checkBandMask(Sel.Args[0], Gemv ? Q : R, StepFn->Params[1].Name,
                       TimeoutMs, Why))
      return false;
    Unmasked = Expr::lambda(StepFn->Params, Sel.Args[3 - Kept]);
    StepFn = Unmasked.get();
  }
  const Expr &Step = *StepFn;

  // A GEMV (a chain of two loops) is the same program with one row.
  return checkSlices(*G, Step, Reds[0]->Args[1], Elem, Q, ColArity,
                     M.Nest.depth() == 2 ? "GEMV" : "GEMM", TimeoutMs, Why,
                     /*OldAt=*/1);
}

template <class TB>
bool Validator<TB>::checkIndexMask(const ExprPtr &Mask, const std::string &R,
                                   const std::string &Other, const char *OtherName,
                                   const std::function<TermT(const TermT &, const TermT &)> &Want,
                                   const std::string &What, unsigned TimeoutMs,
                                   std::string &Why) {
  SortT I64 = sortOf(ScalarKind::I64);
  TermT Row = leaf("row", I64), Idx = leaf(OtherName, I64);
  std::map<std::string, Sym> Env;
  Env[R] = Sym{std::nullopt, {Sym{}, Sym{}, Sym{Row, {}}}};
  Env[Other] = Sym{std::nullopt, {Sym{}, Sym{}, Sym{Idx, {}}}};
  Sym Got = eval(Mask, Env);
  if (!Got.E || !Got.E->is_bool()) {
    Why = "the " + What + "'s mask is not a condition";
    return false;
  }
  TermT Zero = C.bv_val(0, 64), Lim = C.bv_val(uint64_t(1) << 31, 64);
  TermT InRange = TB::sge(Row, Zero) && TB::slt(Row, Lim) && TB::sge(Idx, Zero) &&
                  TB::slt(Idx, Lim);
  return proveNoDifference(InRange && (*Got.E != Want(Row, Idx)), TimeoutMs,
                           What + " mask", What, Why);
}

template <class TB>
bool Validator<TB>::checkTriangleMask(const ExprPtr &Mask, const std::string &R,
                                      const std::string &Q, unsigned TimeoutMs,
                                      std::string &Why) {
  const auto *Count = dyn_cast_or_null<SCEVAddRecExpr>(M.Nest.TriRowCount);
  const auto *B = Count ? dyn_cast<SCEVConstant>(Count->getStart()) : nullptr;
  if (!B || !Count->isAffine() || !isa<SCEVConstant>(Count->getOperand(1)))
    throw Unsupported{"triangular GEMM whose row count is not {b,+,s} with constants"};
  auto Const = [&](const SCEV *X) {
    return C.bv_val((uint64_t)cast<SCEVConstant>(X)->getAPInt().getSExtValue(), 64);
  };
  bool OnColumns = L.Gemm->TriangleOnColumns;
  return checkIndexMask(
      Mask, R, Q, "col",
      [&](const TermT &Row, const TermT &Col) {
        const TermT &K0 = OnColumns ? Row : Col, &KT = OnColumns ? Col : Row;
        return TB::slt(KT, Const(Count->getStart()) +
                               Const(Count->getOperand(1)) * K0);
      },
      "GEMM triangle", TimeoutMs, Why);
}

template <class TB>
bool Validator<TB>::checkBandMask(const ExprPtr &Mask, const std::string &R,
                                  const std::string &X, unsigned TimeoutMs,
                                  std::string &Why) {
  const char *What = M.Nest.depth() == 2 ? "TRMV band" : "TRMM band";
  if (M.Nest.TriLoop) {
    // A TRMV's triangle on its reduction: step kT adds its product when kT
    // < TriBase + TriSlope j, j the column (the row count {b,+,s}); a
    // TRMM's the same with the row (rows that run down counted from the
    // last, NestInfo::RowsReversed).
    const auto *Count = dyn_cast_or_null<SCEVAddRecExpr>(M.Nest.TriRowCount);
    if (!Count || !Count->isAffine() || !isa<SCEVConstant>(Count->getStart()) ||
        !isa<SCEVConstant>(Count->getOperand(1)))
      throw Unsupported{"TRMV triangle whose row count is not {b,+,s} with constants"};
    auto Const = [&](const SCEV *V) {
      return C.bv_val((uint64_t)cast<SCEVConstant>(V)->getAPInt().getSExtValue(), 64);
    };
    return checkIndexMask(
        Mask, R, X, "kt",
        [&](const TermT &Col, const TermT &KT) {
          return TB::slt(KT, Const(Count->getStart()) +
                                 Const(Count->getOperand(1)) * Col);
        },
        M.Nest.depth() == 2 ? "TRMV triangle" : "TRMM triangle", TimeoutMs, Why);
  }
  TermT Lead = C.bv_val((uint64_t)M.Nest.BandLead, 64);
  return checkIndexMask(
      Mask, R, X, "kb",
      [&](const TermT &Row, const TermT &KB) { return TB::slt(KB, Lead * Row); },
      What, TimeoutMs, Why);
}

template <class TB>
bool Validator<TB>::checkSlices(const GemmSlice &Sl, const Expr &Step,
                                const ExprPtr &Init, const ExprPtr &Post,
                                const std::string &Q, unsigned QArity,
                                const char *What, unsigned TimeoutMs,
                                std::string &Why, unsigned OldAt) {
  const GemmSlice *G = &Sl;
  bindParams();
  SortT S = sortOf(G->Step->getType());
  // The elements' own sorts (an SpMV may multiply a float val by a double x).
  SortT SA = G->ElemA.empty() ? S : sortOf(G->ElemA.front()->getType());
  SortT SB = G->ElemB.empty() ? S : sortOf(G->ElemB.front()->getType());
  TermT Acc = leaf("acc", S), XA = leaf("xA", SA), XB = leaf("xB", SB),
           XA2 = leaf("xA2", SA), XB2 = leaf("xB2", SB), COld = leaf("cOld", S),
           Result = leaf("result", S);
  auto Base = Memo;
  auto Bind = [&](ArrayRef<Value *> Vs, const TermT &E) {
    for (Value *V : Vs)
      Memo.insert_or_assign(V, E);
  };
  // STEP: the accumulator and one element each of A and B.
  Bind(G->Acc, Acc);
  Bind(G->ElemA, XA);
  Bind(G->ElemB, XB);
  // Two products per step (SYR2K): x.2 and x.3, A2's and B2's elements.
  Bind(G->ElemA2, XA2);
  Bind(G->ElemB2, XB2);
  TermT StepWant = tr(G->Step);
  std::map<std::string, Sym> Env;
  Env[Step.Params[0].Name] = Sym{Acc, {}};
  Env[Step.Params[1].Name] = Sym{std::nullopt, {Sym{XA, {}}, Sym{XB, {}}}};
  if (!G->ElemA2.empty())
    Env[Step.Params[1].Name].Parts.insert(Env[Step.Params[1].Name].Parts.end(),
                                          {Sym{XA2, {}}, Sym{XB2, {}}});
  Sym StepGot = eval(Step.body(), Env);
  // INIT and POST: the old C element; POST also the reduction's result.
  Memo = Base;
  Bind(G->COld, COld);
  TermT InitWant = G->Init ? tr(G->Init) : COld;
  Bind(G->Final, Result);
  TermT PostWant = G->Post ? tr(G->Post) : Result;
  Env.clear();
  if (!Q.empty()) {
    Sym T{std::nullopt, std::vector<Sym>(QArity)};
    T.Parts[std::min<unsigned>(OldAt, QArity - 1)] = Sym{COld, {}};
    Env[Q] = T;
  }
  Sym InitGot = eval(Init, Env);
  ReduceSeqValue = Result;
  Sym PostGot = eval(Post, Env);
  ReduceSeqValue.reset();

  TermT Differ = C.bool_val(false);
  const char *Names[] = {"STEP", "INIT", "POST"};
  const Sym *Got[] = {&StepGot, &InitGot, &PostGot};
  const TermT *Want[] = {&StepWant, &InitWant, &PostWant};
  for (int I = 0; I < 3; ++I) {
    if (!Got[I]->E || !TB::eq(Got[I]->E->get_sort(), Want[I]->get_sort())) {
      Why = std::string(What) + " " + Names[I] + " has another type than the slice";
      return false;
    }
    Differ = Differ || *Got[I]->E != *Want[I];
  }
  return proveNoDifference(Differ, TimeoutMs,
                           std::string(What) + " STEP, INIT or POST", What, Why);
}

#define IDIOM_TV_GEMM(TB)                                                     \
  template bool Validator<TB>::runGemm(const funil::Program &, unsigned,       \
                                       std::string &);                         \
  template bool Validator<TB>::checkTriangleMask(                              \
      const ExprPtr &, const std::string &, const std::string &, unsigned,     \
      std::string &);                                                          \
  template bool Validator<TB>::checkIndexMask(                                 \
      const ExprPtr &, const std::string &, const std::string &, const char *, \
      const std::function<typename TB::Expr(const typename TB::Expr &,         \
                                            const typename TB::Expr &)> &,     \
      const std::string &, unsigned, std::string &);                           \
  template bool Validator<TB>::checkBandMask(                                  \
      const ExprPtr &, const std::string &, const std::string &, unsigned,     \
      std::string &);                                                          \
  template bool Validator<TB>::checkSlices(                                    \
      const GemmSlice &, const Expr &, const ExprPtr &, const ExprPtr &,       \
      const std::string &, unsigned, const char *, unsigned, std::string &,    \
      unsigned);
IDIOM_TV_INSTANTIATE(IDIOM_TV_GEMM)

} // namespace idiom::tv
