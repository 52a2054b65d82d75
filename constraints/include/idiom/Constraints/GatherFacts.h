//===- GatherFacts.h - Loads through an index array -------------*- C++ -*-===//
//
// Gathers (issue 14): a load `x[idx]` in a map or a reduction whose element
// index is computed in the loop from affine loads (`y[i] = x[perm[i]]`,
// `s += a[idx[i]] * b[i]`). The lifter reads x through a buffer whose range
// is the index's run-time extent (passes/Lifting.h, RunTimeExtent); the
// facts here decide which loads qualify. Atom: GatherLoad
// (docs/ConstraintLanguage.md).
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_CONSTRAINTS_GATHERFACTS_H
#define IDIOM_CONSTRAINTS_GATHERFACTS_H

#include "idiom/Constraints/LoopFacts.h"
#include <optional>
#include <string>

namespace llvm {
class LoadInst;
class ScalarEvolution;
class Type;
class Value;
} // namespace llvm

namespace idiom {

/// A gather load `Base[Index]` of a nest (one level of indirection).
struct GatherInfo {
  llvm::LoadInst *Load = nullptr;
  llvm::Value *Base = nullptr;   ///< defined outside the nest
  llvm::Type *ElemTy = nullptr;  ///< the loaded type (the GEP's element type)
  llvm::Value *Index = nullptr;  ///< the GEP index (integer, element units)
  /// A field of a struct array, `x[idx].im` (issue 13): the element read is
  /// Scale * Index + Offset in units of ElemTy (Scale the struct's size in
  /// elements, Offset the field's); 1 and 0 for `base[index]`.
  int64_t Scale = 1, Offset = 0;
};

/// Recognises \p Ld as a gather of nest \p N (of depth 1): a simple load of
/// `getelementptr T, Base, Index` with T the loaded type (or
/// `getelementptr [M x T], Base, 0, Index`: a global array; or a field of a
/// struct array, `getelementptr %S, Base, Index, f...` or `getelementptr i8,
/// (getelementptr %S, Base, Index), C`, whose size and field offset are
/// whole numbers of the loaded type: Scale and Offset), Base defined
/// outside the nest and written by no store of the nest (isInputLoad), and
/// Index an integer computed in the nest by pure scalar operations from
/// induction variables, loop-invariant values and at least one load whose
/// address is affine (analyzeAccess). Nothing otherwise, with \p Why.
std::optional<GatherInfo> analyzeGather(llvm::LoadInst *Ld, const NestInfo &N,
                                        llvm::ScalarEvolution &SE, std::string &Why);

} // namespace idiom

#endif // IDIOM_CONSTRAINTS_GATHERFACTS_H
