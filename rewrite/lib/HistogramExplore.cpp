//===- HistogramExplore.cpp - lowering and variants of histograms ---------===//
//
// Part of Idiom. The strategy and the variants of histogram programs
// (Histogram.h; DESIGN section 5: the choice between global atomics and
// privatised local bins depends on the device and on how the indices are
// distributed, so both are emitted and the runtime times them).
//
//===----------------------------------------------------------------------===//

#include "idiom/FunIL/TypeCheck.h"
#include "idiom/Rewrite/DefaultStrategies.h"
#include "idiom/Rewrite/Histogram.h"
#include "idiom/Rewrite/Rules.h"

#include <algorithm>

namespace idiom::rewrite {

Strategy histogramStrategy(bool LocalBins, unsigned Elems) {
  const char *Lower = LocalBins   ? "reduce-indexed-privatise"
                      : Elems > 1 ? "reduce-indexed-to-atomic-strided"
                                  : "reduce-indexed-to-atomic";
  return sequence({normalize(ruleStrategy(*findRule("reduce-indexed-map-fusion"))),
                   ruleStrategy(*findRule(Lower))});
}

std::vector<VariantParams> histogramVariants(const funil::Program &P, unsigned Max) {
  struct Row {
    unsigned X, E;
    bool Local;
  };
  // Default first; privatised bins next (fewer global atomics, usually the
  // fastest when the bins fit); a grid-stride global variant last.
  static const Row Rows[] = {{0, 1, false},   {256, 16, true}, {256, 64, true},
                             {128, 16, true}, {256, 8, false}};
  // Privatisation applies when its rule does (constant count that fits
  // local memory, known identity).
  funil::Program Probe = P;
  std::string Err;
  std::vector<std::string> Trace;
  bool CanPrivatise = rewriteProgram(Probe, histogramStrategy(true, 16), Err, &Trace) &&
                      std::find(Trace.begin(), Trace.end(), "reduce-indexed-privatise") !=
                          Trace.end();
  std::vector<VariantParams> Out;
  for (const Row &R : Rows) {
    if (Out.size() >= std::max(1u, Max))
      break;
    if (R.Local && !CanPrivatise)
      continue;
    VariantParams V;
    V.WorkGroup[0] = R.X;
    V.WorkGroup[1] = R.X ? 1 : 0;
    V.Elems = R.E;
    V.Bins = R.Local ? VariantParams::LocalBins : VariantParams::GlobalBins;
    Out.push_back(V);
  }
  return Out;
}

} // namespace idiom::rewrite
