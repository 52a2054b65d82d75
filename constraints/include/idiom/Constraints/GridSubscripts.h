//===- GridSubscripts.h - Subscripts of a row-major grid access -*- C++ -*-===//
//
// Part of Idiom. A C99 variable-length array `double (*u)[n2][n1]` is
// indexed through one flat element index, ((i3 * n2) + i2) * n1 + i1, and
// ScalarEvolution keeps only that sum: for NAS MG's prolongation,
// `u[2*i3 + a][2*i2 + b][2*i1 + c]` is {.., +, 2*n1*n2}<i3> nested with
// {.., +, 2*n1}<i2> and {c, +, 2}<i1>. Where the extents and the loop
// bounds are unrelated parameters, two such accesses meet in flat memory
// for some sizes (a row shorter than the loop's reach), so no question over
// the flat index proves them apart, and Z3's non-linear search gives up on
// products of a stride and an iteration number.
//
// This file recovers the subscripts (delinearisation: Grosser et al.,
// "On recovering multi-dimensional arrays in Polly", IMPACT 2015; LLVM's
// Delinearization.h does the same over SCEV terms): the index, expanded
// into a sum of monomials over loop-invariant factors and at most one
// iteration number per term, is grouped by its factors; the groups must
// form a chain 1, n1, n1*n2, ... (each the one before times one factor),
// which gives the extents n1, n2, ... and a subscript per dimension. The
// chain comes from the terms with an iteration number; the other terms go
// to a dimension of the chain, or else to the grid's origin.
// Wherever every subscript but the outermost lies in [0, extent), two
// accesses of the grid touch one element exactly when all their
// subscripts are equal: questions that are linear in the iteration
// numbers. Callers prove or check that range (a run-time condition).
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_CONSTRAINTS_GRIDSUBSCRIPTS_H
#define IDIOM_CONSTRAINTS_GRIDSUBSCRIPTS_H

#include "llvm/ADT/SmallVector.h"

#include <cstdint>

#include <optional>

namespace llvm {
class SCEV;
class ScalarEvolution;
} // namespace llvm

namespace idiom {

/// The subscripts of a grid access, innermost dimension first: element
/// index = Origin + Subs[0] + Sizes[0] * (Subs[1] + Sizes[1] * (Subs[2] +
/// ...)).
struct GridSubscripts {
  /// The terms without an iteration number whose factors are not those of
  /// a dimension (the grid's offset in a larger array); accesses with
  /// different origins are not compared by subscripts.
  const llvm::SCEV *Origin = nullptr;
  /// The extent of every dimension but the outermost (loop-invariant
  /// values of the index's type).
  llvm::SmallVector<const llvm::SCEV *, 3> Sizes;
  /// One subscript per dimension: sums of constants times iteration
  /// numbers, as add recurrences with constant steps.
  llvm::SmallVector<const llvm::SCEV *, 3> Subs;
};

/// Run-time assumptions gridSubscripts may make (see there).
struct GridAssume {
  /// Receives the conditions (SCEVs that must be non-negative).
  llvm::SmallVectorImpl<const llvm::SCEV *> *Conds = nullptr;
  /// The subscripts of another access of the same grid, or null.
  const GridSubscripts *Like = nullptr;
};

/// The subscripts of element index \p Index / \p Scale (\p Index: an
/// integer SCEV of constants,
/// invariant values, sums, products and affine add recurrences; a byte
/// offset with \p Scale the element size), or nullopt when its monomials
/// do not form the chain above, a term has a coefficient that is not a
/// small multiple of \p Scale or more than one iteration number, or the
/// grid has a single dimension.
/// With \p Assume (optional), also: a sign extension `sext(n + c)` of a
/// 32-bit invariant (a subscript `n2 - 2` next to the VLA extent zext(n2))
/// is read as `zext(n) + c`, and the conditions under which the two are
/// equal (n >= 0, n + c no overflow), unless ScalarEvolution proves them,
/// are appended to Conds (SCEVs that must be non-negative at run time); a
/// gap in the chain (a dimension with a subscript without iteration
/// number, `u[i3][0][i1]`) is filled from the extents of Like (the other
/// access of a pair), where those fit.
std::optional<GridSubscripts> gridSubscripts(const llvm::SCEV *Index,
                                             uint64_t Scale,
                                             llvm::ScalarEvolution &SE,
                                             const GridAssume *Assume =
                                                 nullptr);

} // namespace idiom

#endif // IDIOM_CONSTRAINTS_GRIDSUBSCRIPTS_H
