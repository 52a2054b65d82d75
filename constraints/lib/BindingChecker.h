//===- BindingChecker.h - Which variables are bound where -------*- C++ -*-===//
//
// Internal to the constraints library. The second static pass: follows the
// solver's left-to-right order and checks that every atom argument the atom
// cannot generate is bound when the atom is reached, that generators can
// generate their quantified variable, that `not` and `=` see bound
// variables, and which parameters a constraint call binds.
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_CONSTRAINTS_LIB_BINDINGCHECKER_H
#define IDIOM_CONSTRAINTS_LIB_BINDINGCHECKER_H

#include "idiom/Constraints/Diagnostic.h"
#include "idiom/Constraints/Spec.h"
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace idiom::constraints {

/// Binding analysis of resolved definitions. Results for each calling mode
/// of a constraint are cached. The definitions must not be recursive.
class BindingChecker {
public:
  /// The outcome of running a definition with some parameters bound.
  struct Mode {
    bool Ok = true;      ///< no argument is unbound where it must be bound
    std::string Problem; ///< the first problem, with its FILE:LINE:COL
    std::vector<bool> BoundAfter; ///< per parameter: bound after success
  };

  /// Checks \p D as written: a constraint with all parameters bound, an
  /// idiom with only its entry bound. Reports errors to \p Diags and returns
  /// false if there was one.
  bool checkDefinition(const Definition &D, std::vector<Diagnostic> &Diags);

  /// The mode of calling constraint \p D with parameters bound as in
  /// \p ParamBound (no diagnostics; see Mode::Problem).
  Mode callMode(const Definition &D, const std::vector<bool> &ParamBound);

private:
  Mode analyze(const Definition &D, const std::vector<bool> &ParamBound,
               std::vector<Diagnostic> *Diags);

  std::map<std::pair<const Definition *, std::vector<bool>>, Mode> Cache;
  std::map<std::pair<const Definition *, std::vector<bool>>, bool> Active;
};

} // namespace idiom::constraints

#endif // IDIOM_CONSTRAINTS_LIB_BINDINGCHECKER_H
