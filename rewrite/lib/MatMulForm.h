//===- MatMulForm.h - the matrix-product forms (private) --------*- C++ -*-===//
//
// Part of Idiom.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The two shapes the matrix-product rules work with (seeds/000, "Case
/// Study: Matrix Multiplication", sections 4.2 tiling and 4.3 register
/// blocking; docs/Rewrite.md, "Matrix products"):
///
///  - the canonical GEMM map program of the lifting contract,
///      map(\r => map(\q => POST(reduceSeq(STEP, INIT, zip(r.0, q.0)), q.1),
///                    zip(B, r.1)),
///          zip(A, C))
///    with A: [[T]_K]_M (rows of A), B: [[T]_K]_N (columns of B), C:
///    [[T]_N]_M, recognised by matchCanonicalGemm (and the band program of
///    a TRMM, matchBandGemm: the same with a band of the row's index on
///    the reduction);
///  - its tiled, register-blocked low-level form (buildTiledMatMul): TM x
///    TN output tiles per work-group (mapWorkgroup 1 and 0), RM x RN
///    private accumulator blocks per work-item (mapLocal 1 and 0,
///    toPrivate), a reduceSeq over K tiles of TK that keeps every output
///    element's k order sequential, optionally with the operand tiles
///    copied to local memory (toLocal), and views (split, join, zip, and
///    the transposition by views TR(x) = map(\j => map(\r => at(r, j), x),
///    iota(n))) that rearrange data without computing.
///
/// matchTiledMatMul recognises exactly what buildTiledMatMul (plus the
/// to-local-operands rule) produces, by rebuilding it from the parameters
/// it reads and comparing up to the names of bound variables; the OpenCL
/// generator (codegen/MatMulGen.cpp) emits the kernel of such a form.
///
//===----------------------------------------------------------------------===//

#ifndef IDIOM_REWRITE_LIB_MATMULFORM_H
#define IDIOM_REWRITE_LIB_MATMULFORM_H

#include "idiom/FunIL/Expr.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace idiom::rewrite::matmul {

using funil::ExprPtr;

/// The pieces of a canonical GEMM program body.
struct GemmParts {
  ExprPtr A, B, C;   ///< 2-D views: A [[T]_K]_M, B [[T]_K]_N, C [[T]_N]_M
  ExprPtr Step;      ///< \(acc: T, x: (T, T)) => STEP, x.0 from A, x.1 from B
  ExprPtr Init;      ///< \(c: T) => INIT (c: the element of C)
  ExprPtr Post;      ///< \(w: (T, T)) => POST (w.0: the reduction, w.1: c)
  funil::ScalarKind T = funil::ScalarKind::F32;
  /// The second operand pair of a GEMM program with two products per step
  /// (BLAS SYR2K; docs/FunIL.md "GEMM programs with two products"): A2
  /// [[T]_K]_M zipped after the rows, B2 [[T]_K]_N after the columns, STEP
  /// then reading x: (T, T, T, T), x.2 from A2 and x.3 from B2; null for
  /// one product.
  ExprPtr A2, B2;
  /// True for two products per step.
  bool pairs() const { return A2 != nullptr; }
  /// The band of a TRMM program (docs/FunIL.md, "TRMM programs: a band on
  /// the reduction"): step k of row i adds its product only when k >= E(i)
  /// (an upper band, !Lower) or k < E(i) (a lower triangle, Lower), and
  /// keeps acc otherwise; Bound is \(i: i64) => E, free of everything but
  /// i and the program's parameters. Step is then the unmasked STEP over
  /// (T, T). Null Bound: no band (never with two products).
  struct BandMask {
    ExprPtr Bound;      ///< \(i: i64) => E; null: no band
    bool Lower = false; ///< adds when k < E(i), else when k >= E(i)
  } Band;
  /// True for a band program.
  bool banded() const { return Band.Bound != nullptr; }
};

/// Tile sizes: TM x TN outputs per work-group, K tiles of TK, RM x RN
/// outputs per work-item; the work-group is (TN/RN) x (TM/RM).
///
/// GM, GN: a work-item's RM rows are RM/GM groups of GM consecutive rows,
/// group g of work-item ly starting at tile row g*WY*GM + ly*GM (likewise
/// columns with GN, WX); 0 means GM = RM (one group: rows ly*RM..). Strided
/// groups of 4 keep the float4 reads of the __local rows of neighbouring
/// work-items consecutive (no bank conflicts).
struct TileParams {
  int64_t TM = 0, TN = 0, TK = 0, RM = 1, RN = 1, GM = 0, GN = 0;
  int64_t wgX() const { return RN ? TN / RN : 0; }
  int64_t wgY() const { return RM ? TM / RM : 0; }
  /// The row (column) group widths, GM (GN) or RM (RN) when 0.
  int64_t gm() const { return GM ? GM : RM; }
  int64_t gn() const { return GN ? GN : RN; }
  /// Sizes positive, RM | TM, RN | TN, gm() | RM, gn() | RN.
  bool valid() const;
};

/// The triangle of a triangular GEMM program (docs/FunIL.md, "Triangular
/// GEMM programs"; BLAS SYRK's lower triangle): element (i, j) of C is
/// computed when kT < Base + Slope * k0, with (k0, kT) = (i, j) when
/// Columns, else (j, i); the other elements keep C's value.
struct Triangle {
  bool Columns = true;
  int64_t Base = 0, Slope = 0;
};

/// Fresh-name source for builders.
using FreshFn = std::function<std::string(const std::string &)>;

/// Recognises the canonical GEMM shape (before or after fusion) and fills
/// \p G; with two products per step, the outer zip is zip(A, C, A2), the
/// inner zip(B, r.1, B2) and the reduction's input zip(r.0, q.0, r.2,
/// q.2). False when \p Body has another shape, B depends on the row, or
/// POST / INIT use anything but the reduction, the element of C and names
/// free in the program.
bool matchCanonicalGemm(const ExprPtr &Body, GemmParts &G);

/// Recognises the triangular GEMM program: the canonical shape whose maps
/// also zip iota(M) and iota(N) and whose element is
/// select(icmp_slt(kT, add(Base, mul(Slope, k0))), POST(...), q.1), k0 and
/// kT being r.2 and q.2 in either order; fills \p G as matchCanonicalGemm
/// does and \p Tri. With two products per step the zips end with A2 and B2
/// (r.3, q.3).
bool matchTriangularGemm(const ExprPtr &Body, GemmParts &G, Triangle &Tri);

/// Recognises the band program of a TRMM (docs/FunIL.md, "TRMM programs"):
///   map(\r => map(\q => POST(reduceSeq(\(acc, x: (T, T, i64)) =>
///       select(icmp_slt(x.2, E(r.2)), acc, STEP) | select(.., STEP, acc),
///       INIT, zip(r.0, q.0, iota(K)))), zip(B, r.1)), zip(A, C, iota(M)))
/// filling \p G as matchCanonicalGemm does (Step the unmasked STEP) and
/// G.Band. False for any other mask (E reading acc, x, q or r other than
/// r.2; STEP reading x.2) or shape.
bool matchBandGemm(const ExprPtr &Body, GemmParts &G);

/// The band program's step for a row whose index is \p Row: \(acc, x:
/// (T, T, i64)) => select(icmp_slt(x.2, E(Row)), acc, STEP) (upper) or
/// select(.., STEP, acc) (lower). Requires G.banded().
ExprPtr bandStep(const GemmParts &G, const ExprPtr &Row);

/// The elements of \p Full ([[T]_N]_M, every element computed) inside
/// \p Tri, the others from G.C:
///   map(\r => map(\q => select(MASK, q.0, q.1), zip(r.0, r.1, iota(N))),
///       zip(Full, C, iota(M)))
ExprPtr mergeTriangle(const ExprPtr &Full, const GemmParts &G, const Triangle &Tri,
                      const FreshFn &Fresh);

/// Recognises mergeTriangle's form, reading back \p Full, \p C and \p Tri.
bool matchMergeTriangle(const ExprPtr &Body, ExprPtr &Full, ExprPtr &C, Triangle &Tri);

/// The canonical body of \p G (inverse of matchCanonicalGemm).
ExprPtr buildCanonicalGemm(const GemmParts &G, const FreshFn &Fresh);

/// The tiled, register-blocked form (see the file comment); operands read
/// from the views (the to-local-operands rule adds local copies).
ExprPtr buildTiledMatMul(const GemmParts &G, const TileParams &P, const FreshFn &Fresh);

/// The input of the K-tile reduceSeq with each tuple of operand tiles
/// copied to local memory: mapSeq(\t => (toLocal(copy2D(t.0)), ...,
/// toLocal(copy2D(t.n))), In), copy2D = mapLocal(1, \r => mapLocal(0, \v =>
/// v, r), .); \p Tiles are the tile types (two, or four for two products);
/// a 1-D tile (a band program's K indices, [i64]_TK) is passed through as
/// t.I, not copied.
ExprPtr localCopies(const ExprPtr &In, const std::vector<funil::TypePtr> &Tiles,
                    const FreshFn &Fresh);

/// Recognises a form built by buildTiledMatMul, with or without the local
/// copies (\p Local tells which), reading back its parts and parameters.
bool matchTiledMatMul(const ExprPtr &Body, GemmParts &G, TileParams &P, bool &Local);

/// Equality up to the names of lambda parameters (free names must agree).
bool alphaEqual(const ExprPtr &A, const ExprPtr &B);

} // namespace idiom::rewrite::matmul

#endif // IDIOM_REWRITE_LIB_MATMULFORM_H
