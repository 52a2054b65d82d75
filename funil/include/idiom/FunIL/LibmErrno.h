//===- LibmErrno.h - Which libm call sets errno for which argument -*- C++ -*-===//
//
// Part of Idiom.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The errno rules of the C library functions that the lifter accepts in a
/// loop body although their calls write errno (clang keeps `-fmath-errno` by
/// default on Linux, so `sqrt(x)` is a call that may write memory): one
/// row per function, with the condition on its arguments, written in FunIL's
/// scalar expression language, under which the call may set errno. Sources:
/// C99 7.12 and Annex F (domain and pole errors, overflow and underflow
/// range errors), glibc 2.36 (`math_err.c`, `w_sqrt_compat.c`: errno is set
/// only together with an invalid, divide-by-zero, overflow or underflow
/// exception; a NaN argument sets nothing).
///
/// A condition may hold where glibc does not set errno (it over-approximates:
/// `exp(+inf)` is flagged although it sets nothing; the range bounds leave a
/// margin for the device's log); it must never miss an argument that sets
/// errno. The stitched code evaluates the conditions of every call of an
/// offloaded loop on the device first (an `or` reduction) and runs the
/// original loop when any holds (docs/ARCHITECTURE.md, "Correctness
/// contract"). test/funil/LibmErrnoTest.cpp checks each row against the
/// host's libm on the boundary arguments.
///
//===----------------------------------------------------------------------===//
#ifndef IDIOM_FUNIL_LIBMERRNO_H
#define IDIOM_FUNIL_LIBMERRNO_H

#include "idiom/FunIL/Expr.h"

#include <string>
#include <vector>

namespace idiom::funil {

/// One function's errno rule.
struct LibmErrnoRule {
  const char *CName;     ///< C name, e.g. "sqrtf"
  const char *Op;        ///< FunIL operation of the call, e.g. "sqrt"
  ScalarKind Ty;         ///< type of every argument and of the result
  unsigned Arity;        ///< 1, or 2 (pow: x, y)
  /// FunIL boolean expression over the arguments, named x (and y), that
  /// holds for every argument that may set errno.
  const char *Condition;
  const char *Errors;    ///< the errors it stands for, for documentation
};

/// Every rule, one per C function name (sqrt, sqrtf, log, logf, exp, expf,
/// pow, powf, sin, sinf, cos, cosf).
const std::vector<LibmErrnoRule> &libmErrnoRules();

/// The rule of C function \p CName, or nullptr when there is none (the call
/// is then not offloaded).
const LibmErrnoRule *findLibmErrnoRule(const std::string &CName);

/// The condition of \p R with its parameters replaced by \p Args (one
/// expression per argument). Returns nullptr and sets \p Err when the
/// condition text does not parse or the argument count is wrong.
ExprPtr libmErrnoCondition(const LibmErrnoRule &R,
                           const std::vector<ExprPtr> &Args, std::string &Err);

} // namespace idiom::funil

#endif // IDIOM_FUNIL_LIBMERRNO_H
