//===- ValueText.cpp - LLVM values as text for messages -------------------===//

#include "idiom/Constraints/ValueText.h"
#include "llvm/IR/BasicBlock.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ModuleSlotTracker.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace idiom {
namespace {

thread_local ValueTextScope *Innermost = nullptr;

/// The function \p V is local to, or null for globals and constants.
const Function *functionOf(const Value *V) {
  if (auto *I = dyn_cast<Instruction>(V))
    return I->getFunction();
  if (auto *A = dyn_cast<Argument>(V))
    return A->getParent();
  if (auto *BB = dyn_cast<BasicBlock>(V))
    return BB->getParent();
  return nullptr;
}

/// True when printing \p V alone would number the module's metadata too
/// (Value::print does so for instructions with metadata operands): such
/// values are printed without the shared numbering, so that their text does
/// not depend on the scope.
bool referencesMetadataNode(const Value *V) {
  auto *CI = dyn_cast<CallBase>(V);
  if (!CI)
    return false;
  for (const Use &Op : CI->args())
    if (auto *MAV = dyn_cast<MetadataAsValue>(Op.get()))
      if (isa<MDNode>(MAV->getMetadata()))
        return true;
  return false;
}

std::string trimmed(std::string S) {
  size_t B = S.find_first_not_of(' ');
  return B == std::string::npos ? S : S.substr(B);
}

} // namespace

ValueTextScope::ValueTextScope(const Function &F) : F(F), Outer(Innermost) {
  Innermost = this;
}

ValueTextScope::~ValueTextScope() { Innermost = Outer; }

ModuleSlotTracker *ValueTextScope::trackerFor(const Value *V) {
  ValueTextScope *S = Innermost;
  if (!S || !V || functionOf(V) != &S->F || referencesMetadataNode(V))
    return nullptr;
  if (!S->Tracker) {
    S->Tracker = std::make_unique<ModuleSlotTracker>(S->F.getParent(),
                                                     /*ShouldInitializeAllMetadata=*/false);
    S->Tracker->incorporateFunction(S->F);
  }
  return S->Tracker.get();
}

std::string valueText(const Value *V) {
  std::string S;
  raw_string_ostream OS(S);
  if (ModuleSlotTracker *MST = ValueTextScope::trackerFor(V))
    V->print(OS, *MST);
  else
    V->print(OS);
  return trimmed(std::move(OS.str()));
}

std::string operandText(const Value *V) {
  // A void instruction (a store, a call of a void function) has no operand
  // name: LLVM prints <badref>; the instruction itself says which it is.
  if (isa<Instruction>(V) && V->getType()->isVoidTy())
    return valueText(V);
  std::string S;
  raw_string_ostream OS(S);
  if (ModuleSlotTracker *MST = ValueTextScope::trackerFor(V))
    V->printAsOperand(OS, /*PrintType=*/false, *MST);
  else
    V->printAsOperand(OS, /*PrintType=*/false);
  return std::move(OS.str());
}

} // namespace idiom
