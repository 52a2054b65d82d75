//===- TestIR.h - LLVM IR and analyses for constraint tests -----*- C++ -*-===//
#ifndef IDIOM_TEST_CONSTRAINTS_TESTIR_H
#define IDIOM_TEST_CONSTRAINTS_TESTIR_H

#include "idiom/Constraints/Atom.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include <memory>

namespace idiom::constraints::test {

/// A module parsed from text, one of its functions, and the analyses a
/// MatchEnv needs.
class TestIR {
public:
  /// Parses \p IR (aborting the test binary on a parse error) and prepares
  /// function \p FnName.
  TestIR(llvm::StringRef IR, llvm::StringRef FnName);
  ~TestIR();

  /// The environment atoms see.
  MatchEnv &env() { return *Env; }
  /// The function.
  llvm::Function &function() { return *F; }
  /// The loop whose header block is named \p Header, or null.
  llvm::Loop *loop(llvm::StringRef Header);
  /// The instruction or argument named \p Name in the function, or null.
  llvm::Value *value(llvm::StringRef Name);

private:
  llvm::LLVMContext Ctx;
  std::unique_ptr<llvm::Module> M;
  llvm::Function *F = nullptr;
  std::unique_ptr<llvm::DominatorTree> DT;
  std::unique_ptr<llvm::LoopInfo> LI;
  std::unique_ptr<llvm::TargetLibraryInfoImpl> TLII;
  std::unique_ptr<llvm::TargetLibraryInfo> TLI;
  std::unique_ptr<llvm::AssumptionCache> AC;
  std::unique_ptr<llvm::ScalarEvolution> SE;
  std::unique_ptr<MatchEnv> Env;
};

/// A function with no loop, for tests whose atoms do not look at IR.
extern const char *const EmptyFunctionIR;

} // namespace idiom::constraints::test

#endif // IDIOM_TEST_CONSTRAINTS_TESTIR_H
