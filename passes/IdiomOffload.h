//===- IdiomOffload.h - The plugin's passes ---------------------*- C++ -*-===//
//
// IdiomOffloadPass: detection -> lifting to FunIL -> rewrite to OpenCL ->
// stitching, with remarks (-Rpass=idiom for each offloaded idiom,
// -Rpass-missed=idiom for near misses, -Rpass-analysis=idiom for notes such
// as floating-point reassociation). Registered at the VectorizerStart
// extension point and as `idiom-offload` for opt.
//
// IdiomPrinterPass (`print<idiom>` in opt): prints, for every loop, the idiom
// found with its lifted FunIL, lowered FunIL and OpenCL, or the near miss;
// it does not change the IR.
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_PASSES_IDIOMOFFLOAD_H
#define IDIOM_PASSES_IDIOMOFFLOAD_H

#include "llvm/IR/PassManager.h"

namespace idiom {

/// Offloads every idiom of a function it can lift and generate code for.
class IdiomOffloadPass : public llvm::PassInfoMixin<IdiomOffloadPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &FAM);
};

/// Prints detection, lifting and code generation results to a stream.
class IdiomPrinterPass : public llvm::PassInfoMixin<IdiomPrinterPass> {
public:
  explicit IdiomPrinterPass(llvm::raw_ostream &OS) : OS(OS) {}
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &FAM);
  static bool isRequired() { return true; }

private:
  llvm::raw_ostream &OS;
};

} // namespace idiom

#endif // IDIOM_PASSES_IDIOMOFFLOAD_H
