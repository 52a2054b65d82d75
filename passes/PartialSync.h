//===- PartialSync.h - A fallback's sync of its own ranges ------*- C++ -*-===//
//
// Inside a residency region (ResidencyRegions.h), the preheader of a
// stitched idiom's fallback nest syncs the region's device copies before
// the nest runs on the host. When the nest touches no memory outside its
// own idiom's buffer ranges, the sync need not empty the whole table:
// idiom_region_sync_args(desc, args, nargs) (runtime/include/idiomrt.h)
// copies back and releases only the copies of those ranges
// (runtime/lib/resid_sync.c). Where the nest touches more than the call's
// ranges (the unchanged copy of a row-temporaries nest, RowTemporaries.h),
// the same call gets the nest's own ranges, computed in front of it from
// SCEV. This file decides where either holds and emits the call
// (docs/ARCHITECTURE.md, "Residency", partial syncs).
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_PASSES_PARTIALSYNC_H
#define IDIOM_PASSES_PARTIALSYNC_H

#include "Stitching.h"

namespace llvm {
class Loop;
class ScalarEvolution;
} // namespace llvm

namespace idiom {

/// True when every memory access of \p Nest, \p SC's fallback nest, is a
/// simple load based only on the underlying objects of \p SC's buffer
/// pointers or a simple store based only on those of its written buffers,
/// and every call in it accesses no memory (a pure intrinsic or function,
/// or a marker such as a debug or lifetime intrinsic). The lifter proved
/// that the nest's accesses are the idiom's, which the call's ranges cover:
/// so the nest reads and writes no byte outside them. A nest with anything
/// else (an accumulator kept in memory, a temporary, an unknown call, a
/// pointer loaded inside the nest) is refused.
bool nestTouchesOnlyArgs(const StitchedCall &SC, const llvm::Loop &Nest);

/// At the start of \p Nest's preheader (\p SC's Fallback block), inserts
/// idiom_region_sync_args(desc, args, nargs) with the operands of \p SC's
/// idiom_run; the desc and args operands are phis that are null (a full
/// sync) on the edges from blocks outside SC.ArgsValidFrom (the guards'
/// failure, where the ranges were not checked). When the argument array is an alloca,
/// the host hint's skip block fills it first (memcpy of SC.ArgTemplate,
/// then SC.ArgFields). Returns false and changes nothing when \p SC is not
/// such a site (SC.SyncArgs, an idiom_run call, nestTouchesOnlyArgs, the
/// skip block's fields available there).
bool emitSyncArgs(const StitchedCall &SC, llvm::Loop &Nest);

/// At the end of \p Nest's preheader (the nest that runs when \p SC's call
/// declines, or on every path into it: the unchanged copy of a privatised
/// row-temporaries nest, RowTemporaries.h), inserts
/// idiom_region_sync_args(desc, ranges, n) with the nest's own ranges,
/// computed at run time in front of the nest: one IDIOM_ARG_BUF_IN (only
/// loads) or IDIOM_ARG_BUF_INOUT (a store) range per pointer base, the
/// hull of that base's accesses over the whole nest. Each access's
/// address is an affine recurrence of the nest's loops (SCEV), whose range
/// is [start, start + max backedge-taken count * step] per loop, summed in
/// 128 bits; a hull outside [0, 2^64) (a wrap) passes a null pointer,
/// which the runtime takes as a full sync. Accesses based only on allocas
/// that are not captured (row temporaries: never an idiom's buffer, so
/// never in the residency table) need no range. The descriptor is \p SC's
/// (its declined runs then sync their own ranges, resid_sync.c). Returns
/// false and changes nothing when an access is not such a recurrence (a
/// pointer loaded inside the nest, a trip count not computable), the nest
/// calls anything but a pure function or marker, or \p SE cannot bound
/// the steps and trip counts well inside 128 bits. The dominator tree of
/// \p SE must be current (the expansion reuses values it dominates).
/// Proof: docs/ARCHITECTURE.md, "Residency", partial syncs.
bool emitSyncOwnRanges(const StitchedCall &SC, llvm::Loop &Nest,
                       llvm::ScalarEvolution &SE);

} // namespace idiom

#endif // IDIOM_PASSES_PARTIALSYNC_H
