//===- ResidencyRegions.h - Buffers on the device across a loop -*- C++ -*-===//
//
// Map promotion (CGCM: Jablin et al., "Automatic CPU-GPU communication
// management and optimization", PLDI 2011), in the form the runtime offers
// (runtime/include/idiomrt.h, idiom_region_begin/end/sync): after stitching,
// a loop (a time loop) whose body does nothing but run stitched idioms and
// code that provably touches none of their buffers becomes a residency
// region. idiom_region_begin goes at the end of its preheader,
// idiom_region_end at the start of each (dedicated) exit block, and
// idiom_region_sync at the start of each stitched idiom's fallback
// preheader, so that the original loop, whenever it runs, sees the host
// memory current. docs/ARCHITECTURE.md, "Residency", has the soundness
// argument.
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_PASSES_RESIDENCYREGIONS_H
#define IDIOM_PASSES_RESIDENCYREGIONS_H

#include "Stitching.h"
#include <vector>

namespace llvm {
class Function;
class LoopInfo;
class TargetLibraryInfo;
} // namespace llvm

namespace idiom {

class RemarkSink;

/// True when \p F already calls idiom_region_begin: regions placed by an
/// earlier run of the plugin (a link-time pipeline that loads it again).
/// Their proofs cover the idioms of that run only, so the offload pass
/// stitches nothing new in such a function.
bool hasResidencyRegions(const llvm::Function &F);

/// Places residency regions in \p F around the outermost loops that qualify
/// and contain at least one of \p Calls (every idiom_run that stitching
/// inserted in \p F) or call functions of the module that run idioms
/// (RegionSummaries.h; such a region may be pending until OptimizerLast),
/// with a remark for each region and a missed remark, on the outermost loop
/// holding stitched calls, when none could be formed there. Then records
/// \p F's summary for its callers' regions. \p TLI identifies the library
/// functions a region may call. Returns the number of regions placed.
unsigned formResidencyRegions(llvm::Function &F, llvm::LoopInfo &LI,
                              const std::vector<StitchedCall> &Calls,
                              RemarkSink &Remarks,
                              const llvm::TargetLibraryInfo *TLI);

} // namespace idiom

#endif // IDIOM_PASSES_RESIDENCYREGIONS_H
