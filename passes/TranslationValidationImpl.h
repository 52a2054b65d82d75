//===- TranslationValidationImpl.h - The validator's parts -----*- C++ -*-===//
//
// Part of Idiom. Private to the plugin (not installed): the validator that
// TranslationValidation.h's entry points run, split by concern over
//
//   ValidationFunIL.cpp     the symbolic evaluator of FunIL (eval, apply,
//                           convert, sorts)
//   ValidationIndirect.cpp  reads whose index is data: gathers and
//                           bisection searches
//   ValidationSlice.cpp     the LLVM side: the slice's instructions as terms
//   ValidationMaps.cpp      maps, histograms and scalar reductions (run)
//   ValidationGemm.cpp      GEMM and the STEP/INIT/POST slice checks
//   ValidationSpmv.cpp      CSR and JDS SpMV
//   ValidationAccum.cpp     outer-loop accumulations and column reductions
//   TranslationValidation.cpp  the decision (proveNoDifference) and the
//                           entry points validateLifting, decideWithoutZ3
//
// Validator is a template over the term backend (ValidationBackends.h);
// each file instantiates the members it defines for both backends
// (IDIOM_TV_INSTANTIATE), so no file but its own sees a member's body.
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_PASSES_TRANSLATIONVALIDATIONIMPL_H
#define IDIOM_PASSES_TRANSLATIONVALIDATIONIMPL_H

#include "Lifting.h"
#include "ValidationBackends.h"
#include "lift/HostFloat.h"
#include "idiom/FunIL/Expr.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Instructions.h"
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace idiom {
namespace funil {
struct Program;
}
struct GemmSlice;

namespace tv {

using funil::Expr;
using funil::ExprPtr;
using funil::ScalarKind;

/// A symbolic FunIL value: a scalar term, or a tuple of symbolic values.
/// Arrays (row views of 2-D maps) have neither and must not be read here.
template <class T> struct SymT {
  std::optional<T> E;
  std::vector<SymT> Parts;
};

/// Thrown by the validator only, for shapes it does not handle; the entry
/// points (TranslationValidation.cpp) turn it into a reason.
struct Unsupported {
  std::string Why;
};

/// The reduceSeq calls in \p E, outermost first (the GEMM and SpMV templates
/// hold exactly one).
std::vector<const funil::Expr *> reduceSeqCalls(const funil::Expr &E);

/// The validator over terms of backend \p TB: Z3Terms (z3::expr, a proof)
/// or HashTerms (tv::Term, identical terms only).
template <class TB> class Validator {
public:
  using Type = llvm::Type;
  using Value = llvm::Value;
  using Instruction = llvm::Instruction;
  using TermT = typename TB::Expr;
  using SortT = typename TB::Sort;
  using Sym = SymT<TermT>;
  Validator(typename TB::Context &C, const IdiomMatch &M, const LiftedIdiom &L)
      : C(C), M(M), L(L) {
    sumContractions(M, SumLinks);
  }

  /// Maps, histograms and scalar reductions: the element function against
  /// each stored value or accumulator update (ValidationMaps.cpp).
  bool run(const funil::Program &P, unsigned TimeoutMs, std::string &Why);
  /// GEMM programs: STEP, INIT and POST against GemmSlice.
  bool runGemm(const funil::Program &P, unsigned TimeoutMs, std::string &Why);
  /// SpMV programs (SpmvLifting.h): the canonical shape, then STEP, INIT
  /// and POST against the slices in L.Gemm.
  bool runSpmv(const funil::Program &P, unsigned TimeoutMs, std::string &Why);
  /// Outer-loop accumulations (AccumLifting.h): the map over x of a
  /// reduceSeq over k; each component of STEP against its stored value,
  /// INIT against the old accumulators.
  bool runAccum(const funil::Program &P, unsigned TimeoutMs, std::string &Why);
  /// JDS SpMV programs, with runSpmv's view and map tests.
  template <class V, class Mp>
  bool runJds(const funil::Program &P, V IsView, Mp IsMap, unsigned TimeoutMs,
              std::string &Why);

private:
  /// Binds every FunIL parameter to a symbol; loop-invariant LLVM values to
  /// the same symbols.
  void bindParams();
  /// True when \p Differ is false for every input (folded, or Z3 proves
  /// it); else sets \p Why: a counterexample names \p Parts, a timeout or
  /// an unknown the lifted \p What.
  bool proveNoDifference(const TermT &Differ, unsigned TimeoutMs,
                         const std::string &Parts, const std::string &What,
                         std::string &Why);
  /// STEP (\p Step: \(acc, x) with x.0 and x.1 the two elements), INIT and
  /// POST (\p Post with the reduceSeq as the sum; \p Q, when not empty,
  /// the lambda parameter of \p QArity components whose last one is the
  /// old output element)
  /// against the slices of \p Sl; \p What names the idiom in reasons.
  bool checkSlices(const GemmSlice &Sl, const Expr &Step, const ExprPtr &Init,
                   const ExprPtr &Post, const std::string &Q, unsigned QArity,
                   const char *What, unsigned TimeoutMs, std::string &Why,
                   unsigned OldAt = ~0u);
  /// A triangular GEMM's \p Mask over the row index r.2 (\p R) and the
  /// column index q.2 (\p Q) against the loop: element (k0, kT) is updated
  /// exactly when kT is below the triangle loop's count at k0 (its SCEV,
  /// NestInfo::TriRowCount), for indices below 2^31.
  /// \p Mask, over the third components r.2 of \p R (the row index) and
  /// of \p Other (a column or reduction index, \p OtherName), against
  /// Want(row, index) for indices below 2^31; \p What names the mask in a
  /// failure (ValidationGemm.cpp).
  bool checkIndexMask(const ExprPtr &Mask, const std::string &R,
                      const std::string &Other, const char *OtherName,
                      const std::function<TermT(const TermT &, const TermT &)> &Want,
                      const std::string &What, unsigned TimeoutMs,
                      std::string &Why);
  /// A band (NestInfo::BandLoop, PolyBench trmm): \p Mask, over the row
  /// index r.2 (\p R) and the reduction's index x.2 (\p X), holds exactly
  /// outside the band, kB < BandLead k0 (ValidationGemm.cpp). A TRMV's
  /// (a chain of two loops): \p R is the column q.2; with a triangle on the
  /// reduction (NestInfo::TriLoop) the mask holds exactly when kT < TriBase
  /// + TriSlope q.2 (inside the triangle).
  bool checkBandMask(const ExprPtr &Mask, const std::string &R,
                     const std::string &X, unsigned TimeoutMs, std::string &Why);
  bool checkTriangleMask(const ExprPtr &Mask, const std::string &R,
                         const std::string &Q, unsigned TimeoutMs,
                         std::string &Why);
  // Sorts and leaves.
  SortT sortOf(Type *T);
  SortT sortOf(ScalarKind K);
  TermT leaf(const std::string &Name, SortT S) { return C.constant(Name.c_str(), S); }
  TermT rne() { return TB::rne(C); }

  // The shared operation semantics, by FunIL name.
  TermT apply(const std::string &Op, const std::vector<TermT> &A);
  TermT convert(const std::string &Op, const TermT &X, SortT To, bool ToFloat);

  // FunIL side.
  Sym eval(const ExprPtr &E, std::map<std::string, Sym> &Env);
  // LLVM side.
  TermT tr(Value *V);
  TermT identityTerm(const ReductionInfo &R);
  /// Position in M.Reductions of the min/max an argmin/argmax index
  /// \p R is tied to.
  size_t argValueOf(const ReductionInfo &R) const {
    for (size_t J = 0; J < M.Reductions.size(); ++J)
      if (M.Reductions[J].Phi == R.ArgOf)
        return J;
    throw Unsupported{"argmin/argmax index without its min/max"};
  }
  /// Drops the memoised terms of a compare+select link and its compare.
  void forgetLink(Instruction *Link) {
    Memo.erase(Link);
    if (auto *Sel = llvm::dyn_cast<llvm::SelectInst>(Link))
      Memo.erase(Sel->getCondition());
  }

  typename TB::Context &C;
  const IdiomMatch &M;
  const LiftedIdiom &L;
  /// The links of M's float sums whose fusion the licence covers
  /// (HostFloat.h, sumContractions).
  llvm::SmallPtrSet<const llvm::Instruction *, 4> SumLinks;
  std::map<std::string, TermT> Params; ///< FunIL parameter -> term
  llvm::MapVector<const Value *, TermT> Memo; ///< LLVM value -> term
  std::vector<std::optional<TermT>> Iter; ///< iteration index per loop
  std::optional<TermT> ReduceSeqValue; ///< GEMM POST: the reduction's result
  /// Gathers: each `at` of a gathered buffer must read the element the
  /// loop's load reads; the terms that are true where it does not.
  std::vector<TermT> GatherMismatch;
  /// The shared symbol of the element gather load \p Ld reads.
  TermT gatherLeaf(Value *Ld);
  /// `at(view(b, 0, 1, count), k)` of a gathered buffer b: the element's
  /// symbol, with the obligation k = the loop's index - first; nullopt for
  /// any other `at`.
  std::optional<Sym> evalGather(const Expr &E, std::map<std::string, Sym> &Env);
  /// Bisection searches (SearchLifting.h): `iterate(count, \qK => select(c,
  /// step, qK), init)` of search K, with the obligations that init, c and
  /// step are the loop's (its boundary read a shared symbol) and count
  /// the one the step lemma bounds the loop by; the result is a pair of
  /// symbols that the loop's value after the search (tr) shares.
  Sym evalSearch(const Expr &E, std::map<std::string, Sym> &Env);
  /// `at(view(b, 0, 1, count), sub(mid, first))` of the active search's
  /// boundaries: the boundary's symbol, with the obligation mid = the
  /// loop's index; nullopt for any other `at`.
  std::optional<Sym> evalProbe(const Expr &E, std::map<std::string, Sym> &Env);
  TermT searchLeaf(unsigned K, unsigned Part) {
    return leaf("search" + std::to_string(K) + "_" + std::to_string(Part),
                C.bv_sort(M.Searches[K].width()));
  }
  std::vector<TermT> SearchMismatch;
  const BisectionInfo *ActiveSearch = nullptr;
  std::optional<TermT> ActiveProbe, ActiveMid;
};

/// Explicit instantiations of the members a file defines, for both
/// backends: IDIOM_TV_INSTANTIATE(M) with M(TB) one declaration each.
#define IDIOM_TV_INSTANTIATE(M)                                                \
  M(::idiom::tv::Z3Terms) M(::idiom::tv::HashTerms)

} // namespace tv
} // namespace idiom

#endif // IDIOM_PASSES_TRANSLATIONVALIDATIONIMPL_H
