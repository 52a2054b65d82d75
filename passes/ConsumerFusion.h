//===- ConsumerFusion.h - Several consumer loops of one row fused -*- C++
//-*-===//
//
// Part of Idiom (issue 13). NAS MG's prolongation (interp) fills its row
// temporaries z1, z2, z3 in one i1 loop, then updates the fine grid in
// FOUR i1 loops, each two points of one of the four fine rows around the
// coarse row:
//
//   for (i1 = 0; i1 < mm1 - 1; i1++) {            // and three more, with
//     u[2*i3][2*i2][2*i1]     += z[i3][i2][i1];   // rows 2*i2 + 1 and
//     u[2*i3][2*i2][2*i1 + 1] += 0.5 * (...);     // planes 2*i3 + 1
//   }
//
// After the temporaries are privatised (RowTemporaries.h), the row holds
// several consumer loops with one iteration space. This file fuses them
// into the first (Kennedy and Allen, "Optimizing Compilers for Modern
// Architectures", sec. 6.4: fusion is legal where no dependence between
// the loops becomes backward), so the nest is a perfect nest and a map
// with several stores per point. LLVM's LoopFuse does not apply: it runs
// on the function pipeline's own schedule, not inside the plugin's
// versioned copy, and proves its dependences with DependenceAnalysis over
// the flat index, which cannot tell the rows of u apart when the extents
// n1, n2 are parameters unrelated to mm1, mm2.
//
// Legality, each refused with a reason: the consumers have one induction
// variable start, step and trip count; each after the first runs exactly
// when the first does (the first's exit dominates it, and every branch on
// the way tests a condition that guards the first); each after the first
// is one block whose phis are privatised reads; and, for every store of
// one consumer and every access of another through the same pointer base,
// the two never touch one element in a row: some grid subscript
// (GridSubscripts.h) differs by a non-zero constant, or by a constant that
// is no multiple of the equal steps (different parity: u[2*i1] and
// u[2*i1 + 1]). Checked at run time with the row temporaries' checks:
// every grid subscript but the outermost lies in its extent (so unequal
// subscripts are unequal elements), and accesses through other pointer
// bases are disjoint from the stores.
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_PASSES_CONSUMERFUSION_H
#define IDIOM_PASSES_CONSUMERFUSION_H

#include "BoundVersioning.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <string>

namespace idiom {

/// Checks that \p Consumers (inner loops of \p Row, in program order, the
/// row temporaries' reads not counted as accesses: \p IsTempRead) may be
/// fused into the first; appends the run-time conditions to \p Need and
/// \p Disjoint (ranges over \p Root). False with \p Why otherwise.
bool consumersFusible(
    llvm::ArrayRef<llvm::Loop *> Consumers, llvm::Loop &Row, llvm::Loop &Root,
    llvm::DominatorTree &DT, llvm::ScalarEvolution &SE,
    llvm::function_ref<bool(const llvm::Instruction *)> IsTempRead,
    llvm::SmallVectorImpl<Fits> &Need,
    llvm::SmallVectorImpl<std::pair<AccessRange, AccessRange>> &Disjoint,
    std::string &Why);

/// Fuses \p Consumers (accepted by consumersFusible, their temporaries'
/// reads replaced) into the first: a copy of each later body, its
/// induction variable replaced by the first's, runs at the end of the
/// first's body; the later loops are deleted. Keeps \p LI and \p DT up to
/// date.
void fuseConsumers(llvm::ArrayRef<llvm::Loop *> Consumers, llvm::LoopInfo &LI,
                   llvm::DominatorTree &DT, llvm::ScalarEvolution &SE);

} // namespace idiom

#endif // IDIOM_PASSES_CONSUMERFUSION_H
