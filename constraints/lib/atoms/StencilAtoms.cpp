//===- StencilAtoms.cpp - Atoms for stencils and SpMV ---===//

#include "idiom/Constraints/BuiltinAtoms.h"

namespace idiom::constraints {

void registerStencilAtoms(AtomRegistry &R) { (void)R; }

} // namespace idiom::constraints
