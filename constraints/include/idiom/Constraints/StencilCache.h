//===- StencilCache.h - Stencil analyses shared by the atoms ----*- C++ -*-===//
//
// The stencil atoms (StencilAtoms.cpp) relate one access of a loop nest to
// all the others: ConstantOffsetRead runs once per read, JacobiWrite once
// per store, and each needs the nest and the list of its accesses. Made
// afresh per atom call, that list made the search over one loop quadratic
// in the loop's statements. The IR does not change during detection, so
// the analyses of a loop are made once per function and kept here (entries
// hold IR pointers: one cache per function's detection, like NestCache).
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_CONSTRAINTS_STENCILCACHE_H
#define IDIOM_CONSTRAINTS_STENCILCACHE_H

#include "idiom/Constraints/StencilFacts.h"
#include "llvm/ADT/DenseMap.h"
#include <memory>
#include <optional>
#include <string>

namespace idiom::constraints {

struct MatchEnv;

/// The stencil analyses of the nest rooted at one loop.
struct StencilLoopFacts {
  std::optional<StencilNest> Nest; ///< analyzeStencilNest
  std::string NestWhy;             ///< why Nest is absent
  /// collectStencilAccesses (with irregular accesses) succeeded; only tried
  /// when Nest is present.
  bool AccessesOk = false;
  std::string AccessesWhy; ///< why it failed
  llvm::SmallVector<StencilAccess, 8> Reads;
  llvm::SmallVector<StencilAccess, 2> Writes;
  /// Loads and stores whose address is not affine (each relation judges
  /// them itself).
  llvm::SmallVector<StencilAccess, 2> Irregular;
};

/// StencilLoopFacts by loop, made on first use.
class StencilCache {
public:
  /// The facts of the nest rooted at \p L.
  const StencilLoopFacts &get(llvm::Loop *L, llvm::ScalarEvolution &SE);

private:
  llvm::DenseMap<llvm::Loop *, std::unique_ptr<StencilLoopFacts>> Entries;
};

/// The facts of \p L from Env.Stencils, or, when the environment has no
/// cache, from \p Scratch (which must outlive the use of the result).
const StencilLoopFacts &stencilFacts(MatchEnv &Env, llvm::Loop *L,
                                     StencilCache &Scratch);

} // namespace idiom::constraints

#endif // IDIOM_CONSTRAINTS_STENCILCACHE_H
