//===- RowTemporaries.h - Per-row temporaries privatised -------*- C++ -*-===//
//
// Part of Idiom. NAS MG's smoother and residual (psinv, resid) fill, for
// each row (i3, i2) of a 3-D grid, small local arrays with sums of
// neighbours in one i1 loop (the fill loops), then read them at i1 - 1, i1
// and i1 + 1 in the next i1 loop (the consumer loop):
//
//   for (i3 ...) for (i2 ...) {
//     for (i1 = 0; i1 < n1; i1++)
//       r1[i1] = r[i3][i2-1][i1] + r[i3][i2+1][i1] + r[i3-1][i2][i1] + ...;
//     for (i1 = 1; i1 < n1 - 1; i1++)
//       u[i3][i2][i1] += ... + c2 * (r2[i1] + r1[i1-1] + r1[i1+1]);
//   }
//
// No map takes such an imperfect nest. This file privatises the
// temporaries (scalar expansion undone: each work-item recomputes the sums
// it needs, as the forward substitution of Kennedy and Allen, "Optimizing
// Compilers for Modern Architectures", sec. 5.5): every read of r1[i1 + d]
// in the consumer becomes a copy of the expression the fill loop stores at
// that element, evaluated at that fill iteration (the same operations in
// the same order: the same value bit for bit), and the fill loops go, so
// the nest is a perfect 3-D (or 2-D) nest that the map spec can take. A
// read that -O2 forwarded from the previous iteration in a phi (GVN's
// load PRE turns r1[i1 + 1] of iteration i1 - 1 into r1[i1]) is a read of
// the element before the one read in the latch.
//
// Legality, each proven or refused with a missed remark naming the reason:
// every temporary is a local array (alloca) written by one store of a fill
// loop and read only by the consumer loop (so it is dead after the nest);
// each fill loop runs before the consumer in every row (its header
// dominates the consumer, or its only guard holds wherever the row loop
// runs); its only side effects are the temporaries'
// stores and it reads no temporary; the consumer reads each temporary with
// the stride the fill writes it, at a constant whole number of elements
// from the first element written. Checked at run time, in front of the
// nest (the unchanged nest runs otherwise): each read element was written
// in the same row (the read range lies in the fill range), and nothing the
// nest writes overlaps what the fill expressions read (so reading it later,
// in the consumer, gives the same values). The checks pass, or the original
// nest runs. A declined run (the runtime keeps the loop on the host, or
// refuses the ranges) runs the unchanged copy too (declineToUnchangedCopy):
// the privatised nest recomputes each sum at every read, and on the host
// that cost mg.c's resid 25% (x86-64, 2026-11-27).
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_PASSES_ROWTEMPORARIES_H
#define IDIOM_PASSES_ROWTEMPORARIES_H

#include "BoundVersioning.h"

#include <string>

namespace llvm {
class CallInst;
} // namespace llvm

namespace idiom {

/// A nest with row temporaries that could not be privatised, and why.
struct RowTempMiss {
  llvm::Loop *Nest;
  std::string Why;
};

/// Privatises the row temporaries of every nest of \p LI that has the
/// shape above (a row loop whose inner loops are fill loops writing local
/// arrays, then one consumer loop reading them, or several that are fused
/// into the first (ConsumerFusion.h); with the loop around the
/// row loop when the consumer's stores move with it, a plane loop, not a
/// time loop). Each such nest is versioned as BoundVersioning does: the returned
/// version's Nest is the privatised nest, its Check picks it (true) or an
/// unchanged copy marked as a fallback loop; drop an unused one with
/// dropBoundVersion. Nests of the shape that fail a condition are listed
/// in \p Misses with the reason. Keeps \p LI and \p DT up to date, forgets
/// what \p SE knew of changed loops; sets \p Changed when the IR changed.
llvm::SmallVector<BoundVersion, 4>
privatiseRowTemporaries(llvm::LoopInfo &LI, llvm::DominatorTree &DT,
                        llvm::ScalarEvolution &SE,
                        llvm::SmallVectorImpl<RowTempMiss> &Misses,
                        bool &Changed);

/// After the privatised nest of \p V was stitched with its decline path
/// entering \p Fallback (StitchedCall::Fallback): makes a decline run the
/// unchanged copy instead of the privatised nest, which recomputes each
/// temporary's sum at every read (three times for reads at i1 - 1, i1 and
/// i1 + 1; mg.c's resid ran 25% slower on the host). The host-time
/// measurement (idiom_host_begin/end) moves with it. The privatised nest
/// is left unreachable (later passes delete it); \p LI is not updated for
/// that, and the dominator tree of the function is stale afterwards (as
/// after stitching). With \p Release (a batched row-products nest's
/// temporary, RowProducts.h: its malloc call, whose failure also enters
/// the copy) the decline frees it first. False, changing nothing, when the
/// blocks are not as stitching and the versioning left them.
bool declineToUnchangedCopy(const BoundVersion &V, llvm::BasicBlock *Fallback,
                            llvm::LoopInfo &LI,
                            llvm::CallInst *Release = nullptr);

} // namespace idiom

#endif // IDIOM_PASSES_ROWTEMPORARIES_H
