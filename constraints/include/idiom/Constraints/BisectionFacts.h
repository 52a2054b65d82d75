//===- BisectionFacts.h - Binary searches inside a loop body -----*- C++ -*-===//
//
// A bisection search over sorted boundaries, the bin search of Parboil's
// tpacf (angular correlation): inside the body of a counted loop,
//
//   lo = LoInit; hi = HiInit;
//   while (hi > lo + 1) { k = (lo + hi) / 2; if (key >= a[k]) hi = k; else lo = k; }
//   ... lo ...
//
// After -O2 the while loop is rotated: a guard tests the condition on the
// initial interval, the body runs, and the latch tests it again on the new
// interval. Structurally (analyzeBisection): two integer header phis (the
// interval), initial values invariant in the enclosing loop, one load a[mid]
// at an index computed from the two phis only, no store or call, the
// continue condition a function of the new interval only, and one of the
// two phis' final values used after the loop. Semantically
// (proveBisectionStep, lib/z3/BisectionZ3.cpp; the compare of a[mid] left
// free): whenever the loop continues from an interval [lo, hi] with lo and
// hi in [0, 2^(W-2)], the interval has two or more elements, the midpoint
// is floor((lo + hi) / 2) and the step moves exactly one bound to it, so
//
//   lo < mid < hi,  lo <= lo' < hi' <= hi,  2 (hi' - lo') <= hi - lo + 1.
//
// So, by induction from [LoInit, HiInit], the loop reads a[LoInit+1 ..
// HiInit-1] only and runs at most floor(log2(max(HiInit - LoInit, 1))) + 1
// times, which is what a lifter needs to write it as FunIL's
// iterate(count, \s => select(continue(s), step(s), s), (LoInit, HiInit))
// (docs/ConstraintLanguage.md, "Bisection searches").
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_CONSTRAINTS_BISECTIONFACTS_H
#define IDIOM_CONSTRAINTS_BISECTIONFACTS_H

#include "idiom/Constraints/Z3Checks.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>
#include <string>

namespace llvm {
class BranchInst;
class Loop;
class LoadInst;
class PHINode;
class ScalarEvolution;
class Type;
class Value;
} // namespace llvm

namespace idiom {

/// One bisection search loop (see the file comment). Part 0 and 1 of the
/// interval are the loop's two header phis in header order; which of them
/// is the lower bound is decided by proveBisectionStep (LowPart).
struct BisectionInfo {
  llvm::Loop *L = nullptr;                 ///< the search loop
  llvm::PHINode *Phi[2] = {};              ///< the interval
  llvm::Value *Init[2] = {};               ///< from the preheader
  llvm::Value *Next[2] = {};               ///< from the latch
  /// The latch's branch condition; the loop continues when it equals
  /// ContinueWhen. It reads the new interval (Next) and values defined
  /// outside the loop only.
  llvm::Value *Cond = nullptr;
  bool ContinueWhen = true;
  /// The entry test of a rotated loop: the loop runs when GuardCond equals
  /// GuardWhen; null when the loop is entered unconditionally.
  llvm::Value *GuardCond = nullptr;
  bool GuardWhen = true;
  llvm::Value *Mid = nullptr;        ///< the probe's index (GEP index)
  llvm::LoadInst *Probe = nullptr;   ///< a[Mid]
  llvm::Value *ProbeBase = nullptr;  ///< a
  llvm::Type *ProbeTy = nullptr;     ///< a's element type
  /// The search's value after the loop: a phi of the final Next[ResultPart]
  /// and, when the guard skips the loop, Init[ResultPart].
  llvm::PHINode *Result = nullptr;
  unsigned ResultPart = 0;
  /// Set by proveBisectionStep: the part that is the lower bound.
  unsigned LowPart = 0;
  /// The interval's integer width W.
  unsigned width() const;
};

/// Analyses \p Inner, a loop directly inside \p Outer, as a bisection
/// search. The initial interval must be invariant in \p Outer (the lifter
/// passes it and the boundaries' range to the device). On failure returns
/// nothing and sets \p Why to the first structural reason.
std::optional<BisectionInfo> analyzeBisection(llvm::Loop *Inner, llvm::Loop *Outer,
                                              llvm::ScalarEvolution &SE,
                                              std::string &Why);

/// The bisection searches directly inside \p Outer, or nothing with \p Why
/// when some inner loop of \p Outer is not one (nested loops included).
std::optional<llvm::SmallVector<BisectionInfo, 1>>
analyzeBisections(llvm::Loop *Outer, llvm::ScalarEvolution &SE, std::string &Why);

/// Proves the step lemma of the file comment for \p B with Z3 (either part
/// may be the lower bound; sets B.LowPart). Unknown (timeout) is not proven.
Proof proveBisectionStep(BisectionInfo &B, unsigned TimeoutMs, std::string &Why);

} // namespace idiom

#endif // IDIOM_CONSTRAINTS_BISECTIONFACTS_H
