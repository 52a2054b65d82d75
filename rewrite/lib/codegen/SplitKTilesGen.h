//===- SplitKTilesGen.h - split-K GEMV^T tiles (private) --------*- C++ -*-===//
//
// Part of Idiom.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A second kernel for the lowered split-K GEMV^T (gemvAsSplitK, then the
/// histogram lowering; docs/Rewrite.md, "Split-K GEMV^T"):
///
///   reduceIndexedAtomic(op, view(C, ..., N),
///     mapGlobal(0, \t => (srem(t, N), reduceSeq(f, z, at(strided(S, XS), sdiv(t, N)))),
///               iota(mul(N, S))))
///
/// with XS = zip(XV, at(view(B, oB, 1, N, sB, K), srem(t, N))) (either
/// order; XV free of t): pair t is output j = t mod N, slice t div N, which
/// folds f from z over rows slice, slice + S, ... of column j. HistogramGen
/// gives each pair one work-item; this kernel gives it a tile:
///
///  - work-groups of 256 = 16 x 16 work-items walk tiles of 64 outputs x 16
///    slices (tile w: outputs (w mod nb) * 64 .., slices (w div nb) * 16 ..,
///    nb = ceil(N / 64); a group-stride loop over the nb * S / 16 tiles, so
///    any number of work-groups computes every pair once);
///  - work-item l takes outputs j .. j+3 (j = tile's first + 4 (l mod 16))
///    of slice l div 16: one 4-element vector load of the matrix a row
///    (16-byte loads, a warp reading 256 consecutive bytes of two rows)
///    where the matrix is aligned to it (a uniform run-time test of its
///    address and row stride) and j + 3 < N, else each output element by
///    element (the scalar tail);
///  - U rows' loads are issued before their folds (the rows k, k + S, ...,
///    k + (U-1) S, then f on each in row order), so every work-item keeps U
///    vector loads in flight;
///  - the 16 slices' partial sums of an output are combined with op in
///    local memory (a halving tree, a barrier after each step, reached by
///    every work-item), and one atomic update per output and tile adds them
///    to the bin (emitBinUpdate: the cmpxchg loop of a float fadd), 16 times
///    fewer atomics than one per pair.
///
/// Each pair's partial sum is f folded in row order from z, as the FunIL
/// program (and HistogramGen's kernel) computes it; only the order in which
/// op combines the bin with the S partial sums differs, which a histogram
/// leaves open (atomics) and which the GEMV^T's split-K takes under the
/// floating-point reassociation licence. The runtime launches roundup(N *
/// S / 4, 256) work-items (the marker's `ept=1/(S/4)`).
///
//===----------------------------------------------------------------------===//

#ifndef IDIOM_REWRITE_LIB_CODEGEN_SPLITKTILESGEN_H
#define IDIOM_REWRITE_LIB_CODEGEN_SPLITKTILESGEN_H

#include "Emitter.h"

namespace idiom::rewrite::codegen {

/// Work-items of a split-K tile's work-group, and slices per tile.
constexpr unsigned SplitKTileGroup = 256, SplitKTileSlices = 16;

/// Emits the tiled kernel body of lowered split-K program \p P (the form
/// above, S a multiple of 16) with \p Unroll (1 .. 16) rows' loads before
/// their folds. The program's parameters must be bound in \p Em. Throws
/// CodegenError when P is not that form.
void emitSplitKTiles(Emitter &Em, const funil::Program &P, unsigned Unroll);

} // namespace idiom::rewrite::codegen

#endif // IDIOM_REWRITE_LIB_CODEGEN_SPLITKTILESGEN_H
