//===- GemvPair.h - the two GEMVs of a bicg nest in one kernel --*- C++ -*-===//
//
// Part of Idiom.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The fused GEMV pair (issue 13; docs/Rewrite.md, "Fused GEMV pair"): the
/// two programs of a GEMV pair (`lifts gemv-pair`, PolyBench bicg's
/// `q[i] += A[i][j] p[j]` and `s[j] += r[i] A[i][j]` in one nest), a
/// row-major GEMV q = A p and an in-place GEMV^T s += A^T r over the same
/// matrix, as one kernel that reads the matrix once. Each work-group takes
/// a tile of R consecutive rows; its work-items walk the tile's columns
/// (neighbouring work-items, neighbouring columns: coalesced along j),
/// fold each element into the private partial q of its row and the partial
/// s of its column; the R row partials of q are summed across the
/// work-group by a local-memory tree (each q[i] is one work-group's), the
/// column partials of s are added into s[j] with the compare-and-swap
/// float atomic of the histogram generator (codegen/HistogramGen.cpp), one
/// per column and tile. Both sums are reassociated: the fused kernel
/// exists only under the floating-point licence; without it the pair keeps
/// its two in-order kernels.
///
/// The two programs are lifted and validated each on its own; the fused
/// kernel reads the second program's matrix through the first's
/// parameters, which is the same matrix element exactly when the
/// parameters that unify the two matrix views (`unifyPairMatrices`) are
/// equal at run time. The source says which (`//@idiom-pair-same`); the
/// runtime compares them and runs the two kernels when any differs
/// (runtime/lib/pair.c).
///
//===----------------------------------------------------------------------===//

#ifndef IDIOM_REWRITE_GEMVPAIR_H
#define IDIOM_REWRITE_GEMVPAIR_H

#include "idiom/FunIL/Expr.h"
#include "idiom/Rewrite/OpenCLGen.h"

#include <string>
#include <utility>
#include <vector>

namespace idiom::rewrite {

/// One variant of the fused pair: work-group size and rows per tile.
/// The runtime launches ceil(N / Rows) work-groups of WorkGroup work-items
/// (the marker's `ept=1/W`, W = WorkGroup / Rows).
struct GemvPairVariant {
  unsigned WorkGroup;
  unsigned Rows;
};

/// The fused variants offered, in order (variant 0 first): data, not code.
const std::vector<GemvPairVariant> &gemvPairVariants();

/// Starts the line of the fused source's shared part that lists the
/// parameters that must be equal at run time: `//@idiom-pair-same F0 S0 F1
/// S1 ...`, F a parameter index of the first program, S of the second.
constexpr const char *PairSameMarker = "//@idiom-pair-same";

/// The (first, second) parameter index pairs that make the matrix views of
/// GEMV programs \p First (row-major, y = A x) and \p Second (the
/// transposed form over the same matrix) the same elements: view(B, o, s,
/// N, 1, K) of the first against view(B', o', 1, K', s', N'), unified term
/// by term (B ~ B', o ~ o', s ~ s', N ~ N', K ~ K'), literals equal.
/// Returns false with \p Err when the views differ in shape.
bool unifyPairMatrices(const funil::Program &First, const funil::Program &Second,
                       std::vector<std::pair<unsigned, unsigned>> &Same,
                       std::string &Err);

/// Generates the fused kernel of GEMV pair (\p First, \p Second), one
/// variant per gemvPairVariants() entry, named \p Name (variant k >= 1:
/// `Name_v<k>`). The kernel's parameters are the first program's then the
/// second's (the order of idiom_run_pair's arguments). Returns false with
/// \p Err when the pair is not q = A p with an in-place s += A^T r over
/// one matrix view, float sums whose steps add (laneCombineOp "fadd"), or
/// when \p FPReassoc is off.
bool generateGemvPairFused(const funil::Program &First, const funil::Program &Second,
                           const std::string &Name, bool FPReassoc,
                           GeneratedOpenCL &Out, std::string &Err);

} // namespace idiom::rewrite

#endif // IDIOM_REWRITE_GEMVPAIR_H
