//===- AccumulationFacts.h - Outer-loop accumulation roles -*- C++ -*-===//
//
// The legality analysis behind the `outer-accumulation` idiom
// (constraints/specs/outer-accumulation.idl, issue 13): a rectangular chain
// of two loops, k outer and x inner, whose every store accumulates into an
// element indexed by x alone,
//
//   for (k < K) for (x < N) { Q0[x] = F0(Q0[x], ...); Q1[x] = F1(Q1[x], ...); }
//
// (Parboil mri-q's ComputeQ: Qr[x] += phiMag[k]*cos(...), Qi[x] += ...), and
// whose other loads read arrays the nest does not write. Then, for each x,
// the nest applies F(., k) for k = 0, 1, ... in order to Q[x] and to nothing
// else, and the interchanged nest `for (x) for (k)` computes the same values
// bit for bit: the nest is a map over x of a sequential reduction over k
// (reduceSeq, no reassociation). The GEMV^T update `s[j] += r[i]*A[i][j]` is
// the special case F = acc + r[i]*A[i][j]. Inputs behind other pointers than
// the accumulators' may still overlap them: the runtime's overlap check
// declines such calls (the original nest runs).
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_CONSTRAINTS_ACCUMULATIONFACTS_H
#define IDIOM_CONSTRAINTS_ACCUMULATIONFACTS_H

#include "idiom/Constraints/LinearAlgebraFacts.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>
#include <string>

namespace llvm {
class LoadInst;
class Loop;
class PHINode;
class ScalarEvolution;
class StoreInst;
class Value;
} // namespace llvm

namespace idiom {

/// One accumulator: the store Q[x] = F(Q[x], ...) and the loads of Q[x]
/// that F reads (the old element).
struct AccumulatorRole {
  ChainAccess Store;
  llvm::SmallVector<llvm::LoadInst *, 2> OldLoads;
};

/// How an input load varies over the chain (k: position 0, x: position 1).
enum class AccumulationInputKind {
  Outer,  ///< indexed by k alone (read once per step of the reduction)
  Inner,  ///< indexed by x alone, or invariant (read once per element)
  Matrix  ///< indexed by both k and x
};

/// One input of F: a load of an array the nest does not write.
struct AccumulationInput {
  ChainAccess Access;
  AccumulationInputKind Kind = AccumulationInputKind::Inner;
};

/// The roles of an outer-loop accumulation, in program order of the stores
/// and of the first load of each distinct input address.
struct AccumulationRoles {
  llvm::SmallVector<AccumulatorRole, 2> Accumulators;
  llvm::SmallVector<AccumulationInput, 8> Inputs;
  /// Each input load, with the index in Inputs of the access it reads.
  llvm::SmallVector<std::pair<llvm::LoadInst *, unsigned>, 8> InputLoads;
};

/// True when \p P is an integer affine recurrence of \p L (a counter).
bool isChainCounter(llvm::PHINode &P, const llvm::Loop *L,
                    llvm::ScalarEvolution &SE);

/// Collects the loads and stores of chain \p N (its outermost loop's
/// blocks) in program order, checking that they are simple, that every call
/// is pure or a libm call whose only effect is errno (isPureOrErrnoCall),
/// that nothing else touches memory and that no value computed in the nest
/// is used after it. Sets \p Why on failure.
bool collectNestMemoryOps(const NestInfo &N,
                          llvm::SmallVectorImpl<llvm::LoadInst *> &Loads,
                          llvm::SmallVectorImpl<llvm::StoreInst *> &Stores,
                          std::string &Why);

/// Records load \p L of chain \p N as an input: an affine access through a
/// base pointer not in \p Written (else \p WrittenWhy), at a whole number
/// of elements, of kind Outer when it varies with the loop at position \p
/// KLoop alone (the reduction's), Matrix with both, Inner otherwise; loads
/// of one address share an entry of \p Inputs. Sets \p Why on failure.
bool addAccumulationInput(
    llvm::LoadInst *L, const NestInfo &N, llvm::ScalarEvolution &SE,
    llvm::ArrayRef<const llvm::Value *> Written, unsigned KLoop,
    const char *WrittenWhy, llvm::SmallVectorImpl<AccumulationInput> &Inputs,
    llvm::SmallVectorImpl<std::pair<llvm::LoadInst *, unsigned>> &InputLoads,
    std::string &Why);

/// Analyses the chain \p N of two loops (analyzeLoopChain) as an outer-loop
/// accumulation: only integer affine counters carried, no value used after
/// the nest; every call pure or a libm call whose only effect is errno
/// (isPureOrErrnoCall), every other memory access a simple load or store;
/// every store is a simple store in the inner loop at an
/// address that varies with the inner loop only, with a non-zero constant
/// stride, and reads its own old element; no two stores share a base
/// pointer; every other load is a simple affine load through a base pointer
/// that no store writes through; the stores' elements are read nowhere
/// else. Returns nothing with \p Why (a sentence for -Rpass-missed) when a
/// rule fails: the reason names the rule, e.g. "the accumulator index
/// depends on the outer loop k (Q[x+k] or Q[k])".
std::optional<AccumulationRoles>
analyzeOuterAccumulation(const NestInfo &N, llvm::ScalarEvolution &SE,
                         std::string &Why);

} // namespace idiom

#endif // IDIOM_CONSTRAINTS_ACCUMULATIONFACTS_H
