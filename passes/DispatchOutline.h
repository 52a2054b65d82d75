//===- DispatchOutline.h - Stitched dispatch paths in functions of their own -*- C++ -*-===//
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
// outlineDispatch() moves each such path into an internal, noinline, cold
// function of its own (LLVM's CodeExtractor), so that the function that
// holds the program's loops keeps only a call and a branch per site, and
// its back end (register allocation, spill placement) sees less of the
// plugin's code. The original loop stays where it was. docs/ARCHITECTURE.md
// ("Outlined dispatch") has the measurements behind the choice.
//
// It runs last, after the pending guards (PendingGuards.h): no analysis of
// the plugin looks at the code afterwards (the residency regions read the
// idiom_run calls in the function that holds them).
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_PASSES_DISPATCHOUTLINE_H
#define IDIOM_PASSES_DISPATCHOUTLINE_H

namespace llvm {
class Module;
} // namespace llvm

namespace idiom {

/// Outlines the dispatch path of every stitched site in \p M (the blocks
/// dominated by the site's first idiom_work_hint or idiom_run* call, its
/// block split before that call) into an internal noinline cold function
/// named after its caller with suffix `idiom.dispatch`, carrying the
/// function attribute "idiom-dispatch" (never outlined again). A path that
/// CodeExtractor cannot extract (a loop in it, or an ineligible block) stays
/// in place. Off with -idiom-outline-dispatch=false. Returns the number of
/// paths outlined.
unsigned outlineDispatch(llvm::Module &M);

} // namespace idiom

#endif // IDIOM_PASSES_DISPATCHOUTLINE_H
