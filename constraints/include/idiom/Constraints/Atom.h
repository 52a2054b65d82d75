//===- Atom.h - Atoms of the idiom constraint language ----------*- C++ -*-===//
//
// An atom is a relation over LLVM values (and loops) implemented in C++.
// Specs (text files, see docs/ConstraintLanguage.md) combine atoms with
// and/or/not, forall/collect and calls of other constraints; the backtracking
// solver (Solver.h) binds spec variables by asking atoms to enumerate or check
// tuples. The approach follows the constraint-based idiom detection of
// seeds/000 (idiom paper, section 4): formulas over llvm::Value variables,
// solved by a custom search, with semantic atoms decided by an SMT solver.
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_CONSTRAINTS_ATOM_H
#define IDIOM_CONSTRAINTS_ATOM_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace llvm {
class Value;
class Loop;
class Function;
class LoopInfo;
class ScalarEvolution;
class DominatorTree;
class AAResults;
} // namespace llvm

namespace idiom {
class ProofCache;
} // namespace idiom

namespace idiom::constraints {

class NestCache;
class StencilCache;

/// What a spec variable holds: nothing yet, an LLVM value, a loop, a list
/// (the result of `collect`), or a constant written in the spec text (a
/// string literal such as `"fadd"` or an integer literal such as `2`).
struct Term {
  enum class Kind { Unbound, Value, Loop, List, String, Int };
  Kind K = Kind::Unbound;
  llvm::Value *V = nullptr;
  llvm::Loop *L = nullptr;
  std::vector<Term> Items;
  std::string S; ///< Kind::String only
  int64_t I = 0; ///< Kind::Int only

  static Term value(llvm::Value *V) { Term T; T.K = Kind::Value; T.V = V; return T; }
  static Term loop(llvm::Loop *L) { Term T; T.K = Kind::Loop; T.L = L; return T; }
  /// A list of terms (what `collect` binds).
  static Term list(std::vector<Term> Items) {
    Term T; T.K = Kind::List; T.Items = std::move(Items); return T;
  }
  /// A string constant, e.g. the `"fadd"` of `Opcode(i, "fadd")`.
  static Term string(llvm::StringRef S) {
    Term T; T.K = Kind::String; T.S = S.str(); return T;
  }
  /// An integer constant, e.g. the `1` of `Operand(i, 1, v)`.
  static Term integer(int64_t I) { Term T; T.K = Kind::Int; T.I = I; return T; }
  bool isBound() const { return K != Kind::Unbound; }
  bool operator==(const Term &O) const {
    return K == O.K && V == O.V && L == O.L && Items == O.Items && S == O.S &&
           I == O.I;
  }
  bool operator!=(const Term &O) const { return !(*this == O); }
};

/// The loop \p T holds, or null when \p T holds no loop.
inline llvm::Loop *asLoop(const Term &T) {
  return T.K == Term::Kind::Loop ? T.L : nullptr;
}
/// The LLVM value \p T holds, or null when \p T holds no value.
inline llvm::Value *asValue(const Term &T) {
  return T.K == Term::Kind::Value ? T.V : nullptr;
}

/// For an atom's solver: offers each of \p Candidates for argument \p I of
/// \p Args (binds it when unbound, else checks it against the bound term)
/// and calls \p Yield for each accepted one until \p Yield returns false.
/// Leaves Args[I] as it found it. Returns true when one was accepted.
bool offerTerms(llvm::MutableArrayRef<Term> Args, unsigned I,
                llvm::ArrayRef<Term> Candidates,
                llvm::function_ref<bool()> Yield);

/// Analyses of the function being searched. Atoms read them; they never
/// change the IR.
struct MatchEnv {
  llvm::Function &F;
  llvm::LoopInfo &LI;
  llvm::ScalarEvolution &SE;
  llvm::DominatorTree &DT;
  llvm::AAResults *AA = nullptr; ///< may be null
  unsigned Z3TimeoutMs = 2000;   ///< per Z3 query; `unknown` means "not proven"
  ProofCache *Proofs = nullptr;  ///< memo of Z3 results for this function
  NestCache *Nests = nullptr;    ///< loop nests of this function (FactCache.h)
  /// Stencil nests and their accesses of this function (StencilCache.h).
  StencilCache *Stencils = nullptr;
};

/// One atom: a named relation of fixed arity.
class AtomDef {
public:
  virtual ~AtomDef() = default;
  /// Name used in spec files, e.g. "HeaderPhi".
  virtual llvm::StringRef name() const = 0;
  /// Number of arguments.
  virtual unsigned arity() const = 0;
  /// One-line description for the language reference and --help output.
  virtual llvm::StringRef doc() const = 0;
  /// True when argument \p I may be unbound on entry (the atom generates
  /// candidates for it). Arguments for which this is false must be bound
  /// when solve() is called; the solver reports a spec error otherwise.
  virtual bool canGenerate(unsigned I) const { return false; }
  /// Calls \p Yield once for each tuple that satisfies the relation and agrees
  /// with the bound entries of \p Args, after writing the tuple into Args.
  /// Stops when Yield returns false. When no tuple exists, sets \p WhyNot to a
  /// short reason for near-miss remarks (e.g. "store address is not affine").
  virtual void solve(MatchEnv &Env, llvm::MutableArrayRef<Term> Args,
                     llvm::function_ref<bool()> Yield,
                     std::string &WhyNot) const = 0;
};

/// The set of atoms a spec may use, by name.
class AtomRegistry {
public:
  /// Adds \p A; a later atom with the same name replaces the earlier one.
  /// Specs keep pointers to the atoms they use: register every atom before
  /// loading specs, and keep the registry alive while they are used.
  void add(std::unique_ptr<AtomDef> A);
  /// Names that add() replaced, in order: built-in atom families must not
  /// collide (a test checks this list is empty after registerBuiltinAtoms).
  const std::vector<std::string> &replaced() const { return Replaced; }
  /// The atom called \p Name, or null.
  const AtomDef *lookup(llvm::StringRef Name) const;
  /// All atoms, in insertion order.
  std::vector<const AtomDef *> all() const;

private:
  std::vector<std::unique_ptr<AtomDef>> Atoms;
  std::vector<std::string> Replaced;
};

} // namespace idiom::constraints

#endif // IDIOM_CONSTRAINTS_ATOM_H
