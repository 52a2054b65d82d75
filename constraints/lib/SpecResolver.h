//===- SpecResolver.h - Names, arities and variable slots -------*- C++ -*-===//
//
// Internal to the constraints library. The first static pass over a parsed
// definition: resolves each call to an atom or a constraint, checks arities,
// scopes quantified variables, numbers variables into slots, and warns about
// variables used only once.
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_CONSTRAINTS_LIB_SPECRESOLVER_H
#define IDIOM_CONSTRAINTS_LIB_SPECRESOLVER_H

#include "idiom/Constraints/Atom.h"
#include "idiom/Constraints/Diagnostic.h"
#include "idiom/Constraints/Spec.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include <vector>

namespace idiom::constraints {

/// Where names used in calls are looked up.
struct NameScope {
  /// The atoms.
  const AtomRegistry &Atoms;
  /// The constraint called \p Name (loaded before, or in the same text).
  llvm::function_ref<const Definition *(llvm::StringRef Name)> Constraint;
  /// True when \p Name is an idiom (to explain that idioms cannot be called).
  llvm::function_ref<bool(llvm::StringRef Name)> IsIdiom;
};

/// Resolves the calls of \p D and numbers its variables (fills
/// Formula::Atom/Constraint, Arg::Slot and D's slot fields). Reports errors
/// and warnings to \p Diags; returns false if there was an error.
bool resolveDefinition(Definition &D, const NameScope &Names,
                       std::vector<Diagnostic> &Diags);

/// Calls \p Fn on every call node in \p F, generators included, in source
/// order.
void forEachCall(const Formula &F,
                 llvm::function_ref<void(const Formula &Call)> Fn);

/// Reports an error at \p Loc of \p D's file.
void reportError(const Definition &D, SourceLoc Loc, const std::string &Msg,
                 std::vector<Diagnostic> &Diags);

/// "FILE:LINE:COL" of \p Loc in \p D's file.
std::string locString(const Definition &D, SourceLoc Loc);

} // namespace idiom::constraints

#endif // IDIOM_CONSTRAINTS_LIB_SPECRESOLVER_H
