//===- LoopDistribution.h - Parallel loops split into their parts -*- C++ -*-===//
//
// Part of Idiom. Loop distribution (Kennedy and Allen, "Optimizing
// Compilers for Modern Architectures", sec. 2.4.1) of a loop that is not
// innermost and whose body is a sequence of parts, each an inner loop nest
// with the straight-line code before it. Gram-Schmidt's j loop:
//
//   for (j = k + 1; j < n; j++) {
//     r[k][j] = 0.0;                                       // part 1
//     for (i = 0; i < m; i++) r[k][j] += q[i][k] * a[i][j];
//     for (i = 0; i < m; i++)                              // part 2
//       a[i][j] = a[i][j] - q[i][k] * r[k][j];
//   }
//
// becomes "for j: part 1" then "for j: part 2": a column reduction
// (GEMV^T) then a 2-D map, each an idiom, where the nest as a whole is none.
//
// Legality, each proven or refused with a missed remark naming the reason:
// the iterations of the loop are independent through every base pointer
// (proveIndependentIterations, Z3: no iteration writes an element another
// one reads or writes), so running part p of every iteration before part
// p + 1 of any keeps every dependence; the loop carries no value in a
// register (its header has no phi but its induction variable) and none
// leaves it; a value computed by one part and used by a later part is
// recomputable: it is the value a store of the first part wrote, the part
// that uses it reloads it from there (nothing writes that address in
// between: the next part follows at once); no other value of a part
// (inner-loop results, loads, calls) reaches another part; control flow
// of the body depends on no value of a part. Accesses through different
// base pointers, which the Z3 proof does not compare, are checked at run
// time in front of the loop (their byte ranges over the loop are disjoint,
// as RowTemporaries.h checks); the unchanged loop runs otherwise, marked
// as a fallback loop. A loop that an idiom takes whole (a GEMM with its
// prologue) is left alone. The distributed loops are kept only when an
// idiom uses one of them (dropDistribution otherwise); a declined run of
// the first part runs the unchanged loop (IdiomOffload.cpp, with
// declineToUnchangedCopy), a declined later part its distributed loop.
//
// Limits: the proof asks for wholly parallel iterations, more than
// distribution needs (a dependence that goes forward in the new order is
// refused too); a recomputed value must be reloaded by the part right
// after the store.
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_PASSES_LOOPDISTRIBUTION_H
#define IDIOM_PASSES_LOOPDISTRIBUTION_H

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"

#include <string>

namespace llvm {
class BranchInst;
class DominatorTree;
class Loop;
class LoopInfo;
class ScalarEvolution;
} // namespace llvm

namespace idiom {

/// A distributed loop: one loop per part, in order, and the branch in front
/// of them (true: the distributed loops; false: the unchanged copy, marked
/// as a fallback loop).
struct Distribution {
  llvm::SmallVector<llvm::Loop *, 2> Parts;
  llvm::BranchInst *Check;
};

/// A loop with parts that was not distributed, and why.
struct DistributionMiss {
  llvm::Loop *L;
  std::string Why;
};

/// Distributes every loop of \p LI whose body is two or more parts (inner
/// loop nests, with the straight-line code before each) under the
/// conditions above, except the loops of \p Skip and the loops inside them
/// (nests that an idiom takes whole). Loops of the shape that fail a
/// condition are listed in \p Misses with the reason. Keeps \p LI and \p DT
/// up to date, forgets what \p SE knew of changed loops; sets \p Changed
/// when the IR changed. Z3 queries get \p TimeoutMs each.
llvm::SmallVector<Distribution, 2>
distributeLoops(llvm::LoopInfo &LI, llvm::DominatorTree &DT,
                llvm::ScalarEvolution &SE, unsigned TimeoutMs,
                const llvm::SmallPtrSetImpl<llvm::Loop *> &Skip,
                llvm::SmallVectorImpl<DistributionMiss> &Misses, bool &Changed);

/// Undoes the use of \p D (none of its loops was offloaded): the check
/// becomes false, so the unchanged copy always runs; the distributed loops,
/// now dead code, are marked as fallback loops.
void dropDistribution(const Distribution &D);

} // namespace idiom

#endif // IDIOM_PASSES_LOOPDISTRIBUTION_H
