//===- RuleHelpers.h - building blocks of rules (private) -------*- C++ -*-===//
//
// Part of Idiom.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Small matchers and builders shared by the rule families.
///
//===----------------------------------------------------------------------===//

#ifndef IDIOM_REWRITE_LIB_RULEHELPERS_H
#define IDIOM_REWRITE_LIB_RULEHELPERS_H

#include "idiom/FunIL/ExprUtil.h"
#include "idiom/Rewrite/Rule.h"

namespace idiom::rewrite::detail {

using funil::Expr;
using funil::Param;
using funil::Type;
using funil::TypePtr;

/// True for the map-like primitives: map mapSeq mapGlobal mapWorkgroup
/// mapLocal.
inline bool isMapLike(const Expr &E) {
  return E.K == Expr::Call &&
         (E.Name == "map" || E.Name == "mapSeq" || E.Name == "mapGlobal" ||
          E.Name == "mapWorkgroup" || E.Name == "mapLocal");
}

/// A lambda of \p N parameters.
inline bool isLambda(const ExprPtr &E, size_t N) {
  return E->K == Expr::Lambda && E->Params.size() == N;
}

/// Rebuilds a map-like call \p Like (same primitive and dimension) with a
/// new function and input.
inline ExprPtr remap(const Expr &Like, ExprPtr Fn, ExprPtr In) {
  return Expr::call(Like.Name, {std::move(Fn), std::move(In)}, Like.Attr);
}

/// \p Name(Fn, In) with dimension \p Dim (-1 for none).
inline ExprPtr mapCall(const char *Name, ExprPtr Fn, ExprPtr In, int64_t Dim = -1) {
  return Expr::call(Name, {std::move(Fn), std::move(In)}, Dim);
}

/// i64 literal.
inline ExprPtr i64(int64_t V) { return Expr::intLit(funil::ScalarKind::I64, V); }

/// One-parameter lambda with a fresh parameter named after \p Base.
template <typename BodyFn>
ExprPtr lambda1(RuleContext &Ctx, const std::string &Base, TypePtr Ty, BodyFn Body) {
  std::string N = Ctx.fresh(Base);
  ExprPtr V = Expr::var(N);
  return Expr::lambda({{N, Ty}}, Body(V));
}

/// Composition \x => F(G(x)) of two one-parameter lambdas (beta reduced);
/// the parameter type is G's.
inline ExprPtr compose(RuleContext &Ctx, const ExprPtr &F, const ExprPtr &G) {
  return lambda1(Ctx, G->Params[0].Name, G->Params[0].Ty, [&](ExprPtr X) {
    return funil::betaApply(F, {funil::betaApply(G, {X})});
  });
}

/// reduce(f, z, map(\c => Inner(f, z, c), split(N, a))) with a fresh
/// parameter named after \p Base: the partial reductions of chunks of N
/// (seeds/004 figure 6b; Inner is "reduce" or "reduceSeq"). \p ElemTy is the
/// element type of a.
inline ExprPtr reduceOfChunks(RuleContext &Ctx, const ExprPtr &F, const ExprPtr &Z,
                              const ExprPtr &A, const TypePtr &ElemTy, int64_t N,
                              const char *Inner, const std::string &Base) {
  ExprPtr Fn = lambda1(Ctx, Base, Type::array(ElemTy, funil::Size::constant(N)),
                       [&](ExprPtr C) { return Expr::call(Inner, {F, Z, C}); });
  ExprPtr Parts = mapCall("map", Fn, Expr::call("split", {i64(N), A}));
  return Expr::call("reduce", {F, Z, Parts});
}

/// One step of a halving tree of \p F with identity \p Z over \p Scalar
/// partials in local memory: \p => toLocal(mapLocal(Dim, \pr =>
/// reduceSeq(F, Z, pr), halves(p))), \p Dim the local dimension of the
/// partials (0 unless they are the slower of two).
inline ExprPtr halvingStep(RuleContext &Ctx, const ExprPtr &F, const ExprPtr &Z,
                           const TypePtr &Scalar, int64_t Dim = 0) {
  using funil::Size;
  TypePtr Partials = Type::array(Scalar, Size::unknown());
  TypePtr Pair = Type::array(Scalar, Size::constant(2));
  return lambda1(Ctx, "p", Partials, [&](ExprPtr P) {
    ExprPtr Combine = lambda1(Ctx, "pr", Pair, [&](ExprPtr Pr) {
      return Expr::call("reduceSeq", {F, Z, Pr});
    });
    return Expr::call("toLocal",
                      {mapCall("mapLocal", Combine, Expr::call("halves", {P}), Dim)});
  });
}

/// The function one work-group of a two-stage reduction applies to its rows
/// (seeds/003; seeds/004 figure 10): \p PerItem per work-item (a function of
/// one \p Row) into local memory, then log2(L) halving steps of a tree of
/// \p F with identity \p Z over the \p Scalar partials in local memory, then
/// element 0 to global memory.
inline ExprPtr workGroupTree(RuleContext &Ctx, const ExprPtr &F, const ExprPtr &Z,
                             const TypePtr &Scalar, const TypePtr &Row,
                             const ExprPtr &PerItem) {
  using funil::Size;
  ExprPtr L0 = Expr::call("localSize", {}, 0);
  ExprPtr Step = halvingStep(Ctx, F, Z, Scalar);
  return lambda1(Ctx, "grp", Type::array(Row, Size::unknown()), [&](ExprPtr Grp) {
    ExprPtr Seq = Expr::call("toLocal", {mapCall("mapLocal", PerItem, Grp, 0)});
    ExprPtr Tree = Expr::call("iterate", {Expr::call("ilog2", {L0}), Step, Seq});
    return Expr::call("toGlobal", {Expr::call("at", {Tree, i64(0)})});
  });
}

/// A cancellation rule \p Outer(.., \p Inner(.., a)) -> a (seeds/004 figure
/// 6e: join . split, asScalar . asVector, transpose . transpose, ...). Match
/// binds "a" to Inner's last operand and, when Outer has two operands, "n"
/// to Outer's first; the caller adds the Condition a rule needs.
inline Rule cancellationRule(const char *Name, const char *Family, const char *Doc,
                             const char *Outer, const char *Inner) {
  Rule R;
  R.Name = Name;
  R.Family = Family;
  R.Doc = Doc;
  std::string O = Outer, I = Inner;
  R.Roots = {O};
  R.Match = [O, I](const ExprPtr &E, Bindings &B) {
    if (E->K != Expr::Call || E->Name != O || E->Args.empty() ||
        !E->Args.back()->isCall(I.c_str()) || E->Args.back()->Args.empty())
      return false;
    if (E->Args.size() == 2)
      B["n"] = E->Args[0];
    B["a"] = E->Args.back()->Args.back();
    return true;
  };
  R.Build = [](const Bindings &B, RuleContext &) { return B.at("a"); };
  return R;
}

} // namespace idiom::rewrite::detail

#endif // IDIOM_REWRITE_LIB_RULEHELPERS_H
