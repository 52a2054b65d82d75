//===- rowlanes.cpp - row reductions by groups of work-items --------------===//
//
// Part of Idiom. The row-lanes family (RowLanes.h; docs/Rewrite.md, "Row
// reductions by lanes"): CSR-vector (Bell and Garland, SC 2009, section
// 4.2) as a Lift-style algorithmic rule (a sequential row sum as W strided
// partial sums) and a lowering macro rule (R rows per work-group, W
// work-items per row, a halving tree in local memory).
//
//===----------------------------------------------------------------------===//

#include "../RuleHelpers.h"
#include "idiom/Rewrite/RowLanes.h"

namespace idiom::rewrite {

using namespace detail;

namespace {

/// True when variable \p Name occurs free in \p E.
bool occursFree(const std::string &Name, const ExprPtr &E) {
  std::set<std::string> Free;
  funil::freeVars(*E, Free);
  return Free.count(Name) != 0;
}

/// The combine operator of step \p F, \(acc: T, x) => BODY, when BODY is
/// c(acc, h(x)) in exact arithmetic ("fadd" or "add"), else "".
std::string laneCombine(const ExprPtr &F) {
  if (!isLambda(F, 2))
    return "";
  const TypePtr &T = F->Params[0].Ty;
  if (!T->isScalar() || T->S == funil::ScalarKind::Bool)
    return "";
  const std::string &Acc = F->Params[0].Name;
  const ExprPtr &B = F->body();
  auto IsAcc = [&](const ExprPtr &E) { return E->K == Expr::Var && E->Name == Acc; };
  auto Other = [&](const ExprPtr &E) { return !occursFree(Acc, E); };
  bool Float = funil::isFloat(T->S);
  if (B->K != Expr::Call || B->Args.size() < 2)
    return "";
  if (B->Name == (Float ? "fadd" : "add") && B->Args.size() == 2 &&
      ((IsAcc(B->Args[0]) && Other(B->Args[1])) || (IsAcc(B->Args[1]) && Other(B->Args[0]))))
    return B->Name;
  if (Float && (B->Name == "fmuladd" || B->Name == "fma") && B->Args.size() == 3 &&
      IsAcc(B->Args[2]) && Other(B->Args[0]) && Other(B->Args[1]))
    return "fadd";
  return "";
}

/// The identity of combine \p C on \p T: -0.0 for fadd (exact: -0 + x is x
/// for every x), 0 for add.
ExprPtr laneIdentity(const std::string &C, const TypePtr &T) {
  return C == "fadd" ? Expr::floatLit(T->S, -0.0) : Expr::intLit(T->S, 0);
}

/// The row reduction of map function \p F (\r => BODY): the one reduceSeq
/// of BODY outside lambdas, or nullptr.
ExprPtr rowReductionOf(const ExprPtr &F) {
  if (!isLambda(F, 1))
    return nullptr;
  std::vector<ExprPtr> Found;
  funil::findOutsideLambdas(F->body(), [](const ExprPtr &E) { return E->isCall("reduceSeq"); },
                            Found);
  return Found.size() == 1 ? Found[0] : nullptr;
}

/// True when \p E is reduce(c, e, map(\p => reduceSeq(f, e', p), strided(W, xs)))
/// with a literal power of two W; sets \p W.
bool isLaneReduce(const ExprPtr &E, int64_t &W) {
  if (!E->isCall("reduce") || !isLambda(E->Args[0], 2))
    return false;
  const ExprPtr &M = E->Args[2];
  if (!M->isCall("map") || !isLambda(M->Args[0], 1) || !M->Args[1]->isCall("strided"))
    return false;
  const ExprPtr &Body = M->Args[0]->body();
  if (!Body->isCall("reduceSeq") || Body->Args[2]->K != Expr::Var ||
      Body->Args[2]->Name != M->Args[0]->Params[0].Name)
    return false;
  const ExprPtr &S = M->Args[1]->Args[0];
  if (S->K != Expr::Lit || S->signedValue() < 2 || (S->signedValue() & (S->signedValue() - 1)))
    return false;
  W = S->signedValue();
  return true;
}

Rule reduceSeqLanes(int64_t W) {
  Rule R;
  R.Name = W == 4 ? "reduce-seq-lanes" : "reduce-seq-lanes-" + std::to_string(W);
  R.Family = "algorithmic";
  R.Doc = "reduceSeq(f, z, xs) -> c(z, reduce(c, e, map(\\p => reduceSeq(f, e, p), "
          "strided(" + std::to_string(W) + ", xs)))), f(acc, x) = c(acc, h(x)): c fadd "
          "(e = -0.0; fadd, fmuladd, fma steps; reassociates: the floating-point "
          "licence) or integer add (e = 0; exact)";
  R.Context = AppliesIn::Anywhere;
  R.Roots = {"reduceSeq"};
  R.Match = [](const ExprPtr &E, Bindings &B) {
    if (!E->isCall("reduceSeq") || laneCombine(E->Args[0]).empty())
      return false;
    B["f"] = E->Args[0];
    B["z"] = E->Args[1];
    B["xs"] = E->Args[2];
    return true;
  };
  R.Build = [W](const Bindings &B, RuleContext &Ctx) -> ExprPtr {
    const ExprPtr &F = B.at("f");
    const TypePtr &T = F->Params[0].Ty;
    std::string C = laneCombine(F);
    ExprPtr E = laneIdentity(C, T);
    std::string U = Ctx.fresh("u"), V = Ctx.fresh("v");
    ExprPtr Op = Expr::lambda({{U, T}, {V, T}}, Expr::call(C, {Expr::var(U), Expr::var(V)}));
    TypePtr Row = Type::array(F->Params[1].Ty, funil::Size::unknown());
    ExprPtr Lane = lambda1(Ctx, "lane", Row, [&](ExprPtr P) {
      return Expr::call("reduceSeq", {F, E, P});
    });
    ExprPtr Parts = mapCall("map", Lane, Expr::call("strided", {i64(W), B.at("xs")}));
    return Expr::call(C, {B.at("z"), Expr::call("reduce", {Op, E, Parts})});
  };
  return R;
}

/// reduce-seq-lanes-vN-W: the lanes of reduceSeqLanes over chunks of N
/// consecutive elements: lane p folds chunks p, p + W, ...
/// of split(N, xs), each chunk element by element with f, so the generator
/// reads a complete, aligned chunk of a contiguous row with one vector load
/// per buffer (Emitter.h, VecRead) and a ragged last chunk, or a row that
/// is not contiguous, element by element. Exact where reduce-seq-lanes is
/// (the same partial sums of each lane, in a different grouping).
Rule reduceSeqLanesVec(int64_t W, int64_t N) {
  Rule R = reduceSeqLanes(W);
  R.Name = "reduce-seq-lanes-v" + std::to_string(N) + "-" + std::to_string(W);
  R.Doc = "reduceSeq(f, z, xs) -> c(z, reduce(c, e, map(\\p => reduceSeq(\\(a, v) => "
          "reduceSeq(f, a, v), e, p), strided(" + std::to_string(W) + ", split(" +
          std::to_string(N) + ", xs))))), f as reduce-seq-lanes (the "
          "floating-point licence for fadd); vector loads where xs is contiguous";
  R.Build = [W, N](const Bindings &B, RuleContext &Ctx) -> ExprPtr {
    const ExprPtr &F = B.at("f");
    const TypePtr &T = F->Params[0].Ty;
    std::string C = laneCombine(F);
    ExprPtr E = laneIdentity(C, T);
    std::string U = Ctx.fresh("u"), V = Ctx.fresh("v"), A = Ctx.fresh("a"), K = Ctx.fresh("c");
    ExprPtr Op = Expr::lambda({{U, T}, {V, T}}, Expr::call(C, {Expr::var(U), Expr::var(V)}));
    TypePtr Chunk = Type::array(F->Params[1].Ty, funil::Size::constant(N));
    ExprPtr ChunkStep = Expr::lambda(
        {{A, T}, {K, Chunk}}, Expr::call("reduceSeq", {F, Expr::var(A), Expr::var(K)}));
    TypePtr Row = Type::array(Chunk, funil::Size::unknown());
    ExprPtr Lane = lambda1(Ctx, "lane", Row, [&](ExprPtr P) {
      return Expr::call("reduceSeq", {ChunkStep, E, P});
    });
    ExprPtr Parts = mapCall(
        "map", Lane,
        Expr::call("strided", {i64(W), Expr::call("split", {i64(N), B.at("xs")})}));
    return Expr::call(C, {B.at("z"), Expr::call("reduce", {Op, E, Parts})});
  };
  return R;
}

Rule mapRowLanes(int64_t Rows, int64_t LaneDim) {
  Rule R;
  std::string D = std::to_string(LaneDim), RD = std::to_string(1 - LaneDim);
  R.Name = LaneDim ? "map-row-lanes-across-" + std::to_string(Rows)
           : Rows == 2 ? "map-row-lanes"
                       : "map-row-lanes-" + std::to_string(Rows);
  R.Family = "lowering";
  R.Doc = "map(\\r => B[reduce(c, e, map(\\p => reduceSeq(f, e, p), strided(W, xs)))], a) -> "
          "join(mapWorkgroup(0, \\g => mapLocal(" + RD + ", \\r => B[at(iterate(log2 W, "
          "halving step of c in dimension " + D + ", toLocal(mapLocal(" + D +
          ", \\p => reduceSeq(f, e, p), strided(W, xs)))), 0)], g), split(" +
          std::to_string(Rows) + ", a))), W a power of two, " + std::to_string(Rows) +
          " * W <= 1024" +
          (LaneDim ? " (rows in neighbouring work-items, a row's lanes " +
                         std::to_string(Rows) + " work-items apart)"
                   : "");
  R.Context = AppliesIn::Host;
  R.Roots = {"map"};
  R.Match = [](const ExprPtr &E, Bindings &B) {
    if (!E->isCall("map") || !isLambda(E->Args[0], 1))
      return false;
    B["f"] = E->Args[0];
    B["a"] = E->Args[1];
    return true;
  };
  R.Build = [Rows, LaneDim](const Bindings &B, RuleContext &Ctx) -> ExprPtr {
    const ExprPtr &F = B.at("f");
    TypePtr A = Ctx.typeOf(B.at("a"));
    if (!A || !A->isArray() || Rows < 1 || (LaneDim != 0 && LaneDim != 1))
      return nullptr;
    std::vector<ExprPtr> Found;
    int64_t W = 0;
    funil::findOutsideLambdas(F->body(), [&](const ExprPtr &E) { return isLaneReduce(E, W); },
                              Found);
    if (Found.size() != 1 || !isLaneReduce(Found[0], W) || Rows * W > 1024)
      return nullptr;
    const ExprPtr &Red = Found[0];
    const ExprPtr &C = Red->Args[0], &E = Red->Args[1], &M = Red->Args[2];
    ExprPtr Step = halvingStep(Ctx, C, E, C->Params[0].Ty, LaneDim);
    int64_t Log = 0;
    while ((int64_t(1) << Log) < W)
      ++Log;
    ExprPtr Lanes =
        Expr::call("toLocal", {mapCall("mapLocal", M->Args[0], M->Args[1], LaneDim)});
    ExprPtr Tree = Expr::call("at", {Expr::call("iterate", {i64(Log), Step, Lanes}), i64(0)});
    ExprPtr Row = Expr::lambda(F->Params, funil::replaceSubterm(F->body(), Red, Tree));
    ExprPtr Group = lambda1(Ctx, "g", Type::array(A->Elem, funil::Size::constant(Rows)),
                            [&](ExprPtr G) { return mapCall("mapLocal", Row, G, 1 - LaneDim); });
    return Expr::call("join", {mapCall("mapWorkgroup", Group,
                                       Expr::call("split", {i64(Rows), B.at("a")}), 0)});
  };
  return R;
}

} // namespace

Rule reduceSeqLanesRule(int64_t W) { return reduceSeqLanes(W); }

Rule reduceSeqLanesVecRule(int64_t W, int64_t N) { return reduceSeqLanesVec(W, N); }

Rule mapRowLanesRule(int64_t R, int64_t LaneDim) { return mapRowLanes(R, LaneDim); }

const std::vector<Rule> &rowLanesRules() {
  static const std::vector<Rule> Rules = {reduceSeqLanes(4), reduceSeqLanesVec(4, 4),
                                          mapRowLanes(2, 0)};
  return Rules;
}

std::string laneCombineOp(const ExprPtr &F) { return laneCombine(F); }

bool hasLaneRowReduction(const ExprPtr &Body, bool FPReassoc) {
  if (!Body->isCall("map"))
    return false;
  ExprPtr Red = rowReductionOf(Body->Args[0]);
  if (!Red)
    return false;
  std::string C = laneCombine(Red->Args[0]);
  return C == "add" || (C == "fadd" && FPReassoc);
}

bool laneRowReductionIsFloat(const ExprPtr &Body) {
  if (!Body->isCall("map"))
    return false;
  ExprPtr Red = rowReductionOf(Body->Args[0]);
  return Red && laneCombine(Red->Args[0]) == "fadd";
}

} // namespace idiom::rewrite
