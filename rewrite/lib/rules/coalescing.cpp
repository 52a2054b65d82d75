//===- coalescing.cpp - coalesced memory access rules ----------------------===//
//
// Part of Idiom. The coalescing rule of DESIGN section 5,
// `map f -> reorder^-1 . map f . reorderStride s` (seeds/004 figure 7c and
// section 3.2: reorderStride "ensures that after splitting the workload,
// consecutive threads access consecutive memory elements"). The inverse of
// reorderStride(s, .) over n elements is reorderStride(n/s, .) (proved in
// test/rewrite/LayoutIndexProofTest.cpp); the generator stores a
// reorderStride at the root of a map program through the inverse view of
// its outputs, so neither side materialises an array.
//
//===----------------------------------------------------------------------===//

#include "../RuleHelpers.h"
#include "../SizeHelpers.h"
#include "idiom/Rewrite/Rules.h"

namespace idiom::rewrite {

using namespace detail;

namespace {

/// The i64 expression n / K for an array of type \p T whose length n is a
/// provable multiple of K, or nullptr.
ExprPtr lengthOver(const TypePtr &T, int64_t K) {
  if (!T || !T->isArray() || !provablyMultiple(*T->Len, K))
    return nullptr;
  if (T->Len->K == funil::Size::Const)
    return i64(T->Len->Value / K);
  ExprPtr N = sizeToExpr(*T->Len);
  return N ? Expr::call("sdiv", {N, i64(K)}) : nullptr;
}

/// True when \p Fn is \r => mapSeq(f, r) with r not free in f.
bool isRowMapSeq(const ExprPtr &Fn) {
  if (!isLambda(Fn, 1))
    return false;
  const ExprPtr &Body = Fn->body();
  if (!Body->isCall("mapSeq") || Body->Args[1]->K != Expr::Var ||
      Body->Args[1]->Name != Fn->Params[0].Name)
    return false;
  std::set<std::string> Free;
  funil::freeVars(*Body->Args[0], Free);
  return !Free.count(Fn->Params[0].Name);
}

} // namespace

Rule coalesceMapRule(int64_t S) {
  Rule R;
  R.Name = S == 4 ? "coalesce-mapGlobal" : "coalesce-mapGlobal-" + std::to_string(S);
  R.Family = "coalescing";
  R.Context = AppliesIn::Host;
  R.Doc = "mapGlobal(d, f, a) -> reorderStride(n/" + std::to_string(S) +
          ", mapGlobal(d, f, reorderStride(" + std::to_string(S) +
          ", a))), n the length of a, a multiple of " + std::to_string(S);
  R.Roots = {"mapGlobal"};
  R.Match = [](const ExprPtr &E, Bindings &B) {
    if (!E->isCall("mapGlobal") || !isLambda(E->Args[0], 1) ||
        E->Args[1]->isCall("reorderStride"))
      return false;
    B["m"] = E;
    B["a"] = E->Args[1];
    return true;
  };
  R.Build = [S](const Bindings &B, RuleContext &Ctx) -> ExprPtr {
    ExprPtr Inv = lengthOver(Ctx.typeOf(B.at("a")), S);
    if (!Inv)
      return nullptr;
    const ExprPtr &M = B.at("m");
    ExprPtr In = Expr::call("reorderStride", {i64(S), B.at("a")});
    return Expr::call("reorderStride", {Inv, remap(*M, M->Args[0], In)});
  };
  return R;
}

Rule coalesceChunksRule() {
  Rule R;
  R.Name = "coalesce-chunks";
  R.Family = "coalescing";
  R.Context = AppliesIn::Host;
  R.Doc = "join(mapGlobal(d, \\r => mapSeq(f, r), split(k, a))) -> reorderStride(k, "
          "join(mapGlobal(d, \\r => mapSeq(f, r), split(k, reorderStride(n/k, a))))), k a "
          "literal, n the length of a, a multiple of k";
  R.Roots = {"join"};
  R.Match = [](const ExprPtr &E, Bindings &B) {
    if (!E->isCall("join") || !E->Args[0]->isCall("mapGlobal"))
      return false;
    const ExprPtr &M = E->Args[0];
    if (!isRowMapSeq(M->Args[0]) || !M->Args[1]->isCall("split") ||
        M->Args[1]->Args[0]->K != Expr::Lit || M->Args[1]->Args[0]->signedValue() <= 0 ||
        M->Args[1]->Args[1]->isCall("reorderStride"))
      return false;
    B["m"] = M;
    B["k"] = M->Args[1]->Args[0];
    B["a"] = M->Args[1]->Args[1];
    return true;
  };
  R.Build = [](const Bindings &B, RuleContext &Ctx) -> ExprPtr {
    int64_t K = B.at("k")->signedValue();
    ExprPtr Chunks = lengthOver(Ctx.typeOf(B.at("a")), K); // s = n/k
    if (!Chunks)
      return nullptr;
    const ExprPtr &M = B.at("m");
    ExprPtr In = Expr::call("split", {B.at("k"), Expr::call("reorderStride", {Chunks, B.at("a")})});
    return Expr::call("reorderStride",
                      {B.at("k"), Expr::call("join", {remap(*M, M->Args[0], In)})});
  };
  return R;
}

const std::vector<Rule> &coalescingRules() {
  static const std::vector<Rule> Rules = {coalesceMapRule(4), coalesceChunksRule()};
  return Rules;
}

} // namespace idiom::rewrite
