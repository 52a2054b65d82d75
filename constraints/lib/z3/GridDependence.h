//===- GridDependence.h - Dependence questions over grid subscripts -*- C++
//-*-===//
//
// Part of Idiom. The dependence question of NoLoopCarriedDependence for two
// accesses of one variable-length grid (GridSubscripts.h), asked over their
// subscripts, all linear, instead of over the flat index: NAS MG's
// prolongation writes u[2*i3 + a][2*i2 + b][2*i1 + c] with extents n1, n2
// that the loop bounds do not determine. The subscripts must lie in their
// extents on every iteration, which Z3 proves from the conditions that hold
// on entry to the nest (entryFacts: the conditions of the branches that
// lead to its preheader, such as a run-time check that versioned it).
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_CONSTRAINTS_Z3_GRIDDEPENDENCE_H
#define IDIOM_CONSTRAINTS_Z3_GRIDDEPENDENCE_H

#include "idiom/Constraints/LoopFacts.h"
#include "idiom/Constraints/Z3Checks.h"

#include <optional>

namespace idiom {

/// For store \p St and access \p Other of one base in nest \p N: Refuted
/// when two different iterations touch one element, Proven when none do
/// (then \p Within says whether they touch different elements within one
/// iteration: Proven, or Refuted/Unknown), nullopt when the
/// accesses are not grid accesses of the same extents, a subscript is not
/// proven to lie in its extent, or Z3 does not decide (the general query
/// is asked then). A subscript with a negative constant term is first
/// carried into the next dimension (`u[i3][i2][n1 - 2]`: the term n1 is a
/// row's stride). With \p Assume, a subscript not proven in extent is
/// assumed in extent instead: the conditions (SCEVs that must be
/// non-negative at run time, valid in the nest's preheader) are appended
/// to \p Assume, also when the answer is not Proven (callers drop them).
/// \p Hints: other accesses of the grid whose extents fill a dimension
/// that neither access's index shows (a pair of `u[i3][0][i1]`).
std::optional<Proof>
gridDependence(const AffineAccess &St, const AffineAccess &Other,
               const NestInfo &N, unsigned TimeoutMs, Proof &Within,
               llvm::SmallVectorImpl<const llvm::SCEV *> *Assume = nullptr,
               llvm::ArrayRef<const AffineAccess *> Hints = {});

} // namespace idiom

#endif // IDIOM_CONSTRAINTS_Z3_GRIDDEPENDENCE_H
