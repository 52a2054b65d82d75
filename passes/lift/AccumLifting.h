//===- AccumLifting.h - Lift an outer-loop accumulation -------*- C++ -*-===//
//
// The accumulation lifter (`lifts accum`, constraints/specs/
// outer-accumulation.idl, issue 13). A chain of two loops, k outer and x
// inner, whose stores accumulate Q_a[x] = F_a(Q_a[x], ...) (roles:
// AccumulationFacts.h), is interchanged and written as a map over x of a
// sequential reduction over k in k's order, exact bit for bit:
//
//   store (view(Q0, oQ0, sQ0, N), ...) =
//     map(\(t: (T0, ..., X..., [M]_K...)) =>
//       reduceSeq(\(acc: (T0, ...), e: (Y..., M...)) => (F0, ...),
//                 (t.0, ...), zip(view(Yb, oY, sY, K)..., t.m...)),
//       zip(view(Q0, ...), ..., view(Xb, oX, sX, N)...,
//           view(Mb, oM, sMx, N, sMk, K)...));
//
// t holds, per x, the old accumulators, the inputs indexed by x alone (X)
// and the rows of the inputs indexed by x and k (M); e holds, per k, the
// inputs indexed by k alone (Y) and the row elements. A one-component tuple
// is written as its component (`t`, `acc`, `e`); with no input that varies
// with k the reduction runs over iota(K). Where F reads an induction
// variable, iota(K) joins e (k) or iota(N) joins t (x), and the variable is
// start + step * index. Sizes of the program: {N}.
//
// It is Lift's map of a sequential reduce (seeds/004, section 3) over the
// interchanged nest, as the GEMV^T form `s[j] += r[i]*A[i][j]` of GemmLifting
// is: that shape is the special case F = acc + r[i]*A[i][j] (the gemv spec
// claims it first, for its GEMV variants).
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_PASSES_LIFT_ACCUMLIFTING_H
#define IDIOM_PASSES_LIFT_ACCUMLIFTING_H

#include "../Lifting.h"
#include <string>
#include <vector>

namespace llvm {
class ScalarEvolution;
class Type;
class Value;
} // namespace llvm

namespace idiom {

/// The LLVM values behind the lifted reduction, for translation validation
/// (TranslationValidation.h).
struct AccumSlices {
  /// Per accumulator: F's root (the stored value) and the loads of the old
  /// element, read as component a of `acc`.
  std::vector<llvm::Value *> Steps;
  std::vector<std::vector<llvm::Value *>> Old;
  /// Component types of t and e (null for a row of a matrix input).
  std::vector<llvm::Type *> TTypes, ETypes;
  /// Each input load and the component it is read as: of e when InE, else
  /// of t.
  struct Leaf {
    llvm::Value *Load;
    bool InE;
    unsigned Index;
  };
  std::vector<Leaf> Leaves;
  /// The components of e and t that are k's and x's iteration index (an
  /// iota read where F uses an induction variable), or -1.
  int KIndexInE = -1, XIndexInT = -1;
  /// Column reductions (IdiomMatch::MapsOuterLoop, ColumnReductionFacts.h):
  /// x is the outer loop and k the inner one; Old[a] holds accumulator a's
  /// header phi, Leaves also the outputs' old elements (in t), and the map's
  /// element is apply(\r => (POST...), reduceSeq(..., (INIT...), ...)).
  bool Column = false;
  /// Per accumulator: its start, INIT's LLVM value.
  std::vector<llvm::Value *> Inits;
  /// Per output: the stored value, POST's LLVM value, or null when the
  /// output is accumulator PostResult[o]'s result itself.
  std::vector<llvm::Value *> Posts;
  std::vector<int> PostResult;
  /// Values after the inner loop read as accumulator q's result (r.q).
  std::vector<std::pair<llvm::Value *, unsigned>> Finals;
};

/// Lifts the outer-loop accumulation \p M (IdiomKind::Accumulation) into a
/// FunIL program named \p Name. Parameters: the accumulators' buffers (read
/// and written, in store order), the inputs' buffers (read), i64 sizes N, K
/// and non-constant offsets and strides, scalars for loop-invariant values.
/// A libm call that may set errno gets an errno check over the same inputs
/// (Out.ErrnoCheckFunIL). Returns false with \p Why for what it cannot
/// express: a slice that reads a loop-carried value other than an induction
/// variable (those are read from iota as start + step * index), an
/// operation without a FunIL form, a call whose errno argument reads the
/// accumulator.
bool liftAccumulation(const IdiomMatch &M, const std::string &Name,
                      llvm::ScalarEvolution &SE, LiftedIdiom &Out,
                      std::string &Why);

} // namespace idiom

#endif // IDIOM_PASSES_LIFT_ACCUMLIFTING_H
