//===- Parser.h - FunIL text reader -----------------------------*- C++ -*-===//
//
// Part of Idiom.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Reads the FunIL text form (grammar in docs/FunIL.md). This is the
/// contract with the LLVM pass, which prints FunIL text and calls
/// parseProgram. Errors are returned as values, never thrown, in the form
/// "LINE:COL: message" with 1-based line and column.
///
//===----------------------------------------------------------------------===//

#ifndef IDIOM_FUNIL_PARSER_H
#define IDIOM_FUNIL_PARSER_H

#include "idiom/FunIL/Expr.h"

#include <string>

namespace idiom::funil {

/// Parses FunIL text; on error returns false and sets Err to
/// "LINE:COL: message". Parsing checks syntax, names of primitives and
/// operations, argument counts and literal ranges; types are checked by
/// typeCheckProgram (TypeCheck.h).
bool parseProgram(const std::string &Text, Program &Out, std::string &Err);

/// Parses one expression (the whole of \p Text); same error convention.
bool parseExpr(const std::string &Text, ExprPtr &Out, std::string &Err);

/// Parses one type, e.g. `([f64]_n1, i64)`; same error convention.
bool parseType(const std::string &Text, TypePtr &Out, std::string &Err);

} // namespace idiom::funil

#endif // IDIOM_FUNIL_PARSER_H
