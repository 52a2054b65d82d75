//===- RegionHostAccess.h - Host loads/stores of idiom buffers -*- C++ -*-===//
//
// Inside a residency region (ResidencyRegions.h) a host load or store that
// may touch an idiom's buffer is routed through the runtime instead of
// refusing the region (issue 13, Gram-Schmidt's k loop: the norm of column
// k, R[k][k] = sqrt(nrm) and Q's column k on the host between the GEMV^T
// and the rank-1 update on the device):
//   - an access in the region loop's own body (not in an inner loop) gets
//     idiom_region_load(p, size, 0, 1) before a load, idiom_region_store(p,
//     size, 0, 1) after a store (runtime/include/idiomrt.h);
//   - an access in a host loop AL directly inside the region's loop (one
//     loop deep: a bounded number of runtime calls per iteration of the
//     region's loop) whose address is an affine SCEV
//     {start,+,step}<AL> (or invariant in AL) with a computable backedge-
//     taken count gets, at AL's preheader, idiom_region_load of the whole
//     strided range (start, size, step, count) and, for a store, at each of
//     AL's exit blocks idiom_region_store of the same range. AL must hold no
//     device operation (an idiom_run, a call to a function of the module, a
//     routed copy or fill, a fallback nest) and exit only into the region
//     loop, so that nothing between the two calls can change a device copy.
// docs/ARCHITECTURE.md, "Residency", has the soundness argument.
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_PASSES_REGIONHOSTACCESS_H
#define IDIOM_PASSES_REGIONHOSTACCESS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <string>

namespace llvm {
class Instruction;
class Loop;
class LoopInfo;
class SCEV;
class ScalarEvolution;
} // namespace llvm

namespace idiom {

/// One host load or store of a region's loop routed through the runtime:
/// the elements [Start + i * Step, ... + Size), i < Count (bytes; Count and
/// Step null for an access in the region loop's own body).
struct HostAccessRoute {
  llvm::Instruction *I = nullptr; ///< the load or store
  llvm::Loop *AL = nullptr;       ///< its innermost loop
  bool Store = false;
  const llvm::SCEV *Start = nullptr, *Step = nullptr, *Count = nullptr;
};

/// Plans the routing of load or store \p I of region loop \p Region into
/// \p R; false, with \p Why (a noun phrase: "an inner loop whose ..."), when
/// it cannot be routed. \p TouchesDevice says whether an instruction of an
/// inner loop may change a device copy (an idiom run, a module call, a
/// routed copy) or is exempt (a fallback nest's). \p SE may be null: then
/// only accesses of the region loop's own body are routed.
bool planHostAccess(llvm::Instruction &I, llvm::Loop &Region,
                    llvm::LoopInfo &LI, llvm::ScalarEvolution *SE,
                    llvm::function_ref<bool(const llvm::Instruction &)>
                        TouchesDevice,
                    HostAccessRoute &R, std::string &Why);

/// Inserts the runtime calls of the planned \p Routes.
void routeHostAccesses(llvm::ArrayRef<HostAccessRoute> Routes,
                       llvm::ScalarEvolution *SE);

} // namespace idiom

#endif // IDIOM_PASSES_REGIONHOSTACCESS_H
