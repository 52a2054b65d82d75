//===- SpecParser.h - Parser of spec texts ----------------------*- C++ -*-===//
//
// Turns a spec text into definitions (syntax only: names are not resolved and
// no static check runs; SpecLibrary::addSpecText does that). The grammar is
// in docs/ConstraintLanguage.md.
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_CONSTRAINTS_SPECPARSER_H
#define IDIOM_CONSTRAINTS_SPECPARSER_H

#include "idiom/Constraints/Diagnostic.h"
#include "idiom/Constraints/Spec.h"
#include "llvm/ADT/StringRef.h"
#include <memory>
#include <vector>

namespace idiom::constraints {

/// Deepest nesting of formulas (parentheses, `not`, quantifiers) accepted;
/// deeper input is a syntax error rather than a stack overflow.
inline constexpr unsigned MaxFormulaDepth = 200;

/// Parses \p Text, named \p File in diagnostics. A definition with a syntax
/// error is reported in \p Diags and left out; parsing resumes at the next
/// `;` or `constraint` / `idiom` keyword. The returned definitions have File,
/// Line, Col, Params and Body set; slots and callees are not assigned yet.
std::vector<std::unique_ptr<Definition>>
parseSpecText(llvm::StringRef File, llvm::StringRef Text,
              std::vector<Diagnostic> &Diags);

} // namespace idiom::constraints

#endif // IDIOM_CONSTRAINTS_SPECPARSER_H
