//===- Z3Checks.h - Semantic atoms decided with Z3 --------------*- C++ -*-===//
//
// The semantic side of the constraint language (DESIGN.md section 3): facts
// that structure alone cannot establish are posed to Z3 as validity queries.
// Integers are bit-vectors of their LLVM width; floating point is modelled
// over the reals, which is exactly the reassociation licence a parallel
// reduction needs (DESIGN.md section 7). Address arithmetic is modelled over
// unbounded integers (inbounds addresses do not wrap). A query that times out
// or returns `unknown` is "not proven".
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_CONSTRAINTS_Z3CHECKS_H
#define IDIOM_CONSTRAINTS_Z3CHECKS_H

#include "idiom/Constraints/LoopFacts.h"
#include "llvm/ADT/ArrayRef.h"
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace z3 {
class context;
class expr;
} // namespace z3

namespace idiom {

/// The Z3 context all of Idiom's queries use on this thread (creating one
/// costs more than most queries).
z3::context &sharedZ3Context();

/// Outcome of a Z3 query.
enum class Proof { Proven, Refuted, Unknown };

/// Results of the queries below within one function's detection, so that a
/// spec's atoms and the match builder ask Z3 once per loop or accumulator.
/// Keys are IR pointers: a cache must not outlive the function's IR.
class ProofCache {
public:
  enum class Query { AssocComm, Identity, NoLoopCarriedDependence };
  /// The stored result for (Q, Key), if any.
  const std::pair<Proof, std::string> *lookup(Query Q, const void *Key) const;
  /// Remembers the result of (Q, Key).
  void store(Query Q, const void *Key, Proof P, const std::string &Why);
  /// Remembers the run-time conditions a proven NoLoopCarriedDependence of
  /// loop \p Key assumed (SCEVs that must be non-negative).
  void storeAssumed(const void *Key, llvm::ArrayRef<const llvm::SCEV *> Conds);
  /// The conditions stored for loop \p Key (empty if none).
  llvm::SmallVector<const llvm::SCEV *, 4> assumed(const void *Key) const;

private:
  std::map<std::pair<int, const void *>, std::pair<Proof, std::string>> Results;
  std::map<const void *, std::vector<const llvm::SCEV *>> Assumed;
};

/// Proves that the binary operator extracted from \p R (its first link with
/// the accumulator and the element as the two inputs) is commutative and
/// associative. A textbook operator (OperatorLaws.h) is proven without Z3.
/// On failure, \p Why names the failing law.
Proof proveAssocComm(const ReductionInfo &R, unsigned TimeoutMs,
                     std::string &Why, ProofCache *Cache = nullptr);

/// Proves that the identity value the lifter uses for \p R's operator is a
/// left identity of the extracted operator (f(id, x) == x for all x).
/// Floating-point min/max use +/-infinity, which are not reals; they are
/// accepted by definition and reported as Proven. So is a textbook operator
/// (OperatorLaws.h) whose ReductionOp is R.Op.
Proof proveIdentity(const ReductionInfo &R, unsigned TimeoutMs,
                    std::string &Why, ProofCache *Cache = nullptr);

/// Proves that no iteration of nest \p N writes an element that another
/// iteration reads or writes through the same base pointer, and that no load
/// reads an element stored earlier in the same iteration. Accesses through
/// different base pointers are left to the run-time overlap check. Pairs
/// with the same affine address in a 1-D nest with a non-zero constant stride
/// are decided without Z3 (they meet only in the same iteration), and so are
/// pairs in a 1-D nest with constant offsets, equal constant strides and a
/// constant trip count (by integer arithmetic). Two accesses of one
/// variable-length grid that only the assumption that their subscripts lie
/// in their extents separates (GridDependence.h; NAS MG's ghost copies
/// `u[i3][i2][0] = u[i3][i2][n1 - 2]`) are independent under run-time
/// conditions: SCEVs, valid in the nest's preheader, that must be
/// non-negative, appended to \p Assumed when the answer is Proven (the
/// caller must check them before running anything but the loop).
Proof proveNoLoopCarriedDependence(
    llvm::ArrayRef<AffineAccess> Accesses, const NestInfo &N,
    llvm::ScalarEvolution &SE, unsigned TimeoutMs, std::string &Why,
    ProofCache *Cache = nullptr,
    llvm::SmallVectorImpl<const llvm::SCEV *> *Assumed = nullptr);

/// Proves that no iteration of \p L writes an element that another
/// iteration of \p L reads or writes through the same base pointer, over
/// every load and store of \p L and of the loops inside it (their addresses
/// affine in the induction variables of those loops, with coefficients that
/// do not change while \p L runs), each inner loop's iteration counted from
/// 0 to its backedge-taken count, which may be affine in the enclosing
/// iteration numbers: triangular nests such as Cholesky's `for (j < i) for
/// (k < j)`. Accesses that may not run (under a condition) are assumed to
/// run, so Proven is sound and Refuted means "may depend". On Refuted, \p
/// Why names the two accesses and a witness, e.g. "loop-carried flow
/// dependence: the load at f.c:9:20 in iteration 1 (inner iteration 0) reads
/// an element that the store at f.c:9:16 wrote in iteration 0, ..."; on
/// Unknown, what could not be analysed. Accesses through different base
/// pointers are not compared (the run-time overlap check's part).
Proof proveIndependentIterations(llvm::Loop *L, llvm::ScalarEvolution &SE,
                                 unsigned TimeoutMs, std::string &Why);

/// Proves that \p L and every loop inside it have no loop-carried flow or
/// output dependence: no iteration of such a loop reads an element that an
/// earlier iteration of it wrote, and no two of its iterations write one
/// element (the enclosing loops' iterations shared, as
/// proveIndependentIterations asks), except for two accesses of one address
/// invariant in that loop (an in-place accumulator, `C[i][j] += ...` in the
/// loop k). Anti dependences (an iteration writes what an earlier one read)
/// are allowed: no load then reads what an earlier iteration of a loop of
/// the nest wrote, but the accumulator's element, so every load reads the
/// memory from before \p L or what the same iteration (of every loop
/// around it) wrote earlier in program order. A lifter that evaluates the
/// nest out of place must model those reads (the update's own element as
/// its accumulator) and refuse any other (an operand that meets an element
/// initialised before the loop k of the same iteration): PolyBench trmm;
/// docs/ConstraintLanguage.md, "Triangular products in place". The same accesses, bounds and Unknown answers as
/// proveIndependentIterations; a dependence of an inner loop is named with
/// that loop ("in the loop at f.c:9 inside it: loop-carried flow ...").
Proof proveOnlyAntiDependences(llvm::Loop *L, llvm::ScalarEvolution &SE,
                               unsigned TimeoutMs, std::string &Why);

/// Decides whether \p Negated, the negation of a law over free constants, is
/// unsatisfiable (Proven: the law holds; Refuted: Z3 found a counterexample;
/// Unknown: timeout or `unknown`, never memoised). Answers are memoised by
/// the formula's SMT-LIB text for the process and on disk
/// ($IDIOM_CACHE_DIR/laws, see runtime/README.md; IDIOM_CACHE_DIR=off
/// disables it), so name constants by role and sort, not by occurrence. A
/// formula that Z3's simplifier folds to false is Proven without a solver.
/// The solver is the thread's incremental one, or with \p FreshSolver a new
/// solver (Z3's default tactic for the formula's logic, e.g. for non-linear
/// real arithmetic). Throws z3::exception on Z3 errors.
Proof decideLaw(z3::context &C, const z3::expr &Negated, unsigned TimeoutMs,
                bool FreshSolver = false);

/// Testing only: with false, proveAssocComm, proveIdentity and
/// proveNoLoopCarriedDependence ask Z3 for every law and every pair of
/// accesses that the default (true) decides structurally, so that tests can
/// check that both give the same answers.
void setStructuralShortcuts(bool On);
/// The current setting of setStructuralShortcuts (true unless a test changed
/// it); other Z3-backed facts (histogram updates) follow it too.
bool structuralShortcuts();

} // namespace idiom

#endif // IDIOM_CONSTRAINTS_Z3CHECKS_H
