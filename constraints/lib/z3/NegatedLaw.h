//===- NegatedLaw.h - A Z3 query on a law's negation as a Proof -*- C++ -*-===//
//
// Private to constraints/lib/z3: the one mapping from a solver holding the
// negation of a law to Proven / Refuted / Unknown, shared by the laws and
// dependence checks of Z3Checks.cpp and the grid dependence questions of
// GridDependence.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_CONSTRAINTS_Z3_NEGATEDLAW_H
#define IDIOM_CONSTRAINTS_Z3_NEGATEDLAW_H

#include "idiom/Constraints/Z3Checks.h"

namespace z3 {
class solver;
} // namespace z3

namespace idiom {

/// Checks \p S, which asserts the negation of a law, within the query limits
/// (Z3Budget.h: timeout, resource limit, the loop's query budget): unsat is
/// Proven, sat Refuted, anything else (a limit reached, Z3's own unknown)
/// Unknown, "not proven".
Proof decideNegatedLaw(z3::solver &S);

} // namespace idiom

#endif // IDIOM_CONSTRAINTS_Z3_NEGATEDLAW_H
