//===- PipelinePlacement.cpp - Where the offload runs ---------------------===//

#include "PipelinePlacement.h"
#include "DispatchOutline.h"
#include "IdiomOffload.h"
#include "OffloadRemarks.h"
#include "PendingGuards.h"
#include "RegionSummaries.h"
#include "SiteAddresses.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/LCSSA.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"
#include "llvm/Transforms/Utils/LoopUtils.h"

using namespace llvm;

namespace idiom {

static constexpr const char *RanFlag = "idiom.offload.ran";
static constexpr const char *FallbackMD = "idiom.fallback";

void markOffloadRan(Module &M) {
  if (!M.getModuleFlag(RanFlag))
    M.addModuleFlag(Module::Max, RanFlag, 1);
}

bool offloadRan(const Module &M) { return M.getModuleFlag(RanFlag) != nullptr; }

void markFallbackLoop(Loop &L) {
  if (!isFallbackLoop(L))
    addStringMetadataToLoop(&L, FallbackMD);
}

bool isFallbackLoop(const Loop &L) {
  return findStringMetadataForLoop(&L, FallbackMD).has_value();
}

PreservedAnalyses IdiomLateOffloadPass::run(Module &M,
                                            ModuleAnalysisManager &MAM) {
  if (offloadRan(M)) {
    // Every function has been visited: decide the regions that waited for
    // their callees' summaries (RegionSummaries.h).
    bool Changed = hasPendingRegions(M);
    finalizePendingRegions(M);
    // Last: no analysis of the plugin looks at the code after this.
    Changed |= guardPendingCalls(M) != 0;
    Changed |= cutSiteAddresses(M) != 0;
    Changed |= outlineDispatch(M) != 0;
    // The remarks of the VectorizerStart instance, one per source loop.
    flushRemarks(M);
    return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }
  FunctionPassManager FPM;
  FPM.addPass(LoopSimplifyPass());
  FPM.addPass(LCSSAPass());
  FPM.addPass(IdiomOffloadPass(/*DeferRemarks=*/true));
  PreservedAnalyses PA =
      createModuleToFunctionPassAdaptor(std::move(FPM)).run(M, MAM);
  // A module without function bodies still counts as done.
  markOffloadRan(M);
  if (finalizePendingRegions(M))
    PA = PreservedAnalyses::none();
  if (guardPendingCalls(M))
    PA = PreservedAnalyses::none();
  if (cutSiteAddresses(M))
    PA = PreservedAnalyses::none();
  if (outlineDispatch(M))
    PA = PreservedAnalyses::none();
  flushRemarks(M);
  return PA;
}

PreservedAnalyses IdiomRegionsPass::run(Module &M, ModuleAnalysisManager &) {
  bool Changed = hasPendingRegions(M);
  if (Changed)
    finalizePendingRegions(M);
  Changed |= guardPendingCalls(M) != 0;
  Changed |= cutSiteAddresses(M) != 0;
  Changed |= outlineDispatch(M) != 0;
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace idiom
