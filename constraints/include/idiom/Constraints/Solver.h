//===- Solver.h - Backtracking search for idiom instances -------*- C++ -*-===//
//
// Finds values for the variables of an idiom so that its formula holds in a
// function: a depth-first, left-to-right search that asks atoms to enumerate
// or check tuples, inlines constraint calls with renaming, and undoes
// bindings on backtracking. The order of solutions is deterministic. When no
// solution exists it reports the failure that got furthest (a near miss).
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_CONSTRAINTS_SOLVER_H
#define IDIOM_CONSTRAINTS_SOLVER_H

#include "idiom/Constraints/Atom.h"
#include "idiom/Constraints/Spec.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringMap.h"
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace idiom::constraints {

/// One solution of an idiom.
struct Match {
  const IdiomDef *Idiom = nullptr; ///< the idiom that matched
  Term Entry;                      ///< the term its first parameter was given
  /// Every named variable of the idiom's own definition (parameters and
  /// existential variables, not the variables of called constraints nor
  /// quantified ones), by name. A variable that the solution left unbound
  /// (bound only in an `or` branch not taken) maps to an unbound Term.
  llvm::StringMap<Term> Bindings;

  /// The binding of \p Name, or null when the idiom has no such variable.
  const Term *lookup(llvm::StringRef Name) const;
};

/// Why an idiom did not match an entry: the failure that got furthest.
struct NearMiss {
  const IdiomDef *Idiom = nullptr; ///< the idiom tried
  Term Entry;                      ///< the entry term it was tried on
  /// The failing construct in spec syntax, e.g. "AffineAddress(ld, loop)" or
  /// "not HasSideEffects(loop)" (variables named as in its definition).
  std::string FailedAtom;
  std::string File;  ///< where the failing construct is written
  unsigned Line = 0; ///< its line
  unsigned Col = 0;  ///< its column
  /// The atom's reason, or a reason given by the solver for other constructs
  /// ("search budget exhausted" when the step budget ran out).
  std::string WhyNot;
  /// Atoms (and `not`, `=`, `collect`) satisfied on the search path before
  /// the failure, counting those of completed `forall` iterations.
  unsigned Progress = 0;
  /// The arguments of the failing call as the search had them, by their
  /// spelling in FailedAtom (unbound Terms for those it was to generate).
  std::vector<std::pair<std::string, Term>> Args;
  /// Constraint calls leading to the failure, outermost first, each as
  /// "Callee(args) at FILE:LINE:COL".
  std::vector<std::string> CallChain;

  /// "FILE:LINE:COL: FailedAtom: WhyNot", for remarks.
  std::string str() const;
};

/// Limits of one search.
struct SolverOptions {
  /// Atom calls allowed per solve() before giving up with "search budget
  /// exhausted" (treated as no match).
  unsigned MaxAtomCalls = 100000;
  /// Search steps (formula nodes entered plus atom tuples accepted) allowed
  /// per solve(); bounds searches that call few atoms, e.g. `or` chains or
  /// endless generators.
  unsigned MaxSteps = 2000000;
};

/// Solves idioms of a SpecLibrary over the IR described by a MatchEnv.
class Solver {
public:
  /// \p Lib and \p Atoms must outlive the solver.
  Solver(const SpecLibrary &Lib, const AtomRegistry &Atoms,
         SolverOptions Opts = SolverOptions());

  /// Solves \p Idiom with its first parameter bound to \p Entry: the first
  /// solution in search order, or nothing. On failure, fills \p Miss (when
  /// not null) with the failure that got furthest. Works for a constraint
  /// definition too.
  std::optional<Match> solve(MatchEnv &Env, const IdiomDef &Idiom,
                             const Term &Entry, NearMiss *Miss = nullptr);

  /// Calls \p OnMatch for each solution in search order until it returns
  /// false; returns the number of solutions passed. Solutions may repeat
  /// when different search paths bind the same values.
  unsigned solveAll(MatchEnv &Env, const IdiomDef &Idiom, const Term &Entry,
                    llvm::function_ref<bool(const Match &)> OnMatch,
                    NearMiss *Miss = nullptr);

  /// Atom calls made by the last solve() or solveAll().
  unsigned lastAtomCalls() const { return LastAtomCalls; }
  /// True when the last search stopped because the budget ran out.
  bool lastBudgetExhausted() const { return LastExhausted; }

private:
  const SpecLibrary &Lib;
  const AtomRegistry &Atoms;
  SolverOptions Opts;
  unsigned LastAtomCalls = 0;
  bool LastExhausted = false;
};

/// Prints \p T for messages and tests: an LLVM value as its name or
/// printed form, a loop as "loop %header", a list as "[a, b]", a string in
/// quotes, an integer, or "_" when unbound.
std::string printTerm(const Term &T);

} // namespace idiom::constraints

#endif // IDIOM_CONSTRAINTS_SOLVER_H
