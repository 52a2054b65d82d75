//===- Type.h - FunIL types -------------------------------------*- C++ -*-===//
//
// Part of Idiom. FunIL sees no LLVM IR; this header uses the C++17 standard
// library only.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// FunIL types (docs/FunIL.md, "Types"): scalars, arrays whose length is a
/// symbolic size, flat buffers of unknown length (program parameters only)
/// tuples, and OpenCL vectors (`f32x4`: a fixed number of lanes of one
/// scalar kind; seeds/004 section 4.2, <A>_I). Array sizes follow the restricted dependent typing of Lift
/// (seeds/004, section 3): a size is a constant, a size variable (an i64
/// program parameter), the unknown size `?`, or a product/quotient of sizes.
///
//===----------------------------------------------------------------------===//

#ifndef IDIOM_FUNIL_TYPE_H
#define IDIOM_FUNIL_TYPE_H

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace idiom::funil {

/// Scalar element types. Integers are two's complement bit vectors of the
/// given width; the i/u prefix only chooses the C type and the printing of
/// literals (operations such as sdiv/udiv choose the interpretation, as in
/// LLVM).
enum class ScalarKind : uint8_t {
  Bool, I8, I16, I32, I64, U8, U16, U32, U64, F32, F64
};

/// Returns the FunIL spelling of \p K ("f32", ...).
const char *scalarName(ScalarKind K);
/// Parses a scalar spelling; returns false when \p Name is not a scalar.
bool parseScalarName(const std::string &Name, ScalarKind &K);
/// Width in bits (1 for bool).
unsigned scalarBits(ScalarKind K);
/// True for f32 and f64.
bool isFloat(ScalarKind K);
/// True for the integer kinds, bool excluded.
bool isInteger(ScalarKind K);
/// True for u8..u64.
bool isUnsigned(ScalarKind K);
/// True for the OpenCL vector widths 2, 4, 8 and 16.
inline bool isVectorLanes(int64_t N) { return N == 2 || N == 4 || N == 8 || N == 16; }
/// Parses a vector type spelling `KxN` (`f32x4`, `i64x2`): a non-bool
/// scalar and an OpenCL width; returns false for anything else.
bool parseVectorName(const std::string &Name, ScalarKind &K, unsigned &Lanes);

struct Size;
/// Sizes are immutable and shared.
using SizePtr = std::shared_ptr<const Size>;

/// A symbolic array length (in elements).
struct Size {
  enum Kind : uint8_t { Const, Var, Unknown, Mul, Div };
  Kind K = Unknown;
  int64_t Value = 0;  ///< Const only.
  std::string Name;   ///< Var only: an i64 program parameter.
  SizePtr L, R;       ///< Mul/Div operands; Div is exact division.

  /// Constant size \p V.
  static SizePtr constant(int64_t V);
  /// Size variable \p N.
  static SizePtr var(const std::string &N);
  /// The unknown size `?` (compatible with every size).
  static SizePtr unknown();
  /// \p A * \p B, folded when both are constants or one is 1.
  static SizePtr mul(SizePtr A, SizePtr B);
  /// \p A / \p B (exact), folded when possible.
  static SizePtr div(SizePtr A, SizePtr B);
};

/// Prints a size as the grammar spells it: `n0`, `4`, `?`, `(n0/4)`.
std::string printSize(const Size &S);
/// Structural equality of sizes.
bool sameSize(const Size &A, const Size &B);
/// False only when \p A and \p B are provably different (two different
/// constants, or two different size variables); sizes built with `?`, `*`
/// or `/` are not decided and count as compatible.
bool compatibleSize(const Size &A, const Size &B);

struct Type;
/// Types are immutable and shared.
using TypePtr = std::shared_ptr<const Type>;

/// A FunIL type.
struct Type {
  enum Kind : uint8_t {
    Scalar, ///< a ScalarKind value
    Array,  ///< `[Elem]_Len`
    Buffer, ///< `[Elem]`: flat memory of unknown length, parameters only
    Tuple,  ///< `(E0, E1, ...)`, at least two components
    Vector  ///< `f32x4`: Lanes values of scalar kind S (OpenCL floatN);
            ///< scalar operations apply lane-wise (docs/FunIL.md)
  };
  Kind K = Scalar;
  ScalarKind S = ScalarKind::I64; ///< Scalar, and the lanes of a Vector.
  TypePtr Elem;                   ///< Array and Buffer.
  SizePtr Len;                    ///< Array only.
  std::vector<TypePtr> Elems;     ///< Tuple only.
  unsigned Lanes = 0;             ///< Vector only: 2, 4, 8 or 16.

  /// Scalar type \p K (shared instances).
  static TypePtr scalar(ScalarKind K);
  /// Array of \p Len elements of type \p Elem.
  static TypePtr array(TypePtr Elem, SizePtr Len);
  /// Flat buffer of \p Elem.
  static TypePtr buffer(TypePtr Elem);
  /// Tuple of \p Elems (two or more).
  static TypePtr tuple(std::vector<TypePtr> Elems);
  /// Vector of \p Lanes (2, 4, 8, 16) values of non-bool scalar \p K.
  static TypePtr vector(ScalarKind K, unsigned Lanes);

  bool isScalar() const { return K == Scalar; }
  bool isScalar(ScalarKind Kd) const { return K == Scalar && S == Kd; }
  bool isArray() const { return K == Array; }
  bool isBuffer() const { return K == Buffer; }
  bool isTuple() const { return K == Tuple; }
  bool isVector() const { return K == Vector; }
};

/// Prints \p T as the grammar spells it, e.g. `([f64]_n1, i64)`.
std::string printType(const Type &T);
/// Structural equality, sizes compared with sameSize.
bool sameType(const Type &A, const Type &B);
/// Structural equality, sizes compared with compatibleSize; this is the
/// relation the type checker uses.
bool compatibleType(const Type &A, const Type &B);
/// The scalar leaves of \p T in depth-first order (tuples flattened). Arrays
/// and buffers are leaves too.
void flattenLeaves(const TypePtr &T, std::vector<TypePtr> &Out);

} // namespace idiom::funil

#endif // IDIOM_FUNIL_TYPE_H
