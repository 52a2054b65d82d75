//===- ValidationFunIL.cpp - The validator's FunIL evaluator --------------===//
//
// Part of Idiom (TranslationValidationImpl.h). The FunIL side of
// translation validation: a FunIL expression evaluated to terms over the
// shared leaf symbols, operations by FunIL name (docs/FunIL.md) with the
// same semantics as the LLVM side's opcodes (ValidationSlice.cpp).
//
//===----------------------------------------------------------------------===//

#include "TranslationValidationImpl.h"
#include "idiom/FunIL/Printer.h"
#include <functional>

using namespace llvm;

namespace idiom::tv {

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

#define IDIOM_TV_FUNIL(TB)                                                    \
  template Validator<TB>::SortT Validator<TB>::sortOf(Type *);                \
  template Validator<TB>::SortT Validator<TB>::sortOf(ScalarKind);            \
  template Validator<TB>::TermT Validator<TB>::apply(                          \
      const std::string &, const std::vector<Validator<TB>::TermT> &);         \
  template Validator<TB>::TermT Validator<TB>::convert(                        \
      const std::string &, const Validator<TB>::TermT &, Validator<TB>::SortT, \
      bool);                                                                   \
  template Validator<TB>::Sym Validator<TB>::eval(                             \
      const ExprPtr &, std::map<std::string, Validator<TB>::Sym> &);
IDIOM_TV_INSTANTIATE(IDIOM_TV_FUNIL)

} // namespace idiom::tv
