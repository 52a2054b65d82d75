//===- PipelinePlacement.h - Where the offload runs ------------*- C++ -*-===//
//
// The offload runs at the VectorizerStart extension point of the per-module
// optimisation pipeline (normal builds and the full-LTO pre-link). The
// ThinLTO pre-link pipeline (-flto=thin) has no VectorizerStart: it ends after
// the simplification pipeline and calls the OptimizerLast callbacks, so the
// plugin also registers IdiomLateOffloadPass there, which offloads only when
// the VectorizerStart instance did not run on the module (the module flag
// below), so no module is offloaded twice. Loops that stitching keeps as the
// fallback carry loop metadata `idiom.fallback` and are never offloaded
// again, whichever pipeline (e.g. a linker that loads the plugin too) meets
// them later.
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_PASSES_PIPELINEPLACEMENT_H
#define IDIOM_PASSES_PIPELINEPLACEMENT_H

#include "llvm/IR/PassManager.h"

namespace llvm {
class Loop;
class Module;
} // namespace llvm

namespace idiom {

/// Records on \p M that the offload pass ran on it (module flag
/// "idiom.offload.ran").
void markOffloadRan(llvm::Module &M);

/// True when markOffloadRan was called on \p M.
bool offloadRan(const llvm::Module &M);

/// Marks \p L as the fallback of a stitched idiom (loop metadata
/// "idiom.fallback").
void markFallbackLoop(llvm::Loop &L);

/// True for a loop marked by markFallbackLoop.
bool isFallbackLoop(const llvm::Loop &L);

/// The offload for pipelines without VectorizerStart (ThinLTO pre-link):
/// LoopSimplify, LCSSA and IdiomOffloadPass over every function, unless the
/// offload already ran on the module. Either way it then decides the
/// pending regions, guards the runtime calls around fallback loops
/// (guardPendingCalls, PendingGuards.h) and emits the module's deferred
/// remarks (flushRemarks, OffloadRemarks.h).
class IdiomLateOffloadPass : public llvm::PassInfoMixin<IdiomLateOffloadPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &MAM);
};

/// Decides the pending residency regions of the module
/// (finalizePendingRegions, RegionSummaries.h) and guards the runtime calls
/// around fallback loops (guardPendingCalls, PendingGuards.h) where
/// OptimizerLast does not run: at the end of the full-LTO link-time
/// pipeline, and as `-passes=idiom-regions` in opt.
class IdiomRegionsPass : public llvm::PassInfoMixin<IdiomRegionsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

} // namespace idiom

#endif // IDIOM_PASSES_PIPELINEPLACEMENT_H
