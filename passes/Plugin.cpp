//===- Plugin.cpp - Registration of the Idiom pass plugin -----------------===//
//
// clang -O2 -fpass-plugin=libIdiom.so: IdiomOffloadPass runs at the
// VectorizerStart extension point, where loops are canonical (rotated,
// LCSSA, induction variables simplified) at -O1 and above. The ThinLTO
// pre-link pipeline has no VectorizerStart; IdiomLateOffloadPass runs at
// OptimizerLast instead, only where VectorizerStart's instance did not run
// (PipelinePlacement.h). The OptimizerLast pass also emits the remarks that
// the VectorizerStart instance deferred, one per source loop
// (OffloadRemarks.h).
// opt -load-pass-plugin=libIdiom.so -passes=idiom-offload | print<idiom>
// (remarks at once, one per copy of a loop); -passes=idiom-regions decides
// the pending residency regions (RegionSummaries.h).
//
//===----------------------------------------------------------------------===//

#include "IdiomOffload.h"
#include "PipelinePlacement.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"
#include "llvm/Transforms/Utils/LCSSA.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "Idiom", "0.1", [](PassBuilder &PB) {
            PB.registerVectorizerStartEPCallback(
                [](FunctionPassManager &FPM, OptimizationLevel) {
                  // Earlier cleanups may leave loops without preheaders.
                  FPM.addPass(LoopSimplifyPass());
                  FPM.addPass(LCSSAPass());
                  FPM.addPass(idiom::IdiomOffloadPass(/*DeferRemarks=*/true));
                });
            PB.registerOptimizerLastEPCallback(
                [](ModulePassManager &MPM, OptimizationLevel Level) {
                  // -O0 has no VectorizerStart either, by design: no offload.
                  if (Level != OptimizationLevel::O0)
                    MPM.addPass(idiom::IdiomLateOffloadPass());
                });
            // The full-LTO link-time pipeline has no OptimizerLast: pending
            // regions of an offload there are decided at its end.
            PB.registerFullLinkTimeOptimizationLastEPCallback(
                [](ModulePassManager &MPM, OptimizationLevel) {
                  MPM.addPass(idiom::IdiomRegionsPass());
                });
            PB.registerPipelineParsingCallback(
                [](StringRef Name, ModulePassManager &MPM,
                   ArrayRef<PassBuilder::PipelineElement>) {
                  if (Name != "idiom-regions")
                    return false;
                  MPM.addPass(idiom::IdiomRegionsPass());
                  return true;
                });
            PB.registerPipelineParsingCallback(
                [](StringRef Name, FunctionPassManager &FPM,
                   ArrayRef<PassBuilder::PipelineElement>) {
                  if (Name == "idiom-offload") {
                    FPM.addPass(idiom::IdiomOffloadPass());
                    return true;
                  }
                  if (Name == "print<idiom>") {
                    FPM.addPass(idiom::IdiomPrinterPass(outs()));
                    return true;
                  }
                  return false;
                });
          }};
}
