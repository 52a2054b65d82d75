//===- IdiomMatch.h - What the lifter needs from a detected idiom -*- C++ -*-===//
//
// The contract between constraints/ and the lifting bridge in passes/: a spec
// decides *whether* a loop nest is an idiom; buildIdiomMatch extracts *what*
// it computes (nest, affine accesses, reductions) from the same analyses the
// atoms used, and re-checks the legality facts the chosen lifter relies on, so
// a permissive user spec can never make the offload unsound.
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_CONSTRAINTS_IDIOMMATCH_H
#define IDIOM_CONSTRAINTS_IDIOMMATCH_H

#include "idiom/Constraints/Atom.h"
#include "idiom/Constraints/LoopFacts.h"
#include <optional>
#include <string>

namespace idiom {

/// The FunIL template families a lifter exists for. Gemm: a chain of three
/// loops computing C = POST(sum_k STEP, C) per element (the GEMM lifter,
/// passes/lift/GemmLifting.h, analyses and checks the nest itself).
enum class IdiomKind { ScalarReduction, Map, Gemm };

/// A detected idiom, ready to lift.
struct IdiomMatch {
  IdiomKind Kind = IdiomKind::Map;
  std::string SpecName;                       ///< e.g. "scalar-reduction"
  NestInfo Nest;
  llvm::SmallVector<AffineAccess, 8> Accesses; ///< every load and store
  llvm::SmallVector<ReductionInfo, 2> Reductions; ///< header phi order
  bool FPReassociated = false; ///< a floating-point reduction is reordered
};

/// Options that change what may be lifted.
struct LiftOptions {
  bool AllowFPReassoc = true; ///< -idiom-fp-reassoc
  unsigned Z3TimeoutMs = 2000;
};

/// Builds the match for the idiom \p Lifts ("reduction", "map" or "gemm") on loop
/// \p L. Returns nothing and sets \p Why when the loop cannot be lifted with
/// that template.
std::optional<IdiomMatch> buildIdiomMatch(llvm::StringRef Lifts,
                                          llvm::StringRef SpecName,
                                          llvm::Loop *L,
                                          constraints::MatchEnv &Env,
                                          const LiftOptions &Opts,
                                          std::string &Why);

} // namespace idiom

#endif // IDIOM_CONSTRAINTS_IDIOMMATCH_H
