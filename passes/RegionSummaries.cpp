//===- RegionSummaries.cpp - Residency regions across calls ---------------===//
//
// Function summaries in metadata, the combination of a region's facts with
// its callees' summaries, and the pending regions decided at OptimizerLast
// (RegionSummaries.h).
//
//===----------------------------------------------------------------------===//

#include "RegionSummaries.h"
#include "OffloadRemarks.h"
#include "UnescapedGlobals.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include <atomic>
#include <functional>

using namespace llvm;

namespace idiom {
namespace {

constexpr const char *SummaryMD = "idiom.summary";
constexpr const char *OpaqueMD = "idiom.opaque";
constexpr const char *CalleeMD = "idiom.region.callee";
constexpr const char *FactsMD = "idiom.region.facts";
constexpr const char *ParentMD = "idiom.region.parent";
constexpr const char *CountsMD = "idiom.region.counts";
constexpr const char *PendingBegin = "idiom.region.pending.begin";
constexpr const char *PendingEnd = "idiom.region.pending.end";

//--- metadata form ----------------------------------------------------------
// An object: the global (ValueAsMetadata), an i32 (Local or Arg number) or
// the string "?" (Unknown). A list of uses: object, i1 write, object, ...
// Facts: !{!Buffers, !Accesses, !Calls}; a call: !{ptr @f, !{objects of
// argument 0}, ...}. A global or function deleted later reads back as null:
// Unknown, or a failed call.

Metadata *encodeObj(LLVMContext &Ctx, const RegionObj &O) {
  switch (O.Kind) {
  case RegionObj::Global:
    return ValueAsMetadata::get(const_cast<GlobalValue *>(O.G));
  case RegionObj::Local:
  case RegionObj::Arg:
    return ConstantAsMetadata::get(
        ConstantInt::get(Type::getInt32Ty(Ctx), O.N));
  case RegionObj::Frame:
    return MDString::get(Ctx, "frame");
  case RegionObj::Unknown:
    break;
  }
  return MDString::get(Ctx, "?");
}

RegionObj decodeObj(const Metadata *MD, RegionObj::KindT IntKind) {
  RegionObj O;
  if (auto *S = dyn_cast_or_null<MDString>(MD); S && S->getString() == "frame")
    O.Kind = RegionObj::Frame;
  if (auto *C = dyn_cast_or_null<ConstantAsMetadata>(MD)) {
    if (auto *G = dyn_cast<GlobalValue>(C->getValue())) {
      O.Kind = RegionObj::Global;
      O.G = G;
    } else if (auto *I = dyn_cast<ConstantInt>(C->getValue())) {
      O.Kind = IntKind;
      O.N = unsigned(I->getZExtValue());
    }
  }
  return O;
}

MDNode *encodeUses(LLVMContext &Ctx, const std::vector<ObjUse> &Uses) {
  SmallVector<Metadata *, 16> Ops;
  for (const ObjUse &U : Uses) {
    Ops.push_back(encodeObj(Ctx, U.Obj));
    Ops.push_back(ConstantAsMetadata::get(
        ConstantInt::get(Type::getInt1Ty(Ctx), U.Write)));
  }
  return MDTuple::get(Ctx, Ops);
}

std::vector<ObjUse> decodeUses(const MDNode *N, RegionObj::KindT IntKind) {
  std::vector<ObjUse> Uses;
  for (unsigned I = 0; N && I + 1 < N->getNumOperands(); I += 2) {
    ObjUse U;
    U.Obj = decodeObj(N->getOperand(I), IntKind);
    auto *W = mdconst::dyn_extract_or_null<ConstantInt>(N->getOperand(I + 1));
    U.Write = !W || !W->isZero(); // unreadable: assume a write
    Uses.push_back(U);
  }
  return Uses;
}

MDNode *encodeFacts(LLVMContext &Ctx, const RegionFacts &F) {
  SmallVector<Metadata *, 4> Calls;
  for (const CalleeFacts &C : F.Calls) {
    SmallVector<Metadata *, 8> Ops{ValueAsMetadata::get(C.Callee)};
    for (const std::vector<RegionObj> &Objs : C.Args) {
      SmallVector<Metadata *, 4> Os;
      for (const RegionObj &O : Objs)
        Os.push_back(encodeObj(Ctx, O));
      Ops.push_back(MDTuple::get(Ctx, Os));
    }
    Calls.push_back(MDTuple::get(Ctx, Ops));
  }
  return MDTuple::get(Ctx, {encodeUses(Ctx, F.Buffers),
                            encodeUses(Ctx, F.Accesses),
                            MDTuple::get(Ctx, Calls)});
}

/// Facts from \p N; \p IntKind is what a number names (Local in a region's
/// facts, Arg in a summary). False when \p N is malformed.
bool decodeFacts(const MDNode *N, RegionObj::KindT IntKind, RegionFacts &F) {
  if (!N || N->getNumOperands() != 3)
    return false;
  F.Buffers = decodeUses(dyn_cast_or_null<MDNode>(N->getOperand(0)), IntKind);
  F.Accesses = decodeUses(dyn_cast_or_null<MDNode>(N->getOperand(1)), IntKind);
  auto *Calls = dyn_cast_or_null<MDNode>(N->getOperand(2));
  if (!Calls)
    return false;
  for (const MDOperand &Op : Calls->operands()) {
    auto *C = dyn_cast_or_null<MDNode>(Op.get());
    if (!C || C->getNumOperands() == 0)
      return false;
    CalleeFacts CF;
    CF.Callee = mdconst::dyn_extract_or_null<Function>(C->getOperand(0));
    for (unsigned I = 1; I < C->getNumOperands(); ++I) {
      std::vector<RegionObj> Objs;
      if (auto *A = dyn_cast_or_null<MDNode>(C->getOperand(I)))
        for (const MDOperand &O : A->operands())
          Objs.push_back(decodeObj(O.get(), IntKind));
      CF.Args.push_back(std::move(Objs));
    }
    F.Calls.push_back(std::move(CF));
  }
  return true;
}

std::string objName(const RegionObj &O) {
  if (O.Kind == RegionObj::Global && O.G && O.G->hasName())
    return O.G->getName().str();
  return O.Kind == RegionObj::Local ? "a local or heap array" : "unnamed";
}

} // namespace

void setSummary(Function &F, const RegionFacts *Facts, StringRef WhyNot) {
  LLVMContext &Ctx = F.getContext();
  F.setMetadata(SummaryMD, Facts ? encodeFacts(Ctx, *Facts) : nullptr);
  F.setMetadata(OpaqueMD,
                Facts ? nullptr : MDTuple::get(Ctx, MDString::get(Ctx, WhyNot)));
}

bool hasSummary(const Function &F) {
  return F.getMetadata(SummaryMD) || F.getMetadata(OpaqueMD);
}

StringRef calleeName(const CallBase &CB) {
  if (const Function *F = CB.getCalledFunction())
    return F->getName();
  return "";
}

Function *regionCallee(const CallBase &CB) {
  Function *F = CB.getCalledFunction();
  if (!F || F->isDeclaration() || F->isIntrinsic() ||
      !F->hasExactDefinition() || F->isInterposable() ||
      CB.getFunctionType() != F->getFunctionType() || !isa<CallInst>(CB))
    return nullptr;
  return F;
}

/// Adds the buffers and accesses of the call \p C (its callee's summary,
/// then the calls in it, at most MaxDepth deep, no function twice on the
/// path \p Stack) to \p Bufs and \p Accs in the caller's terms, and its
/// callees to \p Reached. \p Path names the calls for \p Why.
static bool expandCall(const CalleeFacts &C, std::vector<ObjUse> &Bufs,
                       std::vector<ObjUse> &Accs,
                       std::vector<const Function *> &Stack,
                       std::vector<Function *> &Reached, std::string Path,
                       std::string &Why) {
  constexpr size_t MaxDepth = 8;
  if (!C.Callee || C.Callee->isDeclaration() ||
      !C.Callee->hasExactDefinition() || C.Callee->isInterposable()) {
    Why = Path + "a function whose definition may be replaced";
    return false;
  }
  Path += C.Callee->getName().str() + ", which ";
  if (is_contained(Stack, C.Callee) || Stack.size() >= MaxDepth) {
    Why = Path + "is recursive or too deep in the call graph";
    return false;
  }
  if (MDNode *O = C.Callee->getMetadata(OpaqueMD)) {
    auto *S =
        O->getNumOperands() ? dyn_cast<MDString>(O->getOperand(0)) : nullptr;
    Why = Path + (S ? S->getString().str() : std::string("is not summarised"));
    return false;
  }
  RegionFacts S;
  if (!decodeFacts(C.Callee->getMetadata(SummaryMD), RegionObj::Arg, S)) {
    Why = Path + "the plugin did not analyse";
    return false;
  }
  Reached.push_back(C.Callee);
  // An object of the callee's summary in the caller's terms.
  auto Map = [&](const RegionObj &O, std::vector<RegionObj> &Out) {
    if (O.Kind != RegionObj::Arg)
      Out.push_back(O);
    else if (O.N >= C.Args.size() || C.Args[O.N].empty())
      Out.push_back(RegionObj());
    else
      Out.insert(Out.end(), C.Args[O.N].begin(), C.Args[O.N].end());
  };
  for (const ObjUse &U : S.Buffers) {
    std::vector<RegionObj> Objs;
    Map(U.Obj, Objs);
    for (const RegionObj &O : Objs) {
      if (O.Kind == RegionObj::Frame) {
        Why = Path + "runs an idiom on a local array of its caller";
        return false;
      }
      Bufs.push_back({O, U.Write});
    }
  }
  for (const ObjUse &U : S.Accesses) {
    std::vector<RegionObj> Objs;
    Map(U.Obj, Objs);
    for (const RegionObj &O : Objs)
      if (O.Kind != RegionObj::Frame) // a caller's frame: never a buffer
        Accs.push_back({O, U.Write});
  }
  Stack.push_back(C.Callee);
  for (const CalleeFacts &Sub : S.Calls) {
    CalleeFacts Mapped;
    Mapped.Callee = Sub.Callee;
    for (const std::vector<RegionObj> &Arg : Sub.Args) {
      Mapped.Args.emplace_back();
      for (const RegionObj &O : Arg)
        Map(O, Mapped.Args.back());
    }
    if (!expandCall(Mapped, Bufs, Accs, Stack, Reached, Path + "calls ", Why))
      return false;
  }
  Stack.pop_back();
  return true;
}

bool mayRunIdioms(const Function &F) {
  RegionFacts S;
  return decodeFacts(F.getMetadata(SummaryMD), RegionObj::Arg, S) &&
         (!S.Buffers.empty() || !S.Calls.empty());
}

bool allSummarized(const RegionFacts &Root) {
  std::vector<const CalleeFacts *> Work;
  for (const CalleeFacts &C : Root.Calls)
    Work.push_back(&C);
  std::vector<RegionFacts> Held; // summaries decoded on the way
  Held.reserve(64);
  SmallPtrSet<const Function *, 8> Seen;
  while (!Work.empty()) {
    const CalleeFacts *C = Work.back();
    Work.pop_back();
    if (!C->Callee || !Seen.insert(C->Callee).second)
      continue;
    if (!hasSummary(*C->Callee))
      return false;
    if (Held.size() == Held.capacity())
      return true; // deep enough: resolveRegion refuses beyond its depth
    Held.emplace_back();
    if (decodeFacts(C->Callee->getMetadata(SummaryMD), RegionObj::Arg,
                    Held.back()))
      for (const CalleeFacts &Sub : Held.back().Calls)
        Work.push_back(&Sub);
  }
  return true;
}

bool resolveRegion(const RegionFacts &Root, bool &HasIdioms, std::string &Why,
                   std::vector<llvm::Function *> *Callees) {
  std::vector<ObjUse> Bufs = Root.Buffers, Accs = Root.Accesses;
  std::vector<const Function *> Stack;
  std::vector<Function *> Reached;
  for (const CalleeFacts &C : Root.Calls)
    if (!expandCall(C, Bufs, Accs, Stack, Reached, "the loop calls ", Why))
      return false;
  if (Callees)
    *Callees = std::move(Reached);
  HasIdioms = !Bufs.empty();
  auto In = [](const std::vector<ObjUse> &Uses, const RegionObj &O,
               bool WrittenOnly) {
    return any_of(Uses, [&](const ObjUse &U) {
      return (U.Write || !WrittenOnly) && U.Obj == O;
    });
  };
  bool AnyUnknown = In(Bufs, RegionObj(), false);
  bool WrittenUnknown = In(Bufs, RegionObj(), true);
  for (const ObjUse &A : Accs) {
    const char *What = A.Write ? "stores to" : "loads from";
    if (A.Obj.Kind == RegionObj::Unknown) {
      Why = std::string("the loop or a function it calls ") + What +
            " memory through a pointer that may point into an idiom's buffer";
      return false;
    }
    // A global whose address is never taken: no unknown buffer is in it
    // (UnescapedGlobals.h; asked when the region is decided: for a pending
    // one, after every function was stitched).
    if ((A.Write ? AnyUnknown : WrittenUnknown) &&
        !(A.Obj.Kind == RegionObj::Global && isUnescapedGlobal(A.Obj.G))) {
      Why = std::string("the loop or a function it calls ") + What +
            " memory and an idiom's buffer is not a known object";
      return false;
    }
    if (In(Bufs, A.Obj, !A.Write)) {
      Why = std::string("the loop or a function it calls ") + What +
            " an idiom's buffer (" + objName(A.Obj) + ") outside the idiom";
      return false;
    }
  }
  return true;
}

void markRegionCallees(const std::vector<Function *> &Callees, bool Final) {
  for (Function *F : Callees) {
    for (Argument &A : F->args())
      if (A.getType()->isPointerTy())
        A.removeAttr(Attribute::NoCapture);
    F->removeFnAttr(Attribute::Memory);
    if (Final)
      F->setMetadata(CalleeMD, MDNode::get(F->getContext(), {}));
    for (User *U : F->users())
      if (auto *CB = dyn_cast<CallBase>(U))
        for (unsigned I = 0; I < CB->arg_size(); ++I)
          CB->removeParamAttr(I, Attribute::NoCapture);
  }
}

bool isRegionCallee(const Function &F) { return F.getMetadata(CalleeMD); }

/// finalizePendingRegions without dropping the summaries.
static unsigned decidePendingRegions(Module &M);

/// Inserts a call of the placeholder \p Name (void(i32), nounwind) with
/// \p Id before \p Before.
static CallInst *insertPlaceholder(Instruction *Before, StringRef Name,
                                   unsigned Id) {
  Module &M = *Before->getModule();
  Type *I32 = Type::getInt32Ty(M.getContext());
  FunctionCallee F = M.getOrInsertFunction(
      Name, FunctionType::get(Type::getVoidTy(M.getContext()), {I32}, false));
  if (auto *Fn = dyn_cast<Function>(F.getCallee()))
    Fn->setDoesNotThrow();
  IRBuilder<> B(Before);
  return B.CreateCall(F, {ConstantInt::get(I32, Id)});
}

void describeRegion(OptimizationRemark &R, const RegionCounts &C) {
  R << "residency region: the buffers of "
    << ore::NV("Idioms", C.Idioms) << " offloaded idiom(s)";
  if (C.Callees)
    R << " and of " << ore::NV("Callees", C.Callees) << " call(s)";
  R << " stay on the device across the loop's iterations "
       "(copied back at its exits)";
  if (C.HostAccesses)
    R << "; " << ore::NV("HostAccesses", C.HostAccesses)
      << " host load(s)/store(s) of their buffers routed through the "
         "runtime";
}

unsigned insertPendingBegin(Instruction *Before, const RegionFacts &Facts,
                            DebugLoc Loc, unsigned Parent,
                            const RegionCounts *Counts) {
  static std::atomic<unsigned> NextId{0};
  unsigned Id = ++NextId;
  CallInst *Call = insertPlaceholder(Before, PendingBegin, Id);
  Call->setDebugLoc(Loc);
  LLVMContext &Ctx = Before->getContext();
  Call->setMetadata(FactsMD, encodeFacts(Ctx, Facts));
  auto Int = [&](unsigned V) {
    return ConstantAsMetadata::get(ConstantInt::get(Type::getInt32Ty(Ctx), V));
  };
  if (Parent)
    Call->setMetadata(ParentMD, MDTuple::get(Ctx, {Int(Parent)}));
  if (Counts)
    Call->setMetadata(CountsMD,
                      MDTuple::get(Ctx, {Int(Counts->Idioms),
                                         Int(Counts->Callees),
                                         Int(Counts->HostAccesses)}));
  return Id;
}

/// The operand \p I of the i32 tuple \p Name on \p CB, or 0.
static unsigned placeholderInt(const CallBase &CB, StringRef Name,
                               unsigned I) {
  MDNode *N = CB.getMetadata(Name);
  if (!N || I >= N->getNumOperands())
    return 0;
  auto *C = mdconst::dyn_extract_or_null<ConstantInt>(N->getOperand(I));
  return C ? unsigned(C->getZExtValue()) : 0;
}

void insertPendingEnd(Instruction *Before, unsigned Id) {
  insertPlaceholder(Before, PendingEnd, Id);
}

bool hasPendingRegions(const Function &F) {
  for (const BasicBlock &BB : F)
    for (const Instruction &I : BB)
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (calleeName(*CB) == PendingBegin)
          return true;
  return false;
}

bool hasPendingRegions(const Module &M) {
  return M.getFunction(PendingBegin) || M.getFunction(PendingEnd);
}

unsigned finalizePendingRegions(Module &M) {
  unsigned Formed = decidePendingRegions(M);
  // The summaries describe the functions as this run left them: a later
  // pipeline (a link-time one) may change their arguments, so none
  // survives the run.
  for (Function &F : M) {
    F.setMetadata(SummaryMD, nullptr);
    F.setMetadata(OpaqueMD, nullptr);
  }
  return Formed;
}

static unsigned decidePendingRegions(Module &M) {
  Function *Begin = M.getFunction(PendingBegin);
  Function *End = M.getFunction(PendingEnd);
  if (!Begin && !End)
    return 0;
  // Decide each region once, by (function, id), an enclosing region before
  // its fallbacks.
  using Key = std::pair<const Function *, uint64_t>;
  auto IdOf = [](const CallBase *CB) {
    auto *C = dyn_cast<ConstantInt>(CB->getArgOperand(0));
    return C ? C->getZExtValue() : ~uint64_t(0);
  };
  DenseMap<Key, CallBase *> Begins;
  if (Begin)
    for (User *U : Begin->users())
      if (auto *CB = dyn_cast<CallBase>(U))
        Begins.try_emplace({CB->getFunction(), IdOf(CB)}, CB);
  enum class State { Formed, Failed, Dropped };
  DenseMap<Key, State> Decided;
  unsigned Formed = 0;
  std::function<State(Key)> Decide = [&](Key K) {
    if (auto It = Decided.find(K); It != Decided.end())
      return It->second;
    CallBase *CB = Begins.lookup(K);
    // A fallback of a region that formed (or was itself dropped): the loop
    // is inside a region already. The parent's Id is always smaller.
    uint64_t Parent = placeholderInt(*CB, ParentMD, 0);
    Key PK{K.first, Parent};
    if (Parent && Parent < K.second && Begins.count(PK) &&
        Decide(PK) != State::Failed)
      return Decided[K] = State::Dropped;
    Function &F = *CB->getFunction();
    RegionFacts Facts;
    std::vector<Function *> Reached;
    bool HasIdioms = false, Ok = false;
    std::string Why = "the region's facts were lost";
    if (decodeFacts(CB->getMetadata(FactsMD), RegionObj::Local, Facts))
      Ok = resolveRegion(Facts, HasIdioms, Why, &Reached);
    Ok &= HasIdioms;
    if (Ok) {
      markRegionCallees(Reached, /*Final=*/true);
      ++Formed;
    }
    OptimizationRemarkEmitter ORE(&F);
    DebugLoc DL = CB->getDebugLoc();
    if (Ok)
      ORE.emit([&] {
        OptimizationRemark R(RemarkPass, "ResidencyRegion", DL,
                             CB->getParent());
        if (CB->getMetadata(CountsMD)) {
          RegionCounts C;
          C.Idioms = placeholderInt(*CB, CountsMD, 0);
          C.Callees = placeholderInt(*CB, CountsMD, 1);
          C.HostAccesses = placeholderInt(*CB, CountsMD, 2);
          describeRegion(R, C);
          return R;
        }
        R << "residency region: the buffers of the offloaded idioms "
             "of the loop and of "
          << ore::NV("Callees", unsigned(Facts.Calls.size()))
          << " call(s) stay on the device across the loop's "
             "iterations (copied back at its exits)";
        return R;
      });
    else if (HasIdioms)
      ORE.emit([&] {
        return OptimizationRemarkMissed(RemarkPass, "NoResidencyRegion", DL,
                                        CB->getParent())
               << "no residency region: " << ore::NV("Reason", Why);
      });
    return Decided[K] = Ok ? State::Formed : State::Failed;
  };
  if (Begin) // in the order of the uses, as the remarks come
    for (User *U : Begin->users())
      if (auto *CB = dyn_cast<CallBase>(U))
        Decide({CB->getFunction(), IdOf(CB)});
  // Replace or drop every placeholder.
  LLVMContext &Ctx = M.getContext();
  FunctionType *FT = FunctionType::get(Type::getVoidTy(Ctx), false);
  auto Real = [&](StringRef Name) {
    FunctionCallee C = M.getOrInsertFunction(Name, FT);
    if (auto *Fn = dyn_cast<Function>(C.getCallee()))
      Fn->setDoesNotThrow();
    return C;
  };
  for (Function *P : {Begin, End}) {
    if (!P)
      continue;
    SmallVector<CallBase *, 8> Calls;
    for (User *U : P->users())
      if (auto *CB = dyn_cast<CallBase>(U))
        Calls.push_back(CB);
    for (CallBase *CB : Calls) {
      auto It = Decided.find({CB->getFunction(), IdOf(CB)});
      if (It != Decided.end() && It->second == State::Formed) {
        CallInst *New = CallInst::Create(
            Real(P == Begin ? "idiom_region_begin" : "idiom_region_end"), "",
            CB->getIterator());
        New->setDebugLoc(CB->getDebugLoc());
      }
      CB->eraseFromParent();
    }
    if (P->use_empty())
      P->eraseFromParent();
  }
  return Formed;
}

} // namespace idiom
