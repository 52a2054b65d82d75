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
#include "../SizeHelpers.h"
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

/// The scalar kind of a compensated pair combine (neumaierBody over two
/// (T, T) parameters, as `compensate` writes it), or Bool.
funil::ScalarKind neumaierKind(const ExprPtr &F) {
  if (!isLambda(F, 2))
    return funil::ScalarKind::Bool;
  const TypePtr &P = F->Params[0].Ty;
  if (!P->isTuple() || P->Elems.size() != 2 || !P->Elems[0]->isScalar() ||
      !funil::isFloat(P->Elems[0]->S) || !funil::sameType(*P, *F->Params[1].Ty) ||
      !funil::sameType(*P->Elems[0], *P->Elems[1]))
    return funil::ScalarKind::Bool;
  ExprPtr Want = neumaierBody(Expr::var(F->Params[0].Name), Expr::var(F->Params[1].Name));
  return funil::sameExpr(*F->body(), *Want) ? P->Elems[0]->S : funil::ScalarKind::Bool;
}

/// \x => g(x) of a lift \x => (g(x), c), c a literal; else nullptr.
ExprPtr liftedValue(const ExprPtr &L) {
  if (!isLambda(L, 1))
    return nullptr;
  const ExprPtr &B = L->body();
  if (B->K != Expr::Tuple || B->Args.size() != 2 || B->Args[1]->K != Expr::Lit)
    return nullptr;
  return Expr::lambda({L->Params[0]}, B->Args[0]);
}

} // namespace

Rule compensatedLanesRule() {
  Rule R;
  R.Name = "as-vector-compensated-blocks";
  R.Family = "vectorisation";
  R.Doc = "reduce(neumaier, (z, c), map(\\x => (g(x), c'), s)) -> the two-stage reduction "
          "whose work-items each own a contiguous block of asVector(N, pad(0, p, z, "
          "map(g, s))), N = 16 bytes / the element's (f32: 4, f64: 2), and accumulate it "
          "into a pair of N-lane vectors (sum, compensation), the error of each lane's add "
          "by TwoSum, then fold the lanes with neumaier in lane order before the "
          "work-group tree";
  R.Context = AppliesIn::Host;
  R.Roots = {"reduce"};
  R.Match = [](const ExprPtr &E, Bindings &B) {
    if (!E->isCall("reduce") || !E->Args[2]->isCall("map") || E->Args[2]->Args.size() != 2)
      return false;
    B["f"] = E->Args[0];
    B["z"] = E->Args[1];
    B["lift"] = E->Args[2]->Args[0];
    B["s"] = E->Args[2]->Args[1];
    return true;
  };
  R.Condition = [](const Bindings &B, const RuleContext &) {
    const ExprPtr &Z = B.at("z");
    return neumaierKind(B.at("f")) != funil::ScalarKind::Bool && Z->K == Expr::Tuple &&
           Z->Args.size() == 2 && Z->Args[0]->K == Expr::Lit && Z->Args[0]->F == 0.0 &&
           Z->Args[1]->K == Expr::Lit && Z->Args[1]->F == 0.0 && liftedValue(B.at("lift")) &&
           isContiguousArray(B.at("s"));
  };
  R.Build = [](const Bindings &B, RuleContext &Ctx) -> ExprPtr {
    using funil::Size;
    const ExprPtr &F = B.at("f"), &Z = B.at("z");
    funil::ScalarKind K = neumaierKind(F);
    // 16-byte vectors: the generator reads a whole vector with one load only
    // where its address is aligned to the vector's size (else lane by
    // lane), and 16 bytes is what malloc guarantees on x86-64 (a 64-byte
    // float16 would miss on every array malloc places at page + 16).
    int64_t N = K == funil::ScalarKind::F64 ? 2 : 4;
    TypePtr T = Type::scalar(K), VT = Type::vector(K, static_cast<unsigned>(N));
    TypePtr Pair = Type::tuple({T, T}), VPair = Type::tuple({VT, VT});
    ExprPtr A = mapCall("map", liftedValue(B.at("lift")), B.at("s"));
    TypePtr AT = Ctx.typeOf(A);
    if (!AT || !AT->isArray() || !AT->Elem->isScalar(K))
      return nullptr;
    ExprPtr Len = sizeToExpr(*AT->Len);
    if (!Len)
      return nullptr;
    // Padding with z (0 or -0) adds nothing to a sum and no error.
    ExprPtr Pad = Expr::call("urem", {Expr::call("sub", {i64(N), Expr::call("urem", {Len, i64(N)})}),
                                      i64(N)});
    ExprPtr V = Expr::call("asVector", {i64(N), Expr::call("pad", {i64(0), Pad, Z->Args[0], A})});
    // One lane step: (s, c) + x -> (s + x, c + e), e the exact error of
    // s + x by TwoSum (Knuth): lane-wise adds and subtracts only (FunIL's
    // comparisons are not lane-wise); the same e as neumaier's ordered
    // Fast2Sum whenever s + x is finite (a non-finite sum ignores c).
    std::string AN = Ctx.fresh("a"), XN = Ctx.fresh("v");
    ExprPtr S0 = Expr::proj(Expr::var(AN), 0), S1 = Expr::proj(Expr::var(AN), 1),
            X = Expr::var(XN);
    ExprPtr Sum = call("fadd", {S0, X}), Zs = call("fsub", {Sum, S0});
    ExprPtr Err = call("fadd", {call("fsub", {S0, call("fsub", {Sum, Zs})}), call("fsub", {X, Zs})});
    ExprPtr Step = Expr::lambda({{AN, VPair}, {XN, VT}},
                                Expr::tuple({Sum, call("fadd", {S1, Err})}));
    ExprPtr Init = Expr::tuple({Expr::call("broadcast", {i64(N), Z->Args[0]}),
                                Expr::call("broadcast", {i64(N), Z->Args[1]})});
    TypePtr VRow = Type::array(VT, Size::unknown()), PRow = Type::array(Pair, Size::unknown());
    ExprPtr Fold = lambda1(Ctx, "q", VPair, [&](ExprPtr Q) {
      return Expr::call("reduceSeq",
                        {F, Z,
                         Expr::call("zip", {Expr::call("lanes", {Expr::proj(Q, 0)}),
                                            Expr::call("lanes", {Expr::proj(Q, 1)})})});
    });
    ExprPtr LaneItem = lambda1(Ctx, "c", VRow, [&](ExprPtr C) {
      return Expr::call("apply", {Fold, Expr::call("reduceSeq", {Step, Init, C})});
    });
    ExprPtr PairItem = lambda1(Ctx, "c", PRow, [&](ExprPtr C) {
      return Expr::call("reduceSeq", {F, Z, C});
    });
    ExprPtr L0 = Expr::call("localSize", {}, 0);
    ExprPtr G0 = Expr::call("globalSize", {}, 0);
    ExprPtr Stage1 = mapCall("mapWorkgroup", workGroupTree(Ctx, F, Z, Pair, VRow, LaneItem),
                             Expr::call("split", {L0, Expr::call("blocks", {G0, V})}), 0);
    ExprPtr Stage2 = mapCall(
        "mapWorkgroup", workGroupTree(Ctx, F, Z, Pair, PRow, PairItem),
        Expr::call("split", {L0, Expr::call("strided", {L0, Expr::call("toGlobal", {Stage1})})}),
        0);
    return Expr::call("at", {Stage2, i64(0)});
  };
  return R;
}

const std::vector<Rule> &compensationRules() {
  static const std::vector<Rule> Rules = {compensate()};
  return Rules;
}

} // namespace idiom::rewrite
