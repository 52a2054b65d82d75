//===- MatMulGen.h - OpenCL C for tiled matrix products (private) -*- C++ -*-===//
//
// Part of Idiom.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The kernel of the tiled, register-blocked matrix-product form of the
/// matmul rules (MatMulForm.h; seeds/000 section 4, figure 2's "fast OpenCL
/// code"): one work-group per TM x TN output tile (get_group_id(1), (0)),
/// work-item (lx, ly) owns the RM x RN block at rows ly*RM.., columns
/// lx*RN.. of the tile in private scalars, K tiles of TK staged in __local
/// arrays (stored k-major, rows padded to keep vector alignment) with a
/// barrier after each fill and one before the next, the k loop fully
/// unrolled over the private block for complete K tiles and a counted loop
/// for the last partial one. Reads that fill partial tiles are clamped to
/// the last row/column (their products only reach outputs that are not
/// stored); every store is guarded. The fill order follows the unit stride
/// of each operand's view (coalesced reads); reads of the __local arrays
/// use vector loads when the block width is a multiple of 4. Strided row /
/// column groups come from the form (TileParams::GM, GN); padding, vector
/// global fills with a clamped edge path, register-prefetch double
/// buffering and the `#pragma unroll` loop from GemmKernelOptions.
///
//===----------------------------------------------------------------------===//

#ifndef IDIOM_REWRITE_LIB_CODEGEN_MATMULGEN_H
#define IDIOM_REWRITE_LIB_CODEGEN_MATMULGEN_H

#include "Emitter.h"
#include "idiom/Rewrite/Explore.h"

namespace idiom::rewrite::codegen {

/// Emits the kernel body of the tiled matrix-product form \p Body, storing
/// through \p Target (the program's output view, [[T]_N]_M), and returns
/// true; returns false, emitting nothing, when Body is not such a form
/// (matchTiledMatMul). The program's parameters must be bound in \p Em.
/// \p Opts chooses how the kernel is written (padding, vector fills, double
/// buffering, loop form), never what it computes.
bool emitMatMul(Emitter &Em, const ExprPtr &Body, const CVal &Target,
                const GemmKernelOptions &Opts = GemmKernelOptions());

} // namespace idiom::rewrite::codegen

#endif // IDIOM_REWRITE_LIB_CODEGEN_MATMULGEN_H
