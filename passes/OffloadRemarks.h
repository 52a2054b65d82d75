//===- OffloadRemarks.h - Remarks, one per source loop ----------*- C++ -*-===//
//
// Every remark of the plugin has the pass name `idiom-offload` (RemarkPass),
// which no pass of LLVM 19 contains (LLVM's names with "idiom" are
// loop-idiom, loop-idiom-vectorize and hexagon-loop-idiom): clang's
// `-Rpass=REGEX` searches the pass name for REGEX, so `-Rpass=idiom-offload`
// shows the plugin's remarks and none of loop-idiom's, where `-Rpass=idiom`
// shows both.
//
// After inlining, one source loop has a copy in each caller and the offload
// pass meets every copy. In the default pipelines the pass records its
// remarks in a RemarkSink that defers them to the module, and flushRemarks
// (at OptimizerLast, PipelinePlacement.h) emits one remark for each source
// location, kind, remark name and arguments, that is one per source loop and
// outcome, with the number of copies (argument `InlinedCopies`), in the order
// of their first record. Copies with different outcomes stay different
// remarks. docs/ARCHITECTURE.md, "Remarks and optimization records", lists
// the remark names and argument keys.
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_PASSES_OFFLOADREMARKS_H
#define IDIOM_PASSES_OFFLOADREMARKS_H

#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/DiagnosticInfo.h"
#include <type_traits>

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace idiom {

/// The pass name of every remark of the plugin: `-Rpass=idiom-offload`,
/// `Pass: idiom-offload` in optimization records. It is also the pass's name
/// in opt pipelines (`-passes=idiom-offload`).
inline constexpr char RemarkPass[] = "idiom-offload";

/// Where the offload pass sends its remarks for one function: to the
/// function's remark emitter at once, or, deferred, to the pending remarks
/// of the function's module, which flushRemarks emits once per source loop
/// and outcome.
class RemarkSink {
public:
  /// Remarks about \p F; \p Defer holds them for flushRemarks on F's module.
  RemarkSink(llvm::Function &F, llvm::OptimizationRemarkEmitter &ORE,
             bool Defer)
      : F(F), ORE(ORE), Defer(Defer) {}

  /// Builds a remark with \p Make when remarks are enabled (as
  /// OptimizationRemarkEmitter::emit does) and emits or records it.
  template <typename MakeT> void emit(MakeT Make) {
    if (!ORE.enabled())
      return;
    auto R = Make();
    static_assert(
        std::is_base_of<llvm::DiagnosticInfoIROptimization, decltype(R)>::value,
        "the lambda passed to emit() must return an IR remark");
    emitOrRecord(R);
  }

private:
  void emitOrRecord(llvm::DiagnosticInfoIROptimization &R);

  llvm::Function &F;
  llvm::OptimizationRemarkEmitter &ORE;
  bool Defer;
};

/// Emits the remarks that deferred RemarkSinks recorded for \p M and forgets
/// them: one remark per source location, kind, name and arguments, in the
/// order of first record, with `InlinedCopies` = the number of copies whose
/// function is still in \p M (a remark without any such copy describes code
/// that is gone and is not emitted). Remarks without a source location are
/// never merged. Does nothing when none are pending.
void flushRemarks(llvm::Module &M);

} // namespace idiom

#endif // IDIOM_PASSES_OFFLOADREMARKS_H
