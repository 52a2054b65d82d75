//===- Value.h - FunIL run-time values --------------------------*- C++ -*-===//
//
// Part of Idiom.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Concrete values for the FunIL interpreter (Interpreter.h): scalars,
/// tuples and arrays. Buffers are arrays of scalars. Integers are stored as
/// their bit pattern truncated to the type's width; floats as a double that
/// holds the exact value (an f32 value is always representable).
///
//===----------------------------------------------------------------------===//

#ifndef IDIOM_FUNIL_VALUE_H
#define IDIOM_FUNIL_VALUE_H

#include "idiom/FunIL/Type.h"

#include <cstdint>
#include <string>
#include <vector>

namespace idiom::funil {

/// A run-time value.
struct Value {
  enum Kind : uint8_t { Scalar, Tuple, Array };
  Kind K = Scalar;
  ScalarKind S = ScalarKind::I64; ///< Scalar only.
  uint64_t Bits = 0;              ///< Scalar integer/bool: truncated bits.
  double F = 0;                   ///< Scalar float.
  std::vector<Value> Elems;       ///< Tuple components or array elements.

  /// Integer or bool \p V of kind \p K, truncated to its width.
  static Value ofInt(ScalarKind K, int64_t V);
  /// Float \p V of kind \p K (rounded to float for f32).
  static Value ofFloat(ScalarKind K, double V);
  /// Tuple of \p Es.
  static Value tuple(std::vector<Value> Es);
  /// Array of \p Es.
  static Value array(std::vector<Value> Es);

  /// Signed value of an integer scalar (sign-extended from its width).
  int64_t asSigned() const;
  /// Unsigned value of an integer scalar.
  uint64_t asUnsigned() const { return Bits; }
  /// The value of a scalar as a double (floats exactly, integers by their
  /// signed or unsigned reading per the type's prefix).
  double asDouble() const;
};

/// Prints a value: `1.5:f32`, `(1:i32, true)`, `[1:i64, 2:i64]`.
std::string printValue(const Value &V);

/// Parses one scalar of kind \p K written without a suffix (`1.5`, `-3`,
/// `0x1p-3`, `inf`, `nan`, `true`). Returns false on malformed text or an
/// out-of-range integer.
bool parseScalarValue(const std::string &Text, ScalarKind K, Value &Out);

/// Equality of values; floats must be equal within \p RelTol relative (or
/// absolute, near zero) tolerance, NaN equals NaN. RelTol = 0 means exact.
bool valuesClose(const Value &A, const Value &B, double RelTol = 0);

} // namespace idiom::funil

#endif // IDIOM_FUNIL_VALUE_H
