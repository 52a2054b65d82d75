//===- SpecLibrary.cpp - Loading and checking spec texts ------------------===//
//
// addSpecText runs, over the definitions of one text:
//   1. parsing (syntax errors drop a definition),
//   2. duplicate names (against the library, the atoms, and earlier
//      definitions of the same text),
//   3. name resolution, arities, variable scopes (SpecResolver),
//   4. recursion between constraints,
//   5. in callee-first order: dropping callers of dropped constraints, then
//      the binding analysis (BindingChecker).
// Surviving definitions join the library; diagnostics are sorted by place.
//
//===----------------------------------------------------------------------===//

#include "idiom/Constraints/Spec.h"
#include "BindingChecker.h"
#include "SpecResolver.h"
#include "idiom/Constraints/SpecParser.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MemoryBuffer.h"
#include <algorithm>

using namespace idiom::constraints;
using llvm::StringRef;

SpecLibrary::SpecLibrary() = default;
SpecLibrary::~SpecLibrary() = default;
SpecLibrary::SpecLibrary(SpecLibrary &&) = default;
SpecLibrary &SpecLibrary::operator=(SpecLibrary &&) = default;

std::vector<const IdiomDef *> SpecLibrary::idioms() const {
  std::vector<const IdiomDef *> Out;
  for (const std::unique_ptr<Definition> &D : Defs)
    if (D->isIdiom())
      Out.push_back(D.get());
  return Out;
}

std::vector<const ConstraintDef *> SpecLibrary::constraints() const {
  std::vector<const ConstraintDef *> Out;
  for (const std::unique_ptr<Definition> &D : Defs)
    if (!D->isIdiom())
      Out.push_back(D.get());
  return Out;
}

const IdiomDef *SpecLibrary::lookupIdiom(StringRef Name) const {
  return Idioms.lookup(Name);
}

const ConstraintDef *SpecLibrary::lookupConstraint(StringRef Name) const {
  return Constraints.lookup(Name);
}

namespace {

/// The definitions of one text while they are checked.
class TextLoader {
public:
  TextLoader(const SpecLibrary &Lib, const AtomRegistry &Atoms,
             std::vector<Diagnostic> &Diags)
      : Lib(Lib), Atoms(Atoms), Diags(Diags) {}

  /// Checks \p Parsed; returns the definitions that passed, in text order.
  std::vector<std::unique_ptr<Definition>>
  run(std::vector<std::unique_ptr<Definition>> Parsed);

private:
  void checkDuplicates();
  void findRecursion();
  void strongConnect(const Definition *D);
  void reportCycle(const std::vector<const Definition *> &SCC);
  void checkInOrder();
  void visitPostOrder(const Definition *D,
                      std::vector<const Definition *> &Order);
  /// Constraints of this text that \p D calls (resolved), with call sites.
  std::vector<std::pair<const Definition *, SourceLoc>>
  localCallees(const Definition &D) const;
  bool isLocal(const Definition *D) const { return Index.count(D); }

  const SpecLibrary &Lib;
  const AtomRegistry &Atoms;
  std::vector<Diagnostic> &Diags;
  std::vector<std::unique_ptr<Definition>> Defs;
  llvm::DenseMap<const Definition *, unsigned> Index;
  std::vector<bool> Dropped;
  llvm::StringMap<const Definition *> NewConstraints;
  llvm::StringMap<const Definition *> NewIdioms;

  // Tarjan's strongly connected components.
  llvm::DenseMap<const Definition *, unsigned> TarjanIndex, LowLink;
  llvm::SmallVector<const Definition *, 8> Stack;
  llvm::DenseMap<const Definition *, bool> OnStack;
  unsigned NextIndex = 0;
};

} // namespace

static std::string defLoc(const Definition &D) {
  return D.File + ":" + std::to_string(D.Line) + ":" + std::to_string(D.Col);
}

void TextLoader::checkDuplicates() {
  for (unsigned I = 0; I < Defs.size(); ++I) {
    Definition &D = *Defs[I];
    SourceLoc Loc{D.Line, D.Col};
    if (D.isIdiom()) {
      const Definition *Prev = Lib.lookupIdiom(D.Name);
      if (!Prev)
        Prev = NewIdioms.lookup(D.Name);
      if (Prev) {
        reportError(D, Loc, "duplicate definition of idiom '" + D.Name +
                                "' (first defined at " + defLoc(*Prev) + ")",
                    Diags);
        Dropped[I] = true;
        continue;
      }
      NewIdioms[D.Name] = &D;
      continue;
    }
    if (Atoms.lookup(D.Name)) {
      reportError(D, Loc, "constraint '" + D.Name +
                              "' has the name of an atom",
                  Diags);
      Dropped[I] = true;
      continue;
    }
    const Definition *Prev = Lib.lookupConstraint(D.Name);
    if (!Prev)
      Prev = NewConstraints.lookup(D.Name);
    if (Prev) {
      reportError(D, Loc, "duplicate definition of constraint '" + D.Name +
                              "' (first defined at " + defLoc(*Prev) + ")",
                  Diags);
      Dropped[I] = true;
      continue;
    }
    NewConstraints[D.Name] = &D;
  }
}

std::vector<std::pair<const Definition *, SourceLoc>>
TextLoader::localCallees(const Definition &D) const {
  std::vector<std::pair<const Definition *, SourceLoc>> Out;
  if (D.Body)
    forEachCall(*D.Body, [&](const Formula &Call) {
      if (Call.Constraint && isLocal(Call.Constraint))
        Out.push_back({Call.Constraint, Call.Loc});
    });
  return Out;
}

void TextLoader::strongConnect(const Definition *D) {
  TarjanIndex[D] = LowLink[D] = NextIndex++;
  Stack.push_back(D);
  OnStack[D] = true;
  for (auto &[Callee, Loc] : localCallees(*D)) {
    (void)Loc;
    if (!TarjanIndex.count(Callee)) {
      strongConnect(Callee);
      LowLink[D] = std::min(LowLink[D], LowLink[Callee]);
    } else if (OnStack.lookup(Callee)) {
      LowLink[D] = std::min(LowLink[D], TarjanIndex[Callee]);
    }
  }
  if (LowLink[D] != TarjanIndex[D])
    return;
  std::vector<const Definition *> SCC;
  const Definition *Member;
  do {
    Member = Stack.pop_back_val();
    OnStack[Member] = false;
    SCC.push_back(Member);
  } while (Member != D);
  reportCycle(SCC);
}

void TextLoader::reportCycle(const std::vector<const Definition *> &SCC) {
  llvm::DenseSet<const Definition *> InSCC(SCC.begin(), SCC.end());
  bool SelfLoop = false;
  if (SCC.size() == 1)
    for (auto &[Callee, Loc] : localCallees(*SCC[0]))
      SelfLoop |= Callee == SCC[0];
  if (SCC.size() == 1 && !SelfLoop)
    return;
  for (const Definition *D : SCC) {
    // Follow calls inside the component from D back to D: the path names the
    // cycle; the first step is the call site we report.
    llvm::DenseMap<const Definition *, const Definition *> Parent;
    llvm::SmallVector<const Definition *, 8> Queue;
    SourceLoc FirstCall;
    const Definition *Last = nullptr;
    Queue.push_back(D);
    for (size_t Q = 0; Q < Queue.size() && !Last; ++Q) {
      for (auto &[Callee, Loc] : localCallees(*Queue[Q])) {
        if (!InSCC.count(Callee))
          continue;
        if (Queue[Q] == D && FirstCall.Line == 0)
          FirstCall = Loc;
        if (Callee == D) {
          Last = Queue[Q];
          break;
        }
        if (Parent.try_emplace(Callee, Queue[Q]).second)
          Queue.push_back(Callee);
      }
    }
    std::vector<const Definition *> Path; // last step first
    for (const Definition *P = Last; P && P != D; P = Parent.lookup(P))
      Path.push_back(P);
    std::string Msg = "recursion between constraints: " + D->Name;
    for (auto It = Path.rbegin(); It != Path.rend(); ++It)
      Msg += " -> " + (*It)->Name;
    Msg += " -> " + D->Name;
    // The call site of the first step of the path.
    SourceLoc Loc = FirstCall;
    const Definition *Next = Path.empty() ? D : Path.back();
    for (auto &[Callee, CLoc] : localCallees(*D))
      if (Callee == Next) {
        Loc = CLoc;
        break;
      }
    reportError(*D, Loc, Msg, Diags);
    Dropped[Index.lookup(D)] = true;
  }
}

void TextLoader::findRecursion() {
  for (unsigned I = 0; I < Defs.size(); ++I)
    if (!Dropped[I] && !Defs[I]->isIdiom() && !TarjanIndex.count(Defs[I].get()))
      strongConnect(Defs[I].get());
}

void TextLoader::visitPostOrder(const Definition *D,
                                std::vector<const Definition *> &Order) {
  if (!TarjanIndex.try_emplace(D, 0).second)
    return;
  for (auto &[Callee, Loc] : localCallees(*D)) {
    (void)Loc;
    if (Callee != D)
      visitPostOrder(Callee, Order);
  }
  Order.push_back(D);
}

void TextLoader::checkInOrder() {
  TarjanIndex.clear(); // reused as the visited set
  std::vector<const Definition *> Order;
  for (const std::unique_ptr<Definition> &D : Defs)
    visitPostOrder(D.get(), Order);
  BindingChecker Checker;
  for (const Definition *D : Order) {
    unsigned I = Index.lookup(D);
    if (Dropped[I])
      continue;
    bool CallsDropped = false;
    for (auto &[Callee, Loc] : localCallees(*D)) {
      if (!Dropped[Index.lookup(Callee)])
        continue;
      reportError(*D, Loc, "'" + Callee->Name +
                               "' cannot be used: its definition has errors",
                  Diags);
      CallsDropped = true;
    }
    if (CallsDropped || !Checker.checkDefinition(*D, Diags))
      Dropped[I] = true;
  }
}

std::vector<std::unique_ptr<Definition>>
TextLoader::run(std::vector<std::unique_ptr<Definition>> Parsed) {
  Defs = std::move(Parsed);
  Dropped.assign(Defs.size(), false);
  for (unsigned I = 0; I < Defs.size(); ++I)
    Index[Defs[I].get()] = I;

  checkDuplicates();

  auto LookupConstraint = [&](StringRef Name) -> const Definition * {
    if (const Definition *D = Lib.lookupConstraint(Name))
      return D;
    return NewConstraints.lookup(Name);
  };
  auto IsIdiom = [&](StringRef Name) {
    return Lib.lookupIdiom(Name) || NewIdioms.count(Name);
  };
  NameScope Names{Atoms, LookupConstraint, IsIdiom};
  for (unsigned I = 0; I < Defs.size(); ++I)
    if (!Dropped[I] && !resolveDefinition(*Defs[I], Names, Diags))
      Dropped[I] = true;

  findRecursion();
  checkInOrder();

  std::vector<std::unique_ptr<Definition>> Kept;
  for (unsigned I = 0; I < Defs.size(); ++I)
    if (!Dropped[I])
      Kept.push_back(std::move(Defs[I]));
  return Kept;
}

bool SpecLibrary::addSpecText(StringRef File, StringRef Text,
                              const AtomRegistry &Atoms,
                              std::vector<Diagnostic> &Diags) {
  size_t First = Diags.size();
  std::vector<std::unique_ptr<Definition>> Parsed =
      parseSpecText(File, Text, Diags);
  std::vector<std::unique_ptr<Definition>> Kept =
      TextLoader(*this, Atoms, Diags).run(std::move(Parsed));
  for (std::unique_ptr<Definition> &D : Kept) {
    if (D->isIdiom())
      Idioms[D->Name] = D.get();
    else
      Constraints[D->Name] = D.get();
    Defs.push_back(std::move(D));
  }
  std::stable_sort(Diags.begin() + First, Diags.end(),
                   [](const Diagnostic &A, const Diagnostic &B) {
                     return std::make_pair(A.Line, A.Col) <
                            std::make_pair(B.Line, B.Col);
                   });
  return std::none_of(Diags.begin() + First, Diags.end(),
                      [](const Diagnostic &D) { return D.IsError; });
}

bool SpecLibrary::addSpecFile(StringRef Path, const AtomRegistry &Atoms,
                              std::vector<Diagnostic> &Diags) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buf =
      llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buf) {
    Diags.push_back({Path.str(), 0, 0, true,
                     "cannot read spec file: " + Buf.getError().message()});
    return false;
  }
  return addSpecText(Path, (*Buf)->getBuffer(), Atoms, Diags);
}
