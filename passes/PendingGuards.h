//===- PendingGuards.h - Calls behind idiom_pending_work --------*- C++ -*-===//
//
// The runtime calls that the plugin places around the original loops of
// its stitched idioms, idiom_region_sync (before a fallback loop inside a
// residency region), idiom_region_load / idiom_region_store (host accesses
// of a region's buffers) and idiom_host_end_site (after a fallback loop),
// return at once unless their thread holds device copies, has a region
// epoch out or has a host-time measurement pending. The runtime keeps a
// word, idiom_pending_work (idiomrt.h, runtime/lib/pending.c), that is 0
// only when no thread is in such a state; guardPendingCalls puts each of
// those calls behind a relaxed atomic load of the word and a branch, so a
// program whose sites stay on the host runs a fallback loop with no runtime
// call around it. In bench/policy_tiny.c (a 4096-float map run 3000 times)
// the three calls per outer iteration touched three more cache lines than
// the loop (the stack, two lines of the runtime's thread-local state), and
// each line costs a host loop that fills L1 exactly (bench/tiny_host.sh).
//
// It runs last, after every analysis that looks at the stitched code (the
// residency regions' proofs, the pending regions' decision at
// OptimizerLast, RowTemporaries' and LoopDistribution's moves of the
// calls), so none of them meets the guards. A call guarded once carries
// metadata `idiom.pending.guarded` and is never guarded again.
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_PASSES_PENDINGGUARDS_H
#define IDIOM_PASSES_PENDINGGUARDS_H

namespace llvm {
class Module;
} // namespace llvm

namespace idiom {

/// Puts every call of idiom_region_sync, idiom_region_sync_args,
/// idiom_region_load,
/// idiom_region_store and idiom_host_end_site in \p M that is inside a
/// loop (it runs once per iteration; one outside loops runs once per call
/// of its function, where a guard saves little and its branch only moves
/// the function's register allocation) and not guarded yet behind
/// `if (atomic load monotonic idiom_pending_work != 0)` (the call's block
/// split before it; the branch weighted towards the skip). Returns the
/// number of calls guarded. Off with `-mllvm -idiom-pending-guards=false`.
unsigned guardPendingCalls(llvm::Module &M);

} // namespace idiom

#endif // IDIOM_PASSES_PENDINGGUARDS_H
