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
// What: cutSiteAddresses() renames, in the code of a function before its
// first stitched sites (the blocks that no site's start dominates; a site's
// start is its host-hint check), each global variable that the code from
// the sites on uses too: those uses name an internal alias of the global
// (`@px.idiom.presite`) instead. An alias is the same address (no load, no
// copy; the back end rematerialises `leaq px.idiom.presite(%rip)` as it
// does the global's), but MachineCSE sees another symbol: the address
// hoisted in front of a host loop before the sites then ends there, and
// the sites and the code after them compute and share their own, as the
// loops after the first one do in the sequential build. (Per-site aliases
// in the code after each site instead cost jds 0.35 and cg_csr 1.2 points
// of instructions; docs/Benchmarks.md, helper "mcse".)
//
// Only globals the alias names exactly: defined in this module, dso_local
// (an alias binds locally, so a global that another module may interpose
// keeps its own name), not thread-local, in address space 0, of external,
// internal or private linkage without a comdat (a discarded comdat copy
// would leave the alias pointing nowhere), not a mergeable constant (a
// string literal), and not the plugin's own
// (`idiom_`/`idiom.` names). Only sites outside every loop count (for a
// site in a time loop, both names would stay live across that loop). The
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

/// In each function of \p M with stitched sites outside loops (a site's
/// start: the immediate dominator of the block of its first
/// idiom_work_hint / idiom_run* call, the host-hint check), replaces every
/// use (direct or inside a constant expression) of an eligible global
/// variable in the blocks that no start dominates by the global's internal
/// alias `<name>.idiom.presite` (one per global and module), when the
/// blocks that a start dominates use the global too. Must run before the
/// dispatch layout (DispatchOutline.h). Returns the number of uses
/// replaced (0 with -idiom-site-addresses=false).
unsigned cutSiteAddresses(llvm::Module &M);

} // namespace idiom

#endif // IDIOM_PASSES_SITEADDRESSES_H
