//===- HistogramMatch.cpp - The lifter's view of a histogram --------------===//
//
// buildIdiomMatch for `lifts histogram` (IdiomMatch.h): re-checks the
// legality facts the histogram spec relies on (each store a bin update whose
// operator Z3 proves associative and commutative with an identity; every
// other memory access an input load; pure calls) and records the updates and
// the affine input loads for the lifter (passes/lift/HistogramLifting.h).
//
//===----------------------------------------------------------------------===//

#include "idiom/Constraints/IdiomMatch.h"
#include "idiom/Constraints/ExecutionFacts.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace idiom {

bool buildHistogramMatch(IdiomMatch &M, ScalarEvolution &SE, DominatorTree &DT,
                         const LiftOptions &Opts, ProofCache *Cache, std::string &Why) {
  // No value flows between iterations or out of the loop (a permissive
  // user spec may not have said so).
  if (!nestCarriesNothing(M.Nest, Why))
    return false;
  // Bisection searches in the body (a bin found among sorted boundaries):
  // their step lemma, proved again (a permissive user spec may not have
  // asked for it).
  SmallPtrSet<Instruction *, 8> Probes;
  for (Loop *S : M.Nest.Searches) {
    auto B = analyzeBisection(S, S->getParentLoop(), SE, Why);
    if (!B || proveBisectionStep(*B, Opts.Z3TimeoutMs, Why) != Proof::Proven)
      return false;
    Probes.insert(B->Probe);
    // A search entered under a test of loop-invariant values (the rotated
    // loop's guard) may have its key loaded under that test: the stitched
    // code tests it before the call (the original loop runs when it
    // fails), so that what the search region reads is read on every
    // iteration.
    auto *GI = dyn_cast_or_null<Instruction>(B->GuardCond);
    if (B->GuardCond && (!GI || !M.Nest.Loops.front()->contains(GI)))
      M.Nest.Guards.push_back({B->GuardCond, B->GuardWhen});
    M.Searches.push_back(*B);
  }
  // The bin updates first: their loads are not affine accesses.
  SmallPtrSet<Instruction *, 8> BinAccesses;
  for (BasicBlock *BB : M.Nest.Loops.front()->blocks())
    for (Instruction &I : *BB) {
      auto *St = dyn_cast<StoreInst>(&I);
      if (!St)
        continue;
      auto U = analyzeBinUpdate(St, M.Nest, SE, DT, Why);
      if (!U)
        return false;
      HistogramUpdate H{*U, {}};
      if (proveUpdateOperator(H.U, Opts.Z3TimeoutMs, H.Op, Why, Cache) != Proof::Proven)
        return false;
      bool FP = H.Op.Op == ReductionOp::FAdd || H.Op.Op == ReductionOp::FMul;
      if (FP && !Opts.AllowFPReassoc) {
        Why = "floating-point histogram needs reassociation "
              "(disabled by -idiom-fp-reassoc=false)";
        return false;
      }
      M.FPReassociated |= FP;
      BinAccesses.insert(St);
      if (auto *Ld = dyn_cast<LoadInst>(H.U.Acc))
        BinAccesses.insert(Ld);
      M.Histograms.push_back(std::move(H));
    }
  if (M.Histograms.empty()) {
    Why = "loop updates no bins";
    return false;
  }
  // A guarded bin update is by design (the program evaluates the guard), but
  // the inputs are read, and the index and value computed, for every
  // element: the loop must do the same.
  // A search reads its boundaries only while it runs, and so does its
  // lift (iterate stops where the loop does; BisectionFacts.h): its read
  // is exempt too.
  SmallPtrSet<Instruction *, 8> Exempt = BinAccesses;
  Exempt.insert(Probes.begin(), Probes.end());
  // A triangle's outer body runs its loads before the inner loop's entry
  // test, or after it on the rows the nest keeps (LoopFacts.h: it stops at
  // the first empty row); its inner loads must read a range whose ends the
  // loop reads (ExecutionFacts.h).
  if (M.Nest.Skew && !triangleOuterLoads(M.Nest, SE, DT, Exempt, Why))
    return false;
  if (!checkUnconditionalEffects(M.Nest, SE, DT, &Exempt, Why))
    return false;
  // Every other access reads an input array; the affine ones are recorded
  // (the lifter declines the others, e.g. bins[lut[x[i]]], with a reason).
  for (BasicBlock *BB : M.Nest.Loops.front()->blocks())
    for (Instruction &I : *BB) {
      if (BinAccesses.count(&I))
        continue;
      if (auto *Ld = dyn_cast<LoadInst>(&I)) {
        if (!isInputLoad(Ld, M.Nest, SE, Why))
          return false;
        std::string Ignored;
        if (auto A = analyzeAccess(Ld, M.Nest, SE, Ignored))
          M.Accesses.push_back(*A);
      } else if (!hasNoOtherEffects(I, Why)) {
        return false;
      }
    }
  return true;
}

} // namespace idiom
