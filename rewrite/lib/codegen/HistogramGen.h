//===- HistogramGen.h - histogram kernels (private) -------------*- C++ -*-===//
//
// Part of Idiom.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// OpenCL C for lowered histogram programs (docs/Rewrite.md, "Histogram
/// family"). The kernel follows the map convention of
/// runtime/include/idiomrt.h (IDIOM_MAP, a 1-D NDRange over the elements,
/// the bins an in-place buffer whose host contents are the initial bins):
///
///  - `reduceIndexedAtomic(op, bins, mapGlobal(0, f, a))`: work-item i
///    applies f(a[i]) = (k, v) with one atomic update of bins[k];
///  - `... mapGlobal(0, \r => mapSeq(f, r), strided(globalSize(0), a))`:
///    the same, grid-stride over the elements;
///  - the privatised form of reduce-indexed-privatise: per-work-group bins
///    in local memory (32-bit slots for narrow bins) filled with the
///    identity, a barrier, grid-stride atomic updates of the local bins, a
///    barrier, then one global atomic update per bin that is not the
///    identity.
///
/// Atomics (OpenCL 1.2 built-ins): atomic_add/and/or/xor/min/max on 32-bit
/// integers; atom_add on 64-bit integers (cl_khr_int64_base_atomics); an
/// atomic_cmpxchg / atom_cmpxchg loop on the bit pattern for every other
/// operator (fadd, fmul, uadd.sat, 64-bit min/max/and/or/xor, any other
/// lambda); 8- and 16-bit bins through a cmpxchg loop on their aligned
/// 32-bit word, which requires bins at offset 0 whose byte length is a
/// multiple of 4. A bin index outside [0, m) updates nothing (it is
/// undefined behaviour in the source; the device must not write outside
/// the bins).
///
//===----------------------------------------------------------------------===//

#ifndef IDIOM_REWRITE_LIB_CODEGEN_HISTOGRAMGEN_H
#define IDIOM_REWRITE_LIB_CODEGEN_HISTOGRAMGEN_H

#include "Emitter.h"

#include <string>

namespace idiom::rewrite::codegen {

/// Emits the body of the kernel of lowered histogram program \p P into
/// \p Em, whose program parameters are bound. Throws CodegenError for a
/// shape other than the three above or bins it cannot update atomically.
void emitHistogram(Emitter &Em, const funil::Program &P);

/// Emits one atomic update of bin \p Idx (a C expression in [0, bins)) of
/// lowered histogram program \p P with value \p V, with P's operator (the
/// update emitHistogram emits; SplitKTilesGen.h's combined partial sums).
void emitBinUpdate(Emitter &Em, const funil::Program &P, const std::string &Idx,
                   const CVal &V);
/// `#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable` (with an
/// #error where the device lacks it, so that the build fails and the
/// runtime runs the original loop) when \p P updates 64-bit bins; else "".
std::string histogramPragmas(const funil::Program &P);

} // namespace idiom::rewrite::codegen

#endif // IDIOM_REWRITE_LIB_CODEGEN_HISTOGRAMGEN_H
