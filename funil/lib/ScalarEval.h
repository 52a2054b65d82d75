//===- ScalarEval.h - scalar operation semantics (private) ------*- C++ -*-===//
//
// Part of Idiom.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The meaning of FunIL scalar operations and casts on concrete values,
/// following the LLVM instructions and intrinsics they are named after.
/// Undefined behaviour in LLVM (division by zero, over-wide shifts,
/// out-of-range float to int) is reported as an error.
///
//===----------------------------------------------------------------------===//

#ifndef IDIOM_FUNIL_LIB_SCALAREVAL_H
#define IDIOM_FUNIL_LIB_SCALAREVAL_H

#include "idiom/FunIL/Value.h"

#include <string>
#include <vector>

namespace idiom::funil {

/// Applies scalar operation \p Name to \p Args (already type checked).
bool evalScalarOp(const std::string &Name, const std::vector<Value> &Args,
                  Value &Out, std::string &Err);

/// Applies cast \p Op to \p X giving a \p To value.
bool evalCast(const std::string &Op, ScalarKind To, const Value &X, Value &Out,
              std::string &Err);

} // namespace idiom::funil

#endif // IDIOM_FUNIL_LIB_SCALAREVAL_H
