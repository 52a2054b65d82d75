//===- IdiomMatch.cpp - Build the lifter's view of a detected idiom -------===//

#include "idiom/Constraints/IdiomMatch.h"
#include "idiom/Constraints/AccumulationFacts.h"
#include "idiom/Constraints/ColumnReductionFacts.h"
#include "idiom/Constraints/ExecutionFacts.h"
#include "idiom/Constraints/FactCache.h"
#include "idiom/Constraints/LinearAlgebraFacts.h"
#include "idiom/Constraints/StencilFacts.h"
#include "idiom/Constraints/ValueText.h"
#include "idiom/Constraints/Z3Checks.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace idiom {

/// Records every memory access of the nest; fails on anything that touches
/// memory in another way or calls an impure function.
static bool collectAccesses(IdiomMatch &M, ScalarEvolution &SE,
                            std::string &Why) {
  for (BasicBlock *BB : M.Nest.Loops.front()->blocks())
    for (Instruction &I : *BB) {
      if (isa<LoadInst>(I) || isa<StoreInst>(I)) {
        auto A = analyzeAccess(&I, M.Nest, SE, Why);
        if (!A) {
          // A load through an index array: its range is the index's
          // run-time extent (GatherFacts.h).
          std::string GWhy;
          auto *Ld = dyn_cast<LoadInst>(&I);
          auto G = Ld ? analyzeGather(Ld, M.Nest, SE, GWhy) : std::nullopt;
          if (!G)
            return false;
          Why.clear();
          M.Gathers.push_back(*G);
          continue;
        }
        M.Accesses.push_back(*A);
      } else if (!hasNoOtherEffects(I, Why)) {
        return false;
      }
    }
  return true;
}

/// The only stores of a reduction nest are its accumulators' running values
/// (ReductionInfo::Stores), each at an address no other stores: the
/// stitched code then stores each final value once, after the nest. The
/// addresses are whole elements apart (constant differences at least the
/// element size), so that the order of those stores does not matter.
static bool checkStoredResults(const IdiomMatch &M, ScalarEvolution &SE,
                               std::string &Why) {
  SmallVector<StoreInst *, 4> Stored;
  for (const ReductionInfo &R : M.Reductions)
    Stored.append(R.Stores.begin(), R.Stores.end());
  for (const AffineAccess &A : M.Accesses)
    if (A.IsStore && !is_contained(Stored, A.Inst)) {
      Why = "loop stores to memory other than an accumulator's running value: " +
            valueText(A.Inst);
      return false;
    }
  const DataLayout &DL = M.Nest.Loops.front()->getHeader()->getModule()->getDataLayout();
  for (size_t I = 0; I < Stored.size(); ++I)
    for (size_t J = I + 1; J < Stored.size(); ++J) {
      auto *D = dyn_cast<SCEVConstant>(SE.getMinusSCEV(
          SE.getSCEV(Stored[I]->getPointerOperand()), SE.getSCEV(Stored[J]->getPointerOperand())));
      uint64_t Size = DL.getTypeStoreSize(Stored[I]->getValueOperand()->getType());
      uint64_t SizeJ = DL.getTypeStoreSize(Stored[J]->getValueOperand()->getType());
      if (!D || D->getAPInt().getSignificantBits() > 63 ||
          (D->getAPInt().getSExtValue() < int64_t(Size) &&
           -D->getAPInt().getSExtValue() < int64_t(SizeJ))) {
        Why = "two accumulators are stored to addresses that may overlap: " +
              valueText(Stored[I]) + " and " + valueText(Stored[J]);
        return false;
      }
    }
  return true;
}

static bool buildReduction(IdiomMatch &M, ScalarEvolution &SE,
                           const LiftOptions &Opts, ProofCache *Cache,
                           std::string &Why) {
  Loop *L = M.Nest.Loops.front();
  for (PHINode &P : L->getHeader()->phis()) {
    if (isNestIV(&P, M.Nest) || derivedIV(&P, M.Nest))
      continue;
    auto R = analyzeReduction(&P, M.Nest, Why);
    if (!R) {
      // The index of an argmin/argmax: its laws follow from those of the
      // min/max it is tied to (a lexicographic min over (value, index)),
      // which is itself one of the reductions checked here.
      std::string AWhy;
      if (auto A = analyzeArgIndex(&P, M.Nest, SE, AWhy)) {
        Why.clear();
        M.Reductions.push_back(*A);
        continue;
      }
      return false;
    }
    if (proveAssocComm(*R, Opts.Z3TimeoutMs, Why, Cache) != Proof::Proven ||
        proveIdentity(*R, Opts.Z3TimeoutMs, Why, Cache) != Proof::Proven)
      return false;
    bool Reassoc = R->Op == ReductionOp::FAdd || R->Op == ReductionOp::FMul;
    if (Reassoc && !Opts.AllowFPReassoc) {
      Why = "floating-point reduction needs reassociation "
            "(disabled by -idiom-fp-reassoc=false)";
      return false;
    }
    M.FPReassociated |= Reassoc;
    M.FPExactMinMax |= R->Op == ReductionOp::FMin || R->Op == ReductionOp::FMax;
    M.Reductions.push_back(*R);
  }
  if (M.Reductions.empty()) {
    Why = "loop has no reduction";
    return false;
  }
  if (!checkStoredResults(M, SE, Why))
    return false;
  // A 2-D or 3-D nest: one reduction over the flattened space. Every
  // header phi of an inner loop is an induction variable or a reduction's
  // row (or plane) accumulator.
  for (unsigned D = 1; D < M.Nest.depth(); ++D)
    for (PHINode &P : M.Nest.Loops[D]->getHeader()->phis()) {
      bool Known = isNestIV(&P, M.Nest) || derivedIV(&P, M.Nest);
      for (const ReductionInfo &R : M.Reductions)
        Known |= R.Phi == &P || is_contained(R.MidCarries, &P);
      if (!Known) {
        Why = "the inner loop carries a value that is not a reduction over "
              "the whole nest: " + valueText(&P);
        return false;
      }
    }
  for (PHINode &P : L->getExitBlock()->phis()) {
    Value *In = P.getIncomingValue(0);
    bool Known = false;
    for (const ReductionInfo &R : M.Reductions)
      Known |= In == R.result();
    if (!Known && isa<Instruction>(In) && L->contains(cast<Instruction>(In))) {
      Why = "a value other than a reduction is used after the loop";
      return false;
    }
  }
  return true;
}

/// Finds, in the slice of \p Root inside nest \p N, a call to a libm function
/// whose OpenCL version is not bit-exact (exp, log, sin, cos, pow); its name
/// or empty.
static std::string approximateLibmCall(Value *Root, const NestInfo &N) {
  SmallVector<Value *, 16> Work{Root};
  SmallPtrSet<Value *, 32> Seen;
  while (!Work.empty()) {
    auto *I = dyn_cast<Instruction>(Work.pop_back_val());
    if (!I || !N.contains(I) || isa<PHINode>(I) || !Seen.insert(I).second)
      continue;
    std::string Name = approximateLibmName(I);
    if (!Name.empty())
      return Name;
    for (Value *Op : I->operands())
      Work.push_back(Op);
  }
  return "";
}

static bool buildMap(IdiomMatch &M, ScalarEvolution &SE,
                     const LiftOptions &Opts, ProofCache *Cache,
                     std::string &Why) {
  bool AnyStore = false;
  for (const AffineAccess &A : M.Accesses)
    if (A.IsStore) {
      AnyStore = true;
      auto *SI = cast<StoreInst>(A.Inst);
      if (!isPureSlice(SI->getValueOperand(), M.Nest, Why, /*AllowErrno=*/true,
                       /*AllowForwarded=*/true))
        return false;
      std::string Approx = approximateLibmCall(SI->getValueOperand(), M.Nest);
      if (!Approx.empty()) {
        if (!Opts.AllowApproxLibm) {
          Why = "map calls " + Approx +
                ", whose OpenCL version is not bit-exact (allow results "
                "within the OpenCL ulp bound with -idiom-approx-libm)";
          return false;
        }
        M.ApproxLibm = true;
      }
    }
  if (!AnyStore) {
    Why = "loop stores nothing";
    return false;
  }
  SmallVector<PHINode *, 4> Forwarded;
  if (!nestCarriesNothing(M.Nest, Why, &Forwarded))
    return false;
  // Reads forwarded from one iteration to the next (GVN, LoopLoadElimination)
  // are reads of the element they hold. Only of arrays the nest does not
  // write: the forwarded value is the one read an iteration before.
  for (PHINode *P : Forwarded) {
    auto A = analyzeForwardedAccess(P, M.Nest, SE, Why);
    if (!A) {
      Why = "loop carries a value from one iteration to the next: " + Why;
      return false;
    }
    for (const AffineAccess &B : M.Accesses)
      if (B.IsStore && B.Base == A->Base) {
        Why = "a read forwarded from the previous iteration is of an array "
              "the nest writes (a possible loop-carried dependence): " +
              valueText(P);
        return false;
      }
    M.Accesses.push_back(*A);
  }
  if (proveNoLoopCarriedDependence(M.Accesses, M.Nest, SE, Opts.Z3TimeoutMs,
                                   Why, Cache, &M.Assumed) != Proof::Proven)
    return false;
  return true;
}

/// Histograms, outer-loop accumulations and reductions with an exact
/// accumulator (integers, min/max) that call exp, log, sin, cos or pow anywhere in the nest need
/// -idiom-approx-libm: a bin or a count may change with the last ulp of the
/// call. Float sums and products are within the reassociation bound anyway.
static bool checkApproxLibm(IdiomMatch &M, const LiftOptions &Opts,
                            std::string &Why) {
  bool FloatSumsOnly = M.Kind == IdiomKind::ScalarReduction;
  for (const ReductionInfo &R : M.Reductions)
    if (R.Op != ReductionOp::FAdd && R.Op != ReductionOp::FMul)
      FloatSumsOnly = false;
  if (FloatSumsOnly)
    return true;
  for (BasicBlock *BB : M.Nest.Loops.front()->blocks())
    for (Instruction &I : *BB) {
      std::string Name = approximateLibmName(&I);
      if (Name.empty())
        continue;
      if (!Opts.AllowApproxLibm) {
        Why = std::string(M.Kind == IdiomKind::Histogram ? "histogram"
                          : M.Kind == IdiomKind::Accumulation
                              ? "outer-loop accumulation (summed in order, "
                                "exact)"
                              : "exact reduction") +
              " calls " + Name +
              ", whose OpenCL version is not bit-exact (allow results within "
              "the OpenCL ulp bound with -idiom-approx-libm)";
        return false;
      }
      M.ApproxLibm = true;
      return true;
    }
  return true;
}

bool hasNoOtherEffects(Instruction &I, std::string &Why) {
  if (isa<CallBase>(I)) {
    if (isPureOrErrnoCall(&I))
      return true;
    Why = "loop calls a function that may have side effects";
    return false;
  }
  if (I.mayReadOrWriteMemory()) {
    Why = "loop has a memory operation that is not a simple load or store";
    return false;
  }
  return true;
}

bool nestCarriesNothing(const NestInfo &N, std::string &Why,
                        SmallVectorImpl<PHINode *> *Forwarded) {
  for (Loop *L : N.Loops)
    for (PHINode &P : L->getHeader()->phis())
      if (!isNestIV(&P, N) && !derivedIV(&P, N) &&
          !(N.Skew && isTriangleStart(&P, N))) {
        if (Forwarded && !N.Skew) {
          Forwarded->push_back(&P);
          continue;
        }
        Why = "loop carries a value from one iteration to the next";
        return false;
      }
  Loop *Outer = N.Loops.front();
  for (BasicBlock *BB : Outer->blocks())
    for (Instruction &I : *BB)
      for (User *U : I.users())
        if (auto *UI = dyn_cast<Instruction>(U))
          if (!Outer->contains(UI)) {
            Why = "a value computed in the loop is used after it";
            return false;
          }
  return true;
}

/// The row loop of a sparse product as a nest of depth one: canonical
/// shape, trip count computable in its preheader, an affine counter with a
/// constant step (its other header phis are left to the lifter).
static std::optional<NestInfo> analyzeRowLoop(Loop *L, ScalarEvolution &SE,
                                              std::string &Why) {
  const SCEV *TC = canonicalTripCount(L, SE, Why);
  if (!TC)
    return std::nullopt;
  NestInfo N;
  for (PHINode &P : L->getHeader()->phis()) {
    auto *AR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(&P));
    if (!P.getType()->isIntegerTy() || !AR || AR->getLoop() != L ||
        !AR->isAffine() || !isa<SCEVConstant>(AR->getStepRecurrence(SE)) ||
        !SE.isLoopInvariant(AR->getStart(), L))
      continue;
    N.Loops.push_back(L);
    N.IVs.push_back(&P);
    N.TripCounts.push_back(TC);
    N.IVStarts.push_back(AR->getStart());
    N.IVSteps.push_back(
        cast<SCEVConstant>(AR->getStepRecurrence(SE))->getAPInt().getSExtValue());
    return N;
  }
  Why = "row loop has no affine induction variable";
  return std::nullopt;
}

/// checkUnconditionalEffects over chain \p N of \p L, but for the loads
/// that read an element a store of every iteration writes: LLVM duplicates
/// such a read (the old output element) on both sides of a band's or
/// triangle's zero-trip guard, and the device may read it whether or not
/// the loop runs.
static bool unconditionalButOutputReads(Loop *L, const NestInfo &N,
                                        constraints::MatchEnv &Env,
                                        std::string &Why) {
  SmallPtrSet<Instruction *, 4> Exempt;
  for (BasicBlock *BB : L->blocks())
    for (Instruction &I : *BB)
      if (auto *St = dyn_cast<StoreInst>(&I);
          St && executesOnEveryIteration(St, N))
        for (BasicBlock *BB2 : L->blocks())
          for (Instruction &J : *BB2)
            if (isa<LoadInst>(J) && accessesSameElement(&J, St, Env.SE))
              Exempt.insert(&J);
  return checkUnconditionalEffects(N, Env.SE, Env.DT, &Exempt, Why);
}

std::optional<IdiomMatch> buildIdiomMatch(StringRef Lifts, StringRef SpecName,
                                          Loop *L, constraints::MatchEnv &Env,
                                          const LiftOptions &Opts,
                                          std::string &Why) {
  IdiomMatch M;
  M.SpecName = SpecName.str();
  if (Lifts == "gemm" || Lifts == "gemv" || Lifts == "gemv-pair") {
    // A chain of three loops (GEMM) or two (GEMV, a pair of GEMVs); the GEMM
    // lifter checks roles and legality.
    M.Kind = IdiomKind::Gemm;
    M.GemvPair = Lifts == "gemv-pair";
    M.FPContract = Lifts == "gemm" && Opts.AllowFPReassoc;
    // A GEMM may be triangular (SYRK's j <= i: NestInfo::TriLoop).
    auto N = analyzeLoopChain(L, Lifts == "gemm" ? 3 : 2, Env.SE, Why,
                              /*Triangle=*/Lifts == "gemm");
    if (!N)
      return std::nullopt;
    M.Nest = *N;
    // The GEMM program reads A, B and C and writes C for every (i, j, k).
    if (!checkUnconditionalEffects(M.Nest, Env.SE, Env.DT, nullptr, Why))
      return std::nullopt;
    return M;
  }
  if (Lifts == "trmm") {
    // A triangular product in place (PolyBench trmm): a chain of three
    // loops whose innermost loop is a band (NestInfo::BandLoop) or a
    // triangle (TriLoop: the lower form whose rows run down,
    // NestInfo::RowsReversed, `for (i = m - 1; i > 0; i--) ... for (k = 0;
    // k < i; k++)`), lifted by the GEMM
    // lifter out of place on the original operand. Its loops may have anti
    // dependences only, proved here whatever the spec checks.
    M.Kind = IdiomKind::Gemm;
    M.InPlaceTriangular = true;
    auto N = analyzeLoopChain(L, 3, Env.SE, Why, /*Triangle=*/true,
                              /*Band=*/true, /*MinTriBase=*/0);
    if (!N)
      return std::nullopt;
    if (N->BandLoop != 2 && N->TriLoop != 2) {
      Why = "the TRMM nest's reduction loop is not a band whose start moves "
            "with the outer loop, nor a triangle whose end does (a "
            "rectangular nest, or a triangle of the output, is a GEMM "
            "spec's)";
      return std::nullopt;
    }
    M.Nest = *N;
    std::string DepWhy;
    if (proveOnlyAntiDependences(L, Env.SE, Opts.Z3TimeoutMs, DepWhy) !=
        Proof::Proven) {
      Why = "the TRMM nest may have a loop-carried flow or output dependence"
            + (DepWhy.empty() ? std::string() : ": " + DepWhy);
      return std::nullopt;
    }
    if (!unconditionalButOutputReads(L, M.Nest, Env, Why))
      return std::nullopt;
    return M;
  }
  if (Lifts == "trmv") {
    // A triangular matrix-vector product (the TRMV family, triangular.idl):
    // a chain of two loops whose inner loop, the reduction's, is a triangle
    // (lower: its end moves with the row, `j <= i`, `j < i`) or a band
    // (upper: its start moves, `j >= i`, `j > i`), lifted by the GEMM
    // lifter as a GEMV with a mask on its reduction; the lifter checks the
    // roles and legality as a GEMV's.
    M.Kind = IdiomKind::Gemm;
    auto N = analyzeLoopChain(L, 2, Env.SE, Why, /*Triangle=*/true,
                              /*Band=*/true, /*MinTriBase=*/0);
    if (!N)
      return std::nullopt;
    if (N->TriLoop != 1 && N->BandLoop != 1) {
      Why = "the triangular product's inner loop is neither a triangle (its "
            "end moves with the row by a constant) nor a band (its start "
            "moves with the row by a constant): a rectangular nest is "
            "gemv's";
      return std::nullopt;
    }
    M.Nest = *N;
    if (!unconditionalButOutputReads(L, M.Nest, Env, Why))
      return std::nullopt;
    return M;
  }
  if (Lifts == "accum") {
    // A chain of two loops, k outer and x inner, whose stores accumulate
    // into elements indexed by x: the roles and legality are decided here,
    // so that a refused nest leaves its inner loop to the other specs.
    M.Kind = IdiomKind::Accumulation;
    auto N = analyzeLoopChain(L, 2, Env.SE, Why);
    if (!N)
      return std::nullopt;
    M.Nest = *N;
    if (!checkUnconditionalEffects(M.Nest, Env.SE, Env.DT, nullptr, Why) ||
        !analyzeOuterAccumulation(M.Nest, Env.SE, Why) ||
        !checkApproxLibm(M, Opts, Why))
      return std::nullopt;
    return M;
  }
  if (Lifts == "column") {
    // A chain of two loops, j outer and i inner, whose inner loop folds
    // accumulators and whose stores write elements indexed by j: a map over
    // j of a reduction over i (ColumnReductionFacts.h), lifted by the
    // accumulation lifter with the loops' roles swapped.
    M.Kind = IdiomKind::Accumulation;
    M.MapsOuterLoop = true;
    auto N = analyzeLoopChain(L, 2, Env.SE, Why);
    if (!N)
      return std::nullopt;
    M.Nest = *N;
    if (!checkUnconditionalEffects(M.Nest, Env.SE, Env.DT, nullptr, Why) ||
        !analyzeColumnReduction(M.Nest, Env.SE, Why) ||
        !checkApproxLibm(M, Opts, Why))
      return std::nullopt;
    return M;
  }
  if (Lifts == "spmv") {
    // The row loop only; the SpMV lifter checks the inner loop and legality.
    M.Kind = IdiomKind::Spmv;
    auto N = analyzeRowLoop(L, Env.SE, Why);
    if (!N)
      return std::nullopt;
    M.Nest = *N;
    return M;
  }
  auto N = constraints::cachedNest(Env, L, Why);
  if (!N)
    return std::nullopt;
  M.Nest = *N;
  if (M.Nest.depth() > 2 && Lifts != "map" && Lifts != "reduction") {
    Why = "a nest of three loops is lifted as a map or a scalar reduction only";
    return std::nullopt;
  }
  std::string PlainWhy;
  if (!isPlainNest(M.Nest, PlainWhy) && Lifts != "histogram") {
    Why = PlainWhy + "; such nests are lifted in histograms only";
    return std::nullopt;
  }
  if (!M.Nest.Searches.empty() && Lifts != "histogram") {
    Why = "a bisection search in the loop's body is lifted in histograms only";
    return std::nullopt;
  }
  if (Lifts == "histogram") {
    M.Kind = IdiomKind::Histogram;
    if (!buildHistogramMatch(M, Env.SE, Env.DT, Opts, Env.Proofs, Why) ||
        !checkApproxLibm(M, Opts, Why))
      return std::nullopt;
    return M;
  }
  if (!collectAccesses(M, Env.SE, Why))
    return std::nullopt;
  // Maps and reductions evaluate the whole body for every iteration.
  if (!checkUnconditionalEffects(M.Nest, Env.SE, Env.DT, nullptr, Why))
    return std::nullopt;
  if (Lifts == "reduction") {
    M.Kind = IdiomKind::ScalarReduction;
    if (!buildReduction(M, Env.SE, Opts, Env.Proofs, Why) ||
        !checkApproxLibm(M, Opts, Why))
      return std::nullopt;
  } else if (Lifts == "map") {
    M.Kind = IdiomKind::Map;
    if (!buildMap(M, Env.SE, Opts, Env.Proofs, Why))
      return std::nullopt;
  } else {
    Why = "no lifter for template '" + Lifts.str() + "'";
    return std::nullopt;
  }
  return M;
}

} // namespace idiom
