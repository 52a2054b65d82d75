//===- FactCache.h - Analyses shared by the atoms of one function -*- C++ -*-===//
//
// Every atom over a loop nest starts from analyzeNest (LoopFacts.h), and one
// loop meets dozens of atoms across the idioms tried on it. The IR does not
// change during detection, so the nest of a loop is computed once per
// function and kept in the MatchEnv. Entries hold IR pointers: a cache lives
// for one function's detection only (IdiomDetection.cpp makes one per call).
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_CONSTRAINTS_FACTCACHE_H
#define IDIOM_CONSTRAINTS_FACTCACHE_H

#include "idiom/Constraints/Atom.h"
#include "idiom/Constraints/LoopFacts.h"
#include "llvm/ADT/DenseMap.h"
#include <optional>
#include <string>

namespace idiom::constraints {

/// analyzeNest results by outermost loop, with the reason of a failure.
class NestCache {
public:
  /// analyzeNest(\p L, \p SE, Why), computed on the first call for \p L.
  /// Like analyzeNest, sets \p Why only on failure.
  std::optional<NestInfo> get(llvm::Loop *L, llvm::ScalarEvolution &SE,
                              std::string &Why);

private:
  struct Entry {
    std::optional<NestInfo> Nest;
    std::string Why;
  };
  llvm::DenseMap<llvm::Loop *, Entry> Entries;
};

/// analyzeNest(L, Env.SE, Why), through Env.Nests when the environment has
/// a cache.
std::optional<NestInfo> cachedNest(MatchEnv &Env, llvm::Loop *L,
                                   std::string &Why);

} // namespace idiom::constraints

#endif // IDIOM_CONSTRAINTS_FACTCACHE_H
