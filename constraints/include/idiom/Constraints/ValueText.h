//===- ValueText.h - LLVM values as text for messages -----------*- C++ -*-===//
//
// Near-miss reasons quote instructions ("store double %3, ptr %7"). Printing
// an unnamed local value numbers every value of its function first, so a
// message costs time linear in the function: on a function of thousands of
// loops (a file's routines inlined into main) detection became quadratic in
// the function's size, spending most of its time numbering values for
// messages (docs/CompileTimeRounds.md, round 6). While a ValueTextScope is
// open, the texts reuse one numbering of its function: the same text, made
// in time linear in the text.
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_CONSTRAINTS_VALUETEXT_H
#define IDIOM_CONSTRAINTS_VALUETEXT_H

#include <memory>
#include <string>

namespace llvm {
class Function;
class ModuleSlotTracker;
class Value;
} // namespace llvm

namespace idiom {

/// \p V printed as an instruction or value, without leading blanks: the text
/// of `V->print(OS)`.
std::string valueText(const llvm::Value *V);

/// \p V printed as an operand ("%a", "%7", "@A"): the text of
/// `V->printAsOperand(OS, false)`.
std::string operandText(const llvm::Value *V);

/// While alive, valueText and operandText of values of \p F number F's
/// values once, on first use, instead of once per text. F must not change
/// while the scope is open (detection reads the IR only). Scopes nest; a
/// value of another function is printed as without a scope. One thread.
class ValueTextScope {
public:
  explicit ValueTextScope(const llvm::Function &F);
  ~ValueTextScope();
  ValueTextScope(const ValueTextScope &) = delete;
  ValueTextScope &operator=(const ValueTextScope &) = delete;

  /// The numbering of the innermost open scope when \p V belongs to its
  /// function (an instruction, argument or basic block of it), else null.
  static llvm::ModuleSlotTracker *trackerFor(const llvm::Value *V);

private:
  const llvm::Function &F;
  std::unique_ptr<llvm::ModuleSlotTracker> Tracker;
  ValueTextScope *Outer;
};

} // namespace idiom

#endif // IDIOM_CONSTRAINTS_VALUETEXT_H
