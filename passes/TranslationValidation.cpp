//===- TranslationValidation.cpp - Lifted FunIL equals the LLVM slice -----===//

#include "TranslationValidation.h"
#include "TermEvaluation.h"
#include "ValidationBackends.h"
#include "ValidationTerms.h"
#include "lift/AccumLifting.h"
#include "lift/HistogramLifting.h"
#include "lift/SearchLifting.h"
#include "lift/GemmLifting.h"
#include "lift/HostFloat.h"
#include "idiom/Constraints/TimeReport.h"
#include "idiom/Constraints/Z3Budget.h"
#include "idiom/Constraints/Z3Checks.h"
#include "idiom/FunIL/Expr.h"
#include "idiom/FunIL/Printer.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include <functional>
#include <map>
#include <optional>
#include <z3++.h>

using namespace llvm;

namespace idiom {
namespace {

using funil::Expr;
using funil::ExprPtr;
using funil::ScalarKind;

/// A symbolic FunIL value: a scalar term, or a tuple of symbolic values.
/// Arrays (row views of 2-D maps) have neither and must not be read here.
template <class T> struct SymT {
  std::optional<T> E;
  std::vector<SymT> Parts;
};

/// Thrown inside this file only, for shapes the validator does not handle.
struct Unsupported {
  std::string Why;
};

using tv::DecidedByEvaluation;
using tv::HashTerms;
using tv::Z3Terms;

/// The validator over terms of backend \p TB: Z3Terms (z3::expr, a proof)
/// or HashTerms (tv::Term, identical terms only).
template <class TB> class Validator {
public:
  using TermT = typename TB::Expr;
  using SortT = typename TB::Sort;
  using Sym = SymT<TermT>;
  Validator(typename TB::Context &C, const IdiomMatch &M, const LiftedIdiom &L)
      : C(C), M(M), L(L) {}

  bool run(const funil::Program &P, unsigned TimeoutMs, std::string &Why);
  /// GEMM programs: STEP, INIT and POST against GemmSlice.
  bool runGemm(const funil::Program &P, unsigned TimeoutMs, std::string &Why);
  /// SpMV programs (SpmvLifting.h): the canonical shape, then STEP, INIT
  /// and POST against the slices in L.Gemm.
  bool runSpmv(const funil::Program &P, unsigned TimeoutMs, std::string &Why);
  /// Outer-loop accumulations (AccumLifting.h): the map over x of a
  /// reduceSeq over k; each component of STEP against its stored value,
  /// INIT against the old accumulators.
  bool runAccum(const funil::Program &P, unsigned TimeoutMs, std::string &Why);
  /// JDS SpMV programs, with runSpmv's view and map tests.
  template <class V, class Mp>
  bool runJds(const funil::Program &P, V IsView, Mp IsMap, unsigned TimeoutMs,
              std::string &Why);

private:
  void bindParams();
  /// True when \p Differ is false for every input (folded, or Z3 proves
  /// it); else sets \p Why: a counterexample names \p Parts, a timeout or
  /// an unknown the lifted \p What.
  bool proveNoDifference(const TermT &Differ, unsigned TimeoutMs,
                         const std::string &Parts, const std::string &What,
                         std::string &Why);
  /// STEP (\p Step: \(acc, x) with x.0 and x.1 the two elements), INIT and
  /// POST (\p Post with the reduceSeq as the sum; \p Q, when not empty,
  /// the lambda parameter of \p QArity components whose last one is the
  /// old output element)
  /// against the slices of \p Sl; \p What names the idiom in reasons.
  bool checkSlices(const GemmSlice &Sl, const Expr &Step, const ExprPtr &Init,
                   const ExprPtr &Post, const std::string &Q, unsigned QArity,
                   const char *What, unsigned TimeoutMs, std::string &Why,
                   unsigned OldAt = ~0u);
  /// A triangular GEMM's \p Mask over the row index r.2 (\p R) and the
  /// column index q.2 (\p Q) against the loop: element (k0, kT) is updated
  /// exactly when kT is below the triangle loop's count at k0 (its SCEV,
  /// NestInfo::TriRowCount), for indices below 2^31.
  bool checkTriangleMask(const ExprPtr &Mask, const std::string &R,
                         const std::string &Q, unsigned TimeoutMs,
                         std::string &Why);
  // Sorts and leaves.
  SortT sortOf(Type *T);
  SortT sortOf(ScalarKind K);
  TermT leaf(const std::string &Name, SortT S) { return C.constant(Name.c_str(), S); }
  TermT rne() { return TB::rne(C); }

  // The shared operation semantics, by FunIL name.
  TermT apply(const std::string &Op, const std::vector<TermT> &A);
  TermT convert(const std::string &Op, const TermT &X, SortT To, bool ToFloat);

  // FunIL side.
  Sym eval(const ExprPtr &E, std::map<std::string, Sym> &Env);
  // LLVM side.
  TermT tr(Value *V);
  TermT identityTerm(const ReductionInfo &R);
  /// Position in M.Reductions of the min/max an argmin/argmax index
  /// \p R is tied to.
  size_t argValueOf(const ReductionInfo &R) const {
    for (size_t J = 0; J < M.Reductions.size(); ++J)
      if (M.Reductions[J].Phi == R.ArgOf)
        return J;
    throw Unsupported{"argmin/argmax index without its min/max"};
  }
  /// Drops the memoised terms of a compare+select link and its compare.
  void forgetLink(Instruction *Link) {
    Memo.erase(Link);
    if (auto *Sel = dyn_cast<SelectInst>(Link))
      Memo.erase(Sel->getCondition());
  }

  typename TB::Context &C;
  const IdiomMatch &M;
  const LiftedIdiom &L;
  std::map<std::string, TermT> Params; ///< FunIL parameter -> term
  std::map<const Value *, TermT> Memo;  ///< LLVM value -> term
  std::vector<std::optional<TermT>> Iter; ///< iteration index per loop
  std::optional<TermT> ReduceSeqValue; ///< GEMM POST: the reduction's result
  /// Gathers: each `at` of a gathered buffer must read the element the
  /// loop's load reads; the terms that are true where it does not.
  std::vector<TermT> GatherMismatch;
  /// The shared symbol of the element gather load \p Ld reads.
  TermT gatherLeaf(Value *Ld);
  /// `at(view(b, 0, 1, count), k)` of a gathered buffer b: the element's
  /// symbol, with the obligation k = the loop's index - first; nullopt for
  /// any other `at`.
  std::optional<Sym> evalGather(const Expr &E, std::map<std::string, Sym> &Env);
  /// Bisection searches (SearchLifting.h): `iterate(count, \qK => select(c,
  /// step, qK), init)` of search K, with the obligations that init, c and
  /// step are the loop's (its boundary read a shared symbol) and count
  /// the one the step lemma bounds the loop by; the result is a pair of
  /// symbols that the loop's value after the search (tr) shares.
  Sym evalSearch(const Expr &E, std::map<std::string, Sym> &Env);
  /// `at(view(b, 0, 1, count), sub(mid, first))` of the active search's
  /// boundaries: the boundary's symbol, with the obligation mid = the
  /// loop's index; nullopt for any other `at`.
  std::optional<Sym> evalProbe(const Expr &E, std::map<std::string, Sym> &Env);
  TermT searchLeaf(unsigned K, unsigned Part) {
    return leaf("search" + std::to_string(K) + "_" + std::to_string(Part),
                C.bv_sort(M.Searches[K].width()));
  }
  std::vector<TermT> SearchMismatch;
  const BisectionInfo *ActiveSearch = nullptr;
  std::optional<TermT> ActiveProbe, ActiveMid;
};

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
  Memo.emplace(Ld, X);
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

template <class TB> auto Validator<TB>::sortOf(Type *T) -> SortT {
  if (T->isIntegerTy(1))
    return C.bool_sort();
  if (T->isIntegerTy())
    return C.bv_sort(T->getIntegerBitWidth());
  if (T->isFloatTy())
    return TB::fpSort(C, 32);
  if (T->isDoubleTy())
    return TB::fpSort(C, 64);
  throw Unsupported{"value of a type the validator does not model"};
}

template <class TB> auto Validator<TB>::sortOf(ScalarKind K) -> SortT {
  switch (K) {
  case ScalarKind::Bool: return C.bool_sort();
  case ScalarKind::I8: case ScalarKind::U8: return C.bv_sort(8);
  case ScalarKind::I16: case ScalarKind::U16: return C.bv_sort(16);
  case ScalarKind::I32: case ScalarKind::U32: return C.bv_sort(32);
  case ScalarKind::I64: case ScalarKind::U64: return C.bv_sort(64);
  case ScalarKind::F32: return TB::fpSort(C, 32);
  case ScalarKind::F64: return TB::fpSort(C, 64);
  }
  throw Unsupported{"unknown scalar kind"};
}

template <class TB>
auto Validator<TB>::apply(const std::string &Op, const std::vector<TermT> &A) -> TermT {
  auto Need = [&](size_t N) {
    if (A.size() != N)
      throw Unsupported{"operation " + Op + " with an unexpected arity"};
  };
  auto Cmp = [&](const std::string &P, bool Float) -> TermT {
    Need(2);
    const TermT &X = A[0], &Y = A[1];
    // fcmp_ult/ule/ugt/uge are unordered-or relations, not unsigned ones.
    if (!Float) {
      if (P == "eq") return X == Y;
      if (P == "ne") return X != Y;
      if (P == "slt") return TB::slt(X, Y);
      if (P == "sle") return TB::sle(X, Y);
      if (P == "sgt") return TB::sgt(X, Y);
      if (P == "sge") return TB::sge(X, Y);
      if (P == "ult") return TB::ult(X, Y);
      if (P == "ule") return TB::ule(X, Y);
      if (P == "ugt") return TB::ugt(X, Y);
      if (P == "uge") return TB::uge(X, Y);
      throw Unsupported{"compare icmp_" + P};
    }
    // Floating point: o* = ordered and relation, u* = unordered or relation.
    TermT Uno = X.mk_is_nan() || Y.mk_is_nan();
    if (P == "ord")
      return !Uno;
    if (P == "uno")
      return Uno;
    std::string R = P.substr(1);
    std::optional<TermT> Rel;
    if (R == "eq") Rel = TB::fp_eq(X, Y);
    else if (R == "ne") Rel = !TB::fp_eq(X, Y);
    else if (R == "lt") Rel = X < Y;
    else if (R == "le") Rel = X <= Y;
    else if (R == "gt") Rel = X > Y;
    else if (R == "ge") Rel = X >= Y;
    else throw Unsupported{"compare " + P};
    return P[0] == 'o' ? (!Uno && *Rel) : (Uno || *Rel);
  };
  if (Op.rfind("icmp_", 0) == 0 || Op.rfind("fcmp_", 0) == 0)
    return Cmp(Op.substr(5), Op[0] == 'f');
  if (Op == "select") { Need(3); return TB::ite(A[0], A[1], A[2]); }
  if (Op == "not") { Need(1); return !A[0]; }
  if (Op == "fneg") { Need(1); return -A[0]; }
  if (Op == "abs") { Need(1); return TB::ite(TB::slt(A[0], C.bv_val(0, A[0].get_sort().bv_size())), -A[0], A[0]); }
  if (Op == "fabs") { Need(1); return TB::abs(A[0]); }
  if (Op == "sqrt") { Need(1); return TB::sqrt(A[0], rne()); }
  if (Op == "fma") { Need(3); return TB::fma(A[0], A[1], A[2], rne()); }
  if (Op == "fmuladd") { Need(3); return A[0] * A[1] + A[2]; }
  if (Op == "floor" || Op == "ceil") {
    Need(1);
    return TB::roundIntegral(C, Op == "floor", A[0]);
  }
  if (Op == "exp" || Op == "log" || Op == "sin" || Op == "cos" || Op == "pow" ||
      Op == "frem") {
    // Uninterpreted, but the same symbol on both sides.
    SortT S = A[0].get_sort();
    bool F32 = TB::eq(S, TB::fpSort(C, 32));
    std::string Name = Op + (F32 ? "_f32" : "_f64");
    return TB::uninterpreted(C, Name, A, S);
  }
  Need(2);
  const TermT &X = A[0], &Y = A[1];
  if (Op == "add" || Op == "fadd") return X + Y;
  if (Op == "sub" || Op == "fsub") return X - Y;
  if (Op == "mul" || Op == "fmul") return X * Y;
  if (Op == "fdiv" || Op == "sdiv") return X / Y;
  if (Op == "udiv") return TB::udiv(X, Y);
  if (Op == "srem") return TB::srem(X, Y);
  if (Op == "urem") return TB::urem(X, Y);
  if (Op == "and") return X.is_bool() ? (X && Y) : (X & Y);
  if (Op == "or") return X.is_bool() ? (X || Y) : (X | Y);
  if (Op == "xor") return X.is_bool() ? (X != Y) : (X ^ Y);
  if (Op == "shl") return TB::shl(X, Y);
  if (Op == "lshr") return TB::lshr(X, Y);
  if (Op == "ashr") return TB::ashr(X, Y);
  if (Op == "smin") return TB::ite(TB::slt(X, Y), X, Y);
  if (Op == "smax") return TB::ite(TB::sgt(X, Y), X, Y);
  if (Op == "umin") return TB::ite(TB::ult(X, Y), X, Y);
  if (Op == "umax") return TB::ite(TB::ugt(X, Y), X, Y);
  if (Op == "fmin") return TB::min(X, Y);
  if (Op == "fmax") return TB::max(X, Y);
  throw Unsupported{"operation " + Op};
}

template <class TB>
auto Validator<TB>::convert(const std::string &Op, const TermT &X, SortT To,
                          bool ToFloat) -> TermT {
  auto Width = [](const TermT &E) { return E.is_bool() ? 1u : E.get_sort().bv_size(); };
  auto AsBv = [&](const TermT &E) {
    return E.is_bool() ? TB::ite(E, C.bv_val(1, 1), C.bv_val(0, 1)) : E;
  };
  if (Op == "zext" || Op == "sext") {
    TermT B = AsBv(X);
    unsigned Ext = To.bv_size() - Width(X);
    return Op == "zext" ? TB::zext(B, Ext) : TB::sext(B, Ext);
  }
  if (Op == "trunc") {
    if (To.is_bool())
      return X.extract(0, 0) == C.bv_val(1, 1);
    return X.extract(To.bv_size() - 1, 0);
  }
  if (Op == "sitofp" || Op == "uitofp")
    return TB::intToFp(C, Op == "sitofp", AsBv(X), To);
  if (Op == "fptosi" || Op == "fptoui")
    return TB::fpToInt(C, Op == "fptosi", X, To.bv_size());
  if (Op == "fpext" || Op == "fptrunc")
    return TB::fpToFp(C, X, To);
  if (Op == "bitcast") {
    if (ToFloat)
      return TB::bitsToFp(C, X, To);
    return TB::fpToBits(C, X);
  }
  throw Unsupported{"cast " + Op};
}

template <class TB>
auto Validator<TB>::eval(const ExprPtr &E, std::map<std::string, Sym> &Env) -> Sym {
  switch (E->K) {
  case Expr::Var: {
    auto It = Env.find(E->Name);
    if (It != Env.end())
      return It->second;
    auto P = Params.find(E->Name);
    if (P == Params.end())
      throw Unsupported{"FunIL variable " + E->Name + " has no meaning here"};
    return Sym{P->second, {}};
  }
  case Expr::Lit: {
    SortT S = sortOf(E->LitKind);
    if (S.is_bool())
      return Sym{C.bool_val(E->Bits != 0), {}};
    if (S.is_bv())
      return Sym{C.bv_val((uint64_t)E->Bits, S.bv_size()), {}};
    if (E->LitKind == ScalarKind::F32)
      return Sym{C.fpa_val((float)E->F), {}};
    return Sym{C.fpa_val(E->F), {}};
  }
  case Expr::Proj: {
    Sym T = eval(E->Args[0], Env);
    if (E->Index >= T.Parts.size())
      throw Unsupported{"projection out of a non-tuple"};
    return T.Parts[E->Index];
  }
  case Expr::Tuple: {
    Sym T;
    for (const ExprPtr &A : E->Args)
      T.Parts.push_back(eval(A, Env));
    return T;
  }
  case Expr::Cast: {
    Sym X = eval(E->Args[0], Env);
    SortT To = sortOf(E->LitKind);
    return Sym{convert(E->Name, *X.E, To, To.is_fpa()), {}};
  }
  case Expr::Call: {
    if (E->Name == "reduceSeq" && ReduceSeqValue)
      return Sym{*ReduceSeqValue, {}};
    if (E->Name == "iterate" && !M.Searches.empty())
      return evalSearch(*E, Env);
    if (E->Name == "at" && ActiveSearch)
      if (std::optional<Sym> S = evalProbe(*E, Env))
        return *S;
    if (E->Name == "at" && !L.Extents.empty())
      if (std::optional<Sym> G = evalGather(*E, Env))
        return *G;
    std::vector<TermT> A;
    for (const ExprPtr &X : E->Args) {
      Sym S = eval(X, Env);
      if (!S.E)
        throw Unsupported{"operation " + E->Name + " on a non-scalar"};
      A.push_back(*S.E);
    }
    return Sym{apply(E->Name, A), {}};
  }
  case Expr::Lambda:
    break;
  }
  throw Unsupported{"lambda in a scalar position"};
}

template <class TB>
auto Validator<TB>::identityTerm(const ReductionInfo &R) -> TermT {
  Constant *Id = R.Op == ReductionOp::ArgIndex
                    ? argIndexSentinel(R)
                    : reductionIdentity(R.Op, R.Phi->getType());
  if (!Id)
    throw Unsupported{"reduction without identity"};
  return tr(Id);
}

template <class TB> auto Validator<TB>::tr(Value *V) -> TermT {
  auto It = Memo.find(V);
  if (It != Memo.end())
    return It->second;
  std::optional<TermT> R;
  auto *I = dyn_cast<Instruction>(V);
  if (auto *CI = dyn_cast<ConstantInt>(V)) {
    if (CI->getBitWidth() > 64)
      throw Unsupported{"integer constant wider than 64 bits"};
    R = CI->getBitWidth() == 1 ? C.bool_val(CI->isOne())
                               : C.bv_val(CI->getZExtValue(), CI->getBitWidth());
  } else if (auto *CF = dyn_cast<ConstantFP>(V)) {
    R = CF->getType()->isFloatTy() ? C.fpa_val(CF->getValueAPF().convertToFloat())
                                   : C.fpa_val(CF->getValueAPF().convertToDouble());
  } else if (!I || !M.Nest.contains(I)) {
    throw Unsupported{"loop-invariant value without a FunIL parameter"};
  } else if (auto *P = dyn_cast<PHINode>(I)) {
    for (size_t K = 0; K < M.Searches.size(); ++K)
      if (M.Searches[K].Result == P) // evalSearch's result symbols
        return searchLeaf(K, M.Searches[K].ResultPart == M.Searches[K].LowPart ? 0 : 1);
    unsigned D = 0;
    while (D < M.Nest.depth() && M.Nest.IVs[D] != P)
      ++D;
    // A second induction variable: Start + Step * k of its loop's k.
    std::optional<DerivedIV> DIV =
        D == M.Nest.depth() ? derivedIV(P, M.Nest) : std::nullopt;
    if (DIV)
      D = DIV->Loop;
    if (D == M.Nest.depth() || !Iter[D])
      throw Unsupported{"phi without an iteration index"};
    // IV = start + step * k, in the phi's width.
    // A constant, or the FunIL index parameter the lifter made of it.
    auto IndexTerm = [&](const SCEV *X, const char *What) -> TermT {
      if (auto *SC = dyn_cast<SCEVConstant>(X)) {
        if (SC->getAPInt().getSignificantBits() > 64)
          throw Unsupported{std::string(What) + " wider than 64 bits"};
        return C.bv_val((uint64_t)SC->getAPInt().getSExtValue(), 64);
      }
      std::optional<TermT> Found;
      for (const LiftedParam &LP : L.Params)
        if (LP.K == LiftedParam::Kind::Index && LP.S && Params.count(LP.Name) &&
            (LP.S == X || (isa<SCEVCastExpr>(LP.S) &&
                           cast<SCEVCastExpr>(LP.S)->getOperand(0) == X)))
          Found = Params.at(LP.Name);
      if (!Found)
        throw Unsupported{std::string(What) + " without a FunIL parameter"};
      return *Found;
    };
    TermT S = IndexTerm(DIV ? DIV->Start : M.Nest.IVStarts[D], "induction start");
    const SCEV *SymStep = DIV ? DIV->Step : M.Nest.symbolicStep(D); // j += 2 * s
    TermT Step = SymStep ? IndexTerm(SymStep, "induction step")
                         : C.bv_val((uint64_t)M.Nest.IVSteps[D], 64);
    TermT Full = S + *Iter[D] * Step;
    unsigned W = P->getType()->getIntegerBitWidth();
    if (W > 64)
      throw Unsupported{"induction variable wider than 64 bits"};
    R = W == 64 ? Full : Full.extract(W - 1, 0);
  } else if (isa<LoadInst>(I)) {
    for (const RunTimeExtent &X : L.Extents)
      if (X.GatherLoad == I)
        return gatherLeaf(I);
    throw Unsupported{"load that is not an input of the element function"};
  } else if (isa<FreezeInst>(I)) {
    R = tr(I->getOperand(0));
  } else if (auto *BO = dyn_cast<BinaryOperator>(I)) {
    R = apply(BO->getOpcodeName(), {tr(BO->getOperand(0)), tr(BO->getOperand(1))});
  } else if (isa<UnaryOperator>(I)) {
    R = -tr(I->getOperand(0));
  } else if (auto *Cmp = dyn_cast<CmpInst>(I)) {
    if (Cmp->getPredicate() == CmpInst::FCMP_TRUE || Cmp->getPredicate() == CmpInst::FCMP_FALSE)
      R = C.bool_val(Cmp->getPredicate() == CmpInst::FCMP_TRUE);
    else
      R = apply(std::string(isa<ICmpInst>(Cmp) ? "icmp_" : "fcmp_") +
                    CmpInst::getPredicateName(Cmp->getPredicate()).str(),
                {tr(Cmp->getOperand(0)), tr(Cmp->getOperand(1))});
  } else if (auto *Sel = dyn_cast<SelectInst>(I)) {
    R = TB::ite(tr(Sel->getCondition()), tr(Sel->getTrueValue()), tr(Sel->getFalseValue()));
  } else if (auto *Cs = dyn_cast<CastInst>(I)) {
    SortT To = sortOf(Cs->getType());
    R = convert(Cs->getOpcodeName(), tr(Cs->getOperand(0)), To, To.is_fpa());
  } else if (auto *CB = dyn_cast<CallInst>(I)) {
    std::string N;
    if (auto *II = dyn_cast<IntrinsicInst>(CB)) {
      StringRef Base = Intrinsic::getBaseName(II->getIntrinsicID());
      N = Base.starts_with("llvm.") ? Base.drop_front(5).str() : Base.str();
      if (N == "minnum") N = "fmin";
      if (N == "maxnum") N = "fmax";
    } else if (Function *F = CB->getCalledFunction()) {
      N = F->getName().str();
      if (N.size() > 3 && N.back() == 'f') // sqrtf, fabsf, fminf
        N.pop_back();
    }
    std::vector<TermT> A;
    unsigned NArgs = N == "abs" ? 1 : CB->arg_size();
    for (unsigned K = 0; K < NArgs; ++K)
      A.push_back(tr(CB->getArgOperand(K)));
    // What the host's back end computes (lift/HostFloat.h), or, for a GEMM
    // under the floating-point licence (IdiomMatch::FPContract), the fused
    // evaluation LLVM's definition of llvm.fmuladd allows: the lifted
    // program must then compute exactly that.
    if (N == "fmuladd" &&
        (M.FPContract || hostMulAdd(*CB->getFunction()) == HostMulAdd::Fused))
      N = "fma";
    HostMinMax H = (N == "fmax" || N == "fmin") ? hostMinMax(*CB) : HostMinMax::Unknown;
    std::string Rel = N == "fmax" ? "fcmp_ogt" : "fcmp_olt";
    if (H == HostMinMax::Select)
      R = TB::ite(apply(Rel, {A[0], A[1]}), A[0], A[1]);
    else if (H == HostMinMax::Guarded)
      R = TB::ite(apply("fcmp_uno", {A[0], A[0]}), A[1],
                  TB::ite(apply(Rel, {A[1], A[0]}), A[1], A[0]));
    else
      R = apply(N, A);
  } else {
    throw Unsupported{"instruction the validator does not model"};
  }
  Memo.emplace(V, *R);
  return *R;
}

/// The reduceSeq calls in \p E, outermost first (the GEMM and SpMV templates
/// hold exactly one).
std::vector<const Expr *> reduceSeqCalls(const Expr &E) {
  std::vector<const Expr *> Out;
  std::function<void(const Expr &)> Find = [&](const Expr &X) {
    if (X.isCall("reduceSeq"))
      Out.push_back(&X);
    for (const ExprPtr &A : X.Args)
      Find(*A);
  };
  Find(E);
  return Out;
}

/// The element lambda and the names bound around it, by template shape.
struct ElementFn {
  const Expr *Inner = nullptr;  ///< lambda over `t`
  const Expr *Outer = nullptr;  ///< 2-D: lambda over `r`; 3-D: over `p`
  const Expr *Middle = nullptr; ///< 3-D: lambda over `r`
};

/// \p Depth: 1 (a map or a reduction over one or a flattened 2-D space), 2
/// or 3 (a map with that many nested maps).
ElementFn findElementFn(const funil::Program &P, unsigned Depth) {
  ElementFn F;
  const Expr *Map = P.Body.get();
  if (Map->isCall("reduceIndexed") && Map->Args.size() == 4 &&
      Map->Args[2]->K == Expr::Lambda) { // histogram: \t => (index, value)
    F.Inner = Map->Args[2].get();
    return F;
  }
  if (P.IsReturn) {
    if (!Map->isCall("reduce") || Map->Args.size() != 3)
      throw Unsupported{"reduction program is not reduce(f, z, map(...))"};
    Map = Map->Args[2].get();
  }
  if (!Map->isCall("map") || Map->Args[0]->K != Expr::Lambda)
    throw Unsupported{"element function is not map(lambda, ...)"};
  if (Depth == 1) {
    F.Inner = Map->Args[0].get();
    return F;
  }
  F.Outer = Map->Args[0].get();
  if (Depth == 3) {
    const Expr *MidMap = F.Outer->body().get();
    if (!MidMap->isCall("map") || MidMap->Args[0]->K != Expr::Lambda)
      throw Unsupported{"3-D map body is not map(lambda, ...)"};
    F.Middle = MidMap->Args[0].get();
  }
  const Expr *InnerMap = (F.Middle ? F.Middle : F.Outer)->body().get();
  if (!InnerMap->isCall("map") || InnerMap->Args[0]->K != Expr::Lambda)
    throw Unsupported{"2-D map body is not map(lambda, ...)"};
  F.Inner = InnerMap->Args[0].get();
  return F;
}

/// Binds every FunIL parameter to a symbol; loop-invariant LLVM values to
/// the same symbols.
template <class TB> void Validator<TB>::bindParams() {
  // Parameters: scalars are the loop-invariant values, index parameters i64.
  for (size_t I = 0; I < L.Params.size(); ++I) {
    const LiftedParam &LP = L.Params[I];
    if (LP.K == LiftedParam::Kind::Buffer)
      continue;
    if (LP.K == LiftedParam::Kind::Index) {
      Params.emplace(LP.Name, leaf(LP.Name, C.bv_sort(64)));
      continue;
    }
    Type *T = LP.V->getType();
    bool Narrow = T->isIntegerTy(1) || T->isIntegerTy(8) || T->isIntegerTy(16);
    TermT X = leaf(LP.Name, Narrow ? C.bv_sort(32) : sortOf(T));
    Params.emplace(LP.Name, X);
    // The call site passes narrow integers zero- (i1) or sign-extended.
    Memo.emplace(LP.V, T->isIntegerTy(1) ? X != C.bv_val(0, 32)
                       : Narrow          ? X.extract(T->getIntegerBitWidth() - 1, 0)
                                         : X);
  }
}

/// Branch \p J of the lifter's select chain on the update number of a
/// histogram with \p K updates per iteration (HistogramLift::More):
/// `select(icmp_eq(T.S, 0:i64), X0, select(icmp_eq(T.S, 1:i64), X1, ...
/// Xlast))` with T.S component \p Slot of lambda parameter \p T. Where the
/// update number is J the chain is X_J, so checking X_J against update J
/// for every J checks the chain. Null when \p E has another shape.
static ExprPtr chainBranch(ExprPtr E, const std::string &T, int Slot, size_t J, size_t K) {
  for (size_t I = 0; I + 1 < K; ++I) {
    if (!E->isCall("select") || E->Args.size() != 3)
      return nullptr;
    const Expr &Cmp = *E->Args[0];
    if (!Cmp.isCall("icmp_eq") || Cmp.Args.size() != 2)
      return nullptr;
    const Expr &S = *Cmp.Args[0], &V = *Cmp.Args[1];
    if (S.K != Expr::Proj || (int)S.Index != Slot || S.Args[0]->K != Expr::Var ||
        S.Args[0]->Name != T || V.K != Expr::Lit || V.LitKind != funil::ScalarKind::I64 ||
        V.Bits != I)
      return nullptr;
    if (I == J)
      return E->Args[1];
    E = E->Args[2];
  }
  return E;
}

template <class TB>
bool Validator<TB>::run(const funil::Program &P, unsigned TimeoutMs, std::string &Why) {
  // A 2-D reduction's element function is 1-D: it maps the joined rows.
  // (and a triangle's histogram: the flattened rectangle).
  unsigned Depth = liftsFlattened(M) ? 1 : M.Nest.depth();
  ElementFn F = findElementFn(P, Depth);
  Iter.assign(M.Nest.depth(), std::nullopt);
  bindParams();
  std::optional<TermT> Slot; // a histogram's update number k
  // Lambda inputs: one symbol per loaded element and iteration index.
  auto Inputs = [&](const std::vector<Value *> &Vs, const char *Prefix) {
    Sym T;
    for (size_t I = 0; I < Vs.size(); ++I) {
      Sym S;
      if (Value *V = Vs[I]) {
        std::string Name = std::string(Prefix) + std::to_string(I);
        auto *Phi = dyn_cast<PHINode>(V);
        if (Phi && is_contained(M.Nest.IVs, Phi)) {
          S.E = leaf(Name, C.bv_sort(64));
          for (unsigned D = 0; D < M.Nest.depth(); ++D)
            if (M.Nest.IVs[D] == Phi)
              Iter[D] = S.E;
        } else {
          S.E = leaf(Name, sortOf(V->getType()));
          Memo.emplace(V, *S.E);
        }
      } else if (Prefix[0] == 't' && (int)I == L.UpdateSlot) {
        // The update number k of a histogram with several updates.
        S.E = leaf("slot", C.bv_sort(64));
        Slot = S.E;
      }
      T.Parts.push_back(S);
    }
    return T.Parts.size() == 1 ? T.Parts[0] : T;
  };
  std::map<std::string, Sym> Env;
  if (F.Outer)
    Env[F.Outer->Params.at(0).Name] = Inputs(L.OuterInputs, F.Middle ? "p" : "r");
  if (F.Middle)
    Env[F.Middle->Params.at(0).Name] = Inputs(L.MiddleInputs, "r");
  Env[F.Inner->Params.at(0).Name] = Inputs(L.InnerInputs, "t");
  Sym Got = eval(F.Inner->body(), Env);

  // What the LLVM slice computes for the same inputs.
  std::vector<TermT> Want;
  if (M.Kind == IdiomKind::Map) {
    for (const AffineAccess &A : M.Accesses)
      if (A.IsStore)
        Want.push_back(tr(cast<StoreInst>(A.Inst)->getValueOperand()));
  } else if (M.Kind == IdiomKind::Histogram) {
    Want.push_back(C.bool_val(true)); // replaced below
  } else {
    for (const ReductionInfo &R : M.Reductions) {
      std::optional<TermT> E;
      std::string Op = reductionOpName(R.Op);
      for (size_t J = 0; J < R.Operands.size(); ++J) {
        TermT X = tr(R.Operands[J]);
        if (Value *Y = R.MulPartners[J])
          X = X * tr(Y);
        E = E ? apply(Op, {*E, X}) : X;
      }
      if (R.Cond)
        E = R.CondNegated ? TB::ite(tr(R.Cond), identityTerm(R), *E)
                          : TB::ite(tr(R.Cond), *E, identityTerm(R));
      Want.push_back(*E);
    }
    // argmin/argmax: both elements are the loop's step from the identity
    // pair (the lifter's NaN and identity-value handling, Lifting.cpp).
    for (size_t I = 0; I < M.Reductions.size(); ++I) {
      const ReductionInfo &R = M.Reductions[I];
      if (R.Op != ReductionOp::ArgIndex)
        continue;
      size_t J = argValueOf(R);
      const ReductionInfo &V = M.Reductions[J];
      TermT XV = tr(V.Operands.front()), XI = tr(R.Operands.front());
      auto SavedMemo = Memo;
      forgetLink(V.FirstLink);
      forgetLink(R.FirstLink);
      Memo.insert_or_assign(V.Phi, identityTerm(V));
      Memo.insert_or_assign(V.Operands.front(), XV);
      Memo.insert_or_assign(R.Phi, identityTerm(R));
      Memo.insert_or_assign(R.Operands.front(), XI);
      Want[J] = tr(V.FirstLink);
      Want[I] = tr(R.FirstLink);
      Memo = SavedMemo;
    }
  }
  std::vector<Sym> GotParts = Want.size() == 1 ? std::vector<Sym>{Got} : Got.Parts;
  TermT Differ = C.bool_val(false);
  if (M.Kind == IdiomKind::Histogram) {
    // The index equals the GEP index (sign-extended); for every bin value b,
    // op(b, value) equals what the loop stores (b when a guard fails).
    if (M.Histograms.empty())
      throw Unsupported{"histogram without a bin update"};
    const BinUpdateInfo &U = M.Histograms.front().U;
    if (Got.Parts.size() != 2 || !Got.Parts[0].E || !Got.Parts[1].E)
      throw Unsupported{"histogram element function is not (index, value)"};
    // Several updates (HistogramLift::More): the element function at each
    // update number J (the slot a constant: the lifter's select chains
    // fold to update J's branch) against update J.
    size_t K = M.Histograms.size();
    if (K > 1 && (L.UpdateSlot < 0 || !Slot))
      throw Unsupported{"several bin updates without an update number"};
    const Expr *Op = P.Body->Args[0].get();
    if (Op->K != Expr::Lambda || Op->Params.size() != 2)
      throw Unsupported{"histogram operator is not a two-parameter lambda"};
    TermT B = leaf("bin", sortOf(U.ElemTy));
    for (size_t J = 0; J < K; ++J) {
      const BinUpdateInfo &V = M.Histograms[J].U;
      Sym GJ = Got;
      if (K > 1) {
        const ExprPtr &Body = F.Inner->body();
        if (Body->K != Expr::Tuple || Body->Args.size() != 2)
          throw Unsupported{"histogram element function is not (index, value)"};
        const std::string &T = F.Inner->Params.at(0).Name;
        ExprPtr IdxJ = chainBranch(Body->Args[0], T, L.UpdateSlot, J, K);
        ExprPtr ValJ = chainBranch(Body->Args[1], T, L.UpdateSlot, J, K);
        if (!IdxJ || !ValJ)
          throw Unsupported{"several bin updates not as select chains on the update number"};
        GJ.Parts = {eval(IdxJ, Env), eval(ValJ, Env)};
        if (!GJ.Parts[0].E || !GJ.Parts[1].E)
          throw Unsupported{"histogram element function is not (index, value)"};
      }
      // The index equals the GEP index (sign-extended).
      Value *Idx = binIndexOf(V);
      if (!Idx)
        throw Unsupported{"bin address is not bins[index]"};
      TermT WantIdx = tr(Idx);
      if (WantIdx.get_sort().bv_size() < 64)
        WantIdx = TB::sext(WantIdx, 64 - WantIdx.get_sort().bv_size());
      // Run-time bins: the bins buffer starts at bin lo (Lifting.h,
      // RunTimeExtent), so the program's index is the loop's minus lo.
      if (!L.Extents.empty()) {
        const LiftedParam &First = L.Params.at(L.Extents.front().FirstParam);
        auto It = Params.find(First.Name);
        if (It == Params.end())
          throw Unsupported{"run-time bins without their first-bin parameter"};
        WantIdx = WantIdx - It->second;
      }
      if (!TB::eq(GJ.Parts[0].E->get_sort(), WantIdx.get_sort())) {
        Why = "result 0 has another type than the slice";
        return false;
      }
      Differ = Differ || *GJ.Parts[0].E != WantIdx;
      // For every bin value b, op(b, value) equals what the loop stores
      // (b when a guard fails).
      Memo.insert_or_assign(V.Acc, B);
      auto OpOf = [&](const Sym &X) {
        std::map<std::string, Sym> OEnv;
        OEnv[Op->Params[0].Name] = Sym{B, {}};
        OEnv[Op->Params[1].Name] = X;
        Sym Upd = eval(Op->body(), OEnv);
        if (!Upd.E || !TB::eq(Upd.E->get_sort(), B.get_sort()))
          throw Unsupported{"histogram operator of another type than the bins"};
        return *Upd.E;
      };
      // The loop's update with the bin b. `b += x * y` contracted to an
      // llvm.fmuladd the host evaluates unfused (HostFloat.h) is
      // fadd(b, fmul(x, y)) as the lifter writes it: IEEE addition
      // commutes, and so both backends build the same term.
      auto UpdateOf = [&](const BinUpdateInfo &W) {
        auto *MA = dyn_cast<IntrinsicInst>(W.NewValue);
        if (MA && MA->getIntrinsicID() == Intrinsic::fmuladd && MA->getArgOperand(2) == W.Acc &&
            hostMulAdd(*MA->getFunction()) == HostMulAdd::Unfused)
          return apply("fadd", {B, apply("fmul", {tr(MA->getArgOperand(0)),
                                                  tr(MA->getArgOperand(1))})});
        return tr(W.NewValue);
      };
      // A guarded update lifted as select(COND, X, Z) where COND is the
      // loop's guards (the same term): op(b, X) equal to the update and
      // op(b, Z) = b suffice, so the solver never sees the guard (an FP
      // compare of products is slow to bit-blast).
      const ExprPtr &Body = F.Inner->body();
      ExprPtr ValE = K > 1 ? chainBranch(Body->Args.at(1), F.Inner->Params.at(0).Name,
                                         L.UpdateSlot, J, K)
                           : (Body->K == Expr::Tuple && Body->Args.size() == 2 ? Body->Args[1]
                                                                             : nullptr);
      if (ValE && ValE->isCall("select") && ValE->Args.size() == 3 && !V.Guards.empty() &&
          !M.Nest.Skew) {
        std::optional<TermT> WantCond;
        for (const UpdateGuard &G : V.Guards) {
          TermT X = G.ExpectTrue ? tr(G.Cond) : !tr(G.Cond);
          WantCond = WantCond ? (*WantCond && X) : X;
        }
        Sym GotCond = eval(ValE->Args[0], Env);
        if (GotCond.E && TB::same(*GotCond.E, *WantCond)) {
          Sym GotX = eval(ValE->Args[1], Env), GotZ = eval(ValE->Args[2], Env);
          if (!GotX.E || !GotZ.E)
            throw Unsupported{"histogram value is not a scalar"};
          Differ = Differ || OpOf(GotX) != UpdateOf(V) || OpOf(GotZ) != B;
          continue;
        }
      }
      TermT Stored = UpdateOf(V);
      for (const UpdateGuard &G : V.Guards)
        Stored = TB::ite(G.ExpectTrue ? tr(G.Cond) : !tr(G.Cond), Stored, B);
      // A triangle: the loop runs (k0, k1) of the rectangle only when
      // k1 >= Skew k0 (LoopFacts.h, NestInfo::Skew); elsewhere the bin
      // keeps its value.
      if (M.Nest.Skew) {
        if (M.Nest.depth() != 2 || !Iter[0] || !Iter[1])
          throw Unsupported{"triangular histogram without both iteration indices"};
        TermT InTriangle =
            apply("icmp_sge", {*Iter[1], *Iter[0] * C.bv_val((uint64_t)M.Nest.Skew, 64)});
        Stored = TB::ite(InTriangle, Stored, B);
      }
      Differ = Differ || OpOf(GJ.Parts[1]) != Stored;
    }
    GotParts.clear();
    Want.clear();
  }
  if (M.Kind == IdiomKind::ScalarReduction) {
    // The combine operator and its identity, against the instruction that
    // combines accumulator and element in the loop.
    const Expr *Red = P.Body.get();
    const Expr *Comb = Red->Args[0].get();
    if (Comb->K != Expr::Lambda || Comb->Params.size() != 2)
      throw Unsupported{"combine is not a two-parameter lambda"};
    size_t K = M.Reductions.size();
    std::vector<TermT> As, Bs;
    Sym ASym, BSym;
    for (size_t I = 0; I < K; ++I) {
      SortT S = sortOf(M.Reductions[I].Phi->getType());
      As.push_back(leaf("acc" + std::to_string(I), S));
      Bs.push_back(leaf("elem" + std::to_string(I), S));
      ASym.Parts.push_back(Sym{As.back(), {}});
      BSym.Parts.push_back(Sym{Bs.back(), {}});
    }
    std::map<std::string, Sym> CEnv;
    CEnv[Comb->Params[0].Name] = K == 1 ? ASym.Parts[0] : ASym;
    CEnv[Comb->Params[1].Name] = K == 1 ? BSym.Parts[0] : BSym;
    Sym CGot = eval(Comb->body(), CEnv);
    std::map<std::string, Sym> NoEnv;
    Sym IdGot = eval(Red->Args[1], NoEnv);
    for (size_t I = 0; I < K; ++I) {
      const ReductionInfo &R = M.Reductions[I];
      auto *II = dyn_cast<IntrinsicInst>(R.FirstLink);
      TermT Op = C.bool_val(false);
      // argmin/argmax index: the combine equals the loop's step when the
      // accumulator's index comes first and no value is NaN (the elements
      // map NaN to the identity); ties between equal values then follow the
      // loop, and the lexicographic combine makes every order agree.
      std::optional<TermT> Pre;
      if (R.Op == ReductionOp::ArgIndex) {
        size_t J = argValueOf(R);
        const ReductionInfo &V = M.Reductions[J];
        auto SavedMemo = Memo;
        forgetLink(V.FirstLink);
        forgetLink(R.FirstLink);
        Memo.insert_or_assign(V.Phi, As[J]);
        Memo.insert_or_assign(V.Operands.front(), Bs[J]);
        Memo.insert_or_assign(R.Phi, As[I]);
        Memo.insert_or_assign(R.Operands.front(), Bs[I]);
        Op = tr(R.FirstLink);
        Memo = SavedMemo;
        Pre = apply("icmp_slt", {As[I], Bs[I]});
        if (V.Phi->getType()->isFloatingPointTy())
          Pre = *Pre && apply("fcmp_ord", {As[J], Bs[J]});
      } else if (II && (II->getIntrinsicID() == Intrinsic::fmuladd ||
                 II->getIntrinsicID() == Intrinsic::fma)) {
        Op = As[I] + Bs[I];
      } else {
        auto SavedMemo = Memo;
        Memo.erase(R.FirstLink);
        if (auto *Cmp = dyn_cast<CmpInst>(R.FirstLink->getOperand(0)))
          Memo.erase(Cmp);
        Memo.insert_or_assign(R.Phi, As[I]);
        Memo.insert_or_assign(R.Operands.front(), Bs[I]);
        Op = tr(R.FirstLink);
        Memo = SavedMemo;
      }
      const Sym &CI = K == 1 ? CGot : CGot.Parts.at(I);
      const Sym &II2 = K == 1 ? IdGot : IdGot.Parts.at(I);
      if (!CI.E || !II2.E || !TB::eq(CI.E->get_sort(), Op.get_sort()))
        throw Unsupported{"combine or identity of another type than the accumulator"};
      Differ = Differ || (Pre ? (*Pre && *CI.E != Op) : *CI.E != Op) ||
               *II2.E != identityTerm(R);
    }
  }
  if (GotParts.size() != Want.size()) {
    Why = "lifted function has " + std::to_string(GotParts.size()) +
          " results, the slice " + std::to_string(Want.size());
    return false;
  }
  for (size_t I = 0; I < Want.size(); ++I) {
    if (!GotParts[I].E || !TB::eq(GotParts[I].E->get_sort(), Want[I].get_sort())) {
      Why = "result " + std::to_string(I) + " has another type than the slice";
      return false;
    }
    Differ = Differ || *GotParts[I].E != Want[I];
  }
  for (const TermT &G : GatherMismatch)
    Differ = Differ || G;
  for (const TermT &G : SearchMismatch)
    Differ = Differ || G;
  // Equal lifts give identical terms, which the simplifier folds to false;
  // only the others need the solver.
  return proveNoDifference(Differ, TimeoutMs,
                           "element function, combine operator, identity or "
                           "histogram update",
                           "FunIL", Why);
}

template <class TB>
bool Validator<TB>::proveNoDifference(const TermT &Differ, unsigned TimeoutMs,
                                      const std::string &Parts,
                                      const std::string &What,
                                      std::string &Why) {
  TermT D = Differ.simplify();
  if (D.is_false())
    return true;
  switch (TB::decide(C, D, TimeoutMs)) {
  case z3::unsat:
    return true;
  case z3::sat:
    Why = "Z3 found inputs on which the lifted FunIL and the LLVM slice "
          "differ (" + Parts + ")";
    return false;
  default:
    Why = "equivalence of the lifted " + What + " and the LLVM slice not "
          "proven (" + z3UnknownText() + ")";
    return false;
  }
}

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
  const bool Tri = M.Nest.TriLoop != 0;
  const bool Two = !G->ElemA2.empty();
  const size_t Arity = (Tri ? 3 : 2) + (Two ? 1 : 0);
  if (Two && L.Params.size() < 5)
    throw Unsupported{"GEMM of two products without its buffers A2 and B2"};
  auto IsMap = [&](const Expr &E) {
    return E.isCall("map") && E.Args.size() == 2 && E.Args[0]->K == Expr::Lambda &&
           E.Args[0]->Params.size() == 1 && E.Args[1]->isCall("zip") &&
           E.Args[1]->Args.size() == Arity &&
           (!Tri || E.Args[1]->Args[2]->isCall("iota"));
  };
  // store view(C) = map(\r => map(\q => POST, zip(view(B), r.1)),
  //                     zip(view(A), view(C)))
  const Expr &Rows = *P.Body;
  if (P.IsReturn || P.Outs.size() != 1 || !IsView(*P.Outs[0], 2) || !IsMap(Rows) ||
      !IsView(*Rows.Args[1]->Args[0], 0) ||
      (Two && !IsView(*Rows.Args[1]->Args[Arity - 1], 3)) ||
      !funil::sameExpr(*Rows.Args[1]->Args[1], *P.Outs[0]))
    throw Unsupported{"GEMM program is not store view(C) = map(f, zip(view(A), view(C)))"};
  const Expr &RowFn = *Rows.Args[0];
  const std::string &R = RowFn.Params[0].Name;
  const Expr &Cols = *RowFn.body();
  if (!IsMap(Cols) || !IsView(*Cols.Args[1]->Args[0], 1) ||
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
  if (Reds.size() != 1 || Reds[0]->Args.size() != 3 ||
      Reds[0]->Args[0]->K != Expr::Lambda || Reds[0]->Args[0]->Params.size() != 2 ||
      funil::printExpr(*Reds[0]->Args[2]) != Zip)
    throw Unsupported{"GEMM element function is not POST(reduceSeq(step, init, "
                      "zip(r.0, q.0)), q.1)"};
  const Expr &Step = *Reds[0]->Args[0];

  // A GEMV (a chain of two loops) is the same program with one row.
  return checkSlices(*G, Step, Reds[0]->Args[1], Elem, Q, Arity,
                     M.Nest.depth() == 2 ? "GEMV" : "GEMM", TimeoutMs, Why,
                     /*OldAt=*/1);
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
  SortT I64 = sortOf(ScalarKind::I64);
  TermT Row = leaf("row", I64), Col = leaf("col", I64);
  std::map<std::string, Sym> Env;
  Env[R] = Sym{std::nullopt, {Sym{}, Sym{}, Sym{Row, {}}}};
  Env[Q] = Sym{std::nullopt, {Sym{}, Sym{}, Sym{Col, {}}}};
  Sym Got = eval(Mask, Env);
  const TermT &K0 = L.Gemm->TriangleOnColumns ? Row : Col;
  const TermT &KT = L.Gemm->TriangleOnColumns ? Col : Row;
  TermT Want = TB::slt(KT, Const(Count->getStart()) + Const(Count->getOperand(1)) * K0);
  if (!Got.E || !Got.E->is_bool()) {
    Why = "the triangular GEMM's mask is not a condition";
    return false;
  }
  TermT Zero = C.bv_val(0, 64), Lim = C.bv_val(uint64_t(1) << 31, 64);
  TermT InRange = TB::sge(Row, Zero) && TB::slt(Row, Lim) && TB::sge(Col, Zero) &&
                  TB::slt(Col, Lim);
  return proveNoDifference(InRange && (*Got.E != Want), TimeoutMs,
                           "GEMM triangle mask", "GEMM triangle", Why);
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

} // namespace

bool validateLifting(const IdiomMatch &M, const LiftedIdiom &L,
                     const funil::Program &P, unsigned TimeoutMs,
                     std::string &Why) {
  TimeScope T("translation validation");
  switch (decideWithoutZ3(M, L, P)) {
  case NoZ3Decision::IdenticalTerms:
    TimeReport::count("translation validation: identical terms, no Z3");
    return true;
  case NoZ3Decision::ExhaustiveEvaluation:
    TimeReport::count("translation validation: exhaustive evaluation, no Z3");
    return true;
  case NoZ3Decision::None:
    break;
  }
  TimeReport::count("translation validation: Z3");
  z3::context &C = sharedZ3Context();
  try {
    Validator<Z3Terms> V(C, M, L);
    if (M.Kind == IdiomKind::Gemm)
      return V.runGemm(P, TimeoutMs, Why);
    if (M.Kind == IdiomKind::Spmv)
      return V.runSpmv(P, TimeoutMs, Why);
    if (M.Kind == IdiomKind::Accumulation)
      return V.runAccum(P, TimeoutMs, Why);
    return V.run(P, TimeoutMs, Why);
  } catch (const Unsupported &U) {
    Why = "translation validation: " + U.Why;
  } catch (const z3::exception &E) {
    Why = std::string("translation validation: Z3 error: ") + E.msg();
  } catch (const std::out_of_range &) {
    Why = "translation validation: unexpected FunIL shape";
  }
  return false;
}

NoZ3Decision decideWithoutZ3(const IdiomMatch &M, const LiftedIdiom &L,
                             const funil::Program &P) {
  tv::TermContext C;
  DecidedByEvaluation = false;
  try {
    Validator<HashTerms> V(C, M, L);
    std::string Why;
    // The timeout is unused: HashTerms::decide evaluates or gives up.
    if (M.Kind == IdiomKind::Gemm   ? V.runGemm(P, 0, Why)
        : M.Kind == IdiomKind::Spmv ? V.runSpmv(P, 0, Why)
        : M.Kind == IdiomKind::Accumulation ? V.runAccum(P, 0, Why)
                                    : V.run(P, 0, Why))
      return DecidedByEvaluation ? NoZ3Decision::ExhaustiveEvaluation
                                 : NoZ3Decision::IdenticalTerms;
  } catch (...) {
    // GiveUp, Unsupported, an unexpected shape: Z3's run decides and
    // explains.
  }
  return NoZ3Decision::None;
}

} // namespace idiom
