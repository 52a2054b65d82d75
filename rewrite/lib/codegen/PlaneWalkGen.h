//===- PlaneWalkGen.h - register-rotating plane walks (private) -*- C++ -*-===//
//
// Part of Idiom.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The kernel of a plane walk (mapWalk3dRule) over a zip of 3-D views of
/// one buffer with the same strides, the form a lifted 3-D stencil takes:
///
///   join(mapGlobal(2, \c => mapSeq(\p => mapGlobal(1, \r =>
///        mapGlobal(0, g, zip(r.0, .., r.K-1)), zip(p.0, .., p.K-1)), c),
///        split(P, zip(view(b, o_0, s0, n0, s1, n1, s2, n2), ..))))
///
/// Each work-item (i0, i1) walks planes i2 * P .. of its chunk and keeps the
/// K values it read at plane p in registers: at plane p + 1, view k's value
/// is view j's value at plane p when o_k + s0 == o_j (a stencil's
/// z-neighbours: the 2.5-D scheme of Micikevicius, GPGPU 2009), so only the
/// views without such a j are loaded. The offsets are run-time values: the
/// kernel decides which view feeds which once, before the walk (uniform
/// across work-items), and loads a view whose source it cannot prove. The
/// first plane of a chunk loads every view. The next plane's values (rotated
/// or loaded) are read before the current plane's store, so its loads are in
/// flight while the store issues (software pipelining; a map's output does
/// not feed its inputs, so the order is the generic kernel's in effect).
/// Every point is computed by g
/// on the same values as in the generic kernel: results are bit-identical.
///
//===----------------------------------------------------------------------===//

#ifndef IDIOM_REWRITE_LIB_CODEGEN_PLANEWALKGEN_H
#define IDIOM_REWRITE_LIB_CODEGEN_PLANEWALKGEN_H

#include "Emitter.h"

namespace idiom::rewrite::codegen {

/// Emits the plane walk \p Walk (the mapGlobal(2, ...) of the form above)
/// storing into the 3-D \p Target (not split) and returns true, or returns
/// false, emitting nothing, when \p Walk does not have the form.
bool emitPlaneWalk(Emitter &Em, const ExprPtr &Walk, const CVal &Target);

} // namespace idiom::rewrite::codegen

#endif // IDIOM_REWRITE_LIB_CODEGEN_PLANEWALKGEN_H
