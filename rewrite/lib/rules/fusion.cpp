//===- fusion.cpp - fusion rewrite rules ------------------------------------===//
//
// Part of Idiom. The fusion rules of seeds/004 figure 6f: consecutive maps
// fuse into one map, and a sequential reduction of a sequential map fuses
// into one reduceSeq ("this rule only applies to the sequential version
// since this is the only implementation not requiring the associativity
// property", section 4.1). Fused code stores no intermediate results.
//
//===----------------------------------------------------------------------===//

#include "../RuleHelpers.h"
#include "idiom/Rewrite/Rules.h"

namespace idiom::rewrite {

using namespace detail;

namespace {

/// map-like(f, map|mapSeq(g, a)) -> map-like(f . g, a)   (figure 6f, first rule)
Rule mapFusion() {
  Rule R;
  R.Name = "map-fusion";
  R.Family = "fusion";
  R.Doc = "M(f, map(g, a)) -> M(\\x => f(g(x)), a), M any map primitive, "
          "the inner map a map or mapSeq";
  R.Roots = {"map", "mapSeq", "mapGlobal", "mapWorkgroup", "mapLocal"};
  R.Match = [](const ExprPtr &E, Bindings &B) {
    if (!isMapLike(*E) || !isLambda(E->Args[0], 1))
      return false;
    const ExprPtr &In = E->Args[1];
    if (!(In->isCall("map") || In->isCall("mapSeq")) || !isLambda(In->Args[0], 1))
      return false;
    B["outer"] = E;
    B["f"] = E->Args[0];
    B["g"] = In->Args[0];
    B["a"] = In->Args[1];
    return true;
  };
  R.Build = [](const Bindings &B, RuleContext &Ctx) {
    return remap(*B.at("outer"), compose(Ctx, B.at("f"), B.at("g")), B.at("a"));
  };
  return R;
}

/// True when \p E contains a sequential loop (reduceSeq or mapSeq).
bool containsLoop(const Expr &E) {
  if (E.isCall("reduceSeq") || E.isCall("mapSeq"))
    return true;
  for (const ExprPtr &A : E.Args)
    if (containsLoop(*A))
      return true;
  return false;
}

/// The number of references to variable \p N in \p E.
unsigned occurrences(const Expr &E, const std::string &N) {
  unsigned K = E.K == Expr::Var && E.Name == N;
  for (const ExprPtr &A : E.Args)
    K += occurrences(*A, N);
  return K;
}

/// reduceSeq(f, z, mapSeq(g, a)) -> reduceSeq(\(acc, x) => f(acc, g(x)), z, a)
/// (figure 6f, second rule); g(x) is bound once with apply when it is a
/// loop and f uses it more than once.
Rule mapReduceFusion() {
  Rule R;
  R.Name = "map-reduce-fusion";
  R.Family = "fusion";
  R.Doc = "reduceSeq(f, z, mapSeq(g, a)) -> reduceSeq(\\(acc, x) => f(acc, g(x)), z, a)";
  R.Roots = {"reduceSeq"};
  R.Match = [](const ExprPtr &E, Bindings &B) {
    if (!E->isCall("reduceSeq") || !isLambda(E->Args[0], 2))
      return false;
    const ExprPtr &In = E->Args[2];
    if (!In->isCall("mapSeq") || !isLambda(In->Args[0], 1))
      return false;
    B["f"] = E->Args[0];
    B["z"] = E->Args[1];
    B["g"] = In->Args[0];
    B["a"] = In->Args[1];
    return true;
  };
  R.Build = [](const Bindings &B, RuleContext &Ctx) -> ExprPtr {
    const ExprPtr &F = B.at("f"), &G = B.at("g");
    std::string Acc = Ctx.fresh(F->Params[0].Name);
    std::string X = Ctx.fresh(G->Params[0].Name);
    ExprPtr Gx = funil::betaApply(G, {Expr::var(X)});
    ExprPtr Body;
    if (containsLoop(*Gx) && occurrences(*F->body(), F->Params[1].Name) > 1) {
      // f uses its element more than once (a compensated sum's combine, a
      // compare-select min/max) and g(x) is a loop (a row's reduceSeq):
      // bind it once, apply(\y => f(acc, y), g(x)), instead of
      // substituting a copy of the loop for every use.
      std::string Y = Ctx.fresh(F->Params[1].Name);
      ExprPtr Fy = funil::betaApply(F, {Expr::var(Acc), Expr::var(Y)});
      Body = Expr::call("apply", {Expr::lambda({{Y, F->Params[1].Ty}}, Fy), Gx});
    } else {
      Body = funil::betaApply(F, {Expr::var(Acc), Gx});
    }
    ExprPtr Fn = Expr::lambda({{Acc, F->Params[0].Ty}, {X, G->Params[0].Ty}}, Body);
    return Expr::call("reduceSeq", {Fn, B.at("z"), B.at("a")});
  };
  return R;
}

} // namespace

const std::vector<Rule> &fusionRules() {
  static const std::vector<Rule> Rules = {mapFusion(), mapReduceFusion()};
  return Rules;
}

} // namespace idiom::rewrite
