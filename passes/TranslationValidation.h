//===- TranslationValidation.h - Lifted FunIL equals the LLVM slice -*- C++ -*-===//
//
// Translation validation (Pnueli et al., "Translation Validation", TACAS'98;
// DESIGN.md section 3): after each lift, Z3 proves that the parsed FunIL
// element function computes, for every input, exactly what the LLVM slice
// computes: each stored value of a map, each accumulator's contribution of a
// reduction. Both sides are translated to Z3 independently (LLVM instructions
// by opcode, FunIL operations by name) over the same leaf symbols: one per
// loaded element, loop-invariant value and iteration index. Integers are
// bit-vectors, floating point is IEEE (Z3's FP theory, round to nearest
// even); transcendental functions are uninterpreted but shared. When the two
// sides translate to the same hash-consed term (the usual case: the lifter
// writes what the loop computes), or the difference is false at every input
// of a small finite domain, no Z3 context is made (decideWithoutZ3).
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_PASSES_TRANSLATIONVALIDATION_H
#define IDIOM_PASSES_TRANSLATIONVALIDATION_H

#include "Lifting.h"
#include <string>

namespace idiom {
namespace funil {
struct Program;
}

/// Proves that \p P (parsed from \p L.FunIL) agrees with the LLVM slice of
/// \p M. Returns false with \p Why when Z3 finds a difference, cannot decide
/// within \p TimeoutMs, or the program has a shape the validator does not
/// know (which is then a lifter bug).
bool validateLifting(const IdiomMatch &M, const LiftedIdiom &L,
                     const funil::Program &P, unsigned TimeoutMs,
                     std::string &Why);

/// How decideWithoutZ3 decided.
enum class NoZ3Decision {
  None,                ///< it could not: validateLifting asks Z3
  IdenticalTerms,      ///< every compared pair is the same term
  ExhaustiveEvaluation ///< the terms differ but agree at every input
};

/// The part of validateLifting that needs no Z3 context: both sides are
/// built as hash-consed terms (ValidationTerms.h) by the same translation;
/// when every pair validateLifting compares is the same term, or the
/// difference is false at every assignment of its leaves (bit-vectors and
/// Booleans of at most 16 bits together, TermEvaluation.h), they are equal
/// for every input, and Z3 would prove it too. None when neither holds, or
/// when the validator gives up; validateLifting then asks Z3.
NoZ3Decision decideWithoutZ3(const IdiomMatch &M, const LiftedIdiom &L,
                             const funil::Program &P);

} // namespace idiom

#endif // IDIOM_PASSES_TRANSLATIONVALIDATION_H
