//===- RuntimeLimits.h - Runtime descriptor limits -------------*- C++ -*-===//
//
// idiom_run declines, on every call, a descriptor outside the limits that
// runtime/include/idiomrt.h defines (IDIOM_MAX_RESULTS and friends). The
// plugin checks the same constants before it stitches, so that no remark
// promises an offload that the runtime always refuses.
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_PASSES_RUNTIMELIMITS_H
#define IDIOM_PASSES_RUNTIMELIMITS_H

#include <string>

namespace llvm {
class DataLayout;
} // namespace llvm

namespace idiom {

struct IdiomMatch;
struct LiftedIdiom;

/// True when the descriptor that stitching would emit for \p M lifted as
/// \p L is within the runtime's limits (accumulator count and sizes,
/// iteration-space rank); otherwise false with \p Why.
bool withinRuntimeLimits(const IdiomMatch &M, const LiftedIdiom &L,
                         const llvm::DataLayout &DL, std::string &Why);

} // namespace idiom

#endif // IDIOM_PASSES_RUNTIMELIMITS_H
