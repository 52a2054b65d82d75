//===- TermEvaluation.h - Deciding small validation terms by evaluation -*- C++ -*-===//
//
// Part of Idiom. Translation validation asks whether a Boolean term D (the
// lifted FunIL and the LLVM slice differ) is satisfiable. When every leaf of
// D is a bit-vector or Boolean and together they have few bits, evaluating D
// at every assignment of the leaves decides it completely: enumeration is a
// proof on a finite domain, and a point where D holds is a model. The
// evaluation follows the SMT-LIB bit-vector semantics that Z3 gives the same
// terms (modular arithmetic; shifts by the width or more give 0, or the sign
// for an arithmetic shift); division and remainder, whose value at 0 SMT-LIB
// defines differently from LLVM, and floating point are not evaluated.
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_PASSES_TERMEVALUATION_H
#define IDIOM_PASSES_TERMEVALUATION_H

#include "ValidationTerms.h"
#include <optional>

namespace idiom::tv {

/// The most bits of leaves that satisfiableByEvaluation enumerates (2^16
/// assignments).
constexpr unsigned MaxEvaluatedLeafBits = 16;

/// Whether the Boolean term \p D is true at some assignment of its leaves,
/// decided by evaluating it at all of them. Nothing when a leaf is not a
/// bit-vector or Boolean, the leaves have more than MaxEvaluatedLeafBits bits
/// together, or D contains an operation not evaluated here (the caller then
/// asks Z3).
std::optional<bool> satisfiableByEvaluation(const Term &D);

} // namespace idiom::tv

#endif // IDIOM_PASSES_TERMEVALUATION_H
