//===- Stitching.h - Replace an idiom's loop nest by runtime calls -*- C++ -*-===//
//
// IR surgery (DESIGN.md section 6). Before the nest's preheader enters the
// loop, the stitched code computes the kernel arguments (buffer ranges, sizes,
// strides), calls idiom_run (runtime/include/idiomrt.h), and on success skips
// the loop, feeding the reductions' final values to the exit's LCSSA phis. On
// a "declined" answer it branches to the original loop, which stays intact.
//
// Two phases, so that ScalarEvolution is only queried on an unchanged CFG:
// expandAtPreheader() for every idiom of a function first, then stitch().
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_PASSES_STITCHING_H
#define IDIOM_PASSES_STITCHING_H

#include "Lifting.h"
#include "llvm/IR/ValueHandle.h"
#include <string>
#include <vector>

namespace llvm {
class BasicBlock;
class CallInst;
class GlobalVariable;
class LoopInfo;
class ScalarEvolution;
} // namespace llvm

namespace idiom {

/// The kernels of a run-time check that runs before an idiom: the errno
/// check (LiftedIdiom::ErrnoCheckFunIL), a 1-D reduction with one i32 slot,
/// non-zero when an iteration's libm call would set errno; or the extent
/// check (LiftedIdiom::ExtentCheckFunIL), a 1-D reduction with two i64
/// slots (lo, hi) per run-time extent.
struct CheckKernel {
  std::string KernelName;          ///< empty: the idiom needs no check
  std::string OpenCL;              ///< its source (idiomrt.h conventions)
  unsigned NumVariants = 1;        ///< kernel variants in OpenCL
  std::vector<unsigned> SlotBytes; ///< {4} (errno), {8, 8, ...} (extent)
};

/// Everything stitch() needs about one idiom.
struct StitchInput {
  const IdiomMatch *M = nullptr;
  const LiftedIdiom *Lifted = nullptr;
  std::string OpenCL;     ///< kernel source for the runtime
  unsigned NumVariants = 1; ///< kernel variants in OpenCL (idiomrt.h)
  /// Reductions: byte size of each result slot of the kernels
  /// (rewrite::reductionSlotBytes); slot k < number of accumulators holds
  /// accumulator k, later slots (a compensated sum's compensation) are
  /// device-only. Empty: one slot per accumulator.
  std::vector<unsigned> SlotBytes;
  std::string KernelName; ///< base kernel name used in OpenCL
  /// A GEMV pair (LiftedIdiom::Pair): the second program's kernel name,
  /// source and variant count, for its own descriptor; the call is then
  /// idiom_run_pair.
  std::string PairKernelName, PairOpenCL;
  unsigned PairNumVariants = 1;
  std::string Loc;        ///< "file.c:LINE" for IDIOM_STATS
  /// A descriptor to pass to the runtime instead of making one (an earlier
  /// copy of the same source loop: KernelSharing.h).
  llvm::GlobalVariable *Desc = nullptr;
  /// When making a descriptor: an earlier one whose kernel name, OpenCL
  /// source and variant count it reuses (OpenCL and NumVariants are then
  /// not read).
  llvm::GlobalVariable *KernelFrom = nullptr;
  /// With a kernel name: the stitched code runs this check first, with the
  /// parameters LiftedIdiom::ErrnoCheckParams (buffers passed as inputs),
  /// and runs the original loop when it declines or finds a flag.
  CheckKernel Check;
  /// With a kernel name: the stitched code runs this extent check first
  /// (parameters LiftedIdiom::ExtentCheckParams, buffers as inputs), and
  /// runs the idiom with the ranges of LiftedIdiom::Extents only when it ran
  /// and every range is within limits (docs/ARCHITECTURE.md, "Run-time
  /// extents"), else the original loop. Never together with Check.
  CheckKernel Extent;
};

/// Values computed in the preheader, one entry per lifted parameter.
///
/// The entries are tracking handles: stitching an earlier idiom of the same
/// function replaces its reduction results (the exit's LCSSA phis) by the
/// phis that merge device and fallback results, and a later idiom's scalar
/// argument, size or guard can be such a result. A raw pointer would keep the
/// fallback-only value, which does not dominate the later runtime call.
struct ExpandedArgs {
  std::vector<llvm::WeakTrackingVH> Values; ///< Buffer: i8 pointer to element
                                            ///< Lo; Index: i64; Scalar: the value
  std::vector<llvm::WeakTrackingVH> Bytes;  ///< Buffer: i64 byte length, else null
  std::vector<llvm::WeakTrackingVH> Sizes;  ///< i64 iteration counts, outer first
  std::vector<llvm::WeakTrackingVH> Checks; ///< i1: LiftedIdiom::NonNegative holds
  std::vector<llvm::WeakTrackingVH> Guards; ///< i1: IdiomMatch's nest guards
  /// CSR SpMV (LiftedIdiom::Csr): &ptr[0], for the idiom_csr struct.
  llvm::WeakTrackingVH CsrPtr;
  /// The nest's innermost-body executions (i64, NestWork.h) for
  /// idiom_work_hint before idiom_run, or null: no hint.
  llvm::WeakTrackingVH WorkIters;
  bool WorkFPChain = false; ///< NestWork::FPChain (IDIOM_WORK_FP_CHAIN)
};

/// What stitch() inserted for one idiom, for the residency regions
/// (ResidencyRegions.h).
struct StitchedCall {
  llvm::CallInst *Call = nullptr;        ///< the idiom_run call
  /// The idiom_run call of its errno or extent check, or null; it only
  /// reads buffers of Buffers.
  llvm::CallInst *CheckCall = nullptr;
  llvm::BasicBlock *Fallback = nullptr;  ///< preheader of the original nest,
                                         ///< reached on every path that runs it
  /// Each buffer argument: its pointer (the first byte of its range, a value
  /// available at the call) and whether the kernel writes it.
  /// (A buffer with a run-time extent is given by its base pointer, which
  /// is based on the same objects.)
  std::vector<std::pair<llvm::WeakTrackingVH, bool>> Buffers;
  /// The blocks that read and update the site's host hint word (relaxed
  /// atomics on the hint's memory, no idiom buffer): exempt from the region
  /// checks as the fallback nest is.
  std::vector<llvm::BasicBlock *> HintBlocks;
  /// The fallback may sync only the call's own ranges
  /// (idiom_region_sync_args): an idiom_run site whose buffer ranges are all
  /// known before the call (no run-time extent, no CSR, not a pair).
  bool SyncArgs = false;
  /// The private constant the argument array is filled from, and the
  /// fields stored over it at run time (argument, field, value): what the
  /// host hint's skip block stores into the array (ResidencyRegions.cpp)
  /// when the array is an alloca (the call's second operand).
  llvm::GlobalVariable *ArgTemplate = nullptr;
  struct ArgField {
    size_t Arg;
    unsigned Field;
    llvm::WeakTrackingVH V;
  };
  std::vector<ArgField> ArgFields;
  /// The predecessors of Fallback from which the argument array holds the
  /// call's arguments (the hint's skip block once filled, the declined
  /// path, a flagged check, a reduction's redo); from any other (the
  /// guards) the loop runs on ranges not checked.
  std::vector<llvm::BasicBlock *> ArgsValidFrom;
};

/// Phase 1: expands every SCEV of \p In at the end of the nest's preheader.
/// Inserts instructions only; the CFG does not change.
ExpandedArgs expandAtPreheader(const StitchInput &In, llvm::ScalarEvolution &SE);

/// Phase 2: inserts the runtime call and the branch around the loop nest,
/// and sets \p Desc to the descriptor the call passes. Returns false (and
/// changes nothing) when the exit block has a live-out value the idiom does
/// not produce. On success, \p Out (when not null) describes the inserted
/// call.
bool stitch(const StitchInput &In, const ExpandedArgs &Args, llvm::LoopInfo &LI,
            llvm::GlobalVariable *&Desc, std::string &Why,
            StitchedCall *Out = nullptr);

} // namespace idiom

#endif // IDIOM_PASSES_STITCHING_H
