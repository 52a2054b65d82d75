//===- Printer.h - FunIL text form ------------------------------*- C++ -*-===//
//
// Part of Idiom.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Prints FunIL in the text form of docs/FunIL.md. The output is canonical:
/// parsing it and printing again gives the same text, and floating literals
/// print with the fewest decimal digits that read back to the same value.
///
//===----------------------------------------------------------------------===//

#ifndef IDIOM_FUNIL_PRINTER_H
#define IDIOM_FUNIL_PRINTER_H

#include "idiom/FunIL/Expr.h"

#include <string>

namespace idiom::funil {

/// Prints one expression on one line, e.g. `fadd(a, 1.5:f32)`.
std::string printExpr(const Expr &E);

/// Prints a literal, e.g. `3:i64`, `0.1:f32`, `-inf:f64`, `true`.
std::string printLiteral(const Expr &Lit);

/// Prints a floating value of kind \p K (f32 or f64) with the shortest
/// decimal form that reads back exactly; `inf`, `-inf`, `nan` for the
/// special values. No type suffix.
std::string printFloat(double V, ScalarKind K);

/// Prints a whole program: a header line, the statement indented by two
/// spaces, and a closing brace, each line ending in a newline.
std::string printProgram(const Program &P);

} // namespace idiom::funil

#endif // IDIOM_FUNIL_PRINTER_H
