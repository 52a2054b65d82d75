//===- RegionSummaries.h - Residency regions across calls ------*- C++ -*-===//
//
// Residency regions (ResidencyRegions.h) across calls to functions of the
// module: map promotion over the call graph (CGCM: Jablin et al.,
// "Automatic CPU-GPU communication management and optimization", PLDI 2011,
// section 5, which promotes maps out of functions as well as loops).
//
// After stitching, every function the offload pass meets gets a *summary*
// (function metadata `idiom.summary`) when all it does, outside the
// fallback nests of its stitched idioms, is run those idioms, call the
// runtime's region entry points, call known library functions that touch
// only their pointer arguments, call functions of the module, and load or
// store memory based on its pointer arguments, globals or its own stack
// frame. The summary lists, in terms of argument numbers and globals, the
// objects its idioms use as buffers (and whether the kernels write them),
// the objects its host code reads or writes, and its calls with the objects
// of their arguments. A function that does not qualify gets `idiom.opaque`
// with the reason. A loop that calls such functions is checked, at its call
// sites, as if the callees' idioms and accesses (and those of the functions
// they call) were in its body, with the actual arguments' underlying
// objects in place of the argument numbers.
//
// The offload pass visits the functions of a module in their order, so a
// caller may be checked before its callee is summarised. Such a region is
// placed *pending*: `idiom.region.pending.begin(i32 Id)` in the preheader
// (with the caller's facts as metadata `idiom.region.facts`) and
// `idiom.region.pending.end(i32 Id)` at the exits. finalizePendingRegions, at
// OptimizerLast once every function has been visited, turns them into
// idiom_region_begin/end or removes them. The loops inside a pending region
// are tried at once as its *fallbacks*, placed pending with its Id as their
// parent, and decided only when it fails. docs/ARCHITECTURE.md,
// "Residency", has the soundness argument.
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_PASSES_REGIONSUMMARIES_H
#define IDIOM_PASSES_REGIONSUMMARIES_H

#include "RegionHostCalls.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/DebugLoc.h"
#include <string>
#include <vector>

namespace llvm {
class CallBase;
class Function;
class GlobalValue;
class Instruction;
class Module;
class OptimizationRemark;
class TargetLibraryInfo;
class Value;
} // namespace llvm

namespace idiom {

/// An object (an allocation) that idioms or host code of a region access,
/// named independently of the IR so that facts can wait in metadata.
struct RegionObj {
  enum KindT : unsigned char {
    Unknown, ///< a pointer whose allocation is not known (loaded, a plain
             ///< pointer argument of the region's function, inttoptr, ...)
    Global,  ///< a global variable (G)
    Local,   ///< another identified object of the region's function (an
             ///< alloca, a malloc'd block, a noalias argument): number N
    Arg,     ///< in a summary: the callee's pointer argument number N
    Frame    ///< in a summary's calls: the callee's own frame (an alloca)
  };
  KindT Kind = Unknown;
  const llvm::GlobalValue *G = nullptr;
  unsigned N = 0;
  bool operator==(const RegionObj &O) const {
    return Kind == O.Kind && G == O.G && N == O.N;
  }
};

/// One use of an object: a buffer of an idiom (Write: a kernel writes it) or
/// a host access (Write: a store, or a library call that may write).
struct ObjUse {
  RegionObj Obj;
  bool Write = false;
};

/// A call from a region to a function of the module: the underlying objects
/// of each actual argument (empty for non-pointers).
struct CalleeFacts {
  llvm::Function *Callee = nullptr;
  std::vector<std::vector<RegionObj>> Args;
};

/// What a region's loop, or a summarised function, does with memory.
struct RegionFacts {
  std::vector<ObjUse> Buffers;  ///< every idiom buffer
  std::vector<ObjUse> Accesses; ///< every host access outside fallback nests
  std::vector<CalleeFacts> Calls; ///< calls to functions of the module
};

/// Records \p Facts as \p F's summary, or, with \p Facts null, that \p F
/// cannot be part of a region because of \p WhyNot.
void setSummary(llvm::Function &F, const RegionFacts *Facts,
                llvm::StringRef WhyNot);

/// True when setSummary ran on \p F in this run of the plugin.
bool hasSummary(const llvm::Function &F);

/// The module function a region may call (directly, with an exact, not
/// interposable definition), or null.
llvm::Function *regionCallee(const llvm::CallBase &CB);

/// The name of the function \p CB calls directly, or "" for an indirect call.
llvm::StringRef calleeName(const llvm::CallBase &CB);

/// True when \p F is summarised and its summary has idiom buffers or calls.
bool mayRunIdioms(const llvm::Function &F);

/// True when every function that \p Root's calls reach (through the
/// summaries) has been summarised or found opaque.
bool allSummarized(const RegionFacts &Root);

/// Combines \p Root, the facts of a region's loop, with the summaries of the
/// functions it calls and, through their summaries, the functions those
/// call (no recursion, at most 8 deep), and checks that no host access can
/// touch a buffer (the rules of docs/ARCHITECTURE.md, "Residency"). Sets
/// \p HasIdioms when the region runs any idiom and, when not null,
/// \p Callees to every function reached. On failure \p Why says why.
bool resolveRegion(const RegionFacts &Root, bool &HasIdioms, std::string &Why,
                   std::vector<llvm::Function *> *Callees = nullptr);

/// \p Callees (may) run inside a region: their pointer
/// parameters lose `nocapture` and the functions their memory attributes
/// (the runtime keeps the buffers' addresses until the region ends). With
/// \p Final (the region is formed) they are also marked, so that a later
/// run of the plugin offloads nothing new in them (hasResidencyRegions).
void markRegionCallees(const std::vector<llvm::Function *> &Callees,
                       bool Final);

/// True when \p F was marked by markRegionCallees.
bool isRegionCallee(const llvm::Function &F);

/// What the remark of a formed region counts.
struct RegionCounts {
  unsigned Idioms = 0;       ///< stitched idioms in the loop itself
  unsigned Callees = 0;      ///< calls to functions of the module
  unsigned HostAccesses = 0; ///< host loads and stores routed (RegionHostAccess.h)
};

/// Appends to \p R the description of a region formed with \p C ("residency
/// region: the buffers of N offloaded idiom(s) ... stay on the device").
void describeRegion(llvm::OptimizationRemark &R, const RegionCounts &C);

/// Inserts `idiom.region.pending.begin(Id)` with \p Facts before \p Before,
/// at \p Loc, and returns Id. With \p Parent, the Id of a pending region of
/// an enclosing loop, the region is that one's *fallback*: it is tried at
/// OptimizerLast only when the enclosing one fails there, and dropped when
/// it forms (a loop inside a region needs none); \p Counts, when given, is
/// what its remark then says (describeRegion).
unsigned insertPendingBegin(llvm::Instruction *Before, const RegionFacts &Facts,
                            llvm::DebugLoc Loc, unsigned Parent = 0,
                            const RegionCounts *Counts = nullptr);

/// Inserts `idiom.region.pending.end(Id)` before \p Before.
void insertPendingEnd(llvm::Instruction *Before, unsigned Id);

/// True when \p F holds a pending region.
bool hasPendingRegions(const llvm::Function &F);

/// True when some function of \p M holds a pending region.
bool hasPendingRegions(const llvm::Module &M);

/// Decides every pending region of \p M (every function of it has been
/// visited), enclosing regions before their fallbacks: each becomes
/// idiom_region_begin/end when resolveRegion holds, with a remark, and is
/// removed otherwise (with a missed remark when it runs idioms); a fallback
/// whose enclosing region formed is removed untried, one whose enclosing
/// region failed is decided as any other. Then drops every summary: a later
/// pipeline may change the functions' arguments. Returns the number of
/// regions formed.
unsigned finalizePendingRegions(llvm::Module &M);

} // namespace idiom

#endif // IDIOM_PASSES_REGIONSUMMARIES_H
