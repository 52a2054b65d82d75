//===- LambdaTemplate.h - a scalar lambda's text with holes (private) -*- C++ -*-===//
//
// Part of Idiom.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The tiled matrix product applies one lambda (the step `acc, (a, b) =>
/// ...`) to thousands of argument triples per kernel (codegen/MatMulGen.cpp),
/// each through Emitter::apply. When the lambda's body is made only of
/// variables bound to scalars, projections of tuple variables to scalars,
/// literals, casts and scalar operations, and every argument leaf is an
/// identifier or a number, applying it emits no statement and calls no
/// fresh(): settle leaves such arguments as they are, and the scalar
/// spellings (ScalarC.h) only concatenate their operands' text with text
/// fixed by the operation and the kinds. The result is then the same
/// concatenation for any argument leaves of the same kinds, so it is
/// emitted once with marker identifiers as the leaves and later results are
/// the markers' text replaced by the leaves' (instantiate). Anything else
/// (another body, a vector, a leaf that is an expression) is left to
/// Emitter::apply by the caller.
///
//===----------------------------------------------------------------------===//

#ifndef IDIOM_REWRITE_LIB_CODEGEN_LAMBDATEMPLATE_H
#define IDIOM_REWRITE_LIB_CODEGEN_LAMBDATEMPLATE_H

#include "Emitter.h"

#include <initializer_list>
#include <string>
#include <vector>

namespace idiom::rewrite::codegen {

/// One scalar argument leaf of LambdaTemplate::instantiate.
struct TemplateLeaf {
  const std::string &Expr; ///< C expression
  ScalarKind S;            ///< its kind (one lane)
};

/// The text of Emitter::apply(Fn, Args).Expr as pieces around the
/// arguments' scalar leaves.
class LambdaTemplate {
public:
  /// Prepares lambda \p Fn for arguments shaped like \p Shapes (scalars of
  /// one lane and tuples of them; their Expr is ignored) in \p Em's current
  /// bindings, which must not change while the template is used. Emits
  /// one application with marker leaves; no statement and no name. Returns
  /// false, having emitted nothing, when the body or the shapes are not
  /// of the form described in the file comment. Throws what apply throws
  /// (an operation without a spelling).
  bool prepare(Emitter &Em, const ExprPtr &Fn, const std::vector<CVal> &Shapes);

  /// True after a successful prepare.
  bool ready() const { return Ready; }

  /// Appends Em.apply(Fn, Args).Expr to \p Out for Args whose leaves, in
  /// depth-first order, are \p Leaves, and returns true; returns false,
  /// appending nothing, when a leaf is not an identifier or a number or its
  /// kind differs from the prepared shape (the caller then calls apply).
  bool instantiate(std::initializer_list<TemplateLeaf> Leaves, std::string &Out) const;

  /// Kind of the result.
  ScalarKind resultKind() const { return Result; }

private:
  bool Ready = false;
  std::vector<ScalarKind> Kinds;   ///< kind of each argument leaf
  std::vector<std::string> Pieces; ///< text around the holes
  std::vector<unsigned> Holes;     ///< leaf of each hole (Pieces has one more)
  size_t FixedSize = 0;            ///< total size of Pieces
  ScalarKind Result = ScalarKind::I64;
};

} // namespace idiom::rewrite::codegen

#endif // IDIOM_REWRITE_LIB_CODEGEN_LAMBDATEMPLATE_H
