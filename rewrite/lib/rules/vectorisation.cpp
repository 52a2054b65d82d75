//===- vectorisation.cpp - asVector / asScalar rules -----------------------===//
//
// Part of Idiom. The vectorisation family (DESIGN section 5, "vectorise";
// seeds/004 section 4.2 and figure 7: asVector n / asScalar). FunIL has no
// vector types, so a vector of N elements is a row of split(N, a) over an
// array whose elements lie at consecutive addresses (a contiguous array);
// one work-item processes the row sequentially (mapSeq / reduceSeq), and
// the OpenCL generator reads and writes a complete, aligned row with one
// vector load or store per buffer (a pointer cast to floatN & co.), every
// other row element by element (rewrite/lib/codegen/Emitter.cpp).
// as-vector-lanes uses FunIL's vector types instead: asVector(N, a) makes
// an array of f32xN (& co.), the map's function runs on whole vectors
// (lane-wise operations), asScalar flattens the result; the generator emits
// vloadN/vstoreN and vector-typed private values.
//
//===----------------------------------------------------------------------===//

#include "../RuleHelpers.h"
#include "../SizeHelpers.h"
#include "idiom/FunIL/Printer.h"
#include "idiom/Rewrite/Rules.h"

namespace idiom::rewrite {

using namespace detail;

bool isContiguousArray(const ExprPtr &E) {
  if (E->isCall("view"))
    return E->Args.size() == 4 && E->Args[2]->K == Expr::Lit &&
           E->Args[2]->signedValue() == 1;
  if (E->isCall("iota"))
    return true;
  if (E->isCall("zip")) {
    for (const ExprPtr &A : E->Args)
      if (!isContiguousArray(A))
        return false;
    return true;
  }
  if (E->isCall("map") || E->isCall("mapSeq"))
    return isLambda(E->Args[0], 1) && isContiguousArray(E->Args[1]);
  return false;
}

namespace {

/// The side condition of both asVector rules: a contiguous array whose
/// length N divides when the length is a constant (a symbolic length is
/// accepted: the generator completes a ragged last row element by element).
bool vectorisable(const ExprPtr &A, int64_t N, const RuleContext &Ctx) {
  if (!isContiguousArray(A))
    return false;
  TypePtr T = Ctx.typeOf(A);
  if (!T || !T->isArray())
    return false;
  return T->Len->K != funil::Size::Const || T->Len->Value % N == 0;
}

/// True when variable \p V occurs free in \p E.
bool occursFree(const std::string &V, const ExprPtr &E) {
  std::set<std::string> Free;
  funil::freeVars(*E, Free);
  return Free.count(V) != 0;
}

/// join(map(\v => mapSeq(f, v), split(n, a))) -> map(f, a)   (asScalar)
Rule asScalarMap() {
  Rule R;
  R.Name = "as-scalar-map";
  R.Family = "vectorisation";
  R.Doc = "join(map(\\v => mapSeq(f, v), split(n, a))) -> map(f, a), v not free in f";
  R.Roots = {"join"};
  R.Match = [](const ExprPtr &E, Bindings &B) {
    if (!E->isCall("join") || !E->Args[0]->isCall("map"))
      return false;
    const ExprPtr &M = E->Args[0];
    if (!isLambda(M->Args[0], 1) || !M->Args[1]->isCall("split"))
      return false;
    const ExprPtr &Body = M->Args[0]->body();
    const std::string &V = M->Args[0]->Params[0].Name;
    if (!(Body->isCall("mapSeq") || Body->isCall("map")) || Body->Args[1]->K != Expr::Var ||
        Body->Args[1]->Name != V || occursFree(V, Body->Args[0]))
      return false;
    B["f"] = Body->Args[0];
    B["a"] = M->Args[1]->Args[1];
    return true;
  };
  R.Build = [](const Bindings &B, RuleContext &) {
    return mapCall("map", B.at("f"), B.at("a"));
  };
  return R;
}

/// reduce(f, z, map(\v => reduceSeq(f, z, v), split(n, a))) -> reduce(f, z, a)
/// (asScalar; f is associative with identity z by the contract of reduce).
Rule asScalarReduce() {
  Rule R;
  R.Name = "as-scalar-reduce";
  R.Family = "vectorisation";
  R.Doc = "reduce(f, z, map(\\v => reduceSeq(f, z, v), split(n, a))) -> reduce(f, z, a)";
  R.Roots = {"reduce"};
  R.Match = [](const ExprPtr &E, Bindings &B) {
    if (!E->isCall("reduce") || !isLambda(E->Args[0], 2) || !E->Args[2]->isCall("map"))
      return false;
    const ExprPtr &M = E->Args[2];
    if (!isLambda(M->Args[0], 1) || !M->Args[1]->isCall("split"))
      return false;
    const ExprPtr &Inner = M->Args[0]->body();
    const std::string &V = M->Args[0]->Params[0].Name;
    if (!(Inner->isCall("reduceSeq") || Inner->isCall("reduce")) ||
        Inner->Args[2]->K != Expr::Var || Inner->Args[2]->Name != V ||
        funil::printExpr(*Inner->Args[0]) != funil::printExpr(*E->Args[0]) ||
        funil::printExpr(*Inner->Args[1]) != funil::printExpr(*E->Args[1]) ||
        occursFree(V, Inner->Args[0]) || occursFree(V, Inner->Args[1]))
      return false;
    B["f"] = E->Args[0];
    B["z"] = E->Args[1];
    B["a"] = M->Args[1]->Args[1];
    return true;
  };
  R.Build = [](const Bindings &B, RuleContext &) {
    return Expr::call("reduce", {B.at("f"), B.at("z"), B.at("a")});
  };
  return R;
}

/// The type \p T with every scalar leaf made a vector of \p N lanes, or
/// nullptr when a leaf is not a non-bool scalar.
TypePtr lanesOf(const TypePtr &T, unsigned N) {
  if (T->isScalar())
    return T->isScalar(funil::ScalarKind::Bool) ? nullptr : Type::vector(T->S, N);
  if (!T->isTuple())
    return nullptr;
  std::vector<TypePtr> Es;
  for (const TypePtr &E : T->Elems) {
    Es.push_back(lanesOf(E, N));
    if (!Es.back())
      return nullptr;
  }
  return Type::tuple(std::move(Es));
}

/// asScalar(asVector(n, a)) -> a   (seeds/004 figure 6e, joinVec . splitVec)
Rule asScalarAsVector() {
  return cancellationRule("as-scalar-as-vector", "vectorisation",
                          "asScalar(asVector(n, a)) -> a", "asScalar", "asVector");
}

/// asVector(n, asScalar(a)) -> a, a of vectors of n lanes   (splitVec . joinVec)
Rule asVectorAsScalar() {
  Rule R = cancellationRule("as-vector-as-scalar", "vectorisation",
                            "asVector(n, asScalar(a)) -> a, the elements of a vectors of n lanes",
                            "asVector", "asScalar");
  R.Condition = [](const Bindings &B, const RuleContext &Ctx) {
    TypePtr T = Ctx.typeOf(B.at("a"));
    return B.at("n")->K == Expr::Lit && T && T->isArray() && T->Elem->isVector() &&
           static_cast<int64_t>(T->Elem->Lanes) == B.at("n")->signedValue();
  };
  return R;
}

} // namespace

Rule reduceLanesRule(int64_t N) {
  Rule R;
  R.Name = N == 4 ? "reduce-two-stage-lanes" : "reduce-two-stage-lanes-" + std::to_string(N);
  R.Family = "vectorisation";
  R.Context = AppliesIn::Host;
  R.Doc = "reduce(f, z, a) -> reduce-two-stage whose work-items accumulate lane-wise: "
          "\\c => reduceSeq(f, z, lanes(reduceSeq(f', broadcast(" + std::to_string(N) +
          ", z), c))) over strided(globalSize(0), asVector(" + std::to_string(N) +
          ", pad(0, p, z, a))), p = (N - n % N) % N, f' = f on vectors";
  R.Roots = {"reduce"};
  R.Match = [](const ExprPtr &E, Bindings &B) {
    if (!E->isCall("reduce") || !isLambda(E->Args[0], 2))
      return false;
    B["f"] = E->Args[0];
    B["z"] = E->Args[1];
    B["a"] = E->Args[2];
    return true;
  };
  R.Build = [N](const Bindings &B, RuleContext &Ctx) -> ExprPtr {
    using funil::Size;
    const ExprPtr &F = B.at("f"), &Z = B.at("z"), &A = B.at("a");
    TypePtr T = Ctx.typeOf(A);
    if (!T || !T->isArray() || !T->Elem->isScalar() || T->Elem->isScalar(funil::ScalarKind::Bool))
      return nullptr;
    ExprPtr Len = sizeToExpr(*T->Len);
    if (!Len)
      return nullptr;
    TypePtr VT = Type::vector(T->Elem->S, static_cast<unsigned>(N));
    // f' is f on vectors; only a lane-wise f type checks to a vector.
    ExprPtr FV = Expr::lambda({{F->Params[0].Name, VT}, {F->Params[1].Name, VT}}, F->body());
    TypePtr Res;
    std::string Err;
    if (!funil::inferApply(FV, {VT, VT}, Ctx.Env, Res, Err) || !funil::sameType(*Res, *VT))
      return nullptr;
    // Padding with the identity z to a multiple of N leaves the reduction
    // unchanged (z is the identity of f by the contract of reduce).
    ExprPtr Pad = Expr::call("urem", {Expr::call("sub", {i64(N), Expr::call("urem", {Len, i64(N)})}),
                                      i64(N)});
    ExprPtr V = Expr::call("asVector", {i64(N), Expr::call("pad", {i64(0), Pad, Z, A})});
    TypePtr VRow = Type::array(VT, Size::unknown());
    TypePtr SRow = Type::array(T->Elem, Size::unknown());
    ExprPtr LaneItem = lambda1(Ctx, "c", VRow, [&](ExprPtr C) {
      ExprPtr Acc = Expr::call("reduceSeq", {FV, Expr::call("broadcast", {i64(N), Z}), C});
      return Expr::call("reduceSeq", {F, Z, Expr::call("lanes", {Acc})});
    });
    ExprPtr ScalarItem = lambda1(Ctx, "c", SRow, [&](ExprPtr C) {
      return Expr::call("reduceSeq", {F, Z, C});
    });
    ExprPtr L0 = Expr::call("localSize", {}, 0);
    ExprPtr G0 = Expr::call("globalSize", {}, 0);
    ExprPtr Stage1 = mapCall("mapWorkgroup", workGroupTree(Ctx, F, Z, T->Elem, VRow, LaneItem),
                             Expr::call("split", {L0, Expr::call("strided", {G0, V})}), 0);
    ExprPtr Stage2 = mapCall(
        "mapWorkgroup", workGroupTree(Ctx, F, Z, T->Elem, SRow, ScalarItem),
        Expr::call("split", {L0, Expr::call("strided", {L0, Expr::call("toGlobal", {Stage1})})}),
        0);
    return Expr::call("at", {Stage2, i64(0)});
  };
  return R;
}

Rule asVectorLanesRule(int64_t N) {
  Rule R;
  R.Name = N == 4 ? "as-vector-lanes" : "as-vector-lanes-" + std::to_string(N);
  R.Family = "vectorisation";
  R.Context = AppliesIn::Host;
  R.Doc = "map(f, zip(a1, ..)) -> asScalar(map(f', zip(asVector(" + std::to_string(N) +
          ", a1), ..))) (or without zip), f' = f on vectors of " + std::to_string(N) +
          " lanes, f lane-wise with a scalar result, the length a multiple of " +
          std::to_string(N);
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
    return T && T->isArray() && provablyMultiple(*T->Len, N);
  };
  R.Build = [N](const Bindings &B, RuleContext &Ctx) -> ExprPtr {
    const ExprPtr &F = B.at("f"), &A = B.at("a");
    TypePtr T = Ctx.typeOf(A);
    TypePtr VT = lanesOf(T->Elem, static_cast<unsigned>(N));
    if (!VT)
      return nullptr;
    ExprPtr VA;
    if (T->Elem->isScalar()) {
      VA = Expr::call("asVector", {i64(N), A});
    } else { // a tuple element: only a zip of scalar arrays can be split
      if (!A->isCall("zip") || A->Args.size() != T->Elem->Elems.size())
        return nullptr;
      std::vector<ExprPtr> Parts;
      for (const ExprPtr &X : A->Args)
        Parts.push_back(Expr::call("asVector", {i64(N), X}));
      VA = Expr::call("zip", std::move(Parts));
    }
    // f' is f with vector parameters: the type checker accepts it only if
    // every operation on them is lane-wise, with a vector result.
    ExprPtr FV = Expr::lambda({{F->Params[0].Name, VT}}, F->body());
    TypePtr Res;
    std::string Err;
    if (!funil::inferApply(FV, {VT}, Ctx.Env, Res, Err) || !Res->isVector() ||
        Res->Lanes != static_cast<unsigned>(N))
      return nullptr;
    return Expr::call("asScalar", {mapCall("map", FV, VA)});
  };
  return R;
}

Rule asVectorMapRule(int64_t N) {
  Rule R;
  R.Name = N == 4 ? "as-vector-map" : "as-vector-map-" + std::to_string(N);
  R.Family = "vectorisation";
  R.Context = AppliesIn::Host;
  R.Doc = "map(f, a) -> join(map(\\v => mapSeq(f, v), split(" + std::to_string(N) +
          ", a))), a contiguous";
  R.Roots = {"map"};
  R.Match = [](const ExprPtr &E, Bindings &B) {
    if (!E->isCall("map") || !isLambda(E->Args[0], 1))
      return false;
    B["f"] = E->Args[0];
    B["a"] = E->Args[1];
    return true;
  };
  R.Condition = [N](const Bindings &B, const RuleContext &Ctx) {
    return vectorisable(B.at("a"), N, Ctx);
  };
  R.Build = [N](const Bindings &B, RuleContext &Ctx) -> ExprPtr {
    TypePtr T = Ctx.typeOf(B.at("a"));
    ExprPtr Fn = lambda1(Ctx, "v", Type::array(T->Elem, funil::Size::constant(N)),
                         [&](ExprPtr V) { return mapCall("mapSeq", B.at("f"), V); });
    return Expr::call("join",
                      {mapCall("map", Fn, Expr::call("split", {i64(N), B.at("a")}))});
  };
  return R;
}

Rule asVectorReduceRule(int64_t N) {
  Rule R;
  R.Name = N == 4 ? "as-vector-reduce" : "as-vector-reduce-" + std::to_string(N);
  R.Family = "vectorisation";
  R.Context = AppliesIn::Host;
  R.Doc = "reduce(f, z, a) -> reduce(f, z, map(\\v => reduceSeq(f, z, v), split(" +
          std::to_string(N) + ", a))), a contiguous";
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
    return vectorisable(B.at("a"), N, Ctx);
  };
  R.Build = [N](const Bindings &B, RuleContext &Ctx) -> ExprPtr {
    TypePtr T = Ctx.typeOf(B.at("a"));
    return reduceOfChunks(Ctx, B.at("f"), B.at("z"), B.at("a"), T->Elem, N, "reduceSeq", "v");
  };
  return R;
}

const std::vector<Rule> &vectorisationRules() {
  static const std::vector<Rule> Rules = {
      asVectorMapRule(4),
      asVectorReduceRule(4),
      asScalarMap(),
      asScalarReduce(),
      asVectorLanesRule(4),
      reduceLanesRule(4),
      asScalarAsVector(),
      asVectorAsScalar(),
  };
  return Rules;
}

} // namespace idiom::rewrite
