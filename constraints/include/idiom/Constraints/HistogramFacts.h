//===- HistogramFacts.h - Facts about read-modify-write updates -*- C++ -*-===//
//
// The analyses behind the histogram and small-array reduction atoms
// (lib/atoms/HistogramAtoms.cpp, specs histogram.idl and array-reduction.idl,
// docs/ConstraintLanguage.md "Built-in idioms: histograms and array
// reductions"). A *bin update* is a store that writes back a function of the
// value it read from the same element earlier in the same iteration:
//
//     b = A[idx];  ...  if (guard) A[idx] = F(b, x);
//
// A *stored accumulator* is the same update after GVN/LICM kept the element
// in a register: a header phi b updated as F(b, x) whose new value is stored
// to one loop-invariant address every iteration.
//
// The structural analysis here finds b, F and the guards; the semantic side
// (lib/z3/HistogramZ3.cpp) proves with Z3 that F(b, x) = b (+) g(x) for an
// associative, commutative operator (+) with an identity, which makes the
// updates order-independent and lets a lifter keep private copies.
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_CONSTRAINTS_HISTOGRAMFACTS_H
#define IDIOM_CONSTRAINTS_HISTOGRAMFACTS_H

#include "idiom/Constraints/LoopFacts.h"
#include "idiom/Constraints/Z3Checks.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include <cstdint>
#include <optional>
#include <string>

namespace llvm {
class DominatorTree;
class LoadInst;
class StoreInst;
} // namespace llvm

namespace idiom {

/// How the updated value is read.
enum class UpdateForm {
  Bin,              ///< a load of the same element, earlier in the iteration
  StoredAccumulator ///< a header phi kept in a register, stored every iteration
};

/// A branch condition on the single-predecessor chain that leads to the
/// store (the innermost `if`s around it).
struct UpdateGuard {
  llvm::Value *Cond = nullptr;
  bool ExpectTrue = true; ///< the store runs when Cond == ExpectTrue
  bool DependsOnAcc = false; ///< e.g. the `bins[k] < 255` of a saturating count
};

/// A read-modify-write update of one array element per iteration:
///   Acc = <read element>;  if (Guards) Store(NewValue = F(Acc, x...))
struct BinUpdateInfo {
  UpdateForm Form = UpdateForm::Bin;
  llvm::StoreInst *Store = nullptr;
  /// The value read: the bin load (Bin) or the header phi (StoredAccumulator).
  llvm::Value *Acc = nullptr;
  llvm::Value *NewValue = nullptr; ///< the stored value, F(Acc, x...)
  llvm::Value *Base = nullptr;     ///< base pointer of the updated array
  llvm::Type *ElemTy = nullptr;    ///< type of one element
  llvm::SmallVector<UpdateGuard, 2> Guards; ///< innermost first
  /// The instructions of F (and of the guards) that depend on Acc; every
  /// use of Acc in the loop is one of these, a guard branch, or the store.
  llvm::SmallPtrSet<llvm::Instruction *, 8> UpdateInsts;
};

/// Analyses store \p St of nest \p N as a bin update: a load of the same
/// address dominates it, nothing may write memory between the two, and the
/// loaded value is used only to compute the stored value and the guards of
/// the store (no phi, no other store, no branch elsewhere, no address). What
/// the update reads besides b is checked by the spec (every other load must
/// be an input load, isInputLoad). Sets \p Why on failure.
std::optional<BinUpdateInfo> analyzeBinUpdate(llvm::StoreInst *St,
                                              const NestInfo &N,
                                              llvm::ScalarEvolution &SE,
                                              llvm::DominatorTree &DT,
                                              std::string &Why);

/// Analyses store \p St of a single-loop nest \p N as the store of a stored
/// accumulator: St writes the latch value of a header phi P, computed from P
/// and values independent of P, to a loop-invariant address, on every
/// iteration, and no other store of the loop writes that address.
std::optional<BinUpdateInfo>
analyzeStoredAccumulator(llvm::StoreInst *St, const NestInfo &N,
                         llvm::ScalarEvolution &SE, llvm::DominatorTree &DT,
                         std::string &Why);

/// analyzeBinUpdate, or else analyzeStoredAccumulator.
std::optional<BinUpdateInfo> analyzeUpdate(llvm::StoreInst *St,
                                           const NestInfo &N,
                                           llvm::ScalarEvolution &SE,
                                           llvm::DominatorTree &DT,
                                           std::string &Why);

/// The base pointer of the memory \p I (a load or store) accesses, when it is
/// a single pointer defined outside the nest (an argument, a global, an
/// alloca); null otherwise.
llvm::Value *arrayBaseInNest(llvm::Instruction *I, const NestInfo &N,
                        llvm::ScalarEvolution &SE);

/// True when \p Ld is a simple load whose base pointer is defined outside the
/// nest and is not the base pointer of any store of the nest. Loads through
/// other pointers may still alias the stores at run time; that is left to a
/// run-time overlap check (see the docs).
bool isInputLoad(llvm::LoadInst *Ld, const NestInfo &N,
                 llvm::ScalarEvolution &SE, std::string &Why);

/// True when the element index of store \p St is computed in the nest from
/// at least one loaded value, only through pure operations, loads and
/// induction variables: a data-dependent bin index such as
/// `(int)(x[i] * nbins)`, `key[i] >> s` or `img[i]`. Whether those loads
/// read only input arrays (not `h[h[i]]`) is isInputLoad's question; the
/// histogram spec asks it of every load that is not a bin load.
bool isDataDependentIndex(llvm::StoreInst *St, const NestInfo &N,
                          llvm::ScalarEvolution &SE, std::string &Why);

/// True when the address of store \p St is affine in the nest, invariant in
/// its outermost loop, and (in a two-loop nest) has a constant stride in the
/// inner loop: the store updates a fixed set of elements, the same in every
/// outer iteration.
bool isOuterInvariantIndex(llvm::StoreInst *St, const NestInfo &N,
                           llvm::ScalarEvolution &SE, std::string &Why);

/// Counts, for every array the nest stores to, the distinct elements its
/// stores write (each store of isOuterInvariantIndex writes one element, or
/// one per iteration of a constant-trip-count inner loop). True when every
/// count is below \p Limit. Elements of one array must be at constant
/// distances from each other.
bool fewElementsPerArray(const NestInfo &N, llvm::ScalarEvolution &SE,
                         int64_t Limit, std::string &Why);

/// The number of bins that store \p St can update, when known at compile
/// time: the number of elements of a global or stack array of fixed size,
/// or the width of the index's value range (e.g. 256 for an unsigned char
/// index), whichever is smaller; ranges above 2^24 elements do not count.
/// Nothing when neither is known (a pointer argument indexed by an
/// arbitrary int): a lifter then computes the extent at run time with a
/// min/max reduction of the index.
std::optional<uint64_t> knownBinCount(llvm::StoreInst *St,
                                      llvm::ScalarEvolution &SE,
                                      std::string &Why);

/// The base pointer of the memory load/store \p I accesses (SCEV pointer
/// base), whatever its definition; null when it has none.
llvm::Value *arrayBaseOf(llvm::Instruction *I, llvm::ScalarEvolution &SE);

/// The operator of an order-independent update.
struct UpdateOperator {
  ReductionOp Op = ReductionOp::Other;
  /// Op is Add saturating at the element type's unsigned maximum
  /// (llvm.uadd.sat), e.g. `if (bins[k] < 255) bins[k]++` on unsigned char.
  bool Saturating = false;
  /// "add", "uadd.sat", "fmax", ... for remarks.
  std::string name() const;
};

/// Proves with Z3 that the update \p U is F(b, x) = b (+) g(x) with (+) one
/// of the known associative, commutative operators with an identity
/// (add, uadd.sat, mul, and, or, xor, s/u min/max on bit-vectors; fadd, fmul,
/// fmin, fmax on reals), and that (+) satisfies those laws. For integer and
/// fadd/fmul candidates, g(x) is F(identity, x); for fmin/fmax g(x) is an
/// operand of F independent of b. Guards independent of b are assumed to
/// hold (the update then does nothing when they do not). On success \p Op
/// is the operator; on failure \p Why says why. Results are cached in \p
/// Cache per store. Small or structurally evident updates are decided
/// without Z3, with Z3's answer (UpdateEvaluation.h).
Proof proveUpdateOperator(const BinUpdateInfo &U, unsigned TimeoutMs,
                          UpdateOperator &Op, std::string &Why,
                          ProofCache *Cache = nullptr);

} // namespace idiom

#endif // IDIOM_CONSTRAINTS_HISTOGRAMFACTS_H
