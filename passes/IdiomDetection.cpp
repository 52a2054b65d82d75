//===- IdiomDetection.cpp - Run the idiom specs over a function -----------===//

#include "IdiomDetection.h"
#include "PipelinePlacement.h"
#include "idiom/Constraints/BuiltinAtoms.h"
#include "idiom/Constraints/FactCache.h"
#include "idiom/Constraints/Solver.h"
#include "idiom/Constraints/Spec.h"
#include "idiom/Constraints/StencilCache.h"
#include "idiom/Constraints/TimeReport.h"
#include "idiom/Constraints/ValueText.h"
#include "idiom/Constraints/Z3Budget.h"
#include "idiom/Constraints/Z3Checks.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <exception>
#include <mutex>

using namespace llvm;
using namespace idiom::constraints;

static cl::list<std::string>
    SpecFiles("idiom-spec", cl::desc("Load more idiom specs from FILE (repeatable)"),
              cl::value_desc("FILE"));
static cl::opt<bool>
    BuiltinSpecs("idiom-builtin-specs", cl::init(true),
                 cl::desc("Load the built-in idiom specs (default true)"));
static cl::opt<bool> FPReassoc(
    "idiom-fp-reassoc", cl::init(true),
    cl::desc("Allow floating-point reductions to be reassociated by parallel "
             "evaluation, and GEMMs to fuse llvm.fmuladd (default true)"));
static cl::opt<bool> ApproxLibm(
    "idiom-approx-libm", cl::init(false),
    cl::desc("Offload maps that call exp, log, sin, cos or pow, whose OpenCL "
             "versions may differ from the host's libm within the OpenCL 1.2 "
             "full-profile ulp bounds (default false: such maps stay "
             "sequential)"));
static cl::opt<unsigned>
    Z3Timeout("idiom-z3-timeout", cl::init(2000),
              cl::desc("Timeout of one Z3 query in milliseconds of the "
                       "compiling thread's CPU time, so that load does not "
                       "change what is proven (a wall-clock backstop of ten "
                       "times that plus 60 s); a timeout counts as not proven "
                       "(default 2000)"));

static cl::opt<unsigned> Z3Rlimit(
    "idiom-z3-rlimit", cl::init(idiom::DefaultZ3ResourceLimit),
    cl::desc("Deterministic resource limit of one Z3 query, in Z3's rlimit "
             "units (0: none); reaching it counts as not proven (default "
             "1000000)"));
static cl::opt<std::string> Z3Log(
    "idiom-z3-log", cl::init(""), cl::value_desc("file"),
    cl::desc("Append every Z3 query (SMT-LIB 2, each after a comment with "
             "its number, outcome and resource units) to this file"));
static cl::opt<unsigned> LoopZ3Queries(
    "idiom-loop-z3-queries", cl::init(idiom::DefaultLoopQueryBudget),
    cl::desc("Per-loop work budget: solver queries for the detection of one "
             "loop, and again for its lifting and validation (0: no limit; "
             "default 1000); the facts left are not proven"));

static cl::opt<unsigned> LoopAtomCalls(
    "idiom-loop-atom-calls", cl::init(idiom::DefaultLoopAtomCalls),
    cl::desc("Per-loop work budget of the constraint search: atom calls over "
             "all idioms tried on one loop (0: no limit; default 20000); the "
             "idioms left are not tried"));

static cl::opt<bool> TimeReportOpt(
    "idiom-time-report", cl::Hidden, cl::init(false),
    cl::desc("Print the time spent in each phase of idiom detection (spec "
             "loading, each idiom's search, Z3 queries) at exit"));

namespace idiom {

namespace {
/// The built-in spec texts, generated from constraints/specs/*.idl.
struct BuiltinSpec {
  const char *File;
  const char *Text;
};
#include "BuiltinSpecs.inc"

/// Atoms and specs, loaded on first use.
struct Library {
  AtomRegistry Atoms;
  SpecLibrary Specs;
  /// Idioms in the order they are tried: user specs (-idiom-spec) first, so
  /// a researcher's idiom wins over a built-in one; then the built-ins.
  std::vector<const IdiomDef *> Ordered;
  /// "solve NAME" per entry of Ordered, for -idiom-time-report.
  std::vector<std::string> SolvePhase;
};

Library &library() {
  static Library *Lib = [] {
    if (TimeReportOpt)
      TimeReport::enable();
    TimeScope T("setup: atoms and specs");
    auto *L = new Library();
    registerBuiltinAtoms(L->Atoms);
    std::vector<Diagnostic> Diags;
    if (BuiltinSpecs)
      for (const BuiltinSpec &S : BuiltinSpecTexts)
        L->Specs.addSpecText(S.File, S.Text, L->Atoms, Diags);
    for (const std::string &Path : SpecFiles)
      L->Specs.addSpecFile(Path, L->Atoms, Diags);
    for (const Diagnostic &D : Diags)
      errs() << D.str() << "\n";
    for (bool Builtin : {false, true})
      for (const IdiomDef *I : L->Specs.idioms())
        if (StringRef(I->File).starts_with("<builtin>/") == Builtin)
          L->Ordered.push_back(I);
    for (const IdiomDef *I : L->Ordered)
      L->SolvePhase.push_back("solve " + I->Name);
    return L;
  }();
  return *Lib;
}

/// The near miss of \p Spec on \p L, with its failing construct apart.
MissedLoop nearMiss(Loop *L, const std::string &Spec, const NearMiss &Miss) {
  MissedLoop M{L, Spec, Miss.str()};
  if (!Miss.FailedAtom.empty()) {
    M.Atom = Miss.FailedAtom;
    M.AtomLoc = Miss.File + ":" + std::to_string(Miss.Line) + ":" +
                std::to_string(Miss.Col);
    M.WhyNot = Miss.WhyNot;
  }
  return M;
}
} // namespace

LiftOptions currentLiftOptions() {
  LiftOptions O;
  O.AllowFPReassoc = FPReassoc;
  O.AllowApproxLibm = ApproxLibm;
  O.Z3TimeoutMs = Z3Timeout;
  return O;
}

std::string loopLocation(const Loop &L) {
  const Function &F = *L.getHeader()->getParent();
  if (DebugLoc DL = L.getStartLoc()) {
    auto *Scope = cast<DIScope>(DL.getScope());
    return sys::path::filename(Scope->getFilename()).str() + ":" +
           std::to_string(DL.getLine());
  }
  return sys::path::filename(F.getParent()->getSourceFileName()).str() + ":" +
         F.getName().str();
}

unsigned loopAtomCallBudget() { return LoopAtomCalls; }

void beginLoopWork() {
  setZ3ResourceLimit(Z3Rlimit);
  setZ3QueryLog(Z3Log);
  beginLoopBudget(LoopZ3Queries);
}

Detection detectIdioms(Function &F, LoopInfo &LI, ScalarEvolution &SE,
                       DominatorTree &DT) {
  Library &Lib = library();
  TimeScope T("detect (all specs, one function)");
  // Near-miss reasons quote instructions: number F's values once for all.
  ValueTextScope Texts(F);
  Detection Det;
  LiftOptions Opts = currentLiftOptions();
  ProofCache Proofs;
  NestCache Nests;
  StencilCache Stencils;
  MatchEnv Env{F,        LI,     SE,      DT,       nullptr, Opts.Z3TimeoutMs,
               &Proofs, &Nests, &Stencils};
  SmallPtrSet<Loop *, 8> Covered;
  for (Loop *L : LI.getLoopsInPreorder()) {
    bool Inside = false;
    for (Loop *P = L->getParentLoop(); P; P = P->getParentLoop())
      Inside |= Covered.count(P) != 0;
    if (Inside)
      continue;
    // The fallback of an idiom stitched earlier (e.g. by another pipeline).
    if (isFallbackLoop(*L)) {
      Covered.insert(L);
      continue;
    }

    beginLoopWork();
    MissedLoop Best;
    unsigned BestProgress = 0;
    bool Found = false;
    // The search's share of the loop's work budget: atom calls over all
    // idioms tried on it. Each search gets what is left (at most its own
    // per-search limit).
    unsigned AtomCallsUsed = 0;
    for (size_t K = 0; K < Lib.Ordered.size(); ++K) {
      const IdiomDef *Idiom = Lib.Ordered[K];
      SolverOptions SO;
      bool Capped = LoopAtomCalls && LoopAtomCalls - AtomCallsUsed <= SO.MaxAtomCalls;
      if (Capped)
        SO.MaxAtomCalls = LoopAtomCalls - AtomCallsUsed;
      Solver S(Lib.Specs, Lib.Atoms, SO);
      NearMiss Miss;
      std::optional<Match> M;
      try {
        TimeScope TS(Lib.SolvePhase[K]);
        M = S.solve(Env, *Idiom, Term::loop(L), &Miss);
        AtomCallsUsed += S.lastAtomCalls();
        if (!M && Capped && S.lastBudgetExhausted() &&
            AtomCallsUsed >= LoopAtomCalls) {
          // This idiom and the ones after it are not tried to the end.
          Det.OverSearchBudget.push_back({L, Idiom->Name});
          Best = nearMiss(L, Idiom->Name, Miss);
          break;
        }
      } catch (const std::exception &E) {
        // Last line of defence: a failure inside an atom leaves this loop
        // as it is, with a missed remark, and the compile goes on.
        Best = {L, Idiom->Name, std::string("internal error: ") + E.what()};
        BestProgress = ~0u;
        continue;
      }
      if (!M) {
        if (Best.Spec.empty() || Miss.Progress > BestProgress) {
          BestProgress = Miss.Progress;
          Best = nearMiss(L, Idiom->Name, Miss);
        }
        continue;
      }
      DetectedIdiom D{L, Idiom->Name, Idiom->Lifts, std::nullopt};
      if (!Idiom->Lifts.empty()) {
        std::string Why;
        TimeScope TM("buildIdiomMatch");
        try {
          D.Match = buildIdiomMatch(Idiom->Lifts, Idiom->Name, L, Env, Opts, Why);
        } catch (const std::exception &E) {
          D.Match.reset();
          Why = std::string("internal error: ") + E.what();
        }
        if (!D.Match) {
          Best = {L, Idiom->Name, "matched but cannot be lifted with template '" +
                                      Idiom->Lifts + "': " + Why};
          BestProgress = ~0u;
          continue;
        }
      }
      Det.Found.push_back(std::move(D));
      Covered.insert(L);
      Found = true;
      break;
    }
    if (!Found && !Best.Spec.empty())
      Det.Missed.push_back(Best);
    if (loopBudgetExhausted())
      Det.OverBudget.push_back(L);
  }
  return Det;
}

} // namespace idiom
