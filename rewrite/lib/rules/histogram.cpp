//===- histogram.cpp - rules for histogram (indexed) reductions -----------===//
//
// Part of Idiom. The histogram family (DESIGN section 4, the complex
// reduction reduceIndexed; docs/Rewrite.md, "Histogram family"):
//
//  - fusion of a map into the element function, as map-fusion (seeds/004
//    figure 6f) does for map;
//  - lowering to atomic updates of the bins in global memory, one work-item
//    per element or grid-stride over the elements (the strided partition of
//    reduce-two-stage, seeds/004 section 6.1);
//  - privatisation: each work-group counts into its own bins in local
//    memory, starting from the operator's identity, and merges them into
//    the global bins with one atomic update per bin. Valid because the
//    operator is associative and commutative with that identity (the
//    contract of reduceIndexed), as the partial reductions of seeds/003.
//
//===----------------------------------------------------------------------===//

#include "../RuleHelpers.h"
#include "idiom/Rewrite/Histogram.h"

namespace idiom::rewrite {

using namespace detail;

namespace {

bool isVar(const ExprPtr &E, const std::string &N) {
  return E->K == Expr::Var && E->Name == N;
}

bool isLit(const ExprPtr &E, uint64_t Bits) {
  return E->K == Expr::Lit && E->Bits == Bits;
}

/// True for a two-operand call \p Name of the lambda's parameters a and b,
/// in either order.
bool isBinOf(const ExprPtr &E, const char *Name, const std::string &A,
             const std::string &B) {
  return E->isCall(Name) && E->Args.size() == 2 &&
         ((isVar(E->Args[0], A) && isVar(E->Args[1], B)) ||
          (isVar(E->Args[0], B) && isVar(E->Args[1], A)));
}

uint64_t allOnes(funil::ScalarKind K) {
  unsigned W = funil::scalarBits(K);
  return W >= 64 ? ~uint64_t(0) : (uint64_t(1) << W) - 1;
}

/// The pattern variables of reduceIndexed(op, init, f, a).
bool matchReduceIndexed(const ExprPtr &E, Bindings &B) {
  if (!E->isCall("reduceIndexed") || !isLambda(E->Args[0], 2) ||
      !isLambda(E->Args[2], 1))
    return false;
  B["op"] = E->Args[0];
  B["init"] = E->Args[1];
  B["f"] = E->Args[2];
  B["a"] = E->Args[3];
  return true;
}

/// reduceIndexed(op, i, f, map(g, a)) -> reduceIndexed(op, i, f . g, a)
Rule fuseMap() {
  Rule R;
  R.Name = "reduce-indexed-map-fusion";
  R.Family = "histogram";
  R.Doc = "reduceIndexed(op, i, f, map(g, a)) -> reduceIndexed(op, i, \\x => f(g(x)), a)";
  R.Roots = {"reduceIndexed"};
  R.Match = [](const ExprPtr &E, Bindings &B) {
    if (!matchReduceIndexed(E, B) || !B["a"]->isCall("map") ||
        !isLambda(B["a"]->Args[0], 1))
      return false;
    B["g"] = B["a"]->Args[0];
    B["a"] = B["a"]->Args[1];
    return true;
  };
  R.Build = [](const Bindings &B, RuleContext &Ctx) {
    return Expr::call("reduceIndexed", {B.at("op"), B.at("init"),
                                        compose(Ctx, B.at("f"), B.at("g")), B.at("a")});
  };
  return R;
}

/// reduceIndexed(op, i, f, a) -> reduceIndexedAtomic(op, i, mapGlobal(0, f, a))
Rule toAtomic() {
  Rule R;
  R.Name = "reduce-indexed-to-atomic";
  R.Family = "histogram";
  R.Doc = "reduceIndexed(op, i, f, a) -> reduceIndexedAtomic(op, i, mapGlobal(0, f, a))";
  R.Context = AppliesIn::Host;
  R.Roots = {"reduceIndexed"};
  R.Match = matchReduceIndexed;
  R.Build = [](const Bindings &B, RuleContext &) {
    return Expr::call("reduceIndexedAtomic",
                      {B.at("op"), B.at("init"), mapCall("mapGlobal", B.at("f"), B.at("a"), 0)});
  };
  return R;
}

/// The grid-stride partition of \p A: strided(globalSize(0), a).
ExprPtr gridStride(const ExprPtr &A) {
  return Expr::call("strided", {Expr::call("globalSize", {}, 0), A});
}

/// Rows of \p A's elements of unknown length: [A]_?.
TypePtr rowOf(const TypePtr &Elem) { return Type::array(Elem, funil::Size::unknown()); }

/// reduceIndexed(op, i, f, a) ->
///   reduceIndexedAtomic(op, i, mapGlobal(0, \r => mapSeq(f, r), strided(globalSize(0), a)))
Rule toAtomicStrided() {
  Rule R;
  R.Name = "reduce-indexed-to-atomic-strided";
  R.Family = "histogram";
  R.Doc = "reduceIndexed(op, i, f, a) -> reduceIndexedAtomic(op, i, mapGlobal(0, \\r => "
          "mapSeq(f, r), strided(globalSize(0), a)))";
  R.Context = AppliesIn::Host;
  R.Roots = {"reduceIndexed"};
  R.Match = matchReduceIndexed;
  R.Build = [](const Bindings &B, RuleContext &Ctx) {
    const ExprPtr &F = B.at("f");
    ExprPtr PerItem = lambda1(Ctx, "r", rowOf(F->Params[0].Ty),
                              [&](ExprPtr Rw) { return mapCall("mapSeq", F, Rw); });
    return Expr::call("reduceIndexedAtomic",
                      {B.at("op"), B.at("init"),
                       mapCall("mapGlobal", PerItem, gridStride(B.at("a")), 0)});
  };
  return R;
}

/// The count of bins `view(b, 0, 1, m)` when m is a run-time value (an i64
/// variable, or `mul(words, c)`), else nullptr.
ExprPtr runTimeBinCount(const ExprPtr &Init) {
  if (!Init->isCall("view") || Init->Args.size() != 4)
    return nullptr;
  const ExprPtr &M = Init->Args[3];
  if (M->K == Expr::Var || (M->isCall("mul") && M->Args.size() == 2 &&
                            M->Args[0]->K == Expr::Var && M->Args[1]->K == Expr::Lit))
    return M;
  return nullptr;
}

/// reduceIndexed(op, i, f, a) ->
///   reduceIndexedAtomic(op, i, mapWorkgroup(0, \g =>
///       zip(iota(m), reduceIndexedAtomic(op, toLocal(map(\j => z, iota(m))),
///                                        mapLocal(0, \r => mapSeq(f, r), g))),
///     split(localSize(0), strided(globalSize(0), a))))
/// when op has a known identity z and the bins have a constant count m
/// that fits local memory, or a run-time count m (the kernel then counts in
/// local memory when m fits and into the global bins otherwise:
/// codegen/HistogramGen.cpp).
Rule privatise() {
  Rule R;
  R.Name = "reduce-indexed-privatise";
  R.Family = "histogram";
  R.Doc = "reduceIndexed(op, i, f, a) -> reduceIndexedAtomic(op, i, mapWorkgroup(0, \\g => "
          "zip(iota(m), reduceIndexedAtomic(op, toLocal(map(\\j => z, iota(m))), "
          "mapLocal(0, \\r => mapSeq(f, r), g))), split(localSize(0), "
          "strided(globalSize(0), a)))), m constant, z the identity of op";
  R.Context = AppliesIn::Host;
  R.Roots = {"reduceIndexed"};
  R.Match = matchReduceIndexed;
  R.Condition = [](const Bindings &B, const RuleContext &Ctx) {
    TypePtr T = Ctx.typeOf(B.at("init"));
    if (!T || !T->isArray() || !T->Elem->isScalar())
      return false;
    funil::ScalarKind K = T->Elem->S;
    if (!indexedOpIdentity(classifyIndexedOp(B.at("op"), K), K))
      return false;
    if (T->Len->K != funil::Size::Const)
      return runTimeBinCount(B.at("init")) != nullptr;
    int64_t Slot = std::max<int64_t>(4, funil::scalarBits(K) / 8);
    return T->Len->Value > 0 && T->Len->Value * Slot <= MaxLocalBinBytes;
  };
  R.Build = [](const Bindings &B, RuleContext &Ctx) -> ExprPtr {
    TypePtr T = Ctx.typeOf(B.at("init"));
    funil::ScalarKind K = T->Elem->S;
    ExprPtr Z = indexedOpIdentity(classifyIndexedOp(B.at("op"), K), K);
    ExprPtr M = T->Len->K == funil::Size::Const ? i64(T->Len->Value)
                                                : runTimeBinCount(B.at("init"));
    const ExprPtr &F = B.at("f");
    TypePtr A = F->Params[0].Ty;
    ExprPtr Fill = mapCall("map",
                           lambda1(Ctx, "j", Type::scalar(funil::ScalarKind::I64),
                                   [&](ExprPtr) { return Z; }),
                           Expr::call("iota", {M}));
    ExprPtr PerItem =
        lambda1(Ctx, "r", rowOf(A), [&](ExprPtr Rw) { return mapCall("mapSeq", F, Rw); });
    ExprPtr PerGroup = lambda1(Ctx, "g", rowOf(rowOf(A)), [&](ExprPtr G) {
      ExprPtr Local = Expr::call(
          "reduceIndexedAtomic",
          {B.at("op"), Expr::call("toLocal", {Fill}), mapCall("mapLocal", PerItem, G, 0)});
      return Expr::call("zip", {Expr::call("iota", {M}), Local});
    });
    ExprPtr Groups = Expr::call(
        "split", {Expr::call("localSize", {}, 0), gridStride(B.at("a"))});
    return Expr::call("reduceIndexedAtomic",
                      {B.at("op"), B.at("init"), mapCall("mapWorkgroup", PerGroup, Groups, 0)});
  };
  return R;
}

} // namespace

IndexedOp classifyIndexedOp(const ExprPtr &Op, funil::ScalarKind K) {
  if (!isLambda(Op, 2))
    return IndexedOp::Other;
  const std::string &A = Op->Params[0].Name, &B = Op->Params[1].Name;
  const ExprPtr &Body = Op->body();
  bool Int = funil::isInteger(K);
  static const std::pair<const char *, IndexedOp> IntOps[] = {
      {"add", IndexedOp::Add},   {"and", IndexedOp::And},   {"or", IndexedOp::Or},
      {"xor", IndexedOp::Xor},   {"smin", IndexedOp::SMin}, {"smax", IndexedOp::SMax},
      {"umin", IndexedOp::UMin}, {"umax", IndexedOp::UMax}, {"mul", IndexedOp::Mul}};
  if (Int)
    for (const auto &P : IntOps)
      if (isBinOf(Body, P.first, A, B))
        return P.second;
  if (funil::isFloat(K)) {
    if (isBinOf(Body, "fadd", A, B))
      return IndexedOp::FAdd;
    if (isBinOf(Body, "fmul", A, B))
      return IndexedOp::Mul;
  }
  // uadd.sat: select(icmp_ult(add(a, b), a), ~0, add(a, b)).
  if (Int && Body->isCall("select") && Body->Args[0]->isCall("icmp_ult")) {
    const ExprPtr &C = Body->Args[0];
    if (isBinOf(C->Args[0], "add", A, B) && isVar(C->Args[1], A) &&
        isLit(Body->Args[1], allOnes(K)) && isBinOf(Body->Args[2], "add", A, B))
      return IndexedOp::UAddSat;
  }
  return IndexedOp::Other;
}

ExprPtr indexedOpIdentity(IndexedOp Op, funil::ScalarKind K) {
  unsigned W = funil::scalarBits(K);
  auto Int = [&](int64_t V) { return Expr::intLit(K, V); };
  switch (Op) {
  case IndexedOp::Add:
  case IndexedOp::Or:
  case IndexedOp::Xor:
  case IndexedOp::UMax:
  case IndexedOp::UAddSat:
    return Int(0);
  case IndexedOp::And:
  case IndexedOp::UMin:
    return Int(-1);
  case IndexedOp::SMax:
    return Int(W >= 64 ? INT64_MIN : -(int64_t(1) << (W - 1)));
  case IndexedOp::SMin:
    return Int(W >= 64 ? INT64_MAX : (int64_t(1) << (W - 1)) - 1);
  case IndexedOp::FAdd:
    return Expr::floatLit(K, -0.0);
  case IndexedOp::Mul:
    return funil::isFloat(K) ? Expr::floatLit(K, 1.0) : Int(1);
  case IndexedOp::Other:
    break;
  }
  return nullptr;
}

bool indexedBinKind(const Expr &Call, const funil::TypeEnv &Env, funil::ScalarKind &K) {
  TypePtr T;
  std::string Err;
  if (Call.Args.size() < 2 || !funil::inferType(Call.Args[1], Env, T, Err) ||
      !T->isArray() || !T->Elem->isScalar())
    return false;
  K = T->Elem->S;
  return true;
}

bool isHistogramProgram(const funil::Program &P) {
  return !P.IsReturn && P.Body &&
         (P.Body->isCall("reduceIndexed") || P.Body->isCall("reduceIndexedAtomic"));
}

const std::vector<Rule> &histogramRules() {
  static const std::vector<Rule> Rules = {fuseMap(), toAtomic(), toAtomicStrided(),
                                          privatise()};
  return Rules;
}

} // namespace idiom::rewrite
