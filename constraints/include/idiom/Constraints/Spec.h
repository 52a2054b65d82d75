//===- Spec.h - Loaded constraint and idiom definitions ---------*- C++ -*-===//
//
// A SpecLibrary holds the constraints and idioms of any number of spec texts
// (see docs/ConstraintLanguage.md). Loading a text parses it, resolves every
// call against the atoms and the constraints already known, and runs the
// static checks; a definition with an error is dropped (with a diagnostic at
// FILE:LINE:COL) and the others stay.
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_CONSTRAINTS_SPEC_H
#define IDIOM_CONSTRAINTS_SPEC_H

#include "idiom/Constraints/Atom.h"
#include "idiom/Constraints/Diagnostic.h"
#include "idiom/Constraints/Formula.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include <memory>
#include <string>
#include <vector>

namespace idiom::constraints {

/// One `constraint` or `idiom` definition.
struct Definition {
  /// Which keyword introduced the definition.
  enum class Kind { Constraint, Idiom };
  Kind K = Kind::Constraint;
  std::string Name;                ///< may contain '-' for idioms
  std::vector<std::string> Params; ///< for an idiom, Params[0] is the entry
  std::vector<SourceLoc> ParamLocs; ///< where each parameter is declared
  /// Idioms: the lifter / FunIL template named after `lifts`; empty when the
  /// idiom is only detected and reported.
  std::string Lifts;
  std::string File; ///< the file name the text was loaded under
  unsigned Line = 0; ///< line of the definition's name
  unsigned Col = 0;  ///< column of the definition's name
  std::unique_ptr<Formula> Body; ///< the formula after '='

  /// Variable slots, numbered when the definition is loaded: the parameters
  /// (0 .. Params.size()-1), then the other named variables of the
  /// definition (up to NumNamed), then one slot per quantified variable and
  /// per `_`.
  unsigned NumSlots = 0;
  /// Slots [0, NumNamed) are the named variables of the definition itself.
  unsigned NumNamed = 0;
  /// Name of each slot ("_" for anonymous ones).
  std::vector<std::string> SlotNames;

  /// True for an `idiom` definition.
  bool isIdiom() const { return K == Kind::Idiom; }
};

/// An `idiom` definition: a Definition whose K is Kind::Idiom.
using IdiomDef = Definition;
/// A `constraint` definition: a Definition whose K is Kind::Constraint.
using ConstraintDef = Definition;

/// Prints \p D back in spec syntax (one line for the body), for dumps/tests.
std::string printDefinition(const Definition &D);

/// The loaded definitions. Definitions never move once added, so pointers to
/// them stay valid for the life of the library.
class SpecLibrary {
public:
  /// An empty library.
  SpecLibrary();
  ~SpecLibrary();
  /// Libraries move (definitions keep their addresses) but do not copy.
  SpecLibrary(SpecLibrary &&);
  /// Moves \p Other's definitions into this library, replacing its own.
  SpecLibrary &operator=(SpecLibrary &&Other);

  /// Parses \p Text (named \p File in diagnostics), checks it, and adds its
  /// definitions. Appends errors and warnings to \p Diags. Returns false if
  /// there was any error; the definitions with errors are dropped and the
  /// others are kept. Calls may refer to constraints defined earlier in the
  /// same text, later in the same text, or in texts added before. \p Atoms
  /// must outlive the library (calls keep pointers to its atoms).
  bool addSpecText(llvm::StringRef File, llvm::StringRef Text,
                   const AtomRegistry &Atoms, std::vector<Diagnostic> &Diags);
  /// Reads the file at \p Path and calls addSpecText on it; a file that
  /// cannot be read is one error at "PATH:0:0".
  bool addSpecFile(llvm::StringRef Path, const AtomRegistry &Atoms,
                   std::vector<Diagnostic> &Diags);

  /// All idioms, in load order.
  std::vector<const IdiomDef *> idioms() const;
  /// All constraints, in load order.
  std::vector<const ConstraintDef *> constraints() const;
  /// The idiom called \p Name, or null.
  const IdiomDef *lookupIdiom(llvm::StringRef Name) const;
  /// The constraint called \p Name, or null.
  const ConstraintDef *lookupConstraint(llvm::StringRef Name) const;

private:
  std::vector<std::unique_ptr<Definition>> Defs; ///< in load order
  llvm::StringMap<const Definition *> Constraints;
  llvm::StringMap<const Definition *> Idioms;
};

} // namespace idiom::constraints

#endif // IDIOM_CONSTRAINTS_SPEC_H
