//===- compensation.cpp - compensated floating-point sums -----------------===//
//
// Part of Idiom. The rule `compensate`: a floating-point sum is evaluated
// over (sum, compensation) pairs combined with Neumaier's variant of Kahan
// summation (A. Neumaier, "Rundungsfehleranalyse einiger Verfahren zur
// Summation endlicher Summen", ZAMM 54, 1974), so that the parallel result
// is at least as accurate as the sequential loop whatever the combination
// order (docs/Rewrite.md, "Compensated sums"; docs/ARCHITECTURE.md,
// "Floating-point reductions: accuracy").
//
//===----------------------------------------------------------------------===//

#include "../RuleHelpers.h"
#include "idiom/Rewrite/Rules.h"

#include <cmath>
#include <limits>

namespace idiom::rewrite {

using namespace detail;

namespace {

/// The floating kind of a plain fadd operator \(a: T, b: T) => fadd(a, b)
/// (either operand order), or Bool when \p F is not one.
funil::ScalarKind plainFaddKind(const ExprPtr &F) {
  if (!isLambda(F, 2))
    return funil::ScalarKind::Bool;
  const TypePtr &T = F->Params[0].Ty;
  if (!T->isScalar() || !funil::isFloat(T->S) || !F->Params[1].Ty->isScalar(T->S))
    return funil::ScalarKind::Bool;
  const ExprPtr &B = F->body();
  if (!B->isCall("fadd") || B->Args[0]->K != Expr::Var || B->Args[1]->K != Expr::Var)
    return funil::ScalarKind::Bool;
  const std::string &A0 = F->Params[0].Name, &A1 = F->Params[1].Name;
  const std::string &X = B->Args[0]->Name, &Y = B->Args[1]->Name;
  if (A0 == A1 || !((X == A0 && Y == A1) || (X == A1 && Y == A0)))
    return funil::ScalarKind::Bool;
  return T->S;
}

ExprPtr call(const char *N, std::vector<ExprPtr> Args) {
  return Expr::call(N, std::move(Args));
}

/// Neumaier's combine of pairs \p A and \p B (sum .0, compensation .1):
///   t = a.0 + b.0
///   e = |a.0| >= |b.0| ? (a.0 - t) + b.0 : (b.0 - t) + a.0
///   (t, (a.1 + b.1) + e)
/// e is the exact rounding error of t (Fast2Sum, the larger operand first).
/// Commutative bit for bit (on |a.0| = |b.0| both orders give e = 0 or the
/// same value); associative up to the bound of docs/Rewrite.md.
ExprPtr neumaierBody(const ExprPtr &A, const ExprPtr &B) {
  ExprPtr S1 = Expr::proj(A, 0), S2 = Expr::proj(B, 0);
  ExprPtr T = call("fadd", {S1, S2});
  ExprPtr E = call("select", {call("fcmp_oge", {call("fabs", {S1}), call("fabs", {S2})}),
                              call("fadd", {call("fsub", {S1, T}), S2}),
                              call("fadd", {call("fsub", {S2, T}), S1})});
  ExprPtr C = call("fadd", {call("fadd", {Expr::proj(A, 1), Expr::proj(B, 1)}), E});
  return Expr::tuple({T, C});
}

/// reduce(\(a, b) => fadd(a, b), z, xs) ->
///   apply(\p => select(and(fcmp_olt(fabs(p.0), inf), fcmp_one(p.1, 0)),
///                      fadd(p.0, p.1), p.0),
///         reduce(NEUMAIER, (z, -0.0), map(\x => (x, -0.0), xs)))
Rule compensate() {
  Rule R;
  R.Name = "compensate";
  R.Family = "algorithmic";
  R.Doc = "reduce(\\(a, b) => fadd(a, b), z, xs) -> apply(\\p => p.0 + p.1 (p.0 when "
          "p.1 = 0 or p.0 is not finite), reduce(neumaier, (z, -0.0), map(\\x => (x, "
          "-0.0), xs))): Neumaier-compensated sum";
  R.Context = AppliesIn::Host;
  R.Roots = {"reduce"};
  R.Match = [](const ExprPtr &E, Bindings &B) {
    if (!E->isCall("reduce") || plainFaddKind(E->Args[0]) == funil::ScalarKind::Bool)
      return false;
    B["f"] = E->Args[0];
    B["z"] = E->Args[1];
    B["xs"] = E->Args[2];
    return true;
  };
  // z must be an identity of fadd: a zero literal (-0.0 as the lifter
  // writes it, or +0.0).
  R.Condition = [](const Bindings &B, const RuleContext &) {
    const ExprPtr &Z = B.at("z");
    return Z->K == Expr::Lit && Z->F == 0.0;
  };
  R.Build = [](const Bindings &B, RuleContext &Ctx) -> ExprPtr {
    funil::ScalarKind K = plainFaddKind(B.at("f"));
    TypePtr T = Type::scalar(K);
    TypePtr Pair = Type::tuple({T, T});
    ExprPtr NegZero = Expr::floatLit(K, -0.0);
    std::string A = Ctx.fresh("a"), Bn = Ctx.fresh("b");
    ExprPtr Op = Expr::lambda({{A, Pair}, {Bn, Pair}},
                              neumaierBody(Expr::var(A), Expr::var(Bn)));
    ExprPtr Lift = lambda1(Ctx, "x", T, [&](ExprPtr X) {
      return Expr::tuple({X, NegZero});
    });
    ExprPtr Fin = lambda1(Ctx, "p", Pair, [&](ExprPtr P) {
      ExprPtr S = Expr::proj(P, 0), C = Expr::proj(P, 1);
      ExprPtr Finite = call("fcmp_olt", {call("fabs", {S}),
                                         Expr::floatLit(K, std::numeric_limits<double>::infinity())});
      ExprPtr NonZero = call("fcmp_one", {C, Expr::floatLit(K, 0.0)});
      return call("select", {call("and", {Finite, NonZero}), call("fadd", {S, C}), S});
    });
    ExprPtr Red = call("reduce", {Op, Expr::tuple({B.at("z"), NegZero}),
                                  mapCall("map", Lift, B.at("xs"))});
    return call("apply", {Fin, Red});
  };
  return R;
}

} // namespace

const std::vector<Rule> &compensationRules() {
  static const std::vector<Rule> Rules = {compensate()};
  return Rules;
}

} // namespace idiom::rewrite
