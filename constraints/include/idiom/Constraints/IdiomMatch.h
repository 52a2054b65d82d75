//===- IdiomMatch.h - What the lifter needs from a detected idiom -*- C++ -*-===//
//
// The contract between constraints/ and the lifting bridge in passes/: a spec
// decides *whether* a loop nest is an idiom; buildIdiomMatch extracts *what*
// it computes (nest, affine accesses, reductions) from the same analyses the
// atoms used, and re-checks the legality facts the chosen lifter relies on, so
// a permissive user spec can never make the offload unsound.
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_CONSTRAINTS_IDIOMMATCH_H
#define IDIOM_CONSTRAINTS_IDIOMMATCH_H

#include "idiom/Constraints/Atom.h"
#include "idiom/Constraints/BisectionFacts.h"
#include "idiom/Constraints/GatherFacts.h"
#include "idiom/Constraints/HistogramFacts.h"
#include "idiom/Constraints/LoopFacts.h"
#include <optional>
#include <string>

namespace idiom {

/// The FunIL template families a lifter exists for. Gemm: a chain of three
/// loops computing C = POST(sum_k STEP, C) per element, or of two (`lifts
/// gemv`: y = POST(sum_k STEP, y) per element of the vector y, either loop
/// order) (the GEMM lifter, passes/lift/GemmLifting.h, analyses and checks
/// the nest itself). Spmv: a
/// CSR row loop, the nest holding only the row loop (the SpMV lifter,
/// passes/lift/SpmvLifting.h, analyses and checks its inner loop itself).
/// Accumulation: an outer-loop accumulation `for k: for x: Q[x] += f(k, x)`
/// (AccumulationFacts.h), lifted as a map over x of a reduceSeq over k, or
/// a column reduction `for j: for i: acc = F(acc, ...); out[j] = G(acc)`
/// (ColumnReductionFacts.h, IdiomMatch::MapsOuterLoop).
enum class IdiomKind { ScalarReduction, Map, Histogram, Gemm, Spmv, Accumulation };

/// One bin update of a histogram: the read-modify-write and its operator,
/// proved associative and commutative with an identity (HistogramFacts.h).
struct HistogramUpdate {
  BinUpdateInfo U;
  UpdateOperator Op;
};

/// A detected idiom, ready to lift.
struct IdiomMatch {
  IdiomKind Kind = IdiomKind::Map;
  std::string SpecName;                       ///< e.g. "scalar-reduction"
  NestInfo Nest;
  /// Every load and store, but the gathers.
  llvm::SmallVector<AffineAccess, 8> Accesses;
  /// Maps and reductions: loads through an index array (GatherFacts.h).
  llvm::SmallVector<GatherInfo, 2> Gathers;
  llvm::SmallVector<ReductionInfo, 2> Reductions; ///< header phi order
  llvm::SmallVector<HistogramUpdate, 1> Histograms; ///< one per bin store
  /// Histograms: the bisection searches of the body (Nest.Searches), their
  /// step lemma proved (BisectionFacts.h).
  llvm::SmallVector<BisectionInfo, 1> Searches;
  bool FPReassociated = false; ///< a floating-point reduction is reordered
  /// A floating-point min/max reduction: exact (not reassociated), its
  /// zero, infinite and NaN results recomputed by the loop (Stitching.cpp).
  bool FPExactMinMax = false;
  /// A map, histogram or exact reduction calls a libm function whose OpenCL
  /// version is not correctly rounded (exp, log, sin, cos, pow), allowed by
  /// -idiom-approx-libm.
  bool ApproxLibm = false;
  /// Kind Gemm on a chain of two loops that computes two GEMVs (`lifts
  /// gemv-pair`, constraints/specs/gemv-pair.idl): the GEMM lifter splits
  /// it into two programs run by one call (passes/lift/GemmLifting.h).
  bool GemvPair = false;
  /// Kind Gemm on a chain of three loops (`lifts gemm`: GEMM, triangular
  /// GEMM, a product of a 2mm/3mm chain) under the floating-point licence
  /// (-idiom-fp-reassoc, LiftOptions::AllowFPReassoc): its llvm.fmuladd is
  /// evaluated fused (fma) where the host may not fuse, as LLVM's definition
  /// of llvm.fmuladd allows; the lifter writes `fma` and translation
  /// validation checks against the fused operation (docs/ARCHITECTURE.md,
  /// "Floating point"). GEMVs keep the host's choice.
  bool FPContract = false;
  /// Kind Gemm from `lifts trmm` (a triangular product in place whose loops
  /// have anti dependences only, proved): its operand over the output's
  /// array is read from a snapshot, and its reduction may run over a band
  /// (NestInfo::BandLoop) or, rows running down, a triangle (TriLoop).
  bool InPlaceTriangular = false;
  /// Accumulation: the map runs over the outer loop and the reduction over
  /// the inner one (a column reduction, ColumnReductionFacts.h), not the
  /// interchanged `for k: for x:` nest.
  bool MapsOuterLoop = false;
  /// Run-time conditions the dependence proof assumed (SCEVs valid in the
  /// nest's preheader that must be non-negative: grid subscripts in their
  /// extents, proveNoLoopCarriedDependence); the lifter adds them to the
  /// call's checks, so the loop runs where one fails.
  llvm::SmallVector<const llvm::SCEV *, 2> Assumed;
};

/// Options that change what may be lifted.
struct LiftOptions {
  bool AllowFPReassoc = true; ///< -idiom-fp-reassoc
  /// -idiom-approx-libm: maps, histograms and exact reductions may call
  /// exp, log, sin, cos and pow, whose
  /// OpenCL versions are within the OpenCL 1.2 full-profile ulp bounds but
  /// not bit-exact.
  bool AllowApproxLibm = false;
  unsigned Z3TimeoutMs = 2000;
};

/// For an instruction of a nest that is not one of its loads or stores: true
/// when it is not a call with side effects (a libm call whose only effect is
/// errno is accepted: the lifter checks its arguments at run time,
/// isErrnoLibmCall) and touches no memory; otherwise
/// false with \p Why set (the check maps and histograms share).
bool hasNoOtherEffects(llvm::Instruction &I, std::string &Why);

/// True when the only header phis of nest \p N are its induction variables
/// and no value computed inside it is used after it (maps and histograms
/// carry nothing between iterations); otherwise false with \p Why set.
/// With \p Forwarded (maps), the other header phis of a rectangular nest
/// are listed there instead, for the caller to check as forwarded reads.
bool nestCarriesNothing(
    const NestInfo &N, std::string &Why,
    llvm::SmallVectorImpl<llvm::PHINode *> *Forwarded = nullptr);

/// Builds the match for the idiom \p Lifts ("reduction", "map", "gemm",
/// "gemv", "gemv-pair", "trmm", "trmv", "spmv" or "histogram";
/// constraints/lib/facts/HistogramMatch.cpp)
/// on loop \p L. Returns nothing and sets \p Why when the loop cannot be
/// lifted with that template.
std::optional<IdiomMatch> buildIdiomMatch(llvm::StringRef Lifts,
                                          llvm::StringRef SpecName,
                                          llvm::Loop *L,
                                          constraints::MatchEnv &Env,
                                          const LiftOptions &Opts,
                                          std::string &Why);

/// The histogram part of buildIdiomMatch: every store is a bin update with a
/// proved operator (floating-point ones only with Opts.AllowFPReassoc),
/// every other load an affine input or the bin load, calls pure. What the
/// lifter cannot express (several updates, unknown bin counts, nests) is
/// left to it, so that the loop stays a detected histogram with a reason.
bool buildHistogramMatch(IdiomMatch &M, llvm::ScalarEvolution &SE,
                         llvm::DominatorTree &DT, const LiftOptions &Opts,
                         ProofCache *Cache, std::string &Why);

} // namespace idiom

#endif // IDIOM_CONSTRAINTS_IDIOMMATCH_H
