//===- TestIR.cpp - LLVM IR and analyses for constraint tests -------------===//

#include "TestIR.h"
#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Triple.h"
#include <cstdlib>

using namespace llvm;
using namespace idiom::constraints::test;

const char *const idiom::constraints::test::EmptyFunctionIR = R"(
define void @f() {
entry:
  ret void
}
)";

TestIR::TestIR(StringRef IR, StringRef FnName) {
  SMDiagnostic Err;
  M = parseAssemblyString(IR, Err, Ctx);
  if (!M) {
    Err.print("TestIR", errs());
    std::abort();
  }
  F = M->getFunction(FnName);
  if (!F) {
    errs() << "TestIR: no function " << FnName << "\n";
    std::abort();
  }
  DT = std::make_unique<DominatorTree>(*F);
  LI = std::make_unique<LoopInfo>(*DT);
  TLII = std::make_unique<TargetLibraryInfoImpl>(Triple(M->getTargetTriple()));
  TLI = std::make_unique<TargetLibraryInfo>(*TLII, F);
  AC = std::make_unique<AssumptionCache>(*F);
  SE = std::make_unique<ScalarEvolution>(*F, *TLI, *AC, *DT, *LI);
  Env.reset(new MatchEnv{*F, *LI, *SE, *DT});
}

TestIR::~TestIR() = default;

Loop *TestIR::loop(StringRef Header) {
  for (Loop *L : LI->getLoopsInPreorder())
    if (L->getHeader()->getName() == Header)
      return L;
  return nullptr;
}

Value *TestIR::value(StringRef Name) {
  for (Argument &A : F->args())
    if (A.getName() == Name)
      return &A;
  for (Instruction &I : instructions(*F))
    if (I.getName() == Name)
      return &I;
  return nullptr;
}
