//===- OffloadRemarks.cpp - The plugin's remarks, one per source loop -----===//
//
// The pending remarks of a module live in a process-wide table keyed by the
// module (ThinLTO back ends may run modules on several threads: a mutex
// guards it). A record keeps its function and code region through WeakVH
// handles, so a function that a later pass deletes (GlobalDCE runs between
// VectorizerStart and OptimizerLast) is seen as gone, never dereferenced.
//
//===----------------------------------------------------------------------===//

#include "OffloadRemarks.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ValueHandle.h"
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

using namespace llvm;

namespace idiom {
namespace {

using RemarkArg = DiagnosticInfoOptimizationBase::Argument;

/// One copy of a remark: where it was recorded.
struct Copy {
  WeakVH Fn;     ///< the function of the copy
  WeakVH Region; ///< its code region (a block of Fn), or null
};

/// One remark to emit: what its first record said, and every copy.
struct Group {
  DiagnosticKind Kind = DK_OptimizationRemark;
  const char *PassName = RemarkPass;
  std::string Name;
  DiagnosticLocation Loc;
  std::vector<RemarkArg> Text;  ///< arguments shown by -Rpass
  std::vector<RemarkArg> Extra; ///< arguments only in optimization records
  bool Verbose = false;
  std::vector<Copy> Copies;
};

/// The pending remarks of one module, in the order of first record.
struct ModuleRemarks {
  std::vector<Group> Groups;
  StringMap<size_t> ByKey;
  unsigned Unlocated = 0; ///< remarks without a location (never merged)
};

std::mutex &pendingMutex() {
  static std::mutex M;
  return M;
}

/// Pending remarks by module. Never destroyed: clang may leave its context
/// alive at exit (-disable-free), and flushRemarks empties each entry.
std::map<const Module *, std::unique_ptr<ModuleRemarks>> &pending() {
  static auto *P = new std::map<const Module *, std::unique_ptr<ModuleRemarks>>;
  return *P;
}

/// The number of leading arguments of \p R that -Rpass shows: getMsg() is
/// their concatenation (arguments after ore::setExtraArgs only go to
/// optimization records). An empty extra argument may count as shown; it
/// adds nothing to the text either way.
size_t shownArgs(const DiagnosticInfoOptimizationBase &R) {
  std::string Msg = R.getMsg();
  ArrayRef<RemarkArg> Args = R.getArgs();
  size_t Len = 0, Shown = 0;
  for (size_t I = 0; I < Args.size(); ++I) {
    Len += Args[I].Val.size();
    if (Len > Msg.size())
      break;
    if (Len == Msg.size())
      Shown = I + 1;
  }
  return Shown;
}

/// The identity of a remark across copies: kind, pass, name, location and
/// every argument. \p Unlocated numbers remarks without a location.
std::string groupKey(const Group &G, unsigned &Unlocated) {
  std::string K = std::to_string(G.Kind);
  K += '\0';
  K += G.PassName;
  K += '\0';
  K += G.Name;
  K += '\0';
  if (G.Loc.isValid())
    K += G.Loc.getAbsolutePath() + ":" + std::to_string(G.Loc.getLine()) +
         ":" + std::to_string(G.Loc.getColumn());
  else
    K += "unlocated " + std::to_string(Unlocated++);
  for (const auto *Args : {&G.Text, &G.Extra}) {
    K += '\1';
    for (const RemarkArg &A : *Args) {
      K += A.Key;
      K += '\0';
      K += A.Val;
      K += '\0';
    }
  }
  return K;
}

/// Builds the remark of \p G for function \p F, code region \p Region, with
/// \p Copies copies, and emits it.
template <typename RemarkT>
void emitAs(const Group &G, Function &F, const BasicBlock &Region,
            unsigned Copies) {
  RemarkT R(G.PassName, G.Name, G.Loc, &Region);
  for (const RemarkArg &A : G.Text)
    R << A;
  if (Copies > 1)
    R << " (" << ore::NV("InlinedCopies", Copies) << " inlined copies)";
  R << ore::setExtraArgs();
  if (Copies == 1)
    R << ore::NV("InlinedCopies", Copies);
  for (const RemarkArg &A : G.Extra)
    R << A;
  if (G.Verbose)
    R << ore::setIsVerbose();
  OptimizationRemarkEmitter ORE(&F);
  ORE.emit(R);
}

/// Emits \p G once, attached to its first copy still in \p M.
void emitGroup(const Group &G, Module &M) {
  Function *F = nullptr;
  const BasicBlock *Region = nullptr;
  unsigned Live = 0;
  for (const Copy &C : G.Copies) {
    auto *CF = dyn_cast_or_null<Function>(C.Fn);
    if (!CF || CF->getParent() != &M || CF->isDeclaration())
      continue;
    ++Live;
    if (F)
      continue;
    F = CF;
    auto *BB = dyn_cast_or_null<BasicBlock>(C.Region);
    Region = BB && BB->getParent() == CF ? BB : &CF->getEntryBlock();
  }
  if (!F)
    return;
  switch (G.Kind) {
  case DK_OptimizationRemark:
    emitAs<OptimizationRemark>(G, *F, *Region, Live);
    break;
  case DK_OptimizationRemarkMissed:
    emitAs<OptimizationRemarkMissed>(G, *F, *Region, Live);
    break;
  default:
    emitAs<OptimizationRemarkAnalysis>(G, *F, *Region, Live);
    break;
  }
}

} // namespace

void RemarkSink::emitOrRecord(DiagnosticInfoIROptimization &R) {
  if (!Defer) {
    // setExtraArgs moves the first extra argument to the end: once only.
    if (shownArgs(R) == R.getArgs().size())
      R << ore::setExtraArgs();
    R << ore::NV("InlinedCopies", 1u);
    ORE.emit(R);
    return;
  }
  Group G;
  G.Kind = static_cast<DiagnosticKind>(R.getKind());
  if (G.Kind != DK_OptimizationRemark && G.Kind != DK_OptimizationRemarkMissed)
    G.Kind = DK_OptimizationRemarkAnalysis;
  G.PassName = R.getPassName().data(); // the remark's own static string
  G.Name = R.getRemarkName().str();
  G.Loc = R.getLocation();
  ArrayRef<RemarkArg> Args = R.getArgs();
  size_t Shown = shownArgs(R);
  G.Text.assign(Args.begin(), Args.begin() + Shown);
  G.Extra.assign(Args.begin() + Shown, Args.end());
  G.Verbose = R.isVerbose();
  Copy C{WeakVH(&F), WeakVH(const_cast<Value *>(R.getCodeRegion()))};

  std::lock_guard<std::mutex> Lock(pendingMutex());
  std::unique_ptr<ModuleRemarks> &MR = pending()[F.getParent()];
  if (!MR)
    MR = std::make_unique<ModuleRemarks>();
  std::string Key = groupKey(G, MR->Unlocated);
  auto [It, New] = MR->ByKey.try_emplace(Key, MR->Groups.size());
  if (New) {
    G.Copies.push_back(std::move(C));
    MR->Groups.push_back(std::move(G));
  } else {
    MR->Groups[It->second].Copies.push_back(std::move(C));
  }
}

void flushRemarks(Module &M) {
  std::unique_ptr<ModuleRemarks> MR;
  {
    std::lock_guard<std::mutex> Lock(pendingMutex());
    auto It = pending().find(&M);
    if (It == pending().end())
      return;
    MR = std::move(It->second);
    pending().erase(It);
  }
  for (const Group &G : MR->Groups)
    emitGroup(G, M);
}

} // namespace idiom
