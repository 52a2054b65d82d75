//===- NestWork.h - How much host work an idiom's nest does -----*- C++ -*-===//
//
// For the runtime's first call of a size class (runtime/lib/devwait.c,
// idiom_work_hint in runtime/include/idiomrt.h): the number of times the
// original nest's innermost body runs, and whether each of those runs
// extends one serial chain of floating-point operations. The runtime turns
// them into a lower bound of the loop's host time, so that a call with huge
// work (a one-shot GEMM, PolyBench trmm: 48 s on the host of the H100
// machine for its first product) can wait for the device instead of running
// the loop while the device starts. Only a speed decision depends on it.
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_PASSES_NESTWORK_H
#define IDIOM_PASSES_NESTWORK_H

#include "llvm/ADT/ArrayRef.h"

namespace llvm {
class Loop;
class SCEV;
class ScalarEvolution;
} // namespace llvm

namespace idiom {

struct IdiomMatch;
struct NestInfo;

/// The host work of one idiom's nest.
struct NestWork {
  /// Executions of the innermost body per call (i64 SCEV valid in the
  /// nest's preheader), or null when it says nothing the iteration space
  /// does not (a rectangular nest as deep as the sizes, no FP chain).
  const llvm::SCEV *Iters = nullptr;
  /// Each execution extends a chain of dependent floating-point adds,
  /// subtractions or multiplies (fmuladd included) in program order, carried
  /// by the innermost loop in a header phi or in one loop-invariant memory
  /// location, without the `reassoc` flag (IDIOM_WORK_FP_CHAIN).
  bool FPChain = false;
};

/// Innermost-body executions of nest \p N (i64): the product of its trip
/// counts, the band, skewed or triangular loop (LoopFacts.h) counted row by
/// row: a band of lead L over K columns and N0 rows runs r K - L r (r-1) / 2
/// times with r = min(N0, ceil(K / L)); a triangle TriBase + TriSlope k0.
const llvm::SCEV *nestIterations(const NestInfo &N, llvm::ScalarEvolution &SE);

/// True when every iteration of loop \p L extends a serial floating-point
/// chain (NestWork::FPChain).
bool carriesFPChain(const llvm::Loop &L, llvm::ScalarEvolution &SE);

/// The work of match \p M whose iteration space has sizes \p Sizes (the
/// lifted idiom's, outermost first).
NestWork analyzeNestWork(const IdiomMatch &M,
                         llvm::ArrayRef<const llvm::SCEV *> Sizes,
                         llvm::ScalarEvolution &SE);

} // namespace idiom

#endif // IDIOM_PASSES_NESTWORK_H
