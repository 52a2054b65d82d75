//===- SharedBases.h - One array, two grids: run-time disjointness -*- C++ -*-===//
//
// Part of Idiom. NAS MG keeps every level of its grid hierarchy in one
// array (`r + ir[k]`, `r + ir[k - 1]`): after inlining, the restriction
// (rprj3) reads the fine level and writes the coarse one through two
// offsets into the same allocation, a loop-invariant distance that no
// compile-time test can bound (it is read from memory). Every access then
// has the same ScalarEvolution pointer base, and the dependence test
// (constraints/lib/z3/Z3Checks.cpp) sees a store and loads of one array at
// an unknown distance: "loop-carried dependence between a store and
// another access of the same array".
//
// In a nest versioned on a run-time check (BoundVersion: by this file, or
// with its row temporaries, RowTemporaries.h) this file turns that doubt into a
// run-time condition (Kennedy and Allen, "Optimizing Compilers for Modern
// Architectures", sec. 2.4: a test at run time where the subscripts have
// unknown terms): the range each such store writes is disjoint from the
// range of every other access of its base whose loop-invariant root (the
// pointer its address is computed from, outside the nest) lies at a
// non-constant distance. In the checked version the store's root is then
// rebased on an opaque copy (`llvm.launder.invariant.group`, which alias
// analysis and getUnderlyingObject look through and ScalarEvolution does
// not), so the two grids have two pointer bases there: two buffers of the
// lifted idiom, each with its own range, and the runtime checks them
// again. The unchanged copy runs when the condition fails.
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_PASSES_SHAREDBASES_H
#define IDIOM_PASSES_SHAREDBASES_H

#include "BoundVersioning.h"

#include <string>

namespace idiom {

/// Finds the stores of nest \p L whose address is an offset from a
/// loop-invariant root pointer that another access of \p L (through
/// another root) shares the pointer base of, at a distance that is not a
/// constant and uses no value of the nest's trip counts (those the
/// dependence test relates to the iteration space). For each, appends to \p Disjoint the pair (range of that
/// access, range of the store), with the conditions of the ranges to
/// \p Need, and the store's root to \p Roots (once). False, with \p Why,
/// when such a range is unknown (valueRange); \p Roots is then unusable.
bool findSharedBases(llvm::Loop &L, llvm::ScalarEvolution &SE,
                     llvm::SmallVectorImpl<Fits> &Need,
                     llvm::SmallVectorImpl<std::pair<AccessRange, AccessRange>>
                         &Disjoint,
                     llvm::SmallVectorImpl<llvm::Value *> &Roots,
                     std::string &Why);

/// Rebases every use inside \p L of each of \p Roots (found by
/// findSharedBases on a nest whose run-time check now holds their
/// disjointness) on an opaque copy of the root made before \p At (in
/// front of \p L, dominated by the roots). Forgets what \p SE knew of
/// \p L.
void splitSharedBases(llvm::Loop &L, llvm::ArrayRef<llvm::Value *> Roots,
                      llvm::Instruction *At, llvm::ScalarEvolution &SE);

/// Versions every outermost loop nest of \p LI (at most three loops deep;
/// inner loops are not searched, see SharedBases.cpp) that has such
/// stores (findSharedBases) and is not a fallback loop: a run-time check in
/// front of it (emitRangeChecks) picks the nest with the stores' roots
/// split (splitSharedBases) or an unchanged copy marked as a fallback loop
/// (copyNestBehindCheck). Loops in loop-simplify and LCSSA form with one
/// exit block only. Keeps \p LI and \p DT up to date; sets \p Changed
/// when the IR changed. Drop an unused version with dropBoundVersion.
llvm::SmallVector<BoundVersion, 4>
versionSharedBases(llvm::LoopInfo &LI, llvm::DominatorTree &DT,
                   llvm::ScalarEvolution &SE, bool &Changed);

} // namespace idiom

#endif // IDIOM_PASSES_SHAREDBASES_H
