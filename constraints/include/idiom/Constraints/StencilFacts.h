//===- StencilFacts.h - Structural facts for stencils and SpMV --*- C++ -*-===//
//
// The analyses behind the stencil atoms (lib/atoms/StencilAtoms.cpp, spec
// stencil.idl). They follow the constraint-based detection of seeds/000
// (idiom paper, section 4): structural facts over LLVM values, here about
// the shape -O2 code takes: nests up to three deep, reads forwarded from one
// iteration to the next by LoopLoadElimination, time loops that swap two
// buffers, a time step that is a call of a stencil function.
//
// Offsets and strides are SCEVs in bytes; they are compared as polynomials
// over their opaque leaves (products distributed), because SCEV does not
// distribute `(j + ny*k) * nx` and a stencil's neighbours differ by exactly
// such terms. Nothing is cached: every result dies with its query.
// Implemented in lib/facts/StencilFacts.cpp (nests, accesses, whole
// stencils), StencilOffsets.cpp (polynomials, offsets) and
// StencilTimeLoop.cpp (time loops).
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_CONSTRAINTS_STENCILFACTS_H
#define IDIOM_CONSTRAINTS_STENCILFACTS_H

#include "idiom/Constraints/LoopFacts.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include <optional>
#include <string>

namespace llvm {
class CallInst;
class Loop;
class LoadInst;
} // namespace llvm

namespace idiom {

/// Largest distance, in points along one dimension, between a stencil's
/// written point and a point it reads (4 covers 8th-order stencils).
constexpr int64_t MaxStencilRadius = 4;

/// A stencil's loop nest. Repaired maps the induction phis SCEV does not see
/// as recurrences to the recurrence each one is: -O2 leaves some outer loops
/// of guarded inner loops with a latch value that is a phi of two equal
/// increments (i + 1 on the path that skips the inner loop and on the one
/// that runs it). Every SCEV of the stencil analyses goes through scev().
struct StencilNest : NestInfo {
  /// Repaired induction phi -> the recurrence it is.
  llvm::DenseMap<const llvm::Value *, const llvm::SCEV *> Repaired;
  /// SE's SCEV of \p V with the repaired phis replaced by their recurrences.
  const llvm::SCEV *scev(llvm::Value *V, llvm::ScalarEvolution &SE) const;
};

/// Analyses \p Outer as a perfect nest of one to three counted loops (for a
/// stencil's spatial nest). Each loop has a preheader, one latch that is its
/// only exiting block, one exit block, an integer header phi that is an
/// affine recurrence with a constant step, and a trip count invariant in the
/// nest: computable by SCEV, or an exit test of such a recurrence (or a phi
/// of equal ones) against a nest-invariant bound. A header phi whose latch
/// value is such a phi of equal increments is repaired (see StencilNest).
/// Every loop but the innermost has exactly one loop inside it, and outside
/// the innermost loop the nest has no memory operation or call but loads
/// (hoisted reads, and the seeds and carriers of forwarded reads, see
/// analyzeForwardedRead). Fills NestInfo's Loops, IVs, IVStarts and IVSteps
/// (TripCounts and Guards stay empty). Sets \p Why on failure.
std::optional<StencilNest> analyzeStencilNest(llvm::Loop *Outer,
                                              llvm::ScalarEvolution &SE,
                                              std::string &Why);

/// Checks that \p L, a loop of the nest rooted at \p Outer (or Outer itself),
/// is counted as analyzeStencilNest requires, and returns its induction phi.
/// Returns null and sets \p Why otherwise. SCEVs go through the repairs in
/// \p Repaired, and a phi repaired for L is added there (not repaired when
/// null).
llvm::PHINode *countedLoopIV(
    llvm::Loop *L, llvm::Loop *Outer, llvm::ScalarEvolution &SE,
    std::string &Why,
    llvm::DenseMap<const llvm::Value *, const llvm::SCEV *> *Repaired =
        nullptr);

/// True when \p Phi is an integer header phi of a loop of \p N that SCEV sees
/// as an affine recurrence of that loop with a constant step.
bool isNestInduction(const llvm::PHINode *Phi, const StencilNest &N,
                     llvm::ScalarEvolution &SE);

/// Where a load, store or forwarded read of a nest points: Base plus Offset
/// bytes at the nest's first iteration, plus Strides[d] bytes per iteration
/// of loop d (outermost first). Offset and Strides are invariant in the nest.
struct StencilAccess {
  llvm::Instruction *Inst = nullptr; ///< load, store, or forwarded-read phi
  bool IsStore = false;
  llvm::Value *Base = nullptr;
  const llvm::SCEV *Offset = nullptr;
  llvm::SmallVector<const llvm::SCEV *, 3> Strides;
};

/// Analyses the address of load or store \p I over \p N (any depth).
std::optional<StencilAccess> analyzeStencilAccess(llvm::Instruction *I,
                                                  const StencilNest &N,
                                                  llvm::ScalarEvolution &SE,
                                                  std::string &Why);

/// Analyses \p Phi, a header phi of loop L of \p N, as a read forwarded by
/// LoopLoadElimination: its latch value reads, in L's body, the element at
/// {X,+,S} (a load, or another such phi of the same header: a chain), and its
/// preheader value the element at X - S, the one before the first (a load
/// before L, or such a phi of an enclosing loop of the nest). The phi then
/// holds, at iteration k of L, the element at X - S + S*k: the returned
/// access (Inst = Phi). A phi whose latch value is not a read (e.g. a value
/// stored in the previous iteration) is a loop-carried dependence, and
/// \p Why says so.
std::optional<StencilAccess> analyzeForwardedRead(llvm::PHINode *Phi,
                                                  const StencilNest &N,
                                                  llvm::ScalarEvolution &SE,
                                                  std::string &Why);

/// A forwarded read (analyzeForwardedRead) of the map nest \p N as the
/// affine access of the element it holds: the access of the load at the end
/// of its chain of phis, in elements, moved back one iteration of the
/// phi's loop per phi of the chain (Inst = Phi, ElemTy its type). Maps read
/// such a phi as that element (docs/ConstraintLanguage.md, "Forwarded
/// reads"). Sets \p Why when \p Phi is not a forwarded read of \p N.
std::optional<AffineAccess> analyzeForwardedAccess(llvm::PHINode *Phi,
                                                   const NestInfo &N,
                                                   llvm::ScalarEvolution &SE,
                                                   std::string &Why);

/// Every read and write of \p N: forwarded reads (header phis, outermost
/// first), then loads and stores in block order; loads and phis that only
/// carry a read to other forwarded reads (all their users are header phis of
/// the nest) are left out. Fails, with the first failure in \p Why, when a
/// non-induction header phi is not a forwarded read or an access is not
/// affine in the nest; with \p Irregular given, such accesses are listed
/// there instead (Base set when the address has one, Offset null).
bool collectStencilAccesses(
    const StencilNest &N, llvm::ScalarEvolution &SE,
    llvm::SmallVectorImpl<StencilAccess> &Reads,
    llvm::SmallVectorImpl<StencilAccess> &Writes, std::string &Why,
    llvm::SmallVectorImpl<StencilAccess> *Irregular = nullptr);

/// The offset, in points of the nest's iteration space, from access \p From
/// to access \p To: the c with To.Offset - From.Offset = sum_d c_d *
/// Strides[d], |c_d| <= MaxStencilRadius, c_d = 0 where the stride is zero,
/// and the least sum of |c_d|. Both must have equal strides. Sets \p Why
/// (naming the difference in bytes) when there is no such c.
std::optional<llvm::SmallVector<int64_t, 3>>
pointOffset(const StencilAccess &From, const StencilAccess &To,
            llvm::ScalarEvolution &SE, std::string &Why);

/// True when \p A and \p B have equal strides (compared as polynomials).
bool sameStrides(const StencilAccess &A, const StencilAccess &B,
                 llvm::ScalarEvolution &SE);

/// The offset of read \p R from its reference point: the first write of
/// \p Writes with R's strides (the written point), or else the first read of
/// R's array in \p Reads. Fails when R's array is read with unequal strides
/// or at a distance that is not constant or exceeds MaxStencilRadius.
std::optional<llvm::SmallVector<int64_t, 3>>
stencilReadOffset(const StencilAccess &R, llvm::ArrayRef<StencilAccess> Reads,
                  llvm::ArrayRef<StencilAccess> Writes,
                  llvm::ScalarEvolution &SE, std::string &Why);

/// True when some other read of R's array reads a point other than R's.
bool isNeighbourRead(const StencilAccess &R,
                     llvm::ArrayRef<StencilAccess> Reads,
                     llvm::ScalarEvolution &SE);

/// Checks that write \p W of nest \p N is a Jacobi write: every loop of the
/// nest moves the written point (a nonzero stride), and every other access to
/// W's array (same base pointer) is at the written point. A read of a
/// neighbour of the written array is a loop-carried dependence (an in-place,
/// Gauss-Seidel update); \p Why names it and its offset. Accesses in
/// \p Irregular (not affine) count when their base is W's or unknown.
bool isJacobiWrite(const StencilAccess &W, llvm::ArrayRef<StencilAccess> Reads,
                   llvm::ArrayRef<StencilAccess> Writes, const StencilNest &N,
                   llvm::ScalarEvolution &SE, std::string &Why,
                   llvm::ArrayRef<StencilAccess> Irregular = {});

/// Checks that \p Root is computed in the nest only from pure scalar
/// operations (isPureScalarOp), loads, induction phis, forwarded reads and
/// values defined outside the nest.
bool isStencilSlice(llvm::Value *Root, const StencilNest &N,
                    llvm::ScalarEvolution &SE, std::string &Why);

/// A whole stencil nest: what the `stencil` spec checks, in one analysis
/// (used on a callee, where the spec's atoms cannot run).
struct StencilInfo {
  StencilNest Nest;
  llvm::SmallVector<StencilAccess, 2> Writes;
  llvm::SmallVector<StencilAccess, 8> Reads;
  /// Bases read at two points or more (the neighbourhood arrays).
  llvm::SmallVector<llvm::Value *, 2> NeighbourBases;
};

/// Runs every check of the `stencil` spec on \p Outer: analyzeStencilNest,
/// header phis (isNestInduction or analyzeForwardedRead), pure calls,
/// isJacobiWrite and isStencilSlice for each store, stencilReadOffset for
/// each read, at least one neighbour read, no value used after the nest.
std::optional<StencilInfo>
analyzeStencil(llvm::Loop *Outer, llvm::ScalarEvolution &SE, std::string &Why);

/// Pairs (Cur, Next) of pointer header phis of \p L that exchange values each
/// iteration (Cur receives Next from the latch and Next receives Cur), in
/// header order; each pair is listed both ways round.
llvm::SmallVector<std::pair<llvm::PHINode *, llvm::PHINode *>, 2>
bufferSwaps(llvm::Loop *L);

/// Checks that \p L is a counted loop (as in analyzeStencilNest) whose header
/// phis are its induction variables and buffer swaps.
bool isTimeLoop(llvm::Loop *L, llvm::ScalarEvolution &SE, std::string &Why);

/// Checks that the body of time loop \p L is one call \p C of a function
/// defined in the module whose body is one stencil nest (analyzeStencil, on
/// analyses built for the callee) that writes through the parameter \p C
/// passes \p Next to and reads neighbours through the one it passes \p Cur to.
bool isStencilCallStep(llvm::Loop *L, llvm::CallInst *C, llvm::Value *Cur,
                       llvm::Value *Next, std::string &Why);

/// When \p S, expanded as a polynomial over its leaves (products distributed
/// over sums, at most 64 terms of degree 6), is a constant, returns it.
std::optional<int64_t> polynomialConstant(const llvm::SCEV *S);

/// True when \p I is a load whose only users are header phis of loops of
/// \p Nest that receive it from their preheader (seeds of forwarded reads).
bool isForwardSeed(const llvm::Instruction *I, const llvm::Loop *Nest);

/// True when \p I is a memory operation or a call and not debug info: what
/// the stencil and time-loop checks count as a loop level's work.
bool isMemoryWork(const llvm::Instruction &I);

/// Text of an iteration-space offset for remarks: "(-1, 0, +1)".
std::string offsetText(llvm::ArrayRef<int64_t> Offset);

} // namespace idiom

#endif // IDIOM_CONSTRAINTS_STENCILFACTS_H
