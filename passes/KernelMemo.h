//===- KernelMemo.h - On-disk memo of generated OpenCL ----------*- C++ -*-===//
//
// rewrite::generateOpenCL lowers every offloaded idiom to up to 8 kernel
// variants; that is most of the plugin's compile time (docs/Benchmarks.md,
// "Compile time"). Its output depends only on the lifted FunIL program, the
// kernel name and the rewrite code, so a compile keeps it in the on-disk memo
// "opencl" (CompileCache.h; IDIOM_CACHE_DIR=off disables it) and later
// compiles of the same loop read it back. The key names the plugin library
// by path, size and modification time: a rebuilt plugin never reads what an
// older build generated. Nothing removes old entries (about 20-40 KB per
// idiom; each rebuild of the plugin leaves the previous build's behind):
// delete the directory to reclaim the space.
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_PASSES_KERNELMEMO_H
#define IDIOM_PASSES_KERNELMEMO_H

#include "idiom/Rewrite/OpenCLGen.h"
#include "llvm/ADT/StringRef.h"
#include <string>

namespace idiom {

/// rewrite::generateOpenCL(P, KernelName, Out, Err, MaxVariants, Opts)
/// (default variants under \p Opts), answered from the memo when \p
/// FunILText (the text \p P was parsed from), \p KernelName and Opts were
/// generated before by this plugin build. Successful generations are
/// stored; failures are recomputed each time.
bool generateOpenCLMemo(llvm::StringRef FunILText, const funil::Program &P,
                        const std::string &KernelName,
                        rewrite::GeneratedOpenCL &Out, std::string &Err,
                        const rewrite::ExploreOptions &Opts = {});

} // namespace idiom

#endif // IDIOM_PASSES_KERNELMEMO_H
