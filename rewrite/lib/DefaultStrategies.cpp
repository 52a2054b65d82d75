//===- DefaultStrategies.cpp - the strategies the generator uses ----------===//
//
// Part of Idiom.
//
//===----------------------------------------------------------------------===//

#include "idiom/Rewrite/DefaultStrategies.h"

#include "idiom/Rewrite/Histogram.h"
#include "idiom/Rewrite/Rules.h"

namespace idiom::rewrite {

namespace {
Strategy rules(std::initializer_list<const char *> Names) {
  std::vector<const Rule *> Rs;
  for (const char *N : Names)
    Rs.push_back(findRule(N));
  return ruleChoice(std::move(Rs));
}

} // namespace

// The strategies keep no state between calls: each is built once (their
// copies share the rule tables) instead of looking its rules up by name on
// every call.

Strategy fusionStrategy() {
  // Maps under views that only rearrange elements move out (views.cpp), so
  // that they fuse and no view argument is left holding a map.
  static const Strategy S =
      normalize(rules({"map-fusion", "proj-tuple", "transpose-map", "reorder-map",
                       "reorderStride-map", "padClamp-map", "slide-map"}));
  return S;
}

Strategy compensationStrategy() {
  static const Strategy S = tryStrategy(ruleStrategy(*findRule("compensate")));
  return S;
}

Strategy atReduction(Strategy S) {
  return [S = std::move(S)](const ExprPtr &E, RuleContext &Ctx) -> ExprPtr {
    if (!E->isCall("apply"))
      return S(E, Ctx);
    ExprPtr X = S(E->Args[1], Ctx);
    return X ? funil::withArgs(*E, {E->Args[0], X}) : nullptr;
  };
}

const ExprPtr &reductionOf(const ExprPtr &Body) {
  return Body->isCall("apply") ? Body->Args[1] : Body;
}

Strategy mapToGlobalStrategy() {
  static const Strategy S =
      normalize(rules({"map-to-mapGlobal-3d", "map-to-mapGlobal-2d", "map-to-mapGlobal"}));
  return S;
}

Strategy sequentialiseStrategy() {
  static const Strategy S =
      normalize(rules({"split-map", "strided-map", "blocks-map", "map-fusion",
                       "map-to-mapSeq", "reduce-to-reduceSeq", "map-reduce-fusion",
                       "proj-tuple"}));
  return S;
}

Strategy mapStrategy() {
  return sequence({fusionStrategy(), mapToGlobalStrategy(), sequentialiseStrategy()});
}

Strategy reduceStrategy() {
  return sequence({compensationStrategy(), fusionStrategy(),
                   atReduction(ruleStrategy(*findRule("reduce-two-stage"))),
                   sequentialiseStrategy()});
}

std::vector<std::string> strategyNames() {
  return {"default", "map", "reduce", "none"};
}

Strategy strategyByName(const std::string &Name, const funil::Program &P,
                        std::string &Err) {
  if (Name == "default" && isHistogramProgram(P))
    return histogramStrategy(false, 1);
  if (Name == "default")
    return P.IsReturn ? reduceStrategy() : mapStrategy();
  if (Name == "map")
    return mapStrategy();
  if (Name == "reduce")
    return reduceStrategy();
  if (Name == "none")
    return identity();
  Err = "unknown strategy '" + Name + "'";
  return Strategy();
}

bool lowerProgram(funil::Program &P, std::string &Err,
                  std::vector<std::string> *Trace) {
  if (isHistogramProgram(P))
    return rewriteProgram(P, histogramStrategy(false, 1), Err, Trace);
  return rewriteProgram(P, P.IsReturn ? reduceStrategy() : mapStrategy(), Err,
                        Trace);
}

} // namespace idiom::rewrite
