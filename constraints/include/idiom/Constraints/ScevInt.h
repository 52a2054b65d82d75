//===- ScevInt.h - Checked int64_t values of SCEV constants -----*- C++ -*-===//
//
// APInt::getSExtValue asserts (and, without assertions, silently truncates)
// on a value that needs more than 64 bits; an i128 accumulator, a _BitInt or
// a huge constant stride reaches the analyses with such constants. Every
// fact that needs a constant as an int64_t goes through these, and treats
// "does not fit" as "not a constant".
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_CONSTRAINTS_SCEVINT_H
#define IDIOM_CONSTRAINTS_SCEVINT_H

#include "llvm/ADT/APInt.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include <cstdint>
#include <optional>

namespace idiom {

/// \p V as an int64_t when it fits in 63 bits and a sign (so that negating
/// it or taking its absolute value cannot overflow), else nothing.
inline std::optional<int64_t> apInt64(const llvm::APInt &V) {
  if (V.getSignificantBits() > 63)
    return std::nullopt;
  return V.getSExtValue();
}

/// The value of \p S when it is a constant that apInt64 accepts.
inline std::optional<int64_t> scevInt64(const llvm::SCEV *S) {
  if (auto *C = llvm::dyn_cast_or_null<llvm::SCEVConstant>(S))
    return apInt64(C->getAPInt());
  return std::nullopt;
}

} // namespace idiom

#endif // IDIOM_CONSTRAINTS_SCEVINT_H
