//===- KernelSharing.h - One kernel per source loop -------------*- C++ -*-===//
//
// A function inlined into k callers puts k copies of each of its loops into
// the module. They lift to the same FunIL program up to its name, so they
// share one kernel: the first copy offloaded lowers and generates it, later
// copies reuse its name and OpenCL text instead of lowering again. Copies that
// also have the same source location and idiom (with -g, a loop inlined into
// several callers) share the whole runtime descriptor as well: one program
// build, one tuning and one IDIOM_STATS line per source loop; each copy still
// has its own stitched call, arguments and fallback loop.
//
// The index lives in the module itself, as named metadata that points at the
// descriptors ("idiom.kernel.HASH", "idiom.desc.HASH", MD5 of the key), so
// that it holds across the functions of a module and across pass managers,
// and a descriptor deleted later (a dead caller) is simply not found.
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_PASSES_KERNELSHARING_H
#define IDIOM_PASSES_KERNELSHARING_H

#include "llvm/ADT/StringRef.h"
#include <string>

namespace llvm {
class GlobalVariable;
class Module;
} // namespace llvm

namespace idiom {

namespace funil {
struct Program;
} // namespace funil

/// The key of the kernel generated for \p P: P printed without its name
/// (the kernel name is the only thing the name changes in the output).
std::string kernelKey(const funil::Program &P);

/// The key of a runtime descriptor: its kernel's key, the source location
/// and the idiom name (the other fields of a descriptor follow from the
/// program).
std::string descriptorKey(llvm::StringRef KernelKey, llvm::StringRef Loc,
                          llvm::StringRef Spec);

/// The kernels and descriptors already emitted into one module.
class KernelIndex {
public:
  explicit KernelIndex(llvm::Module &M) : M(M) {}

  /// A descriptor of an earlier offload whose kernel has key \p KernelKey
  /// (its name, source and variant count are the kernel's), or null.
  llvm::GlobalVariable *findKernel(llvm::StringRef KernelKey) const;
  /// The descriptor emitted earlier for \p DescKey, or null.
  llvm::GlobalVariable *findDescriptor(llvm::StringRef DescKey) const;
  /// Records \p Desc as the descriptor of its kernel and of itself.
  void add(llvm::StringRef KernelKey, llvm::StringRef DescKey,
           llvm::GlobalVariable *Desc);

  /// The number of the module's next kernel name (idiom_<function>_N): the
  /// number of descriptors emitted into the module before this index was
  /// made (read once; descriptors added since do not change it).
  unsigned nextKernelId() const;
  /// Records that \p N more descriptors were emitted (the count is kept in
  /// the module: it is computed from the module's globals only once).
  void addKernelIds(unsigned N);

private:
  llvm::Module &M;
  mutable unsigned FirstId = 0;    ///< nextKernelId's answer, once known
  mutable bool HaveFirstId = false;
};

/// The kernel base name of descriptor \p Desc ("idiom_main_0").
llvm::StringRef descriptorKernelName(const llvm::GlobalVariable &Desc);

} // namespace idiom

#endif // IDIOM_PASSES_KERNELSHARING_H
