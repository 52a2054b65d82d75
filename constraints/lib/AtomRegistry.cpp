//===- AtomRegistry.cpp - The atoms a spec may use ------------------------===//

#include "idiom/Constraints/Atom.h"

using namespace idiom::constraints;

void AtomRegistry::add(std::unique_ptr<AtomDef> A) {
  if (!A)
    return;
  for (std::unique_ptr<AtomDef> &Old : Atoms) {
    if (Old->name() == A->name()) {
      Replaced.push_back(A->name().str());
      Old = std::move(A);
      return;
    }
  }
  Atoms.push_back(std::move(A));
}

const AtomDef *AtomRegistry::lookup(llvm::StringRef Name) const {
  for (const std::unique_ptr<AtomDef> &A : Atoms)
    if (A->name() == Name)
      return A.get();
  return nullptr;
}

std::vector<const AtomDef *> AtomRegistry::all() const {
  std::vector<const AtomDef *> Out;
  Out.reserve(Atoms.size());
  for (const std::unique_ptr<AtomDef> &A : Atoms)
    Out.push_back(A.get());
  return Out;
}
