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

/// reduceSeq(f, z, mapSeq(g, a)) -> reduceSeq(\(acc, x) => f(acc, g(x)), z, a)
/// (figure 6f, second rule).
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
    ExprPtr Body = funil::betaApply(
        F, {Expr::var(Acc), funil::betaApply(G, {Expr::var(X)})});
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
