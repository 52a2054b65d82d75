//===- lowering.cpp - OpenCL lowering rules --------------------------------===//
//
// Part of Idiom. The OpenCL-specific rules of seeds/004, figure 7: map onto
// the thread hierarchy (7a), reduce -> reduceSeq (7b), and, as a macro rule
// (seeds/004 section 6.1), the two-stage work-group reduction derived in
// figure 10 with the local-memory tree of seeds/003.
//
//===----------------------------------------------------------------------===//

#include "../RuleHelpers.h"
#include "idiom/Rewrite/Rules.h"

namespace idiom::rewrite {

using namespace detail;

namespace {

Rule mapTo(const char *Name, const char *Prim, int64_t Dim, AppliesIn Ctx,
           const char *Doc) {
  Rule R;
  R.Name = Name;
  R.Family = "lowering";
  R.Doc = Doc;
  R.Context = Ctx;
  R.Roots = {"map"};
  R.Match = [](const ExprPtr &E, Bindings &B) {
    if (!E->isCall("map"))
      return false;
    B["f"] = E->Args[0];
    B["a"] = E->Args[1];
    return true;
  };
  std::string P = Prim;
  R.Build = [P, Dim](const Bindings &B, RuleContext &) {
    return mapCall(P.c_str(), B.at("f"), B.at("a"), Dim);
  };
  return R;
}

/// \p E, a nest of \p D + 1 maps (checked by mapNest), with map level k
/// from the inside lowered to mapGlobal(k, ...).
ExprPtr lowerMapNest(const ExprPtr &E, unsigned D) {
  if (D == 0)
    return mapCall("mapGlobal", E->Args[0], E->Args[1], 0);
  const ExprPtr &F = E->Args[0];
  return mapCall("mapGlobal", Expr::lambda(F->Params, lowerMapNest(F->body(), D - 1), F->Loc),
                 E->Args[1], D);
}

/// True when \p E is \p Depth maps each directly in the lambda of the one
/// before: map(\x => map(\y => ... map(g, e) ..., b), a).
bool mapNest(const ExprPtr &E, unsigned Depth) {
  if (!E->isCall("map"))
    return false;
  if (Depth == 1)
    return true;
  return isLambda(E->Args[0], 1) && mapNest(E->Args[0]->body(), Depth - 1);
}

/// A nest of \p Dims maps on an NDRange of Dims dimensions: the outermost
/// loop on dimension Dims - 1, the innermost on 0. Dims 2:
/// map(\r => map(g, e), a) -> mapGlobal(1, \r => mapGlobal(0, g, e), a);
/// Dims 3 (a 3-D map, one launch per nest, not one per plane):
/// map(\p => map(\r => map(g, e), x), a) ->
/// mapGlobal(2, \p => mapGlobal(1, \r => mapGlobal(0, g, e), x), a).
Rule mapToGlobalNest(unsigned Dims, const char *Name, const char *Doc) {
  Rule R;
  R.Name = Name;
  R.Family = "lowering";
  R.Doc = Doc;
  R.Context = AppliesIn::Host;
  R.Roots = {"map"};
  R.Match = [Dims](const ExprPtr &E, Bindings &B) {
    if (!mapNest(E, Dims))
      return false;
    B["f"] = E->Args[0];
    B["a"] = E->Args[1];
    return true;
  };
  R.Build = [Dims](const Bindings &B, RuleContext &) {
    return lowerMapNest(Expr::call("map", {B.at("f"), B.at("a")}), Dims - 1);
  };
  return R;
}

/// The walks' side condition: the mapped array "a" splits into chunks of
/// \p N (N >= 2 divides a constant length; a symbolic one is accepted, the
/// generator completes the ragged last chunk).
bool splitsIntoChunks(const Bindings &B, const RuleContext &Ctx, int64_t N) {
  TypePtr T = Ctx.typeOf(B.at("a"));
  return N >= 2 && T && T->isArray() &&
         (T->Len->K != funil::Size::Const || T->Len->Value % N == 0);
}

/// A walk (the plane and row walks below): map(f, a) over a nest of
/// \p Depth maps (exactly \p Depth when \p Exact) ->
/// join(mapGlobal(Dim, \c => mapSeq(Elem(f), c), split(N, a))): one
/// work-item per chunk of \p N elements of a, walking them in sequence,
/// with \p Elem lowering f as the walk wants it. Named \p Base, with
/// "-N" appended unless N is 16.
Rule chunkWalk(const std::string &Base, std::string Doc, int64_t N,
               unsigned Depth, bool Exact, int64_t Dim,
               ExprPtr (*Elem)(const ExprPtr &F)) {
  Rule R;
  R.Name = N == 16 ? Base : Base + "-" + std::to_string(N);
  R.Family = "lowering";
  R.Doc = std::move(Doc);
  R.Context = AppliesIn::Host;
  R.Roots = {"map"};
  R.Match = [Depth, Exact](const ExprPtr &E, Bindings &B) {
    if (!mapNest(E, Depth) || (Exact && mapNest(E, Depth + 1)))
      return false;
    B["f"] = E->Args[0];
    B["a"] = E->Args[1];
    return true;
  };
  R.Condition = [N](const Bindings &B, const RuleContext &Ctx) {
    return splitsIntoChunks(B, Ctx, N);
  };
  R.Build = [N, Dim, Elem](const Bindings &B, RuleContext &Ctx) -> ExprPtr {
    ExprPtr F = Elem(B.at("f"));
    TypePtr T = Ctx.typeOf(B.at("a"));
    ExprPtr Chunk = lambda1(Ctx, "c", Type::array(T->Elem, funil::Size::constant(N)),
                            [&](ExprPtr C) { return mapCall("mapSeq", F, C); });
    return Expr::call("join", {mapCall("mapGlobal", Chunk,
                                       Expr::call("split", {i64(N), B.at("a")}), Dim)});
  };
  return R;
}

} // namespace

Rule mapWalk3dRule(int64_t Planes) {
  // Each plane p: mapGlobal(1, \r => mapGlobal(0, g, e), x).
  auto Plane = [](const ExprPtr &F) {
    return Expr::lambda(F->Params, lowerMapNest(F->body(), 1), F->Loc);
  };
  return chunkWalk("map-to-mapGlobal-3d-walk",
                   "map(\\p => map(\\r => map(g, e), x), a) -> join(mapGlobal(2, \\c => "
                   "mapSeq(\\p => mapGlobal(1, \\r => mapGlobal(0, g, e), x), c), split(" +
                       std::to_string(Planes) + ", a)))",
                   Planes, 3, /*Exact=*/false, 2, Plane);
}

Rule mapRowWalk2dRule(int64_t Rows) {
  // Exactly two levels: a 3-D nest is the plane walk's. Each row stays a
  // map (the generator walks it).
  auto Row = [](const ExprPtr &F) { return F; };
  return chunkWalk("map-to-mapGlobal-2d-rows",
                   "map(\\r => map(g, e), a) -> join(mapGlobal(0, \\c => mapSeq(\\r => "
                   "map(g, e), c), split(" +
                       std::to_string(Rows) + ", a)))",
                   Rows, 2, /*Exact=*/true, 0, Row);
}

namespace {

Rule reduceToSeq() {
  Rule R;
  R.Name = "reduce-to-reduceSeq";
  R.Family = "lowering";
  R.Doc = "reduce(f, z, a) -> reduceSeq(f, z, a), inside one work-item";
  R.Context = AppliesIn::Thread;
  R.Roots = {"reduce"};
  R.Match = [](const ExprPtr &E, Bindings &B) {
    if (!E->isCall("reduce"))
      return false;
    B["e"] = E;
    return true;
  };
  R.Build = [](const Bindings &B, RuleContext &) {
    return Expr::call("reduceSeq", B.at("e")->Args);
  };
  return R;
}

/// The function one work-group applies to its rows: a per-work-item
/// reduceSeq into local memory, then the halving tree (workGroupTree).
ExprPtr groupFunction(RuleContext &Ctx, const ExprPtr &F, const ExprPtr &Z,
                      const TypePtr &Elem) {
  TypePtr Row = Type::array(Elem, funil::Size::unknown());
  ExprPtr PerItem = lambda1(Ctx, "c", Row, [&](ExprPtr C) {
    return Expr::call("reduceSeq", {F, Z, C});
  });
  return workGroupTree(Ctx, F, Z, Elem, Row, PerItem);
}

/// reduce(f, z, a) -> the two-stage reduction (seeds/004 figure 10 and
/// section 5; seeds/003): stage one partitions a over G work-groups of L
/// work-items, each group writes one partial to global memory; stage two
/// reduces the partials with one work-group. \p Partition is how stage one
/// deals the elements to the G*L work-items: "strided" (grid stride:
/// neighbouring work-items read neighbouring elements, coalesced on GPUs)
/// or "blocks" (each work-item a contiguous block: one stream per thread,
/// what CPUs prefer; seeds/004 section 6, figure 11).
Rule reduceTwoStage(const std::string &Partition) {
  Rule R;
  R.Name = Partition == "strided" ? "reduce-two-stage" : "reduce-two-stage-" + Partition;
  R.Family = "lowering";
  R.Doc = "reduce(f, z, a) -> at(mapWorkgroup(0, G, split(localSize(0), "
          "strided(localSize(0), toGlobal(mapWorkgroup(0, G, split(localSize(0), " +
          Partition + "(globalSize(0), a))))))), 0), G = the per-group tree";
  R.Context = AppliesIn::Host;
  R.Roots = {"reduce"};
  R.Match = [](const ExprPtr &E, Bindings &B) {
    if (!E->isCall("reduce") || !isLambda(E->Args[0], 2))
      return false;
    B["f"] = E->Args[0];
    B["z"] = E->Args[1];
    B["a"] = E->Args[2];
    return true;
  };
  R.Build = [Partition](const Bindings &B, RuleContext &Ctx) -> ExprPtr {
    TypePtr A = Ctx.typeOf(B.at("a"));
    if (!A || !A->isArray())
      return nullptr;
    const ExprPtr &F = B.at("f"), &Z = B.at("z");
    ExprPtr L0 = Expr::call("localSize", {}, 0);
    ExprPtr G0 = Expr::call("globalSize", {}, 0);
    ExprPtr Stage1 = mapCall(
        "mapWorkgroup", groupFunction(Ctx, F, Z, A->Elem),
        Expr::call("split", {L0, Expr::call(Partition, {G0, B.at("a")})}), 0);
    ExprPtr Stage2 = mapCall(
        "mapWorkgroup", groupFunction(Ctx, F, Z, A->Elem),
        Expr::call("split",
                   {L0, Expr::call("strided", {L0, Expr::call("toGlobal", {Stage1})})}),
        0);
    return Expr::call("at", {Stage2, i64(0)});
  };
  return R;
}

} // namespace

const std::vector<Rule> &loweringRules() {
  static const std::vector<Rule> Rules = {
      mapToGlobalNest(3, "map-to-mapGlobal-3d",
                      "map(\\p => map(\\r => map(g, e), x), a) -> "
                      "mapGlobal(2, \\p => mapGlobal(1, \\r => mapGlobal(0, g, e), x), a)"),
      mapWalk3dRule(16),
      mapRowWalk2dRule(16),
      mapToGlobalNest(2, "map-to-mapGlobal-2d",
                      "map(\\r => map(g, e), a) -> mapGlobal(1, \\r => mapGlobal(0, g, e), a)"),
      mapTo("map-to-mapGlobal", "mapGlobal", 0, AppliesIn::Host,
            "map(f, a) -> mapGlobal(0, f, a), outside every parallel map"),
      mapTo("map-to-mapSeq", "mapSeq", -1, AppliesIn::Thread,
            "map(f, a) -> mapSeq(f, a), inside one work-item"),
      mapTo("map-to-mapWorkgroup", "mapWorkgroup", 0, AppliesIn::Host,
            "map(f, a) -> mapWorkgroup(0, f, a), outside every parallel map"),
      mapTo("map-to-mapLocal", "mapLocal", 0, AppliesIn::Workgroup,
            "map(f, a) -> mapLocal(0, f, a), inside a mapWorkgroup"),
      reduceToSeq(),
      reduceTwoStage("strided"),
      reduceTwoStage("blocks"),
  };
  return Rules;
}

} // namespace idiom::rewrite
