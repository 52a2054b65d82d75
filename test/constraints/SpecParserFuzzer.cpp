//===- SpecParserFuzzer.cpp - libFuzzer target for spec texts -------------===//
//
// Feeds arbitrary bytes to SpecLibrary::addSpecText (split at the first NUL
// into two texts, so that the second can call the first) with a few dummy
// atoms, then checks that:
//   - every diagnostic has a position,
//   - every loaded definition prints back to text that parses again to the
//     same print,
//   - the solver runs every loaded idiom without crashing (small budget).
// Build: CXX=clang++-19 cmake -DIDIOM_BUILD_FUZZERS=ON ...; run:
//   idiom-spec-parser-fuzzer -max_len=4096 CORPUS_DIR
//
//===----------------------------------------------------------------------===//

#include "idiom/Constraints/Solver.h"
#include "idiom/Constraints/Spec.h"
#include "idiom/Constraints/SpecParser.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"
#include <cstdint>
#include <cstdlib>
#include <functional>

using namespace idiom::constraints;
using namespace llvm;

namespace {

/// A dummy atom over integer terms; tolerant of any term kind.
class DummyAtom : public AtomDef {
public:
  using Fn = std::function<void(MutableArrayRef<Term>, function_ref<bool()>)>;
  DummyAtom(std::string Name, std::vector<bool> Gen, Fn F)
      : Name(std::move(Name)), Gen(std::move(Gen)), F(std::move(F)) {}
  StringRef name() const override { return Name; }
  unsigned arity() const override { return Gen.size(); }
  StringRef doc() const override { return "fuzzer atom"; }
  bool canGenerate(unsigned I) const override {
    return I < Gen.size() && Gen[I];
  }
  void solve(MatchEnv &, MutableArrayRef<Term> Args,
             function_ref<bool()> Yield, std::string &WhyNot) const override {
    for (unsigned I = 0; I < Args.size(); ++I)
      if (!Args[I].isBound() && !canGenerate(I))
        std::abort(); // the solver must never do this
    WhyNot = "no";
    F(Args, Yield);
  }

private:
  std::string Name;
  std::vector<bool> Gen;
  Fn F;
};

/// Yields candidates 0..N-1 for argument I (checking when it came bound).
void ints(MutableArrayRef<Term> A, unsigned I, int64_t From, int64_t N,
          function_ref<bool()> Y) {
  bool WasBound = A[I].isBound();
  Term Given = A[I];
  for (int64_t V = From; V < From + N; ++V) {
    Term T = Term::integer(V);
    if (WasBound && T != Given)
      continue;
    A[I] = T;
    if (!Y())
      return;
  }
}

AtomRegistry &atoms() {
  static AtomRegistry *R = [] {
    auto *R = new AtomRegistry;
    R->add(std::make_unique<DummyAtom>(
        "Int", std::vector<bool>{true},
        [](MutableArrayRef<Term> A, function_ref<bool()> Y) {
          ints(A, 0, 0, 3, Y);
        }));
    R->add(std::make_unique<DummyAtom>(
        "Lt", std::vector<bool>{false, false},
        [](MutableArrayRef<Term> A, function_ref<bool()> Y) {
          if (A[0].I < A[1].I)
            Y();
        }));
    R->add(std::make_unique<DummyAtom>(
        "Next", std::vector<bool>{false, true},
        [](MutableArrayRef<Term> A, function_ref<bool()> Y) {
          ints(A, 1, A[0].I + 1, 2, Y);
        }));
    R->add(std::make_unique<DummyAtom>(
        "Any", std::vector<bool>{true, true, true},
        [](MutableArrayRef<Term> A, function_ref<bool()> Y) {
          bool B0 = A[0].isBound();
          Term G0 = A[0];
          for (int64_t V = 0; V < 2; ++V) {
            if (B0 && G0 != Term::integer(V))
              continue;
            A[0] = Term::integer(V);
            A[1] = Term::string("s");
            A[2] = Term::list({Term::integer(V)});
            if (!Y())
              return;
          }
        }));
    return R;
  }();
  return *R;
}

/// A function and its analyses, for MatchEnv.
struct Env {
  LLVMContext Ctx;
  Module M{"fuzz", Ctx};
  Function *F;
  std::unique_ptr<DominatorTree> DT;
  std::unique_ptr<LoopInfo> LI;
  TargetLibraryInfoImpl TLII{Triple("x86_64-unknown-linux-gnu")};
  std::unique_ptr<TargetLibraryInfo> TLI;
  std::unique_ptr<AssumptionCache> AC;
  std::unique_ptr<ScalarEvolution> SE;
  std::unique_ptr<MatchEnv> ME;
  Env() {
    F = Function::Create(FunctionType::get(Type::getVoidTy(Ctx), false),
                         Function::ExternalLinkage, "f", M);
    IRBuilder<> B(BasicBlock::Create(Ctx, "entry", F));
    B.CreateRetVoid();
    DT = std::make_unique<DominatorTree>(*F);
    LI = std::make_unique<LoopInfo>(*DT);
    TLI = std::make_unique<TargetLibraryInfo>(TLII, F);
    AC = std::make_unique<AssumptionCache>(*F);
    SE = std::make_unique<ScalarEvolution>(*F, *TLI, *AC, *DT, *LI);
    ME.reset(new MatchEnv{*F, *LI, *SE, *DT});
  }
};

void checkRoundTrip(const Definition &D) {
  std::string Printed = printDefinition(D);
  std::vector<Diagnostic> Diags;
  auto Again = parseSpecText("roundtrip", Printed, Diags);
  if (!Diags.empty() || Again.size() != 1 ||
      printDefinition(*Again[0]) != Printed)
    std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  static Env *E = new Env;
  StringRef All(reinterpret_cast<const char *>(Data), Size);
  auto [First, Second] = All.split('\0');

  SpecLibrary Lib;
  std::vector<Diagnostic> Diags;
  Lib.addSpecText("a.idiom", First, atoms(), Diags);
  Lib.addSpecText("b.idiom", Second, atoms(), Diags);
  for (const Diagnostic &D : Diags)
    if (D.Line == 0 || D.Col == 0 || D.Message.empty() || D.str().empty())
      std::abort();

  for (const Definition *D : Lib.constraints())
    checkRoundTrip(*D);
  SolverOptions Opts;
  Opts.MaxAtomCalls = 2000;
  Opts.MaxSteps = 20000;
  Solver S(Lib, atoms(), Opts);
  for (const Definition *D : Lib.idioms()) {
    checkRoundTrip(*D);
    NearMiss Miss;
    S.solveAll(*E->ME, *D, Term::integer(1), [](const Match &) { return true; },
               &Miss);
  }
  return 0;
}
