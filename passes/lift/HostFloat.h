//===- HostFloat.h - How the host back end evaluates fused and min/max ops -*- C++ -*-===//
//
// Maps promise the host's result bit for bit. Two LLVM operations have no
// single meaning: llvm.fmuladd is fused or not at the back end's choice, and
// llvm.maxnum/minnum leave the sign of a zero result (and the pick between
// two NaNs) to the target. These functions say what the host's back end
// computes for a given call, so that the lifter emits that expression and the
// translation validator checks against it.
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_PASSES_LIFT_HOSTFLOAT_H
#define IDIOM_PASSES_LIFT_HOSTFLOAT_H

namespace llvm {
class CallInst;
class Function;
} // namespace llvm

namespace idiom {

/// How the host evaluates llvm.fmuladd.
enum class HostMulAdd {
  Unfused, ///< a rounded multiply, then a rounded add
  Fused,   ///< one fma (x86 with +fma or +fma4 in "target-features"; AArch64)
  Unknown, ///< another target: not known
};

/// The host back end's choice for llvm.fmuladd in \p F, mirroring
/// TargetLowering::isFMAFasterThanFMulAndFAdd of X86 and AArch64 (the
/// selection DAG fuses fmuladd exactly when that holds, and clang's default
/// -ffp-contract=on allows it).
HostMulAdd hostMulAdd(const llvm::Function &F);

/// What the host computes for a call of llvm.maxnum(x, y) / llvm.minnum(x, y)
/// (X86ISelLowering's combineFMinNumFMaxNum, clang 19, x86-64).
enum class HostMinMax {
  /// `x > y ? x : y` (min: `x < y ? x : y`): y is a non-NaN constant, or
  /// NaNs are excluded (nnan, "no-nans-fp-math"); maxss/minss with y second.
  Select,
  /// `isnan(x) ? y : (y > x ? y : x)` (min: `y < x`): the general lowering.
  Guarded,
  /// Not known (another target, a libm call, -Oz, or an operand the IR
  /// proves non-NaN where the selection DAG may not): not mirrored.
  Unknown,
};

/// The lowering the host uses for \p CI, a call of llvm.maxnum or
/// llvm.minnum (Unknown for anything else).
HostMinMax hostMinMax(const llvm::CallInst &CI);

} // namespace idiom

#endif // IDIOM_PASSES_LIFT_HOSTFLOAT_H
