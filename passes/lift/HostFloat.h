//===- HostFloat.h - How the host back end evaluates fused and min/max ops -*- C++ -*-===//
//
// Maps promise the host's result bit for bit. Two LLVM operations have no
// single meaning: llvm.fmuladd is fused or not at the back end's choice, and
// llvm.maxnum/minnum leave the sign of a zero result (and the pick between
// two NaNs) to the target. These functions say what the host's back end
// computes for a given call, so that the lifter emits that expression and the
// translation validator checks against it. A third choice is not an
// operation at all: under -ffp-contract=fast the back end fuses an fmul and
// an fadd that both carry the `contract` flag into one fma; those pairs are
// found here, and every lifter refuses them without the licence.
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_PASSES_LIFT_HOSTFLOAT_H
#define IDIOM_PASSES_LIFT_HOSTFLOAT_H

namespace llvm {
template <typename PtrType> class SmallPtrSetImpl;
class CallInst;
class Function;
class Instruction;
class Loop;
} // namespace llvm

namespace idiom {

struct IdiomMatch;

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

/// The reason a lift is refused for a pair that mayContractOnHost finds (the
/// object of a missed remark: "the GEMV update ", "the loop body ").
extern const char *const HostContractionWhy;

/// True when the host's back end may fuse \p I, with the `contract` flag,
/// and a multiply into one fma where the IR rounds twice, so that a kernel
/// that evaluates the IR's operations one by one would not print the
/// sequential build's digits. The selection DAG's combines of LLVM 19
/// (DAGCombiner visitFADDForFMACombine, visitFSUBForFMACombine,
/// visitFMULForFMADistributiveCombine), over-approximated: I is an fadd or
/// fsub with an operand, through fneg and fpext, that is an fmul with
/// `contract` (or an llvm.fma/fmuladd whose addend is one: the chain
/// fold), or I is an fmul with an operand, through fneg and fpext, that is
/// an fadd or fsub of the constant +-1.0 with `contract` (the distributive
/// fold); and the host's llvm.fmuladd is not known unfused (hostMulAdd:
/// the DAG forms these fmas exactly where it fuses llvm.fmuladd). Not
/// found: operations without flags that the back end fuses anyway under
/// its global option (`#pragma clang fp contract(off)` inside a unit built
/// with -ffp-contract=fast).
bool mayContractOnHost(const llvm::Instruction &I);

/// The first instruction of loop \p L, inner loops included, for which
/// mayContractOnHost holds, or null: the check that every lift makes
/// (liftToFunIL) unless the match holds the floating-point licence
/// (IdiomMatch::FPContract). Instructions in \p Licensed (sumContractions)
/// are passed over.
const llvm::Instruction *hostContractionIn(
    const llvm::Loop &L,
    const llvm::SmallPtrSetImpl<const llvm::Instruction *> *Licensed = nullptr);

/// The links of \p M's float sums, `acc + x * y` (an fadd or fsub with the
/// accumulator on one side), that the host may fuse only as fma(x, y, acc),
/// into \p Out: a scalar reduction under the reassociation licence
/// (IdiomMatch::FPReassociated), whose kernel sums the rounded products with
/// Neumaier's compensation. Its error is at most u sum |x y| from the
/// products' rounding plus u |sum| and an O(n u^2) term from the
/// compensated sum, within the loop's own bound gamma(n - 1) sum |x y|
/// whether the host fuses each link or not (n at least
/// -idiom-fp-reorder-min, 4096: shorter sums run the loop on the host).
/// A link whose term is itself fusable (`acc + (x * y + z)`, an fma chain)
/// is left out: that would change each term's bits, which the bound of the
/// sum does not cover (docs/ARCHITECTURE.md, "Correctness contract").
void sumContractions(const IdiomMatch &M,
                     llvm::SmallPtrSetImpl<const llvm::Instruction *> &Out);

} // namespace idiom

#endif // IDIOM_PASSES_LIFT_HOSTFLOAT_H
