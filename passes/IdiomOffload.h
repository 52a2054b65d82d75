//===- IdiomOffload.h - The plugin's passes ---------------------*- C++ -*-===//
//
// IdiomOffloadPass: detection -> lifting to FunIL -> rewrite to OpenCL ->
// stitching, with remarks of pass `idiom-offload` (OffloadRemarks.h):
// -Rpass=idiom-offload for each offloaded idiom, -Rpass-missed=idiom-offload
// for near misses, -Rpass-analysis=idiom-offload for notes such as
// floating-point reassociation. Registered at the VectorizerStart extension
// point (remarks deferred to the end of the module, one per source loop) and
// as `idiom-offload` for opt (remarks at once, one per copy).
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
  /// With \p DeferRemarks, remarks wait for flushRemarks on the module
  /// (OffloadRemarks.h), which merges the copies of a loop; without, each is
  /// emitted at once.
  explicit IdiomOffloadPass(bool DeferRemarks = false)
      : DeferRemarks(DeferRemarks) {}
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &FAM);

private:
  bool DeferRemarks;
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
