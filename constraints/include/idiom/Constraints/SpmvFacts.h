//===- SpmvFacts.h - Structural facts for sparse matrix-vector --*- C++ -*-===//
//
// The analyses behind the sparse matrix-vector product atoms
// (lib/atoms/StencilAtoms.cpp, spec spmv.idl), after the constraint-based
// detection of seeds/000 (idiom paper, section 4). An SpMV is a row loop
// whose one inner loop sums products val[p] * x[col[p]] over the nonzeros p
// of the row, with bounds read from memory:
//
//   CSR: for (i) { s = 0; for (p = ptr[i]; p < ptr[i+1]; p++)
//                    s += val[p] * x[col[p]];
//                  y[i] = s; }
//   JDS: for (i) { s = 0; for (k = 0; k < cnt[i]; k++)         (Parboil)
//                    s += val[ptr[k] + i] * x[col[ptr[k] + i]];
//                  y[perm[i]] = s; }
//
// -O2 forwards ptr[i+1] of one row to ptr[i] of the next through a phi of
// the row loop (LoopLoadElimination); the facts accept that form. Indices
// are compared as SCEVs in elements, expanded as polynomials
// (polynomialConstant in StencilFacts.h).
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_CONSTRAINTS_SPMVFACTS_H
#define IDIOM_CONSTRAINTS_SPMVFACTS_H

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

namespace llvm {
class SCEV;
class Value;
class Instruction;
class LoadInst;
class Loop;
class PHINode;
class ScalarEvolution;
class StoreInst;
} // namespace llvm

namespace idiom {

/// Checks that \p Row is a row loop of a sparse product and returns its one
/// inner loop: Row is a counted loop (preheader, one latch that is its only
/// exit, an affine induction variable) with exactly one loop inside it, which
/// is innermost, has a preheader, one latch, one exit and a counter that
/// starts at a value invariant in it and steps by one up to an invariant
/// bound (its bounds may change from row to row). Row's header phis are its
/// induction variables and reads forwarded from the previous row. Returns
/// null and sets \p Why otherwise.
llvm::Loop *sparseRowInner(llvm::Loop *Row, llvm::ScalarEvolution &SE,
                           std::string &Why);

/// The two factors of the term that accumulator \p Acc (a header phi of
/// \p Inner, a reduction in the sense of analyzeReduction) adds each
/// iteration: one sum (add or fadd, no condition) of one product (mul, fmul,
/// or llvm.fmuladd) of two loads, after casts. In operand order.
std::optional<std::pair<llvm::LoadInst *, llvm::LoadInst *>>
sparseProductFactors(llvm::PHINode *Acc, llvm::Loop *Inner,
                     llvm::ScalarEvolution &SE, std::string &Why);

/// The load of \p Inner that \p X is indexed by: X, a load in Inner, reads
/// element ext(Col) + c of its array (c a constant), Col another load in
/// Inner. Null, with \p Why, when X is not loaded in Inner, when its index
/// is not a loaded value, or when that value is loaded outside Inner.
llvm::LoadInst *indirectIndexLoad(llvm::LoadInst *X, llvm::Loop *Inner,
                                  llvm::ScalarEvolution &SE, std::string &Why);

/// True when loads or stores \p A and \p B access the same element index of
/// their arrays (which may differ, as may their element sizes).
bool sameElementIndex(llvm::Instruction *A, llvm::Instruction *B,
                      llvm::ScalarEvolution &SE);

/// CSR: \p V is read at the counter of \p Inner, which runs from ptr[r] up to
/// ptr[r+1], ptr an array read once per iteration of \p Row at an index r that
/// steps by one element per row.
bool isCsrRange(llvm::Loop *Inner, llvm::Loop *Row, llvm::Instruction *V,
                llvm::ScalarEvolution &SE, std::string &Why);

/// JDS: the counter k of \p Inner runs from 0 up to cnt[r], cnt read once per
/// iteration of \p Row at an index r that moves with the row (or at i / D,
/// one count per block of D rows), and \p V is read
/// at ptr[k] + i (in either order), ptr read in Inner at k and i an affine
/// function of Row's induction variable that moves with the row.
bool isJdsRange(llvm::Loop *Inner, llvm::Loop *Row, llvm::Instruction *V,
                llvm::ScalarEvolution &SE, std::string &Why);

/// Checks that store \p St, in \p Row but not in \p Inner, writes a value
/// computed from the final value of accumulator \p Acc of Inner (directly, or
/// through LCSSA phis and the phi that merges it with Acc's initial value for
/// rows whose inner loop runs no iteration), pure scalar operations, loads
/// outside Inner and values defined outside Row.
bool isRowResult(llvm::StoreInst *St, llvm::Loop *Row, llvm::Loop *Inner,
                 llvm::PHINode *Acc, llvm::ScalarEvolution &SE,
                 std::string &Why);

/// Checks that \p St writes one element per row: its address is an affine
/// recurrence of \p Row with a nonzero step over a base invariant in Row. A
/// data-dependent index is a scatter, and \p Why says so.
bool isRowIndexedStore(llvm::StoreInst *St, llvm::Loop *Row,
                       llvm::ScalarEvolution &SE, std::string &Why);

/// Checks that \p St writes element perm[r] (+ a constant), perm read once per
/// iteration of \p Row at an index r that moves with the row: the row
/// permutation of JDS. That perm is a permutation is the format's contract;
/// it is not (and cannot be) proven here.
bool isPermutedRowStore(llvm::StoreInst *St, llvm::Loop *Row,
                        llvm::ScalarEvolution &SE, std::string &Why);

/// The row pointers and counter of a CSR row loop (the facts of isCsrRange),
/// for the SpMV lifter (passes/lift/SpmvLifting.h).
struct CsrRowPointers {
  llvm::Value *Base = nullptr;        ///< ptr's base, invariant in the row loop
  uint64_t ElemBytes = 0;             ///< size of a ptr element in bytes
  const llvm::SCEV *FirstBytes = nullptr; ///< byte offset of the ptr element
                                          ///< read as row 0's start
  llvm::PHINode *IV = nullptr;        ///< the inner loop's counter p
  llvm::Value *Start = nullptr;       ///< p's initial value (ptr[r], widened)
  llvm::Value *End = nullptr;         ///< p's bound (ptr[r+1], widened)
};

/// The CsrRowPointers of \p Inner in \p Row when isCsrRange holds for some
/// value read at the counter; nothing, with \p Why, otherwise.
std::optional<CsrRowPointers> csrRowPointers(llvm::Loop *Inner, llvm::Loop *Row,
                                             llvm::ScalarEvolution &SE,
                                             std::string &Why);

/// The roles of a JDS row loop (the facts of isJdsRange), for the SpMV
/// lifter (passes/lift/SpmvLifting.h).
struct JdsRows {
  llvm::PHINode *IV = nullptr;     ///< the inner loop's counter k, from 0
  llvm::Value *End = nullptr;      ///< k's bound: cnt[r], widened
  llvm::LoadInst *Count = nullptr; ///< the load of cnt[r] in the row loop
  llvm::LoadInst *Diag = nullptr;  ///< the load of ptr[k] in the inner loop
  /// The position ptr[k] + i, V's index before its widening: Diag plus the
  /// row part, an affine recurrence of the row loop.
  llvm::Value *Pos = nullptr;
  const llvm::SCEV *RowPart = nullptr; ///< Pos minus Diag, as a SCEV
  /// 1: Count reads cnt[r] per row; D > 1: it reads cnt[i / D], one count
  /// per block of D rows (Parboil's sh_zcnt[i / 32]).
  unsigned RowsPerCount = 1;
};

/// The JdsRows of \p Inner in \p Row when isJdsRange holds for \p V and
/// the count is a load (not a value forwarded between rows); nothing, with
/// \p Why, otherwise.
std::optional<JdsRows> jdsRows(llvm::Loop *Inner, llvm::Loop *Row,
                               llvm::Instruction *V, llvm::ScalarEvolution &SE,
                               std::string &Why);

/// The constant c such that load \p X reads element ext(\p Col) + c of its
/// array, with \p ZExt set when ext is a zero extension (else a sign
/// extension, or none when Col is as wide as the address); nothing when X's
/// index has another form.
std::optional<int64_t> gatherOffset(llvm::Instruction *X, llvm::Value *Col,
                                    llvm::ScalarEvolution &SE, bool &ZExt);

} // namespace idiom

#endif // IDIOM_CONSTRAINTS_SPMVFACTS_H
