//===- ExecutionFacts.h - What runs on every iteration ----------*- C++ -*-===//
//
// A device kernel evaluates a lifted loop body unconditionally: each work-item
// performs every load, store and division of its iteration. That is sound
// only when the loop itself performs them on every iteration. These facts
// decide it for the lifters that move memory (maps, reductions, histograms,
// GEMM): a store under a condition would write elements the loop leaves
// alone; a load under a condition would read elements the loop never reads
// (past the end of an object, into a protected page); a division under a
// condition would divide by the zero the condition excluded.
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_CONSTRAINTS_EXECUTIONFACTS_H
#define IDIOM_CONSTRAINTS_EXECUTIONFACTS_H

#include "idiom/Constraints/LoopFacts.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <string>

namespace llvm {
class DominatorTree;
class Instruction;
class ScalarEvolution;
} // namespace llvm

namespace idiom {

/// True when \p I runs on every iteration of the innermost loop of nest \p N
/// that contains it, given that the nest's guards (N.Guards, tested by the
/// stitched code before the call) hold: every path of one iteration from that
/// loop's header to its latch passes through I's block. Instructions outside
/// the nest count as executed.
bool executesOnEveryIteration(const llvm::Instruction *I, const NestInfo &N);

/// Checks that every load, store and integer division or remainder that may
/// trap in nest \p N runs on every iteration (executesOnEveryIteration),
/// except the instructions in \p Exempt (a histogram's guarded bin update,
/// whose guard the lifted program evaluates). A load under a condition is
/// accepted when LLVM proves its address dereferenceable on every iteration
/// of a single loop (llvm::isDereferenceableAndAlignedInLoop: an object of
/// known size that covers the whole iteration space), since reading it then
/// cannot fault and its value is used only where the loop uses it. Returns
/// false with \p Why, a missed-remark reason, otherwise.
bool checkUnconditionalEffects(
    const NestInfo &N, llvm::ScalarEvolution &SE, llvm::DominatorTree &DT,
    const llvm::SmallPtrSetImpl<llvm::Instruction *> *Exempt, std::string &Why);

/// For a triangular nest (NestInfo::Skew): adds to \p Exempt the loads of
/// the outer body on the way from its header to the inner loop (they run on
/// every row the nest keeps: the rows before the first empty one), and
/// checks that every other load of the inner body (but \p Exempt's) is
/// affine with strides of one sign (known to SCEV), so that the rectangle
/// the device reads has its lowest and highest elements at the corners
/// (0, 0) and (n0 - 1, n1 - 1), which the loop reads: the range copied
/// never reaches past what the loop touches. Else false with \p Why.
bool triangleOuterLoads(const NestInfo &N, llvm::ScalarEvolution &SE, llvm::DominatorTree &DT,
                        llvm::SmallPtrSetImpl<llvm::Instruction *> &Exempt, std::string &Why);

} // namespace idiom

#endif // IDIOM_CONSTRAINTS_EXECUTIONFACTS_H
