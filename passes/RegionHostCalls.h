//===- RegionHostCalls.h - Library calls inside residency regions -*- C++ -*-=//
//
// The library functions (printf, clock_gettime, libm, ...) and runtime
// queries (idiom_last_*) that a residency region may call, because they
// touch the program's memory only through their pointer arguments, which the
// region check then treats as the loop's own loads and stores
// (docs/ARCHITECTURE.md, "Regions across calls").
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_PASSES_REGIONHOSTCALLS_H
#define IDIOM_PASSES_REGIONHOSTCALLS_H

#include <utility>
#include <vector>

namespace llvm {
class CallBase;
class TargetLibraryInfo;
class Value;
} // namespace llvm

namespace idiom {

/// The pointer arguments of a call to a known library or runtime query
/// function that reads or writes memory only through them (printf, puts,
/// fprintf/fputs/fwrite to stdout or stderr, clock_gettime, gettimeofday,
/// libm functions that may set errno, idiom_last_* ...): each with true when
/// the callee may write through it.
/// False for any other call. Arguments that point to constant globals or to
/// strings the runtime owns are left out.
bool knownHostCall(const llvm::CallBase &CB, const llvm::TargetLibraryInfo *TLI,
                   std::vector<std::pair<const llvm::Value *, bool>> &Ptrs);

/// True for an object that no idiom buffer can be: a constant global, or a
/// string returned by the runtime's queries (idiom_last_reason,
/// idiom_device_name).
bool neverABuffer(const llvm::Value *Obj);

} // namespace idiom

#endif // IDIOM_PASSES_REGIONHOSTCALLS_H
