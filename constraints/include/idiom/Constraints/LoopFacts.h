//===- LoopFacts.h - Structural facts about loop nests ----------*- C++ -*-===//
//
// The analyses behind the structural atoms of the constraint language:
// canonical loop nests, affine memory accesses, pure scalar slices and
// reduction update chains. Atoms (lib/atoms) and the match builder
// (IdiomMatch.h) both call these, so a spec and the lifted match always agree.
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_CONSTRAINTS_LOOPFACTS_H
#define IDIOM_CONSTRAINTS_LOOPFACTS_H

#include "llvm/ADT/SmallVector.h"
#include <optional>
#include <string>

namespace llvm {
class Constant;
class Instruction;
class Loop;
class PHINode;
class SCEV;
class ScalarEvolution;
class StoreInst;
class Type;
class Value;
} // namespace llvm

namespace idiom {

/// A loop-invariant condition that must hold for the inner loop of a 2-D nest
/// to run (e.g. `w > 0` hoisted out of the inner loop's guard).
struct NestGuard {
  llvm::Value *Cond;
  bool ExpectTrue;
};

/// A rectangular nest of one or two canonical loops, outermost first.
/// Canonical: preheader, single latch that is also the only exiting block,
/// single exit block, computable trip count, an affine induction phi with a
/// constant step (or, from analyzeNest, a step invariant in the nest). Trip
/// counts are invariant in the outermost loop and valid in its preheader. A
/// canonical loop that is not such a nest but whose inner loops are all
/// bisection searches (BisectionFacts.h, structurally) is a nest of depth 1:
/// the searches are part of its body, listed in Searches.
/// Extended 2-D nests (isPlainNest false; the TriangularNest atom): the
/// inner loop's body may hold searches, the outer body input loads, and the
/// inner loop may be triangular (Skew), entered under a test of its count.
struct NestInfo {
  llvm::SmallVector<llvm::Loop *, 2> Loops;
  llvm::SmallVector<llvm::PHINode *, 2> IVs;
  llvm::SmallVector<const llvm::SCEV *, 2> TripCounts; ///< iterations, i64
  llvm::SmallVector<const llvm::SCEV *, 2> IVStarts;   ///< IV at iteration 0
  llvm::SmallVector<int64_t, 2> IVSteps;               ///< constant steps
  /// Per loop, when countedNest filled it (analyzeNest): the step of an IV
  /// whose step is not a constant but is invariant in the whole nest (an
  /// FFT stage's blocks, `j += 2 * s`; IVSteps[D] is then 0), else null.
  /// Nest builders that leave it empty accept constant steps only.
  llvm::SmallVector<const llvm::SCEV *, 2> IVSymbolicSteps;
  llvm::SmallVector<NestGuard, 2> Guards;              ///< for the inner loop
  /// A loop chain (analyzeLoopChain) only: an innermost loop inside the
  /// outermost loop that runs before the rest of the chain (PolyBench gemm's
  /// `for (j) C[i][j] *= beta;` before `for (k) for (j) C[i][j] += ...`), or
  /// null; its trip count (i64, invariant in the nest).
  llvm::Loop *Prologue = nullptr;
  const llvm::SCEV *PrologueTripCount = nullptr;
  /// The analysis the SCEVs above belong to; with Loops.front() it gives
  /// the conditions that hold whenever the nest runs (its loop guards).
  llvm::ScalarEvolution *SE = nullptr;
  llvm::SmallVector<llvm::Loop *, 1> Searches;         ///< in the innermost body
  llvm::SmallVector<llvm::PHINode *, 1> SearchResults; ///< their values after
  /// Triangular nests (Parboil tpacf's `for (j = i + 1; j < n; j++)`): the
  /// inner loop's start advances Skew inner iterations per outer iteration
  /// while its end stays fixed. Then IVStarts[1] is the inner start at the
  /// outer loop's first iteration, TripCounts[1] the inner count there (at
  /// least 0), k1 counts from IVStarts[1], and (k0, k1) runs only when
  /// k1 >= Skew * k0: the triangle inside the rectangle; TripCounts[0]
  /// stops at the first empty row (Skew k0 >= TripCounts[1]), so every row
  /// of the nest runs the inner loop. 0: rectangular.
  int64_t Skew = 0;
  /// Triangular chains (analyzeLoopChain with Triangle; BLAS SYRK's `for (j
  /// = 0; j <= i; j++)`, docs/ConstraintLanguage.md "Triangular nests"): the
  /// position of the loop whose start is fixed and whose count at outer
  /// iteration k0 is TriBase + TriSlope * k0 (constants, TriBase >= 1, or
  /// >= 0 for a TRMV whose first row is empty, `lifts trmv`;
  /// TriSlope >= 1); 0: none. TripCounts[TriLoop] is then the extent of the
  /// rectangle around the triangle, the count at the last outer iteration,
  /// and (k0, kT) runs only when kT < TriBase + TriSlope * k0.
  unsigned TriLoop = 0;
  int64_t TriBase = 0, TriSlope = 0;
  /// The triangle loop's own count {TriBase,+,TriSlope}<Loops[0]> (SCEV),
  /// for translation validation; null without a triangle.
  const llvm::SCEV *TriRowCount = nullptr;
  /// Band chains (analyzeLoopChain with Band; PolyBench trmm's `for (k = i
  /// + 1; k < m; k++)`, docs/ConstraintLanguage.md "Triangular products in
  /// place"): the position of the loop whose start advances BandLead >= 1
  /// of its own iterations on each iteration of Loops[0] while its end stays
  /// fixed; 0: none. IVStarts[BandLoop] is its start at k0 = 0 and
  /// TripCounts[BandLoop] its count there (at least 0), the extent K of the
  /// rectangle around the band; kB counts from IVStarts[BandLoop], and (k0,
  /// kB) runs only when kB >= BandLead * k0. Accesses (analyzeChainAccess)
  /// are in these rectangle coordinates.
  unsigned BandLoop = 0;
  int64_t BandLead = 0;
  /// The band loop's own count {K,+,-BandLead}<Loops[0]> (SCEV, i64), for
  /// its zero-trip guard; null without a band.
  const llvm::SCEV *BandRowCount = nullptr;
  /// Chains whose rows run down (analyzeLoopChain with Band: Loops[0] has a
  /// negative constant step, `for (i = n - 1; i >= 0; i--)`, and a triangle
  /// or band on an inner loop): k0 counts the iterations of Loops[0] from
  /// its last one, k0 = TripCounts[0] - 1 - t for loop iteration t, so that
  /// the rows are in memory order. IVStarts[0] is then the IV's value at its
  /// last iteration and IVSteps[0] the negated step (positive); Tri*, Band*
  /// and the accesses (analyzeChainAccess) are in k0, and TriRowCount and
  /// BandRowCount are formulas over k0 written as recurrences of Loops[0]
  /// (not SCEVs of its iterations). Only the callers that lift a chain whose
  /// rows are independent (`lifts trmm`, `lifts trmv`) ask for it.
  bool RowsReversed = false;
  /// The triangle's or band's loop count as the loop computes it, a
  /// recurrence over the iterations of Loops[0] (TriRowCount or BandRowCount
  /// unless RowsReversed), for its zero-trip guard; null without either.
  const llvm::SCEV *LoopRowCount = nullptr;
  /// The first load of a 2-D nest outside its inner loop (an input read
  /// once per outer iteration, where LICM hoisted it), or null.
  llvm::Instruction *OuterLoad = nullptr;
  unsigned depth() const { return Loops.size(); }
  bool contains(const llvm::Instruction *I) const;
  /// IVSymbolicSteps[D], or null (a constant step, or a builder that
  /// records none).
  const llvm::SCEV *symbolicStep(unsigned D) const {
    return D < IVSymbolicSteps.size() ? IVSymbolicSteps[D] : nullptr;
  }
};

/// True when \p L has a preheader and a single latch that is also its only
/// exiting block, and a single exit block; else sets \p Why.
bool hasCanonicalShape(llvm::Loop *L, std::string &Why);

/// The iteration count of a loop of canonical shape (i64 SCEV, valid in its
/// preheader), or null with \p Why when the shape is wrong or SCEV cannot
/// compute it.
const llvm::SCEV *canonicalTripCount(llvm::Loop *L, llvm::ScalarEvolution &SE,
                                     std::string &Why);

/// Analyses \p Outer as a nest of depth 1 (innermost loop) or 2 (one
/// innermost child). On failure returns nothing and sets \p Why. The nest
/// may be an extended one (isPlainNest); every atom but TriangularNest
/// refuses those.
std::optional<NestInfo> analyzeNest(llvm::Loop *Outer, llvm::ScalarEvolution &SE,
                                    std::string &Why);

/// True for a plain nest: rectangular (Skew 0), no work outside the inner
/// loop, no search inside a 2-D nest. Else sets \p Why to the reason a
/// rectangular nest analysis gives.
bool isPlainNest(const NestInfo &N, std::string &Why);

/// A load or store whose element index is affine in the nest's iterations:
/// element address = Base + Offset + sum_d Strides[d] * k_d, where k_d counts
/// iterations of loop d from 0 (not the IV value). Offset and Strides are in
/// elements of ElemTy and invariant in the nest.
struct AffineAccess {
  llvm::Instruction *Inst = nullptr;
  bool IsStore = false;
  llvm::Value *Base = nullptr;
  llvm::Type *ElemTy = nullptr;
  const llvm::SCEV *Offset = nullptr;
  llvm::SmallVector<const llvm::SCEV *, 2> Strides;
  /// True when every stride is zero (a loop-invariant address).
  bool isInvariant() const;
};

/// Analyses the address of load/store \p I over nest \p N.
std::optional<AffineAccess> analyzeAccess(llvm::Instruction *I,
                                          const NestInfo &N,
                                          llvm::ScalarEvolution &SE,
                                          std::string &Why);

/// True when \p I may be a leaf or interior node of a lifted scalar slice:
/// arithmetic, comparisons, select, casts, fneg, and calls to math intrinsics
/// or library functions that neither read nor write memory.
/// With \p AllowErrno, also a libm call whose only side effect is errno
/// (isErrnoLibmCall).
bool isPureScalarOp(const llvm::Instruction *I, bool AllowErrno = false);

/// True for a call that cannot write memory or have other side effects
/// (pure math functions and intrinsics).
bool isPureCall(const llvm::Instruction *I);

/// True for a call of the C library's sqrt, log, exp, pow, sin or cos
/// (double, or float with the f suffix) that may write errno and nothing
/// else: a builtin call (not -fno-builtin) of the declared library function
/// with its C prototype, nounwind, that only writes memory (clang's
/// -fmath-errno form). The lifter offloads such calls only with a run-time
/// check of their arguments (funil/LibmErrno.h); isPureCall is false for
/// them.
bool isErrnoLibmCall(const llvm::Instruction *I);

/// isPureCall or isErrnoLibmCall.
bool isPureOrErrnoCall(const llvm::Instruction *I);

/// For a pure call (isPureCall) whose OpenCL version is not bit-exact (exp,
/// log, sin, cos, pow and their float variants, as intrinsics or library
/// calls): its C name, e.g. "expf"; empty for every other instruction.
/// sqrt, fabs, floor, ceil, fma, fmin and fmax are exact.
std::string approximateLibmName(const llvm::Instruction *I);

/// Checks that \p Root (a stored value or a reduction operand) is computed in
/// the nest only from pure scalar ops, loads, induction phis, and values
/// defined outside the nest. Sets \p Why on failure.
/// With \p AllowErrno the slice may call isErrnoLibmCall functions (maps,
/// reductions and histograms, which the lifter guards with an errno check).
/// With \p AllowForwarded (maps) a header phi that has the shape of a read
/// forwarded from the previous iteration (its latch value, through phis of
/// the same header, is a load of the nest) is a leaf, a read; whether it is
/// one is for the ForwardedRead atom and the map's match to decide
/// (analyzeForwardedAccess).
bool isPureSlice(llvm::Value *Root, const NestInfo &N, std::string &Why,
                 bool AllowErrno = false, bool AllowForwarded = false);

/// Reduction operators the lifter and the runtime know identities for.
/// Other: a binary operator without a known identity (sub, div, shifts...);
/// it is recognised structurally so that Z3 decides (and refutes) the laws.
/// ArgIndex: the index half of an argmin/argmax (analyzeArgIndex); it is
/// combined together with the min/max accumulator it is tied to.
enum class ReductionOp {
  Add, Mul, And, Or, Xor, SMin, SMax, UMin, UMax, FAdd, FMul, FMin, FMax,
  ArgIndex, Other
};

/// Name of \p Op for remarks ("fadd", "smax", ...).
const char *reductionOpName(ReductionOp Op);

/// Identity of \p Op on type \p Ty: 0 for add/or/xor/umax, 1 for mul, all
/// ones for and/umin, the extreme values for smin/smax, -0.0 for fadd, 1.0
/// for fmul, +inf for fmin and -inf for fmax; null for Other.
llvm::Constant *reductionIdentity(ReductionOp Op, llvm::Type *Ty);

struct ReductionInfo;

/// The identity index of an argmin/argmax index \p R (Op == ArgIndex): the
/// largest signed value of its type when ties keep the first index, the
/// smallest when they keep the last, so that every real index wins a tie
/// against it.
llvm::Constant *argIndexSentinel(const ReductionInfo &R);

/// A scalar reduction: Phi is updated once per iteration as
///   Update = Cond ? op(Phi, Operands...) : Phi    (Cond optional)
/// where Operands do not depend on Phi. The binary operator `op` is the
/// instruction pattern OpInsts with the accumulator input replaced; see
/// seeds/000 (idiom paper, section 4, scalar reductions).
struct ReductionInfo {
  llvm::PHINode *Phi = nullptr;
  /// Incoming value from the preheader at detection time (IR surgery on an
  /// earlier idiom may replace it: stitching re-reads it from the phi).
  llvm::Value *Init = nullptr;
  llvm::Instruction *Update = nullptr;  ///< incoming value from the latch
  ReductionOp Op = ReductionOp::Add;
  llvm::SmallVector<llvm::Value *, 2> Operands; ///< combined in order
  /// Per operand: null, or the factor it is multiplied by (a link
  /// `llvm.fmuladd(x, y, acc)` contributes the operand x*y to an fadd chain).
  llvm::SmallVector<llvm::Value *, 2> MulPartners;
  llvm::Value *Cond = nullptr;          ///< select condition, or null
  bool CondNegated = false;             ///< Update = Cond ? Phi : op(...)
  /// The first instruction of the chain: op(Phi, Operands[0]); for min/max
  /// written as compare+select, the select (its compare precedes it).
  llvm::Instruction *FirstLink = nullptr;
  /// 2-D nests (one reduction over the flattened rows x cols space): the
  /// outer loop's header phi that carries the accumulator from row to row;
  /// Phi is then the inner loop's header phi, which starts each row from
  /// CarryPhi. Null for single loops.
  llvm::PHINode *CarryPhi = nullptr;
  /// 2-D nests: CarryPhi's incoming value from the outer latch (the row's
  /// final value: Update through the inner loop's exit phi).
  llvm::Value *CarryUpdate = nullptr;
  /// 3-D nests (one reduction over the flattened planes x rows x cols
  /// space): the middle loop's header phi, which starts each plane from
  /// CarryPhi and from which Phi starts each row. Empty for one or two
  /// loops.
  llvm::SmallVector<llvm::PHINode *, 1> MidCarries;
  /// Stores of Update, in its block (so on every iteration), to addresses
  /// invariant in the nest: the running value kept in memory as well (an
  /// array element -O2 keeps in a register and stores back because an input
  /// may alias it, NAS's rms[m]). Only the grid reductions accept them
  /// (StoredResult); after the nest the memory holds the final value.
  llvm::SmallVector<llvm::StoreInst *, 1> Stores;

  /// The phi whose preheader value is the reduction's initial value.
  llvm::PHINode *entryPhi() const { return CarryPhi ? CarryPhi : Phi; }
  /// The value the nest's exit phis receive: the reduction's final value.
  llvm::Value *result() const;
  /// Op == ArgIndex: the header phi of the min/max accumulator whose compare
  /// selects this index (`if (a[i] < m) { m = a[i]; k = i; }`).
  llvm::PHINode *ArgOf = nullptr;
  /// Op == ArgIndex: ties keep the later index (the loop's compare is
  /// non-strict, `<=` or `>=`); otherwise the earlier one.
  bool ArgLast = false;
};

/// Analyses header phi \p Phi of the nest \p N as a reduction. In a nest of
/// two or three loops, \p Phi is the innermost loop's accumulator or a phi
/// of an enclosing loop that carries it (ReductionInfo::CarryPhi,
/// MidCarries); each gives the same result.
std::optional<ReductionInfo> analyzeReduction(llvm::PHINode *Phi,
                                              const NestInfo &N,
                                              std::string &Why);

/// Analyses header phi \p Phi of the 1-D nest \p N as the index of an
/// argmin/argmax: Phi is updated as `select(c, x, Phi)` (or with the arms
/// swapped and c negated) where c is the compare of another header phi's
/// compare+select min/max update, the select picks x exactly when that
/// update picks its element, and x is an increasing affine function of the
/// induction variable (SCEV {s,+,d} with d > 0), so that the smaller x is
/// the earlier iteration. Sets ArgOf and ArgLast; Operands = {x}.
std::optional<ReductionInfo> analyzeArgIndex(llvm::PHINode *Phi,
                                             const NestInfo &N,
                                             llvm::ScalarEvolution &SE,
                                             std::string &Why);

/// True when \p Phi is the induction phi of one of the nest's loops.
bool isNestIV(const llvm::PHINode *Phi, const NestInfo &N);

/// A second induction variable (issue 13): a header phi of the nest's loop
/// Loop, other than its induction variable, that ScalarEvolution describes
/// as the affine recurrence {Start,+,Step} of that loop, Start and Step
/// invariant in the nest (`k += 2` beside `i++`). Its value on iteration k
/// of the loop is Start + Step * k in the phi's width, so lifters read it as
/// that function of the loop's iteration index, as they read the induction
/// variable itself; a variable updated under a condition is no recurrence.
struct DerivedIV {
  unsigned Loop = 0;
  const llvm::SCEV *Start = nullptr, *Step = nullptr;
};

/// The derived induction variable \p Phi of nest \p N (at most 64 bits),
/// or nothing.
std::optional<DerivedIV> derivedIV(const llvm::PHINode *Phi, const NestInfo &N);

/// True when \p Phi, a header phi of a triangular nest's outer loop, is the
/// inner loop's start (the `i + 1` of `j = i + 1` kept in a phi of its own):
/// an induction the nest's iteration space already expresses.
bool isTriangleStart(const llvm::PHINode *Phi, const NestInfo &N);

/// True when \p Phi is a header phi (an interval bound) of one of the
/// bisection searches in \p N's body.
bool isNestSearchPhi(const llvm::PHINode *Phi, const NestInfo &N);

/// True when \p Phi is the value after one of the bisection searches in
/// \p N's body (BisectionInfo::Result): computed from a loaded boundary.
bool isNestSearchResult(const llvm::PHINode *Phi, const NestInfo &N);

} // namespace idiom

#endif // IDIOM_CONSTRAINTS_LOOPFACTS_H
