//===- StencilCache.cpp - Stencil analyses shared by the atoms ------------===//

#include "idiom/Constraints/StencilCache.h"
#include "idiom/Constraints/Atom.h"

using namespace llvm;

namespace idiom::constraints {

const StencilLoopFacts &StencilCache::get(Loop *L, ScalarEvolution &SE) {
  std::unique_ptr<StencilLoopFacts> &E = Entries[L];
  if (E)
    return *E;
  E = std::make_unique<StencilLoopFacts>();
  E->Nest = analyzeStencilNest(L, SE, E->NestWhy);
  if (E->Nest)
    E->AccessesOk = collectStencilAccesses(*E->Nest, SE, E->Reads, E->Writes,
                                           E->AccessesWhy, &E->Irregular);
  return *E;
}

const StencilLoopFacts &stencilFacts(MatchEnv &Env, Loop *L,
                                     StencilCache &Scratch) {
  return (Env.Stencils ? *Env.Stencils : Scratch).get(L, Env.SE);
}

} // namespace idiom::constraints
