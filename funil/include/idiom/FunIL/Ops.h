//===- Ops.h - FunIL primitives and scalar operations -----------*- C++ -*-===//
//
// Part of Idiom.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The table of names a FunIL call may use: array primitives (Lift's
/// algorithmic primitives, seeds/004 figure 4, plus views), the OpenCL-level
/// primitives (seeds/004 figure 5), and scalar operations named after LLVM
/// instructions and intrinsics. The parser, the type checker, the
/// interpreter and the code generator all dispatch on this table.
///
//===----------------------------------------------------------------------===//

#ifndef IDIOM_FUNIL_OPS_H
#define IDIOM_FUNIL_OPS_H

#include "idiom/FunIL/Type.h"

#include <string>

namespace idiom::funil {

/// What kind of callee a name is.
enum class OpClass : uint8_t {
  Primitive,    ///< array-level primitive: map, zip, view, mapGlobal, ...
  IntBinary,    ///< (iN, iN) -> iN: add sub mul sdiv ... smin umax
  LogicBinary,  ///< (T, T) -> T for integers and bool: and or xor
  FloatBinary,  ///< (fN, fN) -> fN: fadd ... fmin fmax pow
  IntCompare,   ///< (iN, iN) -> bool: icmp_*
  FloatCompare, ///< (fN, fN) -> bool: fcmp_*
  FloatUnary,   ///< fN -> fN: fneg sqrt fabs exp log sin cos floor ceil
  FloatTernary, ///< (fN, fN, fN) -> fN: fma fmuladd
  IntUnary,     ///< iN -> iN: abs, ilog2 (floor of log2, for x > 0)
  Select,       ///< (bool, T, T) -> T, T any type
  Not,          ///< bool -> bool
  HwQuery       ///< () -> i64 with a dimension: globalSize(d) localSize(d)
                ///< numGroups(d); only in lowered programs
};

/// One entry of the table.
struct OpInfo {
  const char *Name;
  OpClass Class;
  unsigned MinArgs; ///< expression arguments, the dimension not counted
  unsigned MaxArgs;
  bool HasDim;      ///< first argument is a bare integer dimension
};

/// Looks up \p Name; nullptr when it names no primitive or operation.
const OpInfo *lookupOp(const std::string &Name);

/// True when \p Name is a cast operation (sext zext trunc sitofp uitofp
/// fptosi fptoui fpext fptrunc bitcast).
bool isCastOp(const std::string &Name);

/// Checks that casting \p From to \p To with \p Op is meaningful (for
/// example sext widens an integer or a bool); on failure returns false and
/// sets \p Why.
bool checkCast(const std::string &Op, ScalarKind From, ScalarKind To,
               std::string &Why);

} // namespace idiom::funil

#endif // IDIOM_FUNIL_OPS_H
