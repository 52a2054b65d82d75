//===- RuntimeLimits.cpp - Runtime descriptor limits ----------------------===//

#include "RuntimeLimits.h"
#include "Lifting.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Instructions.h"
#include "../runtime/include/idiomrt.h"

using namespace llvm;

namespace idiom {

bool withinRuntimeLimits(const IdiomMatch &M, const LiftedIdiom &L,
                         const DataLayout &DL, std::string &Why) {
  bool IsReduce = M.Kind == IdiomKind::ScalarReduction;
  size_t Rank = L.Sizes.size();
  size_t MaxRank = IsReduce ? IDIOM_MAX_REDUCE_DIMS : IDIOM_MAX_MAP_DIMS;
  if (Rank < 1 || Rank > MaxRank) {
    Why = "iteration space of rank " + std::to_string(Rank) +
          " is beyond the runtime's limit of " + std::to_string(MaxRank) +
          " for this kind (IDIOM_MAX_" + (IsReduce ? "REDUCE" : "MAP") +
          "_DIMS)";
    return false;
  }
  if (!IsReduce)
    return true;
  if (M.Reductions.empty() || M.Reductions.size() > IDIOM_MAX_RESULTS) {
    Why = "reduction with " + std::to_string(M.Reductions.size()) +
          " accumulators is beyond the runtime's limit of " +
          std::to_string(IDIOM_MAX_RESULTS) + " (IDIOM_MAX_RESULTS)";
    return false;
  }
  for (const ReductionInfo &R : M.Reductions) {
    uint64_t Bytes = DL.getTypeStoreSize(R.Phi->getType());
    if (Bytes < 1 || Bytes > IDIOM_MAX_RESULT_BYTES) {
      Why = "accumulator of " + std::to_string(Bytes) +
            " bytes is beyond the runtime's limit of " +
            std::to_string(IDIOM_MAX_RESULT_BYTES) +
            " (IDIOM_MAX_RESULT_BYTES)";
      return false;
    }
  }
  return true;
}

} // namespace idiom
