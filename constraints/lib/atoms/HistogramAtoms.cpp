//===- HistogramAtoms.cpp - Atoms for histograms and small-array reductions ---===//

#include "idiom/Constraints/BuiltinAtoms.h"

namespace idiom::constraints {

void registerHistogramAtoms(AtomRegistry &R) { (void)R; }

} // namespace idiom::constraints
