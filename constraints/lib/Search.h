//===- Search.h - The backtracking engine behind Solver ---------*- C++ -*-===//
//
// Internal to the constraints library. Continuation-passing, depth-first
// search over a resolved formula. Each construct calls its continuation once
// per solution, with the solution's bindings in place, and undoes them when
// the continuation returns. A continuation returns true to stop the search.
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_CONSTRAINTS_LIB_SEARCH_H
#define IDIOM_CONSTRAINTS_LIB_SEARCH_H

#include "idiom/Constraints/Solver.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <string>
#include <vector>

namespace idiom::constraints {

/// The variables of one active definition: its slots, mapped into the
/// search's slot stack. A constraint call maps its parameters to the
/// caller's slots (renaming) and gets fresh slots for its own variables.
struct Frame {
  const Definition *Def = nullptr;
  std::vector<unsigned> Map;        ///< definition slot -> Search::Slots index
  const Formula *CallSite = nullptr; ///< the call that made it; null on top
  const Frame *Parent = nullptr;     ///< the caller's frame
};

/// The furthest failure seen so far.
struct MissRecord {
  bool Have = false;               ///< a failure was recorded
  const Formula *F = nullptr;      ///< the failing construct
  const Definition *Def = nullptr; ///< the definition it is written in
  std::string Why;                 ///< NearMiss::WhyNot
  unsigned Progress = 0;           ///< NearMiss::Progress
  std::vector<std::pair<std::string, Term>> Args; ///< NearMiss::Args
  std::vector<std::string> Chain;  ///< NearMiss::CallChain
};

/// One search (one solve() call).
class Search {
public:
  /// Continuation: called once per solution; returns true to stop.
  using Cont = llvm::function_ref<bool()>;

  Search(MatchEnv &Env, const SolverOptions &Opts) : Env(Env), Opts(Opts) {}

  /// Makes the frame of a top-level definition (all slots fresh).
  Frame topFrame(const Definition &D);
  /// Runs \p F in \p Fr; returns true when stopped (by \p K or the budget).
  bool run(const Formula &F, const Frame &Fr, Cont K);

  std::vector<Term> Slots; ///< the variable stack
  unsigned AtomCalls = 0;  ///< atom calls so far
  unsigned Steps = 0;      ///< formula nodes entered and tuples accepted
  bool Aborted = false;    ///< the budget ran out
  MissRecord Best;         ///< the furthest failure

private:
  bool runAnd(const Formula &F, size_t I, const Frame &Fr, Cont K);
  /// Calls the atom or constraint of \p Call with its arguments plus
  /// \p Extra (a quantified variable) when not null.
  bool call(const Formula &Call, const Arg *Extra, const Frame &Fr, Cont K);
  bool callAtom(const Formula &Call, llvm::ArrayRef<const Arg *> Args,
                const Frame &Fr, Cont K);
  bool callConstraint(const Formula &Call, llvm::ArrayRef<const Arg *> Args,
                      const Frame &Fr, Cont K);
  bool runNot(const Formula &F, const Frame &Fr, Cont K);
  bool runForAll(const Formula &F, const Frame &Fr, Cont K);
  bool runCollect(const Formula &F, const Frame &Fr, Cont K);
  bool runEqual(const Formula &F, const Frame &Fr, Cont K);
  /// Continues with \p K counting \p N more satisfied constructs.
  bool advance(unsigned N, Cont K);
  /// Counts one step at \p F; false (and the search aborted) when the
  /// budget is spent.
  bool step(const Formula &F, const Frame &Fr);

  /// The current value of \p A in \p Fr.
  Term valueOf(const Arg &A, const Frame &Fr) const {
    return A.isVariable() ? Slots[Fr.Map[A.Slot]] : A.Const;
  }
  /// Records a failure of \p F unless a failure got as far before.
  void recordMiss(const Formula &F, const Frame &Fr,
                  llvm::ArrayRef<const Arg *> Args, std::string Why,
                  bool Force = false);

  MatchEnv &Env;
  const SolverOptions &Opts;
  unsigned Progress = 0; ///< constructs satisfied on the current path
  unsigned Suppress = 0; ///< >0: failures here are not failures (not, collect)
};

} // namespace idiom::constraints

#endif // IDIOM_CONSTRAINTS_LIB_SEARCH_H
