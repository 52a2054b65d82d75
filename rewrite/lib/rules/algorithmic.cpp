//===- algorithmic.cpp - algorithmic rewrite rules -------------------------===//
//
// Part of Idiom. The algorithmic rules of seeds/004, figure 6: split-join
// (6c), reduction splitting (6d), cancellation (6e), plus the interchange
// of views with map that the reduction derivation needs. Fusion (6f) is in
// fusion.cpp, the rules of transpose/reorder/slide/pad in views.cpp.
//
//===----------------------------------------------------------------------===//

#include "../RuleHelpers.h"
#include "idiom/Rewrite/Rules.h"

namespace idiom::rewrite {

using namespace detail;

namespace {

/// join(split(n, a)) -> a   (figure 6e)
Rule joinSplit() {
  return cancellationRule("join-split", "algorithmic", "join(split(n, a)) -> a",
                          "join", "split");
}

/// split(n, join(a)) -> a when the rows of a have length n   (figure 6e)
Rule splitJoinCancel() {
  Rule R = cancellationRule("split-join-cancel", "algorithmic",
                            "split(n, join(a)) -> a, when the rows of a have length n",
                            "split", "join");
  R.Condition = [](const Bindings &B, const RuleContext &Ctx) {
    TypePtr T = Ctx.typeOf(B.at("a"));
    funil::SizePtr N = funil::sizeOfExpr(*B.at("n"));
    return T && T->isArray() && T->Elem->isArray() &&
           N->K != funil::Size::Unknown && funil::sameSize(*T->Elem->Len, *N);
  };
  return R;
}

/// V(n, map(f, a)) -> map(\r => map(f, r), V(n, a)) for the views
/// V = split (the split-join rule read from right to left, after
/// cancellation) and V = strided or blocks (the same for those partitions).
Rule viewMapInterchange(const char *View) {
  Rule R;
  R.Name = std::string(View) + "-map";
  R.Family = "algorithmic";
  R.Doc = std::string(View) + "(n, map(f, a)) -> map(\\r => map(f, r), " + View +
          "(n, a))";
  std::string V = View;
  R.Roots = {V};
  R.Match = [V](const ExprPtr &E, Bindings &B) {
    if (!E->isCall(V.c_str()) || !E->Args[1]->isCall("map") ||
        !isLambda(E->Args[1]->Args[0], 1))
      return false;
    B["n"] = E->Args[0];
    B["f"] = E->Args[1]->Args[0];
    B["a"] = E->Args[1]->Args[1];
    return true;
  };
  R.Build = [V](const Bindings &B, RuleContext &Ctx) -> ExprPtr {
    TypePtr A = Ctx.typeOf(B.at("a"));
    if (!A || !A->isArray())
      return nullptr;
    funil::SizePtr RowLen =
        V == "split" ? funil::sizeOfExpr(*B.at("n")) : funil::Size::unknown();
    ExprPtr Part = Expr::call(V, {B.at("n"), B.at("a")});
    ExprPtr Fn = lambda1(Ctx, "r", Type::array(A->Elem, RowLen), [&](ExprPtr Row) {
      return mapCall("map", B.at("f"), Row);
    });
    return mapCall("map", Fn, Part);
  };
  return R;
}

/// (e0, e1, ...).k -> ek
Rule projTuple() {
  Rule R;
  R.Name = "proj-tuple";
  R.Family = "algorithmic";
  R.Doc = "(e0, ..., en).k -> ek";
  R.Match = [](const ExprPtr &E, Bindings &B) {
    if (E->K != Expr::Proj || E->Args[0]->K != Expr::Tuple ||
        E->Index >= E->Args[0]->Args.size())
      return false;
    B["e"] = E->Args[0]->Args[E->Index];
    return true;
  };
  R.Build = [](const Bindings &B, RuleContext &) { return B.at("e"); };
  return R;
}

} // namespace

Rule splitJoinRule(int64_t N) {
  Rule R;
  R.Name = N == 4 ? "split-join" : "split-join-" + std::to_string(N);
  R.Family = "algorithmic";
  R.Doc = "map(f, a) -> join(map(\\r => map(f, r), split(" + std::to_string(N) +
          ", a)))";
  R.Roots = {"map"};
  R.Match = [](const ExprPtr &E, Bindings &B) {
    if (!E->isCall("map") || !isLambda(E->Args[0], 1))
      return false;
    B["f"] = E->Args[0];
    B["a"] = E->Args[1];
    return true;
  };
  R.Condition = [N](const Bindings &B, const RuleContext &Ctx) {
    TypePtr T = Ctx.typeOf(B.at("a"));
    if (!T || !T->isArray())
      return false;
    return T->Len->K != funil::Size::Const || T->Len->Value % N == 0;
  };
  R.Build = [N](const Bindings &B, RuleContext &Ctx) -> ExprPtr {
    TypePtr T = Ctx.typeOf(B.at("a"));
    ExprPtr Fn = lambda1(Ctx, "r", Type::array(T->Elem, funil::Size::constant(N)),
                         [&](ExprPtr Row) { return mapCall("map", B.at("f"), Row); });
    return Expr::call("join", {mapCall("map", Fn, Expr::call("split", {i64(N), B.at("a")}))});
  };
  return R;
}

Rule reduceSplitRule(int64_t N) {
  Rule R;
  R.Name = N == 4 ? "reduce-split" : "reduce-split-" + std::to_string(N);
  R.Family = "algorithmic";
  R.Doc = "reduce(f, z, a) -> reduce(f, z, map(\\c => reduce(f, z, c), split(" +
          std::to_string(N) + ", a)))";
  R.Roots = {"reduce"};
  R.Match = [](const ExprPtr &E, Bindings &B) {
    if (!E->isCall("reduce") || !isLambda(E->Args[0], 2))
      return false;
    B["f"] = E->Args[0];
    B["z"] = E->Args[1];
    B["a"] = E->Args[2];
    return true;
  };
  R.Condition = [N](const Bindings &B, const RuleContext &Ctx) {
    TypePtr T = Ctx.typeOf(B.at("a"));
    if (!T || !T->isArray())
      return false;
    return T->Len->K != funil::Size::Const || T->Len->Value % N == 0;
  };
  R.Build = [N](const Bindings &B, RuleContext &Ctx) -> ExprPtr {
    TypePtr T = Ctx.typeOf(B.at("a"));
    return reduceOfChunks(Ctx, B.at("f"), B.at("z"), B.at("a"), T->Elem, N, "reduce", "c");
  };
  return R;
}

const std::vector<Rule> &algorithmicRules() {
  static const std::vector<Rule> Rules = {
      joinSplit(),         splitJoinCancel(),
      viewMapInterchange("split"), viewMapInterchange("strided"),
      viewMapInterchange("blocks"),
      projTuple(),         splitJoinRule(4),
      reduceSplitRule(4),
  };
  return Rules;
}

} // namespace idiom::rewrite
