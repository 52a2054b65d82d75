//===- SiteAddresses.h - Global addresses cut at stitched sites -*- C++ -*-===//
//
// Why: the back end materialises the address of a global array once per
// loop (`leaq px(%rip)` in the loop's preheader, after MachineLICM), and
// MachineCSE then replaces every later materialisation that the first one
// dominates by it. In a function whose host loops come one after another,
// a global's address computed before the first loop is then kept live
// through every later loop that reaches it. In the sequential build that
// happens too, but a stitched site puts runtime calls and an edge that
// skips the site's original loop (after a device run) in the middle, and
// the greedy register allocator splits those function-long address ranges
// differently: nas-parboil/gridding.c's set-up loop (an LCG recurrence
// before the first site, the same IR in every build) went from 83 to 91
// instructions, a rotation of four address registers in every iteration,
// +4.4% of the program's instructions with every site on the host
// (docs/ARCHITECTURE.md, "Site addresses"; docs/Benchmarks.md, helper
// "mcse").
//
// What: cutSiteAddresses() gives each stitched site its own name for the
// global variables that the code after the site shares with the code
// before it: an internal alias of the global (`@px.idiom.site`), used by
// every instruction from the site's hint check on (the blocks its check
// dominates: the dispatch path, the original loop, the join and the rest of
// the function). An alias is the same address (no load, no copy, and the
// back end rematerialises it as it does the global's), but MachineCSE sees
// another symbol, so the live range of the earlier address ends at the site
// instead of running through it and the loops after it.
//
// Only globals the alias names exactly: defined in this module, dso_local
// (an alias binds locally, so a global that another module may interpose
// keeps its own name), not thread-local, in address space 0, and not the
// plugin's own (`idiom_`/`idiom.` names). Only sites outside every loop
// (a site in a time loop would keep both addresses live across it). The
// ThinLTO back end's GlobalOpt resolves the aliases again (no harm: the
// code is then as without this). Knob: -idiom-site-addresses=false.
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_PASSES_SITEADDRESSES_H
#define IDIOM_PASSES_SITEADDRESSES_H

namespace llvm {
class Module;
} // namespace llvm

namespace idiom {

/// For each stitched site of \p M outside every loop (its first
/// idiom_work_hint / idiom_run* call, the site's start being that call
/// block's immediate dominator: the host-hint check), replaces, in the
/// blocks the start dominates, every use (direct or inside a constant
/// expression) of an eligible global variable that the function also uses
/// outside those blocks by a per-site internal alias of it; a later site
/// overrides an earlier one's aliases in its own blocks. Must run before the
/// dispatch layout (DispatchOutline.h). Returns the number of uses
/// replaced (0 with -idiom-site-addresses=false).
unsigned cutSiteAddresses(llvm::Module &M);

} // namespace idiom

#endif // IDIOM_PASSES_SITEADDRESSES_H
