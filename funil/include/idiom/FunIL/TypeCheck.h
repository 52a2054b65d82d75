//===- TypeCheck.h - FunIL type checker -------------------------*- C++ -*-===//
//
// Part of Idiom.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Bottom-up type checking of FunIL (typing rules in the style of seeds/004
/// section 5.1, figure 8; primitive types of figures 4 and 5). Lambdas carry
/// their parameter types, so no inference beyond propagation is needed.
/// Array sizes are compared with compatibleSize: only provably different
/// sizes are errors. Errors are returned as "LINE:COL: message" (0:0 for
/// nodes built by rewrite rules).
///
//===----------------------------------------------------------------------===//

#ifndef IDIOM_FUNIL_TYPECHECK_H
#define IDIOM_FUNIL_TYPECHECK_H

#include "idiom/FunIL/Expr.h"

#include <string>
#include <vector>

namespace idiom::funil {

/// Variables in scope, innermost last (lambda parameters shadow outer
/// names).
struct TypeEnv {
  std::vector<Param> Vars;
  /// The innermost binding of \p Name, or nullptr.
  const Param *lookup(const std::string &Name) const;
  /// Binds \p Name to \p Ty (shadowing).
  void push(const std::string &Name, TypePtr Ty) { Vars.push_back({Name, std::move(Ty)}); }
  void pop() { Vars.pop_back(); }
};

/// Infers the type of \p E in \p Env. A bare lambda is an error (lambdas are
/// only arguments of primitives). Returns false and sets \p Err on error.
bool inferType(const ExprPtr &E, const TypeEnv &Env, TypePtr &Out,
               std::string &Err);

/// Infers the result type of applying \p Fn (a lambda) to arguments of
/// types \p ArgTys; checks arity and parameter types.
bool inferApply(const ExprPtr &Fn, const std::vector<TypePtr> &ArgTys,
                const TypeEnv &Env, TypePtr &Out, std::string &Err);

/// Checks a whole program: parameter types (scalars, or buffers of
/// scalars), the statement (outputs are views of buffers whose element
/// types match the body, one output per tuple component; a return body is a
/// scalar or a tuple of scalars). Sets \p BodyTy (optional) to the body's
/// type.
bool typeCheckProgram(const Program &P, std::string &Err,
                      TypePtr *BodyTy = nullptr);

/// The size an i64 expression denotes when used as an array length: a
/// variable, a constant, or `?` for anything else.
SizePtr sizeOfExpr(const Expr &E);

} // namespace idiom::funil

#endif // IDIOM_FUNIL_TYPECHECK_H
