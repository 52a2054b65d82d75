//===- HistogramLaws.h - Laws of the histogram update operators -*- C++ -*-===//
//
// The histogram and array-reduction atoms look for (+) among a fixed list of
// textbook operators (HistogramZ3.cpp: add, saturating add, or, and, xor,
// mul, signed/unsigned min/max on bit-vectors; add, mul, max, min on reals).
// Their laws hold whatever the program, so proveUpdateOperator does not pose
// them to Z3 (setStructuralShortcuts, Z3Checks.h); this entry point lets the
// unit tests have Z3 prove them for every candidate and width.
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_CONSTRAINTS_HISTOGRAMLAWS_H
#define IDIOM_CONSTRAINTS_HISTOGRAMLAWS_H

#include "idiom/Constraints/Z3Checks.h"
#include <string>

namespace idiom {

/// Has Z3 prove commutativity, associativity and (where the candidate has
/// one) the identity of every update-operator candidate on bit-vectors of
/// \p BitWidth bits (1..64), or on the reals when \p BitWidth is 0. Returns
/// the first failure with \p Why naming the candidate and law.
Proof proveHistogramCandidateLaws(unsigned BitWidth, unsigned TimeoutMs,
                                  std::string &Why);

} // namespace idiom

#endif // IDIOM_CONSTRAINTS_HISTOGRAMLAWS_H
