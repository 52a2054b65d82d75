//===- FactCache.cpp - Analyses shared by the atoms of one function -------===//

#include "idiom/Constraints/FactCache.h"

using namespace llvm;

namespace idiom::constraints {

std::optional<NestInfo> NestCache::get(Loop *L, ScalarEvolution &SE,
                                       std::string &Why) {
  auto It = Entries.find(L);
  if (It == Entries.end()) {
    Entry E;
    E.Nest = analyzeNest(L, SE, E.Why);
    It = Entries.try_emplace(L, std::move(E)).first;
  }
  if (!It->second.Nest)
    Why = It->second.Why;
  return It->second.Nest;
}

std::optional<NestInfo> cachedNest(MatchEnv &Env, Loop *L, std::string &Why) {
  if (Env.Nests)
    return Env.Nests->get(L, Env.SE, Why);
  return analyzeNest(L, Env.SE, Why);
}

} // namespace idiom::constraints
