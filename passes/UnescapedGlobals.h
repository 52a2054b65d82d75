//===- UnescapedGlobals.h - Globals no pointer can reach -------*- C++ -*-===//
//
// A global variable of internal linkage whose address is never taken: every
// use of it, through address arithmetic (GEPs, also constant expressions),
// phis and selects, is the address of a simple load or store, or the
// destination or source of a non-volatile memcpy/memmove/memset. No pointer to it is ever stored,
// passed to a call, compared, cast to an integer or used in an initializer,
// and no other translation unit can name it, so a pointer loaded from
// memory, received as an argument or returned by a call never points into
// it: the memory of such a global is reached only by the instructions that
// name it. This is the "non-address-taken global" of LLVM's GlobalsModRef
// alias analysis (llvm/Analysis/GlobalsModRef.h), and the rule that lets a
// residency region (ResidencyRegions.h) read or write it on the host while
// the region's idiom buffers are pointers the plugin cannot identify
// (docs/ARCHITECTURE.md, "Residency", point 8).
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_PASSES_UNESCAPEDGLOBALS_H
#define IDIOM_PASSES_UNESCAPEDGLOBALS_H

#include "llvm/ADT/STLFunctionalExtras.h"

namespace llvm {
class Use;
class Value;
} // namespace llvm

namespace idiom {

/// True when every use of \p Root, followed through GEPs (instructions and
/// constant expressions, as their pointer operand), phis, selects (as a
/// value) and pointer casts, is the address of a simple load or store, the
/// destination or source of a non-volatile memcpy/memmove/memset, or a use
/// that \p Allowed accepts (asked before the others; it should accept only
/// uses that neither keep nor leak the address): the address of \p Root
/// never becomes a value that memory, a call or a comparison sees. Shared by
/// isUnescapedGlobal and the scratch allocas of ResidencyRegions.cpp.
bool usedOnlyAsAddress(const llvm::Value &Root,
                       llvm::function_ref<bool(const llvm::Use &)> Allowed);

/// True when \p Obj is a global variable of local (internal or private)
/// linkage, not thread-local and not externally initialised, whose address
/// is never taken (the use walk above, over the module as it is now). A
/// stitched idiom passes its buffer pointers to the runtime through stores
/// into its argument array, so a global that any stitched idiom uses as a
/// buffer, through any chain of address arithmetic, is never such a global.
/// The answer may change as the plugin stitches later functions: callers
/// ask when they decide.
bool isUnescapedGlobal(const llvm::Value *Obj);

} // namespace idiom

#endif // IDIOM_PASSES_UNESCAPEDGLOBALS_H
