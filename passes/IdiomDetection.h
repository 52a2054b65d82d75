//===- IdiomDetection.h - Run the idiom specs over a function ---*- C++ -*-===//
//
// Loads the idiom specs once per process (built-in specs from
// constraints/specs/, then every -idiom-spec=FILE), and solves them over the
// loops of a function, outermost first: a loop inside a matched nest is not
// tried again. For each loop without a match it keeps the near miss that got
// furthest, for -Rpass-missed=idiom-offload.
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_PASSES_IDIOMDETECTION_H
#define IDIOM_PASSES_IDIOMDETECTION_H

#include "idiom/Constraints/IdiomMatch.h"
#include <string>
#include <vector>

namespace llvm {
class Function;
class LoopInfo;
class ScalarEvolution;
class DominatorTree;
class Loop;
} // namespace llvm

namespace idiom {

/// A loop nest matched by an idiom spec.
struct DetectedIdiom {
  llvm::Loop *L = nullptr;
  std::string Spec;  ///< idiom name in the spec
  std::string Lifts; ///< FunIL template named by the spec ("" = report only)
  std::optional<IdiomMatch> Match; ///< set when Lifts names a lifter that succeeded
};

/// A loop that no idiom matched, with the failure that got furthest.
struct MissedLoop {
  llvm::Loop *L = nullptr;
  std::string Spec;   ///< the idiom that got furthest
  std::string Reason; ///< "FILE:LINE:COL: Atom(args): why"
  /// The failing construct of Spec in spec syntax, e.g. "PureCall(call)" or
  /// "not HasSideEffects(loop)"; empty when the miss is not a failing
  /// constraint (an internal error, a template that cannot lift the match).
  std::string Atom;
  std::string AtomLoc; ///< "FILE:LINE:COL" of Atom in its spec, or empty
  std::string WhyNot;  ///< the reason Atom gave, or empty with Atom
};

/// Result of detection over one function.
struct Detection {
  std::vector<DetectedIdiom> Found;
  std::vector<MissedLoop> Missed;
  /// Loops whose per-loop budget of solver queries ran out during detection
  /// (-idiom-loop-z3-queries): some fact was left unproven for want of it.
  std::vector<llvm::Loop *> OverBudget;
  /// Loops whose per-loop budget of atom calls (-idiom-loop-atom-calls) ran
  /// out, with the idiom whose search it stopped (later ones were not
  /// tried).
  std::vector<std::pair<llvm::Loop *, std::string>> OverSearchBudget;
};

/// Default of -idiom-loop-atom-calls: atom calls of the constraint search per
/// loop, over all idioms tried on it. The most any loop took (2026-11-26)
/// over the lit suite's programs, nas-parboil and the 3036-line block solver
/// of bench/gen_block_solver.py is 411; a user spec that pairs every
/// statement of a long loop body with every other stops here.
constexpr unsigned DefaultLoopAtomCalls = 20000;

/// The per-loop budget of atom calls in force (-idiom-loop-atom-calls; 0:
/// none).
unsigned loopAtomCallBudget();

/// Options of the plugin, from cl::opt (see Plugin.cpp).
LiftOptions currentLiftOptions();

/// Starts the per-loop work budget (-idiom-loop-z3-queries) and applies the
/// Z3 resource limit (-idiom-z3-rlimit) for the work on one loop: its
/// detection, or its lifting and translation validation.
void beginLoopWork();

/// Runs every loaded idiom spec over \p F.
Detection detectIdioms(llvm::Function &F, llvm::LoopInfo &LI,
                       llvm::ScalarEvolution &SE, llvm::DominatorTree &DT);

/// "file.c:LINE" for a loop with a debug location, else "file.c:function".
std::string loopLocation(const llvm::Loop &L);

} // namespace idiom

#endif // IDIOM_PASSES_IDIOMDETECTION_H
