//===- Emitter.h - FunIL to OpenCL C statements (private) -------*- C++ -*-===//
//
// Part of Idiom.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Code generation through views (seeds/004 section 3.2; DESIGN section 5):
/// array expressions that only rearrange data (view, iota, zip, split, join,
/// strided, blocks, halves, at, and maps whose result is consumed element by
/// element) become View objects, functions from an index expression to the
/// element; nothing is emitted until an element is read, so their index
/// arithmetic composes into the access. Code is emitted only for
/// reduceSeq (a loop with accumulators), toLocal(mapLocal) (a work-item
/// loop storing to __local memory, then a barrier), iterate (a loop that
/// reuses the local array in place), and scalar operations.
///
/// Views over contiguous arrays also offer vector access (View::VecRead,
/// VecWrite, VecAligned): a reduceSeq over, or a mapSeq stored through, a
/// split row of vector width is emitted as a run-time test (row complete,
/// every address aligned) choosing one vector load or store per buffer, and
/// an element-by-element loop otherwise (the vectorisation family,
/// rules/vectorisation.cpp). A split with a literal chunk over a length not
/// known to be a multiple has a ragged last row.
///
/// Barriers are emitted only after writes to work-group-shared memory and
/// only at work-group-uniform points (after a mapLocal loop, at the end of a
/// mapWorkgroup iteration), never under a work-item-dependent condition.
///
//===----------------------------------------------------------------------===//

#ifndef IDIOM_REWRITE_LIB_CODEGEN_EMITTER_H
#define IDIOM_REWRITE_LIB_CODEGEN_EMITTER_H

#include "idiom/FunIL/Expr.h"

#include <functional>
#include <memory>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace idiom::rewrite::codegen {

using funil::ExprPtr;
using funil::ScalarKind;

/// Thrown inside the generator; generateOpenCL turns it into an error value.
struct CodegenError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct View;

/// A FunIL value in generated code.
struct CVal {
  /// VecSlot: where a vector is stored (the element of an asScalar store
  /// target): Expr is the __global address of lane 0 (vstoreN), or empty
  /// with Elems the lanes' lvalues.
  enum Kind : uint8_t { Scalar, Tuple, Array, Buffer, VecSlot };
  Kind K = Scalar;
  std::string Expr;             ///< Scalar: C expression; Buffer: pointer name
  ScalarKind S = ScalarKind::I64; ///< Scalar kind, or Buffer element kind
  std::vector<CVal> Elems;      ///< Tuple components
  std::shared_ptr<const View> Arr; ///< Array
  unsigned Lanes = 1;           ///< Scalar, VecSlot: > 1 for an OpenCL vector

  static CVal scalar(std::string E, ScalarKind K) {
    CVal V;
    V.Expr = std::move(E);
    V.S = K;
    return V;
  }
  static CVal array(std::shared_ptr<const View> A) {
    CVal V;
    V.K = Array;
    V.Arr = std::move(A);
    return V;
  }
};

/// An array in generated code: a length and an element function.
struct View {
  std::string Len; ///< C expression of type long
  std::function<CVal(const std::string &Idx)> At;
  /// Set for a row of strided(Step, Base): its elements are
  /// Base[Start + Step * j], so a loop over it is a grid-stride loop.
  std::shared_ptr<const View> StrideBase;
  std::string StrideStart, StrideStep;
  /// __local arrays holding the leaves of a materialised array.
  std::vector<std::string> LocalLeaves;

  /// Vector access, set on arrays whose elements lie at consecutive
  /// addresses of global buffers: 1-D views with a literal unit stride, and
  /// zips, maps, iotas and split rows of such arrays. VecRead(S, N) emits
  /// one vector load per buffer leaf (a pointer cast to the N-element
  /// OpenCL vector type, which requires N-element alignment) and returns
  /// elements S .. S+N-1. Callers guard it with VecAligned(S, N).
  std::function<std::vector<CVal>(const std::string &S, unsigned N)> VecRead;
  /// C predicate: element S of every buffer leaf is aligned to N elements
  /// ("1" when nothing is loaded).
  std::function<std::string(const std::string &S, unsigned N)> VecAligned;
  /// Stores N values at S .. S+N-1 with one vector store per buffer leaf
  /// (unit-stride output views and split rows of them).
  std::function<void(const std::string &S, const std::vector<CVal> &Vals)> VecWrite;
  /// Rows of a split with a literal chunk: the chunk length, and a C
  /// predicate that this row is complete ("" when every row is: the length
  /// is a known multiple of the chunk). The last row of a ragged split is
  /// shorter (Len is then min(chunk, rest)).
  int64_t Chunk = 0;
  std::string Full;
  /// C expression of the __global address of element S (set on 1-D views
  /// with a literal unit stride and on rows of them): asVector loads with
  /// vloadN and asScalar stores with vstoreN through it.
  std::function<std::string(const std::string &S)> Addr;
  /// An N-lane vector of elements S .. S+N-1 (all of them exist), for
  /// asVector over arrays without Addr: set on pad over arrays with vector
  /// access (Views.cpp).
  std::function<CVal(const std::string &S, unsigned N)> VecAt;
};

/// split(Chunk, Base) as a view: rows of \p ChunkExpr consecutive elements.
/// With a literal chunk (\p ChunkLit > 0) whose multiple the length is not
/// known to be, the last row is ragged (the generator's extension of split
/// to lengths that are not multiples: every element is in exactly one row).
std::shared_ptr<const View> splitView(std::shared_ptr<const View> Base,
                                      const std::string &ChunkExpr,
                                      int64_t ChunkLit);

/// True for the OpenCL vector widths 2, 4, 8 and 16.
inline bool isVectorWidth(int64_t N) { return N == 2 || N == 4 || N == 8 || N == 16; }

/// Bindings of FunIL variables, innermost last, and the scope they extend.
struct EnvFrame {
  std::vector<std::pair<std::string, CVal>> Vars;
  std::shared_ptr<const EnvFrame> Parent;
};

/// Emits OpenCL C statements for FunIL expressions.
class Emitter {
public:
  /// A snapshot of the bindings (scope()), for views that apply a lambda at
  /// each access in the environment where they were made.
  using Scope = std::shared_ptr<const EnvFrame>;

  /// \p Reserved: names the generated code must not declare.
  explicit Emitter(std::set<std::string> Reserved)
      : Used(Reserved.begin(), Reserved.end()) {}
  /// The names \p Shared (which must outlive the emitter) and \p Extra are
  /// reserved; the same as Emitter(Shared with Extra) without copying Shared.
  Emitter(const std::unordered_set<std::string> &Shared, const std::set<std::string> &Extra)
      : Used(Extra.begin(), Extra.end()), SharedUsed(&Shared) {}

  /// Appends a statement line at the current depth.
  void line(const std::string &S) {
    Lines.emplace_back();
    Lines.back().reserve(Depth * 2 + S.size());
    Lines.back().append(Depth * 2, ' ').append(S);
  }
  /// Opens a block: `Head {`.
  void open(const std::string &Head) {
    line(Head + " {");
    ++Depth;
  }
  /// Closes a block.
  void close() {
    --Depth;
    line("}");
  }
  /// A C identifier starting with \p Base, unused so far.
  std::string fresh(const std::string &Base);
  /// Binds FunIL variable \p Name to \p V (innermost binding wins).
  void bind(const std::string &Name, CVal V) { Env.emplace_back(Name, std::move(V)); }
  /// The innermost binding of \p Name, or nullptr when it is unbound.
  const CVal *find(const std::string &Name) const;
  /// Number of bindings, for popTo.
  size_t envDepth() const { return Env.size(); }
  /// Drops the bindings made after envDepth() returned \p D.
  void popTo(size_t D) { Env.resize(D); }
  /// The current bindings (copied once; later bindings do not change it).
  Scope scope() const;
  /// apply(\p Fn, \p Args) with the bindings of \p S in place of the
  /// current ones, which are back afterwards.
  CVal applyIn(const Scope &S, const ExprPtr &Fn, std::vector<CVal> Args);
  /// reorder(\p Fn, \p Base): element i is Base's element Fn(i), Fn applied
  /// at each access in the current bindings (Views.cpp). Also the target of
  /// a root `scatter(Fn, a)`: a's element i is stored at Fn(i).
  std::shared_ptr<const View> reorderView(std::shared_ptr<const View> Base,
                                          ExprPtr Fn);

  /// Generated code for \p E (statements go to Lines, the value is returned).
  CVal emit(const ExprPtr &E);
  /// Applies lambda \p Fn to \p Args (non-trivial scalars are bound to
  /// const temporaries first).
  CVal apply(const ExprPtr &Fn, std::vector<CVal> Args);
  /// Binds each non-trivial scalar leaf of \p V to a const temporary named
  /// after \p Base (tuple component I after Base_I).
  CVal settle(CVal V, const std::string &Base);
  /// settle(V, "v").
  CVal settle(CVal V);
  /// Emits `Dst = Src;` leaf by leaf (Dst leaves are lvalues).
  void assign(const CVal &Dst, const CVal &Src);
  /// Element \p Idx of an array, or of each array of a tuple of arrays.
  CVal elementOf(const CVal &V, const std::string &Idx);

  /// Emits `const T<N> v = *(const __global T<N> *)(Ptr);` and returns the
  /// N components v.s0, v.s1, ...
  std::vector<CVal> vecLoad(const std::string &Ptr, ScalarKind K, unsigned N);
  /// Emits `*(__global T<N> *)(Ptr) = (T<N>)(Vals...);`.
  void vecStore(const std::string &Ptr, ScalarKind K, const std::vector<CVal> &Vals);
  /// Reduces the row \p Row into accumulators \p Acc with lambda \p Fn
  /// (the loop of reduceSeq; a complete, aligned vector chunk is read with
  /// vector loads, anything else element by element), from index \p Start
  /// (an OpenCL C expression: a band's lower end, element by element only)
  /// up to the row's end or, when \p End is not empty, to the smaller of it
  /// and End (a TRMV triangle's upper end, element by element only).
  void foldRow(const ExprPtr &Fn, const CVal &Acc, const View &Row,
               const std::string &Start = "0", const std::string &End = "");

  /// __local arrays (name, element kind) available to toLocal, in leaf
  /// order; all of them are used by one materialisation.
  std::vector<std::pair<std::string, ScalarKind>> LocalPool;

  std::vector<std::string> Lines;
  unsigned Depth = 1;

private:
  CVal emitCall(const funil::Expr &E);
  CVal emitScalarOp(const funil::Expr &E);
  CVal emitReduceSeq(const funil::Expr &E);
  CVal emitToLocal(const funil::Expr &E);
  CVal emitIterate(const funil::Expr &E);
  /// Private variables named after \p Base holding the scalar leaves of
  /// \p Init (a reduceSeq accumulator, an iterate state), as a value of
  /// the same shape; a CodegenError when a leaf is an array.
  CVal mutableCopy(const CVal &Init, const std::string &Base);
  /// transpose, reorder, reorderStride, slide, pad, padClamp, asVector,
  /// asScalar as views (Views.cpp); a CodegenError for other names (and for
  /// scatter, generated only at the root of a store program).
  CVal emitLayout(const funil::Expr &E);
  /// Lane-wise scalar operation or cast with a vector operand (Views.cpp).
  CVal emitLaneWise(const funil::Expr &E, std::vector<CVal> Args);
  /// Lane \p I (a C index expression) of vector \p Vec (Views.cpp).
  CVal laneAt(const CVal &Vec, const std::string &I);
  const CVal &lookup(const std::string &Name) const;
  /// True when \p N is reserved or was returned by fresh.
  bool taken(const std::string &N) const {
    return Used.count(N) || (SharedUsed && SharedUsed->count(N));
  }
  /// Length of the rows of \p A (without emitting code).
  std::string rowLen(const View &A);

  std::vector<std::pair<std::string, CVal>> Env;
  Scope Outer; ///< bindings below Env (inside applyIn)
  std::unordered_set<std::string> Used;
  const std::unordered_set<std::string> *SharedUsed = nullptr; ///< also reserved
  /// Per fresh() base: the suffix it last returned (0: the base itself);
  /// every smaller suffix is taken, so the next search starts there.
  std::unordered_map<std::string, unsigned> LastSuffix;
  bool PoolTaken = false;
  std::vector<std::string> InPlace; ///< storage for toLocal inside iterate
};

/// True when \p S is non-empty and only letters, digits, '_' and '.' (a name,
/// a component access like v.s3, or a number): settle keeps it as it is.
bool isIdentOrNumber(const std::string &S);
/// Leaves of \p V in depth-first order.
void leavesOf(const CVal &V, std::vector<CVal> &Out);
/// `(A) * (B)` with the trivial cases folded.
std::string mulS(const std::string &A, const std::string &B);
/// `(A) + (B)` with the trivial cases folded.
std::string addS(const std::string &A, const std::string &B);
/// `(A) / (B)` with the trivial cases folded.
std::string divS(const std::string &A, const std::string &B);

} // namespace idiom::rewrite::codegen

#endif // IDIOM_REWRITE_LIB_CODEGEN_EMITTER_H
