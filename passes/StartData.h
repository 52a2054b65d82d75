//===- StartData.h - The section of the words every run touches -*- C++ -*-===//
//
// The host hint words of the stitched sites (Stitching.cpp) and the
// module's idiom_pending_work (PendingGuards.cpp) are read at the first
// call of every run, and the hint words written after the first decline:
// zero-initialised, they would sit in .bss, whose pages cost a page fault
// when first read (the zero page) and another when first written. In the
// runtime's start-data section (idiomrt.h, IDIOM_START_DATA_SECTION, a
// data section the linker merges into .data) they share the pages that
// exec and the dynamic linker write at every start (helper "tinypocl",
// docs/Benchmarks.md: four page faults of bench/policy_tiny.c's warm run).
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_PASSES_STARTDATA_H
#define IDIOM_PASSES_STARTDATA_H

#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"
#include "../runtime/include/idiomrt.h"

namespace idiom {

/// Places \p G, a zero-initialised word of the host path, in
/// IDIOM_START_DATA_SECTION on ELF targets (other object formats name
/// sections otherwise: \p G stays where the back end puts it).
inline void placeInStartData(llvm::GlobalVariable &G) {
  if (llvm::Triple(G.getParent()->getTargetTriple()).isOSBinFormatELF())
    G.setSection(IDIOM_START_DATA_SECTION);
}

} // namespace idiom

#endif // IDIOM_PASSES_STARTDATA_H
