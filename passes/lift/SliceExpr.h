//===- SliceExpr.h - FunIL text of a lifted slice's scalar function -*- C++ -*-===//
//
// The GEMM and SpMV lifters both print the LLVM values behind STEP, INIT
// and POST (GemmSlice) as FunIL scalar expressions over named leaves: the
// same walk, with lifter-specific leaves, scalars, types and reasons.
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_PASSES_LIFT_SLICEEXPR_H
#define IDIOM_PASSES_LIFT_SLICEEXPR_H

#include "../Lifting.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Value.h"
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace llvm {
class CallInst;
class SCEV;
class Loop;
class Type;
} // namespace llvm

namespace idiom {

/// Stands for the reduction's result while POST is printed.
extern const char *const SliceSumMark;

/// How the values of one scalar function (STEP, INIT or POST) are read.
struct SliceReading {
  llvm::DenseMap<llvm::Value *, std::string> Leaves; ///< value -> accessor
  bool Finals = false; ///< the sum's final value prints as SliceSumMark
  llvm::DenseMap<llvm::Value *, std::string> Memo;
  /// Set when an llvm.fmuladd the host evaluates unfused (or may) was
  /// printed as `fma` under SliceExprRules::FuseMulAdd.
  bool LicensedFusion = false;
};

/// What one lifter lets a slice compute, and how it names the rest.
struct SliceExprRules {
  const char *Idiom;   ///< "GEMM", "SpMV": the subject of the reasons
  const char *LoadWhy; ///< reason for a load that is not a leaf
  const char *PhiWhy;  ///< reason for a phi that is not a leaf
  /// Instructions inside it are printed; other values are scalars.
  const llvm::Loop *Body;
  /// FunIL spelling of a type the slice may compute, or "".
  std::function<std::string(llvm::Type *)> TypeText;
  /// True when the value is the sum's final value (with Finals).
  std::function<bool(llvm::Value *)> IsFinal;
  /// The parameter name of a loop-invariant value.
  std::function<std::string(llvm::Value *)> Scalar;
  /// Refuse llvm.fmuladd where the host's fusion choice is unknown.
  bool RefuseUnknownMulAdd = false;
  /// Print every llvm.fmuladd as `fma`, whatever the host does (a GEMM
  /// under the floating-point licence: IdiomMatch::FPContract).
  bool FuseMulAdd = false;
  /// Refuse an operation that the host's back end may fuse with a multiply
  /// into one fma (mayContractOnHost, HostFloat.h: -ffp-contract=fast on a
  /// target whose llvm.fmuladd is not known unfused): the kernel would round
  /// the product apart (GEMV and TRMV programs, whose sums are the loop's
  /// bit for bit). Names the update in the reason; liftToFunIL checks the
  /// whole loop for every lifter after it.
  bool RefuseHostContraction = false;
  /// Also print select and integer and float comparisons.
  bool AllowSelect = false;
  /// Prints a call other than llvm.fmuladd and llvm.fma from its arguments'
  /// texts ("" with the reason set through the lifter); null: calls are
  /// refused.
  std::function<std::string(llvm::CallInst *, const std::vector<std::string> &)>
      Call;
};

/// The name of the Scalar parameter that passes the loop-invariant value
/// \p V (`sN`, appended to \p Scalars on first use; \p Names remembers it),
/// or "" when V's type is not float, double, int or long.
std::string sliceScalarParam(llvm::Value *V, std::vector<LiftedParam> &Scalars,
                             llvm::DenseMap<llvm::Value *, std::string> &Names);

/// The i64 SCEV \p S as FunIL: a literal when constant, else the Index
/// parameter named \p Name, appended to \p Indices on the first use of S
/// (\p Names gives later uses the same parameter).
std::string sliceIndexParam(const llvm::SCEV *S, const std::string &Name,
                            std::vector<LiftedParam> &Indices,
                            std::map<const llvm::SCEV *, std::string> &Names);

/// FunIL text of \p V under \p R (binary operators, fneg, casts,
/// fma/fmuladd as the host evaluates them, HostFloat.h, or fused under
/// X.FuseMulAdd); final values met
/// are appended to \p Finals. On an operation the rules do not allow, sets
/// \p Why (when empty) and returns "". Depth and size are bounded.
std::string sliceExpr(llvm::Value *V, SliceReading &R, const SliceExprRules &X,
                      llvm::SmallVectorImpl<llvm::Value *> &Finals, std::string &Why,
                      unsigned Depth = 0);

} // namespace idiom

#endif // IDIOM_PASSES_LIFT_SLICEEXPR_H
