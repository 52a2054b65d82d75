//===- Views.h - layout primitives and vectors in OpenCL C (private) -*- C++ -*-===//
//
// Part of Idiom.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Code generation of the data-layout primitives (seeds/004 section 3.2:
/// "Our implementation does not produce code directly, but generates instead
/// an index function, which is used when accessing the array the next
/// time"; DESIGN section 5). transpose, reorder, reorderStride, slide, pad
/// and padClamp are Views whose element function rewrites the index and
/// calls the element function of their operand: no loop, no intermediate
/// array. pad selects its constant at the access, padClamp clamps the
/// index. asVector reads an element with one vloadN from a unit-stride
/// buffer view (any alignment), otherwise builds the vector from its lanes;
/// asScalar reads lane i % w of vector i / w. Stores: a store program whose
/// body is transpose(X), reorderStride(s, X) or asScalar(X) stores X
/// through the inverse view of its output (vstoreN for asScalar).
///
//===----------------------------------------------------------------------===//

#ifndef IDIOM_REWRITE_LIB_CODEGEN_VIEWS_H
#define IDIOM_REWRITE_LIB_CODEGEN_VIEWS_H

#include "Emitter.h"
#include "idiom/FunIL/TypeCheck.h"

namespace idiom::rewrite::codegen {

/// OpenCL C type of a value of \p Lanes lanes of \p K: `float`, `float4`.
std::string clValueType(ScalarKind K, unsigned Lanes);

/// Lane \p L of the vector expression \p V: `(V).s3`, `(V).sa`.
std::string laneOf(const std::string &V, unsigned L);

/// Emits the store of vector \p V into \p Slot (a CVal::VecSlot): one
/// vstoreN at its address, or one assignment per lane lvalue.
void storeVector(Emitter &Em, const CVal &Slot, const CVal &V);

/// transpose(Base): element (i, j) is Base's element (j, i); rows of Base
/// must be arrays (their length is read from row 0).
std::shared_ptr<const View> transposeView(Emitter &Em, std::shared_ptr<const View> Base);

/// reorderStride(S, Base) (docs/FunIL.md): element i is Base's element
/// i / (n/S) + S * (i % (n/S)), n = Base->Len.
std::shared_ptr<const View> reorderStrideView(std::shared_ptr<const View> Base,
                                              const std::string &S);

/// The inverse permutation of reorderStride(S, .) over n = Base->Len
/// elements: element j is Base's element (j % S) * (n/S) + j / S, so
/// storing X through it stores reorderStride(S, X) through Base.
std::shared_ptr<const View> reorderStrideInverseView(std::shared_ptr<const View> Base,
                                                     const std::string &S);

/// For a map program: while \p Root is transpose(X), reorderStride(s, X) or
/// asScalar(X), replaces it by X and \p Target by the view through which X
/// must be stored (leaf by leaf for tuples of outputs); \p Env types the
/// program parameters (for the lanes of asScalar). Returns the new root.
ExprPtr peelStoreLayout(Emitter &Em, ExprPtr Root, CVal &Target,
                        const funil::TypeEnv &Env);

} // namespace idiom::rewrite::codegen

#endif // IDIOM_REWRITE_LIB_CODEGEN_VIEWS_H
