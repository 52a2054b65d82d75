//===- Formula.h - Syntax tree of constraint formulas -----------*- C++ -*-===//
//
// The parsed form of a constraint or idiom body (see
// docs/ConstraintLanguage.md). The parser builds it; SpecLibrary resolves the
// callee of every call and numbers the variables into slots; the Solver walks
// it.
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_CONSTRAINTS_FORMULA_H
#define IDIOM_CONSTRAINTS_FORMULA_H

#include "idiom/Constraints/Atom.h"
#include "idiom/Constraints/Diagnostic.h"
#include <memory>
#include <string>
#include <vector>

namespace idiom::constraints {

struct Definition;

/// Slot number of an argument that is a constant, not a variable.
inline constexpr unsigned NoSlot = ~0u;

/// One argument of a call or side of `=`: a variable, `_`, or a constant.
struct Arg {
  /// What the argument is.
  enum class Kind { Var, Anon, String, Int };
  Kind K = Kind::Var;
  std::string Name; ///< variable name (Var); "_" for Anon
  Term Const;       ///< the constant (String, Int)
  SourceLoc Loc;    ///< where it is written
  /// Variable slot in the enclosing definition (Var, Anon), assigned when the
  /// definition is loaded; NoSlot for constants.
  unsigned Slot = NoSlot;

  /// True for Var and Anon.
  bool isVariable() const { return K == Kind::Var || K == Kind::Anon; }
};

/// A node of a formula.
struct Formula {
  /// The construct this node stands for.
  enum class Kind {
    Call,    ///< Name(args): an atom or a constraint
    And,     ///< Children[0] and Children[1] and ...
    Or,      ///< Children[0] or Children[1] or ...
    Not,     ///< not Children[0]
    ForAll,  ///< forall Var in Children[0] : Children[1]
    Collect, ///< collect Var in Children[0] : Children[1] as Result
    Equal,   ///< Args[0] = Args[1]
    True,    ///< true
    False,   ///< false
  };
  Kind K = Kind::True;
  SourceLoc Loc; ///< first token of the construct (the name, for a call)

  /// Call: callee name and arguments. Equal: the two sides.
  std::string Callee;
  /// Call: arguments. Equal: the two sides.
  std::vector<Arg> Args;
  /// Call, once resolved: exactly one of these is set.
  const AtomDef *Atom = nullptr;
  /// Call, once resolved, when the callee is a constraint.
  const Definition *Constraint = nullptr;

  /// And, Or: operands; Not: the negated formula; ForAll, Collect: the
  /// generator call (without the quantified variable) and the body.
  std::vector<std::unique_ptr<Formula>> Children;
  /// ForAll, Collect: the quantified variable.
  Arg Var;
  /// Collect: the variable bound to the list.
  Arg Result;

  /// Number of arguments the callee receives (a generator gets one more).
  unsigned callArity(bool AsGenerator) const {
    return Args.size() + (AsGenerator ? 1 : 0);
  }
};

/// Prints \p F in spec syntax on one line, e.g. `not HasSideEffects(loop)`.
std::string printFormula(const Formula &F);
/// Prints one argument in spec syntax (name, `_`, "string" or integer).
std::string printArg(const Arg &A);

} // namespace idiom::constraints

#endif // IDIOM_CONSTRAINTS_FORMULA_H
