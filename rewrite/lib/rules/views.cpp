//===- views.cpp - rules of the data-layout primitives ---------------------===//
//
// Part of Idiom. Algorithmic rules (seeds/004 figure 6) on transpose,
// reorder, reorderStride, slide and pad: cancellation (transpose .
// transpose = id, 6e), map interchange via transpose, the reorder
// commutativity rules of 6b (a map commutes with a reordering), reordering
// inside a reduction (6d: "a partial reduce can be reordered, exploiting
// the restriction to commutative functions"), and the stencil views
// (slide/pad) commuting with map or collapsing to split / the identity.
// Index arithmetic behind the side conditions is proved with Z3 in
// test/rewrite/LayoutIndexProofTest.cpp.
//
//===----------------------------------------------------------------------===//

#include "../RuleHelpers.h"
#include "../SizeHelpers.h"
#include "idiom/Rewrite/Rules.h"

namespace idiom::rewrite {

using namespace detail;

namespace {

Rule viewRule(const std::string &Name, const std::string &Doc) {
  Rule R;
  R.Name = Name;
  R.Family = "views";
  R.Doc = Doc;
  return R;
}

/// True when variable \p V occurs free in \p E.
bool occursFree(const std::string &V, const ExprPtr &E) {
  std::set<std::string> Free;
  funil::freeVars(*E, Free);
  return Free.count(V) != 0;
}

/// Matches \r => map(f, r) with r not free in f; binds "f".
bool matchRowMap(const ExprPtr &Fn, Bindings &B) {
  if (!isLambda(Fn, 1))
    return false;
  const ExprPtr &Body = Fn->body();
  const std::string &R = Fn->Params[0].Name;
  if (!Body->isCall("map") || !isLambda(Body->Args[0], 1) || Body->Args[1]->K != Expr::Var ||
      Body->Args[1]->Name != R || occursFree(R, Body->Args[0]))
    return false;
  B["f"] = Body->Args[0];
  return true;
}

/// transpose(transpose(a)) -> a   (figure 6e, for transpose)
Rule transposeTranspose() {
  Rule R = cancellationRule("transpose-transpose", "views",
                            "transpose(transpose(a)) -> a, the rows of a of a positive constant length",
                            "transpose", "transpose");
  // With rows of length 0 the inner transpose is empty and the number of
  // rows of a is lost (docs/FunIL.md, transpose).
  R.Condition = [](const Bindings &B, const RuleContext &Ctx) {
    TypePtr T = Ctx.typeOf(B.at("a"));
    return T && T->isArray() && T->Elem->isArray() && provablyPositive(*T->Elem->Len);
  };
  return R;
}

/// map(\r => map(f, r), a) -> transpose(map(\c => map(f, c), transpose(a)))
Rule mapInterchange() {
  Rule R = viewRule("map-interchange",
                    "map(\\r => map(f, r), a) -> transpose(map(\\c => map(f, c), "
                    "transpose(a))), the rows of a of a positive constant length");
  R.Roots = {"map"};
  R.Match = [](const ExprPtr &E, Bindings &B) {
    if (!E->isCall("map") || !matchRowMap(E->Args[0], B))
      return false;
    B["a"] = E->Args[1];
    return true;
  };
  R.Condition = [](const Bindings &B, const RuleContext &Ctx) {
    TypePtr T = Ctx.typeOf(B.at("a"));
    return T && T->isArray() && T->Elem->isArray() && provablyPositive(*T->Elem->Len);
  };
  R.Build = [](const Bindings &B, RuleContext &Ctx) -> ExprPtr {
    TypePtr T = Ctx.typeOf(B.at("a"));
    TypePtr Col = Type::array(T->Elem->Elem, T->Len);
    ExprPtr Fn = lambda1(Ctx, "c", Col, [&](ExprPtr C) { return mapCall("map", B.at("f"), C); });
    return Expr::call("transpose",
                      {mapCall("map", Fn, Expr::call("transpose", {B.at("a")}))});
  };
  return R;
}

/// transpose(map(\r => map(f, r), a)) -> map(\c => map(f, c), transpose(a))
Rule transposeMap() {
  Rule R = viewRule("transpose-map", "transpose(map(\\r => map(f, r), a)) -> "
                                     "map(\\c => map(f, c), transpose(a))");
  R.Roots = {"transpose"};
  R.Match = [](const ExprPtr &E, Bindings &B) {
    if (!E->isCall("transpose") || !E->Args[0]->isCall("map") ||
        !matchRowMap(E->Args[0]->Args[0], B))
      return false;
    B["a"] = E->Args[0]->Args[1];
    return true;
  };
  R.Build = [](const Bindings &B, RuleContext &Ctx) -> ExprPtr {
    TypePtr T = Ctx.typeOf(B.at("a"));
    if (!T || !T->isArray() || !T->Elem->isArray())
      return nullptr;
    TypePtr Col = Type::array(T->Elem->Elem, T->Len);
    ExprPtr Fn = lambda1(Ctx, "c", Col, [&](ExprPtr C) { return mapCall("map", B.at("f"), C); });
    return mapCall("map", Fn, Expr::call("transpose", {B.at("a")}));
  };
  return R;
}

/// V(..., map(f, a)) -> map(f, V(..., a)) for the reorderings V = reorder
/// and reorderStride (figure 6b, reorder . map -> map . reorder) and for
/// padClamp (it only repeats elements of a).
Rule viewOfMap(const char *View) {
  std::string V = View;
  Rule R = viewRule(std::string(View) + "-map", V + "(..., map(f, a)) -> map(f, " + V +
                                                    "(..., a))");
  R.Roots = {V};
  R.Match = [V](const ExprPtr &E, Bindings &B) {
    if (!E->isCall(V.c_str()) || !E->Args.back()->isCall("map") ||
        !isLambda(E->Args.back()->Args[0], 1))
      return false;
    B["v"] = E;
    B["f"] = E->Args.back()->Args[0];
    B["a"] = E->Args.back()->Args[1];
    return true;
  };
  R.Build = [](const Bindings &B, RuleContext &) -> ExprPtr {
    std::vector<ExprPtr> Args = B.at("v")->Args;
    Args.back() = B.at("a");
    return mapCall("map", B.at("f"), funil::withArgs(*B.at("v"), std::move(Args)));
  };
  return R;
}

/// map(f, V(..., a)) -> V(..., map(f, a)) for V = reorder, reorderStride
/// (figure 6b, map . reorder -> reorder . map).
Rule mapOfReorder(const char *View) {
  std::string V = View;
  Rule R = viewRule("map-" + V, "map(f, " + V + "(..., a)) -> " + V + "(..., map(f, a))");
  R.Roots = {"map"};
  R.Match = [V](const ExprPtr &E, Bindings &B) {
    if (!E->isCall("map") || !isLambda(E->Args[0], 1) || !E->Args[1]->isCall(V.c_str()))
      return false;
    B["v"] = E->Args[1];
    B["f"] = E->Args[0];
    return true;
  };
  R.Build = [](const Bindings &B, RuleContext &) -> ExprPtr {
    std::vector<ExprPtr> Args = B.at("v")->Args;
    Args.back() = mapCall("map", B.at("f"), Args.back());
    return funil::withArgs(*B.at("v"), std::move(Args));
  };
  return R;
}

/// slide(n, s, map(f, a)) -> map(\w => map(f, w), slide(n, s, a))
Rule slideMap() {
  Rule R = viewRule("slide-map",
                    "slide(n, s, map(f, a)) -> map(\\w => map(f, w), slide(n, s, a))");
  R.Roots = {"slide"};
  R.Match = [](const ExprPtr &E, Bindings &B) {
    if (!E->isCall("slide") || !E->Args[2]->isCall("map") || !isLambda(E->Args[2]->Args[0], 1))
      return false;
    B["n"] = E->Args[0];
    B["s"] = E->Args[1];
    B["f"] = E->Args[2]->Args[0];
    B["a"] = E->Args[2]->Args[1];
    return true;
  };
  R.Build = [](const Bindings &B, RuleContext &Ctx) -> ExprPtr {
    TypePtr T = Ctx.typeOf(B.at("a"));
    if (!T || !T->isArray())
      return nullptr;
    TypePtr W = Type::array(T->Elem, funil::sizeOfExpr(*B.at("n")));
    ExprPtr Fn = lambda1(Ctx, "w", W, [&](ExprPtr X) { return mapCall("map", B.at("f"), X); });
    return mapCall("map", Fn, Expr::call("slide", {B.at("n"), B.at("s"), B.at("a")}));
  };
  return R;
}

/// slide(n, n, a) -> split(n, a) when n divides the length of a (windows
/// that neither overlap nor leave gaps are the chunks of split).
Rule slideSplit() {
  Rule R = viewRule("slide-split", "slide(n, n, a) -> split(n, a), n a literal dividing "
                                   "the length of a");
  R.Roots = {"slide"};
  R.Match = [](const ExprPtr &E, Bindings &B) {
    if (!E->isCall("slide") || E->Args[0]->K != Expr::Lit || E->Args[1]->K != Expr::Lit ||
        E->Args[0]->signedValue() != E->Args[1]->signedValue() ||
        E->Args[0]->signedValue() <= 0)
      return false;
    B["n"] = E->Args[0];
    B["a"] = E->Args[2];
    return true;
  };
  R.Condition = [](const Bindings &B, const RuleContext &Ctx) {
    TypePtr T = Ctx.typeOf(B.at("a"));
    return T && T->isArray() && provablyMultiple(*T->Len, B.at("n")->signedValue());
  };
  R.Build = [](const Bindings &B, RuleContext &) {
    return Expr::call("split", {B.at("n"), B.at("a")});
  };
  return R;
}

/// pad(0, 0, v, a) -> a and padClamp(0, 0, a) -> a
Rule padZero() {
  Rule R = viewRule("pad-zero", "pad(0, 0, v, a) -> a; padClamp(0, 0, a) -> a");
  R.Roots = {"pad", "padClamp"};
  R.Match = [](const ExprPtr &E, Bindings &B) {
    if (!E->isCall("pad") && !E->isCall("padClamp"))
      return false;
    for (int I = 0; I < 2; ++I)
      if (E->Args[I]->K != Expr::Lit || E->Args[I]->signedValue() != 0)
        return false;
    B["a"] = E->Args.back();
    return true;
  };
  R.Build = [](const Bindings &B, RuleContext &) { return B.at("a"); };
  return R;
}

} // namespace

Rule reduceReorderStrideRule(int64_t S) {
  Rule R = viewRule(S == 2 ? "reduce-reorder-stride" : "reduce-reorder-stride-" + std::to_string(S),
                    "reduce(f, z, a) -> reduce(f, z, reorderStride(" + std::to_string(S) +
                        ", a)), the length of a a multiple of " + std::to_string(S));
  R.Roots = {"reduce"};
  R.Match = [](const ExprPtr &E, Bindings &B) {
    if (!E->isCall("reduce") || !isLambda(E->Args[0], 2) || E->Args[2]->isCall("reorderStride"))
      return false;
    B["f"] = E->Args[0];
    B["z"] = E->Args[1];
    B["a"] = E->Args[2];
    return true;
  };
  // reduce's operator is associative and commutative by contract
  // (docs/FunIL.md), so any permutation of its input gives the same value.
  R.Condition = [S](const Bindings &B, const RuleContext &Ctx) {
    TypePtr T = Ctx.typeOf(B.at("a"));
    return T && T->isArray() && provablyMultiple(*T->Len, S);
  };
  R.Build = [S](const Bindings &B, RuleContext &) {
    return Expr::call("reduce", {B.at("f"), B.at("z"),
                                 Expr::call("reorderStride", {i64(S), B.at("a")})});
  };
  return R;
}

const std::vector<Rule> &viewRules() {
  static const std::vector<Rule> Rules = {
      transposeTranspose(),
      mapInterchange(),
      transposeMap(),
      viewOfMap("reorder"),
      viewOfMap("reorderStride"),
      viewOfMap("padClamp"),
      mapOfReorder("reorder"),
      mapOfReorder("reorderStride"),
      slideMap(),
      slideSplit(),
      padZero(),
      reduceReorderStrideRule(2),
  };
  return Rules;
}

} // namespace idiom::rewrite
