//===- Interpreter.h - FunIL reference semantics ----------------*- C++ -*-===//
//
// Part of Idiom.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// An interpreter over concrete values: the reference semantics of FunIL
/// (seeds/004 section 5.2, figure 9, extended to views and the OpenCL-level
/// primitives, which mean what their high-level counterparts mean). Every
/// rewrite rule and the code generator are tested against it.
///
/// Reductions fold from the left: reduce(f, z, [a, b]) = f(f(z, a), b).
/// The hardware queries of lowered programs (localSize(0), ...) read an
/// ExecConfig, so lowered programs can be run with any launch shape.
///
//===----------------------------------------------------------------------===//

#ifndef IDIOM_FUNIL_INTERPRETER_H
#define IDIOM_FUNIL_INTERPRETER_H

#include "idiom/FunIL/Expr.h"
#include "idiom/FunIL/Value.h"

#include <map>
#include <string>

namespace idiom::funil {

/// The launch shape seen by localSize(d), numGroups(d), globalSize(d).
struct ExecConfig {
  int64_t LocalSize = 4; ///< work-items per group in dimension 0
  int64_t NumGroups = 3; ///< groups in dimension 0; dimensions 1, 2 are 1
};

/// Values bound to names (program parameters or free variables).
using ValueMap = std::map<std::string, Value>;

/// Evaluates \p E with free variables bound by \p Env.
bool evalExpr(const ExprPtr &E, const ValueMap &Env, Value &Out,
              std::string &Err, const ExecConfig &Cfg = {});

/// Runs a program. \p Args binds every parameter: scalars to scalars,
/// buffers to arrays of scalars. A store program writes into the buffers in
/// \p Args (the body is evaluated completely before any write); a return
/// program sets \p Result. Returns false with \p Err on a missing argument,
/// an out-of-range view, or an undefined scalar operation.
bool runProgram(const Program &P, ValueMap &Args, Value &Result,
                std::string &Err, const ExecConfig &Cfg = {});

} // namespace idiom::funil

#endif // IDIOM_FUNIL_INTERPRETER_H
