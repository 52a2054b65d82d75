//===- BoundVersioning.h - Loop bounds read from memory, hoisted -*- C++ -*-===//
//
// Part of Idiom. A loop whose bound is read from memory in every iteration
// (`for (i = 0; i < *np; i++) a[i] = ...` where a store of the loop may
// write *np as far as alias analysis knows: same type, char stores, a
// pointer argument) has no computable trip count, so no idiom matches it.
// Legacy code reads bounds from globals and structs this way. If no store of
// the loop writes the bound, the bound is the value read once before the
// loop. This file versions such a loop: a run-time check before it compares
// the bound's bytes with the address range of every store of the loop nest
// (computed by ScalarEvolution from the bound read once); when they are
// disjoint the loop runs with the bound read once (and can be offloaded),
// else an unchanged copy of the original loop runs, marked as a fallback
// (never offloaded). The same idea as LLVM's LoopVersioningLICM, which needs
// a computable trip count to begin with and so does not apply here.
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_PASSES_BOUNDVERSIONING_H
#define IDIOM_PASSES_BOUNDVERSIONING_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <utility>

namespace llvm {
class BasicBlock;
class BranchInst;
class Instruction;
class SCEV;
class Value;
template <typename T> class SmallVectorImpl;
class DominatorTree;
class Loop;
class LoopInfo;
class ScalarEvolution;
} // namespace llvm

namespace idiom {

/// A versioned nest: the loop that runs with its bounds read once, and the
/// branch in front of it (true: that loop; false: the unchanged copy).
struct BoundVersion {
  llvm::Loop *Nest;
  llvm::BranchInst *Check;
};

/// A condition a run-time check must also test: Lo <= Hi (signed).
struct Fits {
  const llvm::SCEV *Lo, *Hi;
};

/// A byte range [Lo, Hi + Size) of a memory access over a loop nest (Lo
/// and Hi: pointers, from valueRange).
struct AccessRange {
  const llvm::SCEV *Lo, *Hi;
  uint64_t Size;
};

/// True when every bound of \p Need and \p Disjoint can be expanded before
/// \p At (SCEVExpander::isSafeToExpandAt).
bool rangeChecksExpandable(
    llvm::ArrayRef<Fits> Need,
    llvm::ArrayRef<std::pair<AccessRange, AccessRange>> Disjoint,
    llvm::Instruction *At, llvm::ScalarEvolution &SE);

/// Expands before the terminator of \p Check the run-time condition that
/// each of \p Need holds (Lo <= Hi, signed) and each pair of \p Disjoint is
/// disjoint; its instructions are named \p Prefix ".fits" and ".disjoint".
/// Returns the condition (true when both lists are empty).
llvm::Value *
emitRangeChecks(llvm::BasicBlock *Check, llvm::ArrayRef<Fits> Need,
                llvm::ArrayRef<std::pair<AccessRange, AccessRange>> Disjoint,
                llvm::ScalarEvolution &SE, llvm::StringRef Prefix);

/// The lowest and highest value of \p S over \p L's nest (interval
/// arithmetic on S's expression tree): affine recurrences whose steps and
/// trip counts do not change inside L, sums, products by constants, and
/// sign or zero extensions of narrower such values. An extension of a
/// recurrence is the recurrence of the extended values only while the
/// narrow value does not wrap; its extreme values are reached at corners of
/// the nest (affine), so checking that those fit the narrow type (added to
/// \p Need) proves it for every iteration. Pointers compare unsigned,
/// integers signed. (A loop that runs no iteration accesses nothing, so its
/// trip count's value then does not matter.) False when S has another form.
bool valueRange(const llvm::SCEV *S, llvm::Loop &L, llvm::ScalarEvolution &SE,
                const llvm::SCEV *&Lo, const llvm::SCEV *&Hi,
                llvm::SmallVectorImpl<Fits> &Need);

/// Splits \p L's preheader into a check block (the old preheader, still
/// ending in its unconditional branch) and a new preheader \p PH, and
/// places an unchanged copy of the nest (names suffixed \p Suffix, its own
/// preheader, not yet reached) beside it; L gets an exit block of its own.
/// The caller makes the check block branch to PH or to the copy's
/// preheader. Keeps \p LI and \p DT up to date. L must be in loop-simplify
/// and LCSSA form with a single exit block. Returns the copy.
llvm::Loop *copyNestBehindCheck(llvm::Loop &L, llvm::LoopInfo &LI,
                                llvm::DominatorTree &DT, llvm::StringRef Suffix,
                                llvm::BasicBlock *&PH);

/// Versions every loop nest of \p LI (at most two loops deep) whose trip
/// count is not computable because an exit condition reads a bound from a
/// nest-invariant address, and whose stores have affine addresses over the
/// nest once the bound is read once. The copy is marked as a fallback loop
/// (PipelinePlacement.h), so it is never offloaded. Keeps \p LI and \p DT
/// up to date; forgets what \p SE knew of the changed loops. Loops in LCSSA
/// and loop-simplify form only; anything else is left as it is. Sets
/// \p Changed when the IR changed (a nest whose store ranges turned out to
/// be unknown is changed but not returned: its check is always false).
llvm::SmallVector<BoundVersion, 4>
versionLoopBounds(llvm::LoopInfo &LI, llvm::DominatorTree &DT,
                  llvm::ScalarEvolution &SE, bool &Changed);

/// Undoes the use of \p V (its nest was not offloaded): the check becomes
/// false, so the unchanged copy always runs, and the nest, now dead code, is
/// marked as a fallback loop; later passes delete it.
void dropBoundVersion(const BoundVersion &V);

} // namespace idiom

#endif // IDIOM_PASSES_BOUNDVERSIONING_H
