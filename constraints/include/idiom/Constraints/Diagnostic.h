//===- Diagnostic.h - Errors and warnings about spec files ------*- C++ -*-===//
//
// Problems found while loading a spec file: syntax errors and the static
// checks of docs/ConstraintLanguage.md. Each one points at FILE:LINE:COL.
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_CONSTRAINTS_DIAGNOSTIC_H
#define IDIOM_CONSTRAINTS_DIAGNOSTIC_H

#include <string>

namespace idiom::constraints {

/// A position in a spec text; both numbers start at 1 (0 means unknown).
/// Columns count bytes, a tab counts as one.
struct SourceLoc {
  unsigned Line = 0; ///< 1-based line
  unsigned Col = 0;  ///< 1-based column
};

/// One error or warning about a spec text.
struct Diagnostic {
  std::string File;    ///< the name the text was loaded under
  unsigned Line = 0;   ///< 1-based line
  unsigned Col = 0;    ///< 1-based column
  bool IsError = true; ///< false: a warning (the definition still loads)
  std::string Message; ///< one line, no trailing period

  /// "FILE:LINE:COL: error: MESSAGE" (or "warning:"), the form compilers use.
  std::string str() const;
};

} // namespace idiom::constraints

#endif // IDIOM_CONSTRAINTS_DIAGNOSTIC_H
