//===- BuiltinAtoms.h - The atoms every spec may use ------------*- C++ -*-===//
//
// Registers the structural and semantic atoms of the constraint language
// (docs/ConstraintLanguage.md lists them with their meaning). Structural
// atoms are backed by LoopFacts.h, semantic ones by Z3Checks.h.
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_CONSTRAINTS_BUILTINATOMS_H
#define IDIOM_CONSTRAINTS_BUILTINATOMS_H

#include "idiom/Constraints/Atom.h"

namespace idiom::constraints {

/// Adds every built-in atom to \p R (the ones below included).
void registerBuiltinAtoms(AtomRegistry &R);

/// Structural atoms over single values: Opcode, Type, Operand, User,
/// FlowsTo, Calls, Constant, InLoop, Invariant, SubLoop, LatchValue,
/// InitValue, Dominates, ControlFlowTo (lib/atoms/GenericAtoms.cpp).
void registerGenericAtoms(AtomRegistry &R);
/// Histogram and small-array reduction atoms (lib/atoms/HistogramAtoms.cpp).
void registerHistogramAtoms(AtomRegistry &R);
/// Bisection search atoms: BisectionSearch, SearchPhi
/// (lib/atoms/SearchAtoms.cpp).
void registerSearchAtoms(AtomRegistry &R);
/// GEMM / GEMV atoms (lib/atoms/LinearAlgebraAtoms.cpp).
void registerLinearAlgebraAtoms(AtomRegistry &R);
/// Stencil and sparse matrix-vector atoms (lib/atoms/StencilAtoms.cpp).
void registerStencilAtoms(AtomRegistry &R);

} // namespace idiom::constraints

#endif // IDIOM_CONSTRAINTS_BUILTINATOMS_H
