//===- DispatchOutline.h - Layout of stitched dispatch paths ---*- C++ -*-===//
//
// The stitched code of an idiom (Stitching.h) runs, when the site's host
// hint does not send it straight to the original loop, a dispatch path: the
// argument array fill, the errno or extent check, idiom_work_hint, idiom_run
// (or idiom_run_csr, idiom_run_pair), the combine of a reduction's device
// result and, on a decline, idiom_host_hint and idiom_host_begin. Every
// block of it is dominated by its first runtime call, and it leaves for the
// original loop's preheader (a decline) or the join after the loop (the
// device ran).
//
// outlineDispatch() lays each such path out as -idiom-dispatch-layout says:
// `inline` (the default) leaves it as stitched; `unlikely` weights the
// branch into it as unlikely and marks its runtime calls cold, so that
// block frequencies put spills and copies there; `outline` moves it into an
// internal, noinline, cold function of its own (LLVM's CodeExtractor), so
// that the function that holds the program's loops keeps only a call and a
// branch per site. The original loop stays where it was. With every site
// on the host neither changes what the plugin build adds to the programs'
// own loops (docs/ARCHITECTURE.md, "Dispatch layout", and
// docs/Benchmarks.md, helper "outline", have the measurements): the edge
// that skips the loop after a device run is what moves the back end's
// choices, and no layout of the path removes it (SiteAddresses.h does: the
// global addresses that MachineCSE kept live through the sites).
//
// It runs last, after the pending guards (PendingGuards.h): no analysis of
// the plugin looks at the code afterwards (the residency regions read the
// idiom_run calls in the function that holds them).
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_PASSES_DISPATCHOUTLINE_H
#define IDIOM_PASSES_DISPATCHOUTLINE_H

#include "llvm/ADT/SmallVector.h"

namespace llvm {
class DominatorTree;
class Function;
class Instruction;
class Module;
} // namespace llvm

namespace idiom {

/// Lays out the dispatch path of every stitched site in \p M (the blocks
/// dominated by the site's first idiom_work_hint or idiom_run* call, its
/// block split before that call unless the block is a branch target of its
/// own) as -idiom-dispatch-layout says. `outline`: into an internal noinline
/// cold function named after its caller with suffix `idiom.dispatch`,
/// carrying the function attribute "idiom-dispatch" (never outlined again),
/// returning true when the original loop runs; `unlikely`: the branch into
/// it weighted unlikely, its runtime calls cold, its first call marked
/// `idiom.dispatch.weighted`. A path with a cycle, a return or a block
/// CodeExtractor refuses stays as it is. Returns the number of paths laid
/// out (0 with `inline`).
unsigned outlineDispatch(llvm::Module &M);

/// True for the runtime calls that start a dispatch path (Stitching.cpp):
/// idiom_work_hint (right before idiom_run), idiom_run, idiom_run_csr,
/// idiom_run_pair (a check's idiom_run comes before the idiom's own).
bool isDispatchCall(const llvm::Instruction &I);

/// The first dispatch call of each stitched site of \p F: of the first
/// dispatch call of each block, those whose block no other such block
/// dominates (a site's later calls, and a check's idiom's, are in blocks its
/// first one dominates). \p DT is \p F's dominator tree.
llvm::SmallVector<llvm::Instruction *, 8>
firstDispatchCalls(llvm::Function &F, const llvm::DominatorTree &DT);

} // namespace idiom

#endif // IDIOM_PASSES_DISPATCHOUTLINE_H
