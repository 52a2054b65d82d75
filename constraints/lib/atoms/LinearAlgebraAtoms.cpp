//===- LinearAlgebraAtoms.cpp - Atoms for GEMM and GEMV ---===//

#include "idiom/Constraints/BuiltinAtoms.h"

namespace idiom::constraints {

void registerLinearAlgebraAtoms(AtomRegistry &R) { (void)R; }

} // namespace idiom::constraints
