//===- ScalarC.h - scalar FunIL to OpenCL C (private) -----------*- C++ -*-===//
//
// Part of Idiom.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// OpenCL C spellings of FunIL scalar types, literals, operations and casts.
/// Integer arithmetic that wraps in LLVM is done on the unsigned type so
/// that the OpenCL C code has no signed-overflow undefined behaviour;
/// signedness-specific operations (sdiv, icmp_ult, ...) cast their operands.
///
//===----------------------------------------------------------------------===//

#ifndef IDIOM_REWRITE_LIB_CODEGEN_SCALARC_H
#define IDIOM_REWRITE_LIB_CODEGEN_SCALARC_H

#include "idiom/FunIL/Expr.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace idiom::rewrite::codegen {

using funil::ScalarKind;

/// OpenCL C type of a scalar: bool char short int long uchar ... double.
const char *clType(ScalarKind K);

/// The unsigned OpenCL C integer type of \p K's width: uchar, ushort, uint,
/// ulong ("bool" for bool).
const char *clUnsignedType(ScalarKind K);

/// OpenCL C literal for a FunIL literal node.
std::string clLiteral(const funil::Expr &Lit);

/// The scalar operations clScalarOp spells, one per FunIL op name (Ops.cpp,
/// classes other than Primitive and HwQuery); None for any other name.
enum class ScalarOp : uint8_t {
  None, Add, Sub, Mul, SDiv, SRem, UDiv, URem, Shl, LShr, AShr, And, Or, Xor,
  SMin, SMax, UMin, UMax, Abs, ILog2, ICmpEq, ICmpNe, ICmpSlt, ICmpSle,
  ICmpSgt, ICmpSge, ICmpUlt, ICmpUle, ICmpUgt, ICmpUge, FAdd, FSub, FMul,
  FDiv, FRem, FMin, FMax, Pow, FNeg, Sqrt, FAbs, Exp, Log, Sin, Cos, Floor,
  Ceil, Fma, FMulAdd, FCmpOeq, FCmpOne, FCmpOlt, FCmpOle, FCmpOgt, FCmpOge,
  FCmpUeq, FCmpUne, FCmpUlt, FCmpUle, FCmpUgt, FCmpUge, FCmpOrd, FCmpUno,
  Select, Not
};

/// The ScalarOp named \p Name (a linear scan: callers cache it, OpCache.h).
ScalarOp scalarOpOf(const std::string &Name);

/// clScalarOp below for an op already looked up: \p Op = scalarOpOf(\p
/// Name), operands \p A[0 .. arity) (strings, not copied). Out is
/// overwritten.
bool clScalarOp(ScalarOp Op, const std::string &Name, ScalarKind K,
                const std::string *const *A, std::string &Out, std::string &Err);

/// OpenCL C expression for scalar operation \p Op (an OpClass other than
/// Primitive/HwQuery) on operands \p Args of kind \p K (the operand kind;
/// for select, the kind of the arms). Returns false with \p Err when the
/// operation has no spelling.
bool clScalarOp(const std::string &Op, ScalarKind K,
                const std::vector<std::string> &Args, std::string &Out,
                std::string &Err);

/// OpenCL C expression for cast \p Op of \p X (kind \p From) to \p To.
std::string clCast(const std::string &Op, ScalarKind From, ScalarKind To,
                   const std::string &X);

} // namespace idiom::rewrite::codegen

#endif // IDIOM_REWRITE_LIB_CODEGEN_SCALARC_H
