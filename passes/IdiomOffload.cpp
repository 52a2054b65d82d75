//===- IdiomOffload.cpp - The plugin's passes -----------------------------===//

#include "IdiomOffload.h"
#include "BoundVersioning.h"
#include "RowProducts.h"
#include "LoopDistribution.h"
#include "RowTemporaries.h"
#include "SharedBases.h"
#include "IdiomDetection.h"
#include "KernelMemo.h"
#include "KernelSharing.h"
#include "Lifting.h"
#include "OffloadRemarks.h"
#include "PipelinePlacement.h"
#include "ResidencyRegions.h"
#include "RuntimeLimits.h"
#include "Stitching.h"
#include "TranslationValidation.h"
#include "lift/GemmLifting.h"
#include "idiom/Constraints/TimeReport.h"
#include "idiom/Constraints/Z3Budget.h"
#include "idiom/FunIL/Parser.h"
#include "idiom/Rewrite/Gemv.h"
#include "idiom/Rewrite/OpenCLGen.h"
#include "idiom/Rewrite/RowLanes.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include <cstring>
#include <exception>
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using ore::NV;

static cl::opt<bool> CorruptLift(
    "idiom-test-corrupt-lift", cl::Hidden, cl::init(false),
    cl::desc("Testing only: turn the first add of each lifted FunIL program "
             "into a sub, so that translation validation must reject it"));

static cl::opt<bool> CorruptMask(
    "idiom-test-corrupt-mask", cl::Hidden, cl::init(false),
    cl::desc("Testing only: turn the first icmp_slt of each lifted FunIL "
             "program (a triangle's or a band's mask) into icmp_sle, so that "
             "translation validation must reject it"));

static cl::opt<bool> DetectOnly(
    "idiom-detect-only", cl::init(false),
    cl::desc("Detect, lift and generate code for idioms and report them as "
             "remarks, but change no code: nothing is offloaded (idiom-cc "
             "--idiom-no-offload)"));

namespace idiom {
namespace {

/// One idiom carried from lifting to stitching.
struct Offload {
  DetectedIdiom *D;
  LiftedIdiom Lifted;
  std::string KernelName;
  rewrite::GeneratedOpenCL Gen;
  std::vector<unsigned> SlotBytes; ///< reductions: the kernels' result slots
  std::string KernelKey; ///< kernelKey of the lifted program (KernelSharing.h)
  /// A descriptor of an earlier function of the module whose kernel this
  /// idiom reuses (Gen is then empty), or null.
  GlobalVariable *KernelFrom = nullptr;
  /// True when KernelName and Gen were taken from an earlier idiom of the
  /// same function with the same kernel.
  bool SharedInFunction = false;
  /// The errno check's kernels, when Lifted.ErrnoCheckFunIL is not empty.
  CheckKernel Check;
  /// The extent check's kernels, when Lifted.ExtentCheckFunIL is not empty.
  CheckKernel Extent;
  /// After liftAndGenerate fails, the step that failed, for the
  /// NotOffloaded remark's `Stage`: lift, limits, validation, errno-check,
  /// extent-check, codegen or internal.
  const char *FailedStage = "internal";
  /// A map of floating-point row sums (a CSR SpMV) whose variants include
  /// the row lanes, which reassociate each row's sum (RowLanes.h).
  bool FPRowLanes = false;
  /// A GEMV pair (LiftedIdiom::Pair): the second program's kernels.
  rewrite::GeneratedOpenCL PairGen;
};

/// Where liftAndGenerate finds kernels generated before: the module's
/// index, and the idioms of the current function lifted so far (Earlier),
/// the first of each kernel found by its key (EarlierByKey).
struct KernelSources {
  const KernelIndex *Index = nullptr;
  const std::vector<Offload> *Earlier = nullptr;
  const StringMap<size_t> *EarlierByKey = nullptr;
};

/// A kernel name unique in the module: idiom_<function>_<n>.
std::string kernelName(Function &F, unsigned N) {
  std::string S = "idiom_";
  for (char C : F.getName())
    S += isalnum((unsigned char)C) ? C : '_';
  return S + "_" + std::to_string(N);
}

const char *kindName(const IdiomMatch &M) {
  if (M.Kind == IdiomKind::Histogram)
    return "histogram";
  if (M.Kind == IdiomKind::Gemm)
    return M.GemvPair             ? "GEMV pair"
           : M.Nest.depth() == 2 && (M.Nest.BandLoop || M.Nest.TriLoop)
               ? "TRMV"
           : M.Nest.depth() == 2  ? "GEMV"
           : M.InPlaceTriangular  ? "TRMM"
                                  : "GEMM";
  if (M.Kind == IdiomKind::Spmv) // the built-in specs spmv-csr, spmv-jds
    return M.SpecName.find("jds") != std::string::npos ? "JDS SpMV" : "CSR SpMV";
  if (M.Kind == IdiomKind::Accumulation)
    return M.MapsOuterLoop ? "column reduction" : "outer-loop accumulation";
  if (M.Kind == IdiomKind::Map)
    return M.Nest.depth() == 3 ? "3-D map" : M.Nest.depth() == 2 ? "2-D map" : "map";
  return M.Nest.depth() == 3   ? "3-D scalar reduction"
         : M.Nest.depth() == 2 ? "2-D scalar reduction"
                               : "scalar reduction";
}

/// Testing hook: turns the first add/fadd/mul/fmul operation after the
/// parameter list into sub/fsub/add/fadd; in a program with none, the first
/// fma into fmuladd (unfused).
void corruptForTesting(std::string &Text) {
  static const std::pair<const char *, const char *> Swaps[] = {
      {"fadd(", "fsub("}, {"add(", "sub("}, {"fmul(", "fadd("}, {"mul(", "add("}};
  size_t Best = std::string::npos;
  const std::pair<const char *, const char *> *Which = nullptr;
  for (const auto &S : Swaps)
    for (size_t At = Text.find(S.first, Text.find("{")); At != std::string::npos;
         At = Text.find(S.first, At + 1))
      if (!isalnum((unsigned char)Text[At - 1]) && Text[At - 1] != '_') {
        if (At < Best) {
          Best = At;
          Which = &S;
        }
        break;
      }
  if (Which)
    Text.replace(Best, strlen(Which->first), Which->second);
  else
    for (size_t At = Text.find("fma(", Text.find("{")); At != std::string::npos;
         At = Text.find("fma(", At + 1))
      if (!isalnum((unsigned char)Text[At - 1]) && Text[At - 1] != '_') {
        Text.replace(At, 4, "fmuladd(");
        break;
      }
}

bool liftAndGenerateImpl(Offload &O, ScalarEvolution &SE,
                         const KernelSources &Kernels, std::string &Why);

/// Lifts and generates code for \p D; a kernel found in \p Kernels is
/// reused, not generated again. Returns false with \p Why on failure,
/// including an exception thrown by any of the steps (none of them has
/// touched the IR yet, so the loop stays as it was).
bool liftAndGenerate(Offload &O, ScalarEvolution &SE,
                     const KernelSources &Kernels, std::string &Why) {
  beginLoopWork();
  try {
    return liftAndGenerateImpl(O, SE, Kernels, Why);
  } catch (const std::exception &E) {
    Why = std::string("internal error: ") + E.what();
    O.FailedStage = "internal";
    return false;
  }
}

/// Takes the kernel of \p O from \p Kernels when it was generated before.
bool reuseKernel(Offload &O, const KernelSources &Kernels) {
  if (Kernels.Earlier && Kernels.EarlierByKey) {
    auto It = Kernels.EarlierByKey->find(O.KernelKey);
    if (It != Kernels.EarlierByKey->end()) {
      const Offload &E = (*Kernels.Earlier)[It->second];
      O.KernelName = E.KernelName;
      O.Gen = E.Gen;
      O.KernelFrom = E.KernelFrom;
      O.SharedInFunction = true;
      return true;
    }
  }
  if (Kernels.Index)
    if (GlobalVariable *Desc = Kernels.Index->findKernel(O.KernelKey)) {
      O.KernelName = descriptorKernelName(*Desc).str();
      O.KernelFrom = Desc;
      return true;
    }
  return false;
}

/// Generates the kernels of a run-time check that runs before an idiom
/// (Stitching.h, CheckKernel): the program \p Text, a 1-D reduction whose
/// result slots must be \p Slots; \p What names it in reasons. It has its
/// own kernel name and is never shared.
bool generateCheck(const std::string &Text, const std::vector<unsigned> &Slots,
                   const std::string &What, CheckKernel &K, std::string &Why) {
  funil::Program P;
  std::string Err;
  if (!funil::parseProgram(Text, P, Err)) {
    Why = What + " does not parse (internal error): " + Err;
    return false;
  }
  K.KernelName = P.Name;
  K.SlotBytes = rewrite::reductionSlotBytes(P);
  if (K.SlotBytes != Slots) {
    Why = What + " has other result slots than expected (internal error)";
    return false;
  }
  rewrite::GeneratedOpenCL Gen;
  if (!generateOpenCLMemo(Text, P, P.Name, Gen, Err)) {
    Why = "no OpenCL for the " + What + ": " + Err;
    return false;
  }
  K.OpenCL = std::move(Gen.Source);
  K.NumVariants = Gen.NumVariants;
  return true;
}

/// Checks lifted program \p L (its text \p Text: L.FunIL, or a copy)
/// against the runtime's limits, corrupts \p Text under
/// -idiom-test-corrupt-lift, parses it into \p P and validates it against
/// the slices of L; \p What names the program in a validation failure.
bool parseAndValidate(Offload &O, const LiftedIdiom &L, std::string &Text,
                      funil::Program &P, const std::string &What,
                      std::string &Why) {
  O.FailedStage = "limits";
  if (!withinRuntimeLimits(*O.D->Match, L,
                           O.D->L->getHeader()->getModule()->getDataLayout(),
                           Why))
    return false;
  if (CorruptLift)
    corruptForTesting(Text);
  if (CorruptMask)
    if (size_t At = Text.find("icmp_slt(", Text.find("{")); At != std::string::npos)
      Text.replace(At, 9, "icmp_sle(");
  std::string Err;
  O.FailedStage = "internal";
  if (!funil::parseProgram(Text, P, Err)) {
    Why = "lifted FunIL does not parse (internal error): " + Err;
    return false;
  }
  O.FailedStage = "validation";
  if (!validateLifting(*O.D->Match, L, P, currentLiftOptions().Z3TimeoutMs, Err)) {
    Why = "translation validation failed: " + What + Err;
    return false;
  }
  return true;
}

/// The two programs of a GEMV pair (LiftedIdiom::Pair), each checked,
/// validated and generated as its own kernels (O.Gen, O.PairGen); a pair's
/// kernels are never shared.
bool generatePair(Offload &O, std::string &Why) {
  const LiftedPair &Pair = *O.Lifted.Pair;
  const LiftedIdiom *Parts[2] = {&Pair.First, &Pair.Second};
  rewrite::GeneratedOpenCL *Gens[2] = {&O.Gen, &O.PairGen};
  O.KernelKey = "gemv-pair";
  for (unsigned K = 0; K < 2; ++K) {
    std::string Text = Parts[K]->FunIL, Err;
    funil::Program P;
    if (!parseAndValidate(O, *Parts[K], Text, P,
                          std::string("the ") + (K ? "second" : "first") +
                              " GEMV of the pair: ",
                          Why))
      return false;
    O.KernelKey += ":" + kernelKey(P);
    O.FPRowLanes |= currentLiftOptions().AllowFPReassoc && rewrite::gemvSumIsFloat(P);
    O.FailedStage = "codegen";
    rewrite::ExploreOptions Opts;
    Opts.FPReassoc = currentLiftOptions().AllowFPReassoc;
    if (!generateOpenCLMemo(Text, P, P.Name, *Gens[K], Err, Opts)) {
      Why = "no OpenCL for the lifted FunIL: " + Err;
      return false;
    }
  }
  return true;
}

bool liftAndGenerateImpl(Offload &O, ScalarEvolution &SE,
                         const KernelSources &Kernels, std::string &Why) {
  O.FailedStage = "lift";
  if (!liftToFunIL(*O.D->Match, O.KernelName, SE, O.Lifted, Why)) {
    Why = "cannot lift to FunIL: " + Why;
    return false;
  }
  if (O.Lifted.Pair)
    return generatePair(O, Why);
  funil::Program P;
  std::string Err;
  if (!parseAndValidate(O, O.Lifted, O.Lifted.FunIL, P, "", Why))
    return false;
  O.FailedStage = "errno-check";
  if (!O.Lifted.ErrnoCheckFunIL.empty() &&
      !generateCheck(O.Lifted.ErrnoCheckFunIL, {4},
                     "errno check of " + O.Lifted.ErrnoFunctions, O.Check, Why))
    return false;
  O.FailedStage = "extent-check";
  if (!O.Lifted.ExtentCheckFunIL.empty() &&
      !generateCheck(O.Lifted.ExtentCheckFunIL,
                     std::vector<unsigned>(2 * O.Lifted.Extents.size(), 8),
                     "extent check", O.Extent, Why))
    return false;
  O.SlotBytes = rewrite::reductionSlotBytes(P);
  O.KernelKey = kernelKey(P);
  O.FPRowLanes = !P.IsReturn && currentLiftOptions().AllowFPReassoc &&
                 (rewrite::laneRowReductionIsFloat(P.Body) || rewrite::gemvSumIsFloat(P));
  if (reuseKernel(O, Kernels)) {
    TimeReport::count("kernel shared with an earlier copy of its loop");
    return true;
  }
  O.FailedStage = "codegen";
  rewrite::ExploreOptions Opts;
  Opts.FPReassoc = currentLiftOptions().AllowFPReassoc;
  Opts.BufferOffsets = true; // the runtime passes each buffer's offset
  if (!generateOpenCLMemo(O.Lifted.FunIL, P, O.KernelName, O.Gen, Err, Opts)) {
    Why = "no OpenCL for the lifted FunIL: " + Err;
    return false;
  }
  return true;
}

} // namespace

PreservedAnalyses IdiomOffloadPass::run(Function &F,
                                        FunctionAnalysisManager &FAM) {
  if (F.isDeclaration())
    return PreservedAnalyses::all();
  markOffloadRan(*F.getParent());
  auto &LI = FAM.getResult<LoopAnalysis>(F);
  const TargetLibraryInfo *TLI = &FAM.getResult<TargetLibraryAnalysis>(F);
  if (LI.empty()) {
    // Still summarised for the regions of its callers (RegionSummaries.h).
    if (!DetectOnly && !hasResidencyRegions(F)) {
      RemarkSink NoRemarks(
          F, FAM.getResult<OptimizationRemarkEmitterAnalysis>(F), DeferRemarks);
      formResidencyRegions(F, LI, {}, NoRemarks, TLI);
    }
    return PreservedAnalyses::all();
  }
  auto &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
  auto &DT = FAM.getResult<DominatorTreeAnalysis>(F);
  RemarkSink Remarks(F, FAM.getResult<OptimizationRemarkEmitterAnalysis>(F),
                     DeferRemarks);
  if (hasResidencyRegions(F)) {
    // A new idiom inside an earlier run's region would leave its buffers on
    // the device where that region's proof did not look.
    Remarks.emit([&] {
      return OptimizationRemarkMissed(RemarkPass, "HasResidencyRegions", &F)
             << "function already has residency regions from an earlier run "
                "of the plugin: nothing new is offloaded in it";
    });
    return PreservedAnalyses::all();
  }

  // Loops whose bound is read from memory in every iteration get a copy
  // with the bound read once, behind a run-time check (BoundVersioning.h);
  // a copy that no idiom uses is dropped again below.
  bool Versioned = false;
  SmallVector<BoundVersion, 4> Versions =
      versionLoopBounds(LI, DT, SE, Versioned);
  // Nests that fill per-row temporaries get a copy with them privatised
  // (RowTemporaries.h), dropped again below when no idiom uses it.
  SmallVector<RowTempMiss, 2> RowTempMisses;
  size_t FirstRowTempVersion = Versions.size();
  Versions.append(
      privatiseRowTemporaries(LI, DT, SE, RowTempMisses, Versioned));
  // Per-row products through a temporary (doitgen) get a copy batched over
  // the rows (RowProducts.h), dropped likewise when no idiom uses it.
  SmallVector<RowProductMiss, 2> RowProductMisses;
  size_t EndRowTempVersions = Versions.size();
  Versions.append(batchRowProducts(LI, DT, SE, RowProductMisses, Versioned));
  size_t EndRowProductVersions = Versions.size();
  // Nests that write one grid of an array and read another at a distance
  // known only at run time (SharedBases.h) get a copy behind a disjointness
  // check, dropped likewise when no idiom uses it.
  Versions.append(versionSharedBases(LI, DT, SE, Versioned));
  SmallVector<DistributionMiss, 2> DistMisses;
  SmallVector<Distribution, 2> Dists;
  auto DropUnused = [&](const SmallPtrSetImpl<Loop *> &Used) {
    for (const Distribution &D : Dists)
      if (none_of(D.Parts, [&](Loop *P) {
            return any_of(Used, [&](Loop *U) { return P == U || P->contains(U); });
          })) {
        dropDistribution(D);
        Remarks.emit([&] {
          return OptimizationRemarkAnalysis(RemarkPass, "LoopDistribution",
                                            D.Parts.front()->getStartLoc(),
                                            D.Parts.front()->getHeader())
                 << "loop distribution undone: no idiom was offloaded from "
                    "its loops";
        });
      }
    for (const BoundVersion &V : Versions) {
      bool Keep = false;
      for (Loop *U : Used)
        Keep |= V.Nest == U || V.Nest->contains(U);
      if (!Keep)
        dropBoundVersion(V);
    }
  };
  SmallPtrSet<Loop *, 8> StitchedLoops;

  Detection Det = detectIdioms(F, LI, SE, DT);
  // Parallel loops whose body is a sequence of parts, and that no idiom
  // takes whole (a GEMM whose prologue scales C), get a copy split into
  // one loop per part (LoopDistribution.h), dropped below when unused;
  // detection then runs again, over the distributed loops.
  SmallPtrSet<Loop *, 8> Lifted;
  for (DetectedIdiom &D : Det.Found)
    if (D.Match)
      Lifted.insert(D.L);
  Dists = distributeLoops(LI, DT, SE, currentLiftOptions().Z3TimeoutMs, Lifted,
                          DistMisses, Versioned);
  if (!Dists.empty())
    Det = detectIdioms(F, LI, SE, DT);
  for (Loop *L : Det.OverBudget)
    Remarks.emit([&] {
      return OptimizationRemarkMissed(RemarkPass, "LoopBudget", L->getStartLoc(),
                                      L->getHeader())
             << "per-loop work budget exceeded: more than "
             << NV("Limit", loopBudgetLimit())
             << " solver queries (-idiom-loop-z3-queries); facts left unproven";
    });
  for (auto &[L, Spec] : Det.OverSearchBudget)
    Remarks.emit([&] {
      return OptimizationRemarkMissed(RemarkPass, "LoopSearchBudget",
                                      L->getStartLoc(), L->getHeader())
             << "per-loop work budget exceeded: more than "
             << NV("Limit", loopAtomCallBudget())
             << " atom calls of the constraint search "
                "(-idiom-loop-atom-calls); idiom "
             << NV("Idiom", Spec) << " and those after it not tried to the end";
    });
  for (RowTempMiss &Miss : RowTempMisses)
    Remarks.emit([&] {
      return OptimizationRemarkMissed(RemarkPass, "RowTemporaries",
                                      Miss.Nest->getStartLoc(),
                                      Miss.Nest->getHeader())
             << "row temporaries not privatised: " << NV("Reason", Miss.Why);
    });
  for (RowProductMiss &Miss : RowProductMisses)
    Remarks.emit([&] {
      return OptimizationRemarkMissed(RemarkPass, "RowProducts",
                                      Miss.Nest->getStartLoc(),
                                      Miss.Nest->getHeader())
             << "row products not batched: " << NV("Reason", Miss.Why);
    });
  for (const Distribution &D : Dists)
    Remarks.emit([&] {
      return OptimizationRemarkAnalysis(RemarkPass, "LoopDistribution",
                                        D.Parts.front()->getStartLoc(),
                                        D.Parts.front()->getHeader())
             << "loop distributed into " << NV("Parts", unsigned(D.Parts.size()))
             << " loops, one per part, behind a run-time check";
    });
  for (DistributionMiss &Miss : DistMisses)
    Remarks.emit([&] {
      return OptimizationRemarkMissed(RemarkPass, "LoopDistribution",
                                      Miss.L->getStartLoc(), Miss.L->getHeader())
             << "loop not distributed into its parts: " << NV("Reason", Miss.Why);
    });
  for (MissedLoop &Miss : Det.Missed)
    Remarks.emit([&] {
      OptimizationRemarkMissed R(RemarkPass, "NotAnIdiom",
                                 Miss.L->getStartLoc(), Miss.L->getHeader());
      R << "loop is not an idiom (closest: " << NV("Idiom", Miss.Spec) << "): ";
      if (Miss.Atom.empty())
        return R << NV("Reason", Miss.Reason);
      return R << NV("AtomLoc", Miss.AtomLoc) << ": " << NV("Atom", Miss.Atom)
               << ": " << NV("Reason", Miss.WhyNot);
    });

  std::vector<Offload> Offloads;
  StringMap<size_t> OffloadByKernel; // first of Offloads with each kernel
  KernelIndex Index(*F.getParent());
  unsigned Id = Det.Found.empty() ? 0 : Index.nextKernelId();
  for (DetectedIdiom &D : Det.Found) {
    if (!D.Match) {
      // A miss (-Rpass-missed): the loop runs as it is.
      Remarks.emit([&] {
        return OptimizationRemarkMissed(RemarkPass, "Detected", D.L->getStartLoc(),
                                        D.L->getHeader())
               << "detected idiom " << NV("Idiom", D.Spec)
               << " (its spec names no FunIL template)";
      });
      continue;
    }
    Offload O{&D, {}, kernelName(F, Id++), {}};
    std::string Why;
    if (!liftAndGenerate(O, SE, {&Index, &Offloads, &OffloadByKernel}, Why)) {
      Remarks.emit([&] {
        return OptimizationRemarkMissed(RemarkPass, "NotOffloaded", D.L->getStartLoc(),
                                        D.L->getHeader())
               << "idiom " << NV("Idiom", D.Spec) << " not offloaded: "
               << NV("Reason", Why) << ore::setExtraArgs()
               << NV("Stage", O.FailedStage);
      });
      continue;
    }
    if (DetectOnly) {
      Remarks.emit([&] {
        return OptimizationRemarkAnalysis(RemarkPass, "Offloadable",
                                          D.L->getStartLoc(), D.L->getHeader())
               << "offloadable " << NV("Kind", kindName(*D.Match)) << " ("
               << NV("Idiom", D.Spec) << "), not offloaded (-idiom-detect-only)"
               << ore::setExtraArgs() << NV("Site", loopLocation(*D.L));
      });
      continue;
    }
    OffloadByKernel.try_emplace(O.KernelKey, Offloads.size());
    Offloads.push_back(std::move(O));
  }
  if (Offloads.empty()) {
    if (!Det.Found.empty())
      Index.addKernelIds(0);
    DropUnused(StitchedLoops);
    // Loops calling functions that run idioms may still be regions.
    if (!DetectOnly && formResidencyRegions(F, LI, {}, Remarks, TLI))
      Versioned = true;
    return Versioned ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }

  // Phase 1 for all idioms, while SCEV still describes the CFG; then phase 2.
  std::vector<StitchInput> Inputs;
  std::vector<ExpandedArgs> Expanded;
  for (Offload &O : Offloads) {
    StitchInput In;
    In.M = &*O.D->Match;
    In.Lifted = &O.Lifted;
    In.OpenCL = O.Gen.Source;
    In.NumVariants = O.Gen.NumVariants;
    In.SlotBytes = O.SlotBytes;
    In.KernelName = O.KernelName;
    In.Loc = loopLocation(*O.D->L);
    In.KernelFrom = O.KernelFrom;
    In.Check = O.Check;
    In.Extent = O.Extent;
    if (O.Lifted.Pair) {
      In.PairKernelName = O.KernelName + "_pair";
      In.PairOpenCL = O.PairGen.Source;
      In.PairNumVariants = O.PairGen.NumVariants;
    }
    Expanded.push_back(expandAtPreheader(In, SE));
    Inputs.push_back(std::move(In));
  }
  // The expansions above already inserted instructions, even where the
  // stitching below fails: the function has changed either way.
  bool Changed = true;
  unsigned NewDescriptors = 0;
  std::vector<StitchedCall> Stitched;
  for (size_t I = 0; I < Offloads.size(); ++I) {
    Offload &O = Offloads[I];
    const IdiomMatch &M = *O.D->Match;
    DebugLoc Loc = O.D->L->getStartLoc();
    BasicBlock *Header = O.D->L->getHeader();
    std::string Why;
    // Copies of one loop share a descriptor (KernelSharing.h); a kernel
    // generated for an earlier idiom of this function is in the index once
    // that idiom is stitched.
    StitchInput &In = Inputs[I];
    std::string DescKey = descriptorKey(O.KernelKey, In.Loc, O.D->Spec);
    bool Pair = O.Lifted.Pair != nullptr; // its descriptors are its own
    In.Desc = Pair ? nullptr : Index.findDescriptor(DescKey);
    if (!In.KernelFrom && !Pair)
      In.KernelFrom = Index.findKernel(O.KernelKey);
    GlobalVariable *Desc = nullptr;
    StitchedCall SC;
    if (!stitch(In, Expanded[I], LI, Desc, Why, &SC)) {
      Remarks.emit([&] {
        return OptimizationRemarkMissed(RemarkPass, "NotOffloaded", Loc, Header)
               << "idiom " << NV("Idiom", O.D->Spec) << " not offloaded: "
               << NV("Reason", Why) << ore::setExtraArgs()
               << NV("Stage", "stitch");
      });
      continue;
    }
    Changed = true;
    StitchedLoops.insert(O.D->L);
    // A privatised row-temporaries nest: a decline runs the unchanged copy
    // (RowTemporaries.h), not the nest that recomputes the temporaries.
    // (When it cannot redirect, the decline runs the nest as stitched.)
    for (size_t K = FirstRowTempVersion; K < EndRowTempVersions; ++K)
      if (Versions[K].Nest == O.D->L)
        declineToUnchangedCopy(Versions[K], SC.Fallback, LI);
    // A batched row-products nest likewise, freeing its temporary: on the
    // host the batched nest writes a fresh block of every row and copies
    // it back (RowProducts.h).
    for (size_t K = EndRowTempVersions; K < EndRowProductVersions; ++K)
      if (Versions[K].Nest == O.D->L)
        if (CallInst *T = rowProductTemporary(Versions[K]))
          declineToUnchangedCopy(Versions[K], SC.Fallback, LI, T);
    // A distributed loop's first part: a decline runs the unchanged loop
    // (all parts at once; the distributed loops traverse the arrays once
    // per part on the host).
    for (const Distribution &Dist : Dists)
      if (Dist.Parts.front() == O.D->L)
        declineToUnchangedCopy({O.D->L, Dist.Check}, SC.Fallback, LI);
    // A CSR SpMV's runtime call reads ptr and col on the host: inside a
    // region it first copies back their device-valid bytes (csr.c), and
    // ptr is one of its buffers here, so host code there cannot write it.
    // A JDS check (jds.c) reads cnt, ptr, col and perm without that: it
    // stays out of regions (an unknown call there refuses the region).
    // A GEMV pair's idiom_run_pair declines inside a region (its first
    // product's outputs would be device-valid before the second ran): its
    // call, unknown to the regions, keeps them out.
    // A nest whose decline runs an unchanged copy is passed on too: the
    // regions sync at the copy's preheader (ResidencyRegions.cpp,
    // fallbackPreheader), which the copy's other entry, the check's false
    // edge, passes as well.
    if ((!O.Lifted.Csr || O.Lifted.Csr->Format == 0) && !Pair)
      Stitched.push_back(std::move(SC));
    if (Pair) {
      ++NewDescriptors;
    } else if (!In.Desc) {
      Index.add(O.KernelKey, DescKey, Desc);
      ++NewDescriptors;
    }
    if (In.KernelFrom || O.SharedInFunction)
      Remarks.emit([&] {
        return OptimizationRemarkAnalysis(RemarkPass, "KernelShared", Loc, Header)
               << "kernel " << NV("Kernel", O.KernelName)
               << " shared: the loop lifts to the same FunIL as an earlier "
                  "offloaded loop"
               << (In.Desc ? " (and shares its runtime descriptor)" : "");
      });
    Remarks.emit([&] {
      OptimizationRemark R(RemarkPass, "Offloaded", Loc, Header);
      R << "offloaded " << NV("Kind", kindName(M)) << " ("
        << NV("Idiom", O.D->Spec) << ") to OpenCL as "
        << NV("Kernel", O.KernelName);
      if (M.Kind == IdiomKind::Histogram)
        R << " with operator "
          << NV("Operator", M.Histograms.front().Op.name());
      if (M.Kind == IdiomKind::ScalarReduction) {
        R << " with " << NV("Accumulators", unsigned(M.Reductions.size()))
          << " accumulator(s):";
        for (const ReductionInfo &Red : M.Reductions)
          R << " "
            << NV("Operator", Red.Op != ReductionOp::ArgIndex ? reductionOpName(Red.Op)
                              : Red.ArgLast ? "argindex-last"
                                            : "argindex-first");
      }
      R << ore::setExtraArgs() << NV("Site", In.Loc);
      if (!O.Lifted.ErrnoCheckFunIL.empty())
        R << NV("ErrnoCheck", O.Check.KernelName);
      return R;
    });
    if (M.FPReassociated)
      Remarks.emit([&] {
        return OptimizationRemarkAnalysis(RemarkPass, "FPReassociation", Loc, Header)
               << "floating-point " << (M.Kind == IdiomKind::Histogram ? "histogram" : "reduction")
               << " is reassociated by parallel evaluation "
                  "(disable with -mllvm -idiom-fp-reassoc=false)";
      });
    if (O.FPRowLanes)
      Remarks.emit([&] {
        return OptimizationRemarkAnalysis(RemarkPass, "FPReassociation", Loc, Header)
               << "floating-point row sums may be reassociated by parallel "
                  "evaluation (the row-lanes variants: several work-items per "
                  "row; disable with -mllvm -idiom-fp-reassoc=false)";
      });
    if (O.Lifted.FusedMulAdd)
      Remarks.emit([&] {
        return OptimizationRemarkAnalysis(RemarkPass, "FPContraction", Loc, Header)
               << "floating-point multiply-adds (llvm.fmuladd) of the GEMM are "
                  "fused (fma) on the device where the host rounds them twice: "
                  "each element within the GEMM bound of the sequential result "
                  "(disable with -mllvm -idiom-fp-reassoc=false)";
      });
    if (M.FPExactMinMax)
      Remarks.emit([&] {
        return OptimizationRemarkAnalysis(RemarkPass, "FPExactMinMax", Loc, Header)
               << "floating-point min/max reduction is exact (NaN elements "
                  "are ignored as the loop ignores them; a zero, infinite or "
                  "NaN result is recomputed by the original loop), so it is "
                  "offloaded also with -idiom-fp-reassoc=false";
      });
    if (M.ApproxLibm)
      Remarks.emit([&] {
        return OptimizationRemarkAnalysis(RemarkPass, "ApproxLibm", Loc, Header)
               << kindName(M)
               << " calls exp, log, sin, cos or pow: its results may differ "
                  "from the host's libm within the OpenCL 1.2 full-profile ulp "
                  "bounds (-idiom-approx-libm)";
      });
    if (!O.Lifted.ErrnoCheckFunIL.empty())
      Remarks.emit([&] {
        return OptimizationRemarkAnalysis(RemarkPass, "ErrnoCheck", Loc, Header)
               << "calls " << O.Lifted.ErrnoFunctions
               << ", which may set errno: a device check of the arguments ("
               << O.Check.KernelName
               << ") runs first, and the original loop runs when any "
                  "argument would set errno";
      });
    if (!O.Lifted.ExtentCheckFunIL.empty())
      Remarks.emit([&] {
        return OptimizationRemarkAnalysis(RemarkPass, "ExtentCheck", Loc, Header)
               << "the range of an indirect index is known only at run time: a "
                  "device check ("
               << O.Extent.KernelName
               << ") computes its smallest and largest value first, the call "
                  "moves only that range, and the original loop runs when the "
                  "range is empty, negative or too large";
      });
  }
  Index.addKernelIds(NewDescriptors);
  DropUnused(StitchedLoops);
  // Map promotion: loops that only run offloaded idioms keep their buffers
  // on the device (ResidencyRegions.h).
  formResidencyRegions(F, LI, Stitched, Remarks, TLI);
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

PreservedAnalyses IdiomPrinterPass::run(Function &F,
                                        FunctionAnalysisManager &FAM) {
  if (F.isDeclaration())
    return PreservedAnalyses::all();
  auto &LI = FAM.getResult<LoopAnalysis>(F);
  auto &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
  auto &DT = FAM.getResult<DominatorTreeAnalysis>(F);
  Detection Det = detectIdioms(F, LI, SE, DT);
  OS << "Idioms in function '" << F.getName() << "':\n";
  unsigned Id = 0;
  for (DetectedIdiom &D : Det.Found) {
    OS << "loop ";
    D.L->getHeader()->printAsOperand(OS, false);
    OS << " at " << loopLocation(*D.L)
       << ": idiom " << D.Spec;
    if (!D.Match) {
      OS << " (detected only)\n";
      continue;
    }
    OS << " (" << kindName(*D.Match) << ")\n";
    Offload O{&D, {}, kernelName(F, Id++), {}};
    std::string Why;
    bool Ok = liftAndGenerate(O, SE, {}, Why);
    if (!O.Lifted.FunIL.empty())
      OS << "FunIL:\n" << O.Lifted.FunIL;
    if (!O.Lifted.ErrnoCheckFunIL.empty())
      OS << "Errno check FunIL:\n" << O.Lifted.ErrnoCheckFunIL;
    if (!O.Lifted.ExtentCheckFunIL.empty())
      OS << "Extent check FunIL:\n" << O.Lifted.ExtentCheckFunIL;
    if (!Ok) {
      OS << "not offloaded: " << Why << "\n";
      continue;
    }
    OS << "Lowered FunIL:\n" << O.Gen.LoweredFunIL << "\nOpenCL:\n" << O.Gen.Source << "\n";
    if (O.Lifted.Pair)
      OS << "Second program's lowered FunIL:\n" << O.PairGen.LoweredFunIL
         << "\nOpenCL:\n" << O.PairGen.Source << "\n";
  }
  for (MissedLoop &M : Det.Missed) {
    OS << "loop ";
    M.L->getHeader()->printAsOperand(OS, false);
    OS << " at " << loopLocation(*M.L) << ": no idiom (closest: " << M.Spec
       << "): " << M.Reason << "\n";
  }
  return PreservedAnalyses::all();
}

} // namespace idiom
