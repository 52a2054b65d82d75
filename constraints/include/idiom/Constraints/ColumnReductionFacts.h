//===- ColumnReductionFacts.h - Roles of a column reduction -----*- C++ -*-===//
//
// The legality analysis behind the `column-reduction` idiom
// (constraints/specs/column-reduction.idl, issue 13): a rectangular chain of
// two loops, j outer (the map) and i inner (the reduction), whose inner loop
// carries accumulators and whose stores write elements indexed by j alone,
// PolyBench correlation/covariance style:
//
//   for (j < M) {
//     mean[j] = 0.0;                      // prologue (optional)
//     for (i < N) mean[j] += data[i][j];  // acc = F(acc, ...), stored or not
//     mean[j] /= n;                       // epilogue (optional)
//   }
//
// At -O2 GVN keeps mean[j] in a header phi of the inner loop (its value
// forwarded from the prologue store) and leaves the store of the running sum
// in the loop (data may alias mean); with restrict pointers LICM sinks it. For
// each j the nest computes out[j] = G(fold(F, INIT, i = 0..N-1), j-inputs),
// in i's order, and touches no other element of out, so the nest is a map
// over j of a sequential reduction over i (reduceSeq, exact, no
// reassociation licence): the GEMV row sum generalised to any term, with the
// prologue as INIT and the epilogue as the finishing function G. Inputs
// behind other pointers than the outputs' may still overlap them: the
// runtime's overlap check declines such calls (the original nest runs).
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_CONSTRAINTS_COLUMNREDUCTIONFACTS_H
#define IDIOM_CONSTRAINTS_COLUMNREDUCTIONFACTS_H

#include "idiom/Constraints/AccumulationFacts.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>
#include <string>

namespace llvm {
class LoadInst;
class PHINode;
class ScalarEvolution;
class StoreInst;
class Value;
} // namespace llvm

namespace idiom {

/// One accumulator of the inner loop i: its header phi, the value it starts
/// from on every j (a constant, an expression of j-indexed inputs, or the
/// old output element, OldOutput) and its update F (the latch value).
struct ColumnAccumulator {
  llvm::PHINode *Phi = nullptr;
  llvm::Value *Init = nullptr, *Step = nullptr;
};

/// One output element per j: the store that gives it its final value
/// (Store: an epilogue after the inner loop, or the running store of an
/// accumulator in the loop) and the value it stores. Stores the final one
/// overwrites (a prologue `out[j] = 0`, the running store under an
/// epilogue) are in Superseded.
struct ColumnOutput {
  ChainAccess Store;
  llvm::Value *Value = nullptr;
  llvm::SmallVector<llvm::StoreInst *, 2> Superseded;
  /// A load of the element before the inner loop that an accumulator starts
  /// from (`acc = out[j]` with no prologue), or null.
  llvm::LoadInst *OldLoad = nullptr;
};

/// The roles of a column reduction. Inputs use AccumulationInputKind with
/// the reduction loop in the role of k: Outer means indexed by i alone (read
/// per step), Inner indexed by j alone or invariant (read once per output),
/// Matrix indexed by both.
struct ColumnReductionRoles {
  llvm::SmallVector<ColumnAccumulator, 2> Accumulators;
  llvm::SmallVector<ColumnOutput, 2> Outputs;
  llvm::SmallVector<AccumulationInput, 8> Inputs;
  /// Each input load, with the index in Inputs of the access it reads.
  llvm::SmallVector<std::pair<llvm::LoadInst *, unsigned>, 8> InputLoads;
  /// Values after the inner loop that are an accumulator's final value
  /// (isFinalValueOf), with the accumulator's index.
  llvm::SmallVector<std::pair<llvm::Value *, unsigned>, 4> Finals;
};

/// Analyses the chain \p N of two loops (analyzeLoopChain) as a column
/// reduction: the outer loop carries only integer affine counters, the inner
/// loop counters and at least one accumulator; no value is used after the
/// nest; calls are pure or libm calls whose only effect is errno; every store
/// is simple, writes an element indexed by j alone with a constant non-zero
/// stride, and no two outputs share a base pointer (so an epilogue that
/// writes another column, out[j+1], is refused); a store in the inner loop
/// stores an accumulator's update; at most one store of an element follows
/// the inner loop; an output without such an epilogue is the running store
/// of an accumulator that starts from the prologue's value or the old
/// element; an output element is read only as an accumulator's start, before
/// the inner loop and without a prologue; every other load is an affine load
/// through a base pointer no store writes through. Returns nothing with \p
/// Why (a sentence for -Rpass-missed) when a rule fails.
std::optional<ColumnReductionRoles>
analyzeColumnReduction(const NestInfo &N, llvm::ScalarEvolution &SE,
                       std::string &Why);

} // namespace idiom

#endif // IDIOM_CONSTRAINTS_COLUMNREDUCTIONFACTS_H
