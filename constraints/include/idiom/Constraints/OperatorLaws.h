//===- OperatorLaws.h - Reduction operators whose laws are known -*- C++ -*-===//
//
// Most reductions combine with a textbook operator: + * & | ^ on integers,
// + and * on floating point, or a min/max (an intrinsic or a compare and a
// select). Their laws do not depend on the program: in the models of
// Z3Checks.h (bit-vectors of the LLVM width; reals for floating point) they
// are associative and commutative, and reductionIdentity() of their
// ReductionOp is a left identity. Recognising them structurally lets
// proveAssocComm and proveIdentity answer without building a Z3 formula (a
// Z3 check of min/max associativity on i32 alone costs about 30 ms); any
// other shape is still posed to Z3. The unit test OperatorLawsTest checks
// every shape recognised here against Z3.
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_CONSTRAINTS_OPERATORLAWS_H
#define IDIOM_CONSTRAINTS_OPERATORLAWS_H

#include "idiom/Constraints/LoopFacts.h"
#include <optional>

namespace llvm {
class Instruction;
class Value;
} // namespace llvm

namespace idiom {

/// The textbook operator that \p Link computes as f(Acc, Elem), or nothing.
/// Recognised, with {x, y} = {Acc, Elem} in either order:
///   add/mul/and/or/xor x, y (integers)         -> Add, Mul, And, Or, Xor
///   fadd/fmul x, y                             -> FAdd, FMul
///   llvm.fmuladd/llvm.fma (any operands)       -> FAdd (Z3Checks models
///                                                 such a link as acc + elem)
///   llvm.smin/smax/umin/umax/minnum/maxnum x, y -> SMin ... FMax
///   select (cmp P x, y), x|y, y|x with P an order (signed, unsigned or
///   floating-point, strict or not)             -> the min or max it picks
/// Acc and Elem must differ. Never FMin/FMax for an integer compare.
std::optional<ReductionOp> textbookOperator(const llvm::Instruction *Link,
                                            const llvm::Value *Acc,
                                            const llvm::Value *Elem);

} // namespace idiom

#endif // IDIOM_CONSTRAINTS_OPERATORLAWS_H
