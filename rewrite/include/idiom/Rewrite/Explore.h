//===- Explore.h - bounded exploration of low-level variants ----*- C++ -*-===//
//
// Part of Idiom.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Exploration (DESIGN section 5; seeds/004 section 6: "the exploration
/// space is bounded by the rules and by parameters"): from one high-level
/// program, a small set of low-level variants that differ in parameters
/// the best value of which depends on the device:
///
///  - the work-group size (emitted as reqd_work_group_size; 0 leaves the
///    choice to the runtime, as the default lowering does),
///  - the contiguous elements per work-item step E: E > 1 applies
///    as-vector-map / as-vector-reduce with width E before lowering, so each
///    work-item processes rows of E consecutive elements (with vector loads
///    and stores when the rows are complete and aligned); reductions stay
///    grid-stride over those rows.
///
/// Variants are pruned with limits known at compile time (vectorisation
/// only over contiguous arrays, local memory of the reduction tree) and
/// the final choice is left to measurement: the runtime times the variants
/// on first use and caches the fastest (runtime/README.md).
///
//===----------------------------------------------------------------------===//

#ifndef IDIOM_REWRITE_EXPLORE_H
#define IDIOM_REWRITE_EXPLORE_H

#include "idiom/FunIL/Expr.h"
#include "idiom/Rewrite/Strategy.h"

#include <set>
#include <string>
#include <vector>

namespace idiom::rewrite {

/// Code-generation choices of a tiled matrix-product kernel
/// (codegen/MatMulGen.cpp) that do not change what it computes: every
/// output keeps its sequential k order, so all choices give bit-identical
/// results. Techniques of hand-tuned SGEMMs (docs/Rewrite.md, "Matrix
/// products").
struct GemmKernelOptions {
  /// Elements of padding per __local row (0 or 4; a multiple of 4 keeps
  /// the rows 16-byte aligned).
  unsigned Pad = 4;
  /// Fill complete, aligned operand tiles with 4-wide global loads along
  /// the operand's unit stride (clamped scalar loads otherwise).
  bool VectorFill = false;
  /// Prefetch the next K tile into registers before computing on the
  /// current one, two __local buffers, one barrier per K tile.
  bool DoubleBuffer = false;
  /// A `#pragma unroll` loop over a complete K tile instead of
  /// straight-line code.
  bool UnrollLoop = false;
};

/// The parameters of one low-level variant.
struct VariantParams {
  /// reqd_work_group_size in NDRange dimensions 0 and 1; {0, 0}: the runtime
  /// chooses (the default lowering, variant 0).
  unsigned WorkGroup[2] = {0, 0};
  /// Contiguous elements per work-item step (1, or a vector width 2..16).
  unsigned Elems = 1;
  /// Reductions: stage one gives each work-item one contiguous block of the
  /// input (reduce-two-stage-blocks, what CPUs prefer) instead of a grid
  /// stride (reduce-two-stage, coalesced on GPUs).
  bool Blocked = false;
  /// GEMM programs (GemmExplore.cpp): the matrix-product macro rule's
  /// work-group tile TM x TN and K tile TK ({0, 0, 0}: not tiled, the
  /// default lowering) and the RM x RN outputs per work-item.
  unsigned Tile[3] = {0, 0, 0};
  unsigned Block[2] = {1, 1};
  /// Row and column group widths of a work-item's block (matMulRule's GM,
  /// GN; 0: one group of RM rows / RN columns).
  unsigned Group[2] = {0, 0};
  /// How the tiled kernel is written (not what it computes).
  GemmKernelOptions Kernel;
  /// Operand tiles copied to local memory (to-local-operands).
  bool Local = false;
  /// A GEMM program (every variant evaluates its STEP and POST as written:
  /// `fma` fused, `fmuladd` unfused, as the host does).
  bool Gemm = false;
  /// Histograms (reduceIndexed): where work-items update the bins: not a
  /// histogram, atomics on the global bins, or per-work-group bins in local
  /// memory merged into the global ones (reduce-indexed-privatise).
  enum BinsKind : uint8_t { NoBins, GlobalBins, LocalBins } Bins = NoBins;
  /// Maps of row reductions (RowLanes.h, CSR-vector): RowLanes work-items
  /// per row reading it with that stride, their partial sums combined in
  /// local memory, RowsPerGroup rows per work-group (WorkGroup[0] =
  /// RowLanes * RowsPerGroup); 0: one row per work-item. Reassociates each
  /// row's sum: offered for floating-point sums only under the licence
  /// (ExploreOptions::FPReassoc).
  unsigned RowLanes = 0;
  unsigned RowsPerGroup = 0;
  /// With RowLanes = WorkGroup[0] and RowsPerGroup = 1 (the form of a
  /// work-group per row): the load-balanced schedule of that form, a
  /// work-group per block of consecutive rows of about equal work, the
  /// blocks built by the runtime from the row pointers (CSR-Adaptive,
  /// Greathouse and Daga, SC 2014; idiom_csr_row_blocks in idiomrt.h), a
  /// block of r rows giving each WorkGroup[0] / r work-items (rounded down
  /// to a power of two). The kernel takes the blocks as an extra last
  /// parameter (the marker's `ept=blocks/G`).
  bool RowBlocks = false;
  /// 3-D maps: consecutive planes (outermost loop) each work-item walks in
  /// order (mapWalk3dRule, the marker's `ept=1x1xP`); 0: one plane per
  /// work-item, a 3-D NDRange of single points (map-to-mapGlobal-3d).
  unsigned Planes = 0;
  /// Row lanes: the local dimension of a row's lanes in the lowered form
  /// (mapRowLanesRule's LaneDim): 0, a row's lanes are neighbouring
  /// work-items; 1, neighbouring work-items take neighbouring rows (a
  /// transposed GEMV, whose outputs are contiguous).
  unsigned LaneDim = 0;
  /// Row lanes over contiguous rows: each lane step reads LaneVec (a vector
  /// width) consecutive elements with one vector load per buffer
  /// (reduceSeqLanesVecRule); 0: one element per lane step.
  unsigned LaneVec = 0;
  /// A GEMV^T in place (s[j] += sum_i A[i][j] r[i]) split along its sum:
  /// SplitK work-items per output, each folding every SplitK-th row from
  /// -0.0 and adding its partial sum into s[j] with an atomic (gemvAsSplitK,
  /// then the histogram lowering; the marker's `ept=1/SplitK`); 0: not.
  unsigned SplitK = 0;
  /// 2-D maps: consecutive rows (outer loop) each work-item walks with a
  /// sequential inner loop, on a 1-D NDRange of row chunks
  /// (mapRowWalk2dRule, the marker's `ept=*xR`: the whole inner dimension
  /// by one work-item); 0: not. For CPU devices (the runtime times it only
  /// there).
  unsigned RowWalk = 0;
  /// With SplitK (a multiple of 16): the split-K tiles kernel
  /// (codegen/SplitKTilesGen.h) instead of one (output, slice) pair per
  /// work-item: work-groups of 16 x 16 work-items, each owning 4 adjacent
  /// outputs (one 4-element vector load of the matrix a row, a scalar tail)
  /// of one slice, SplitKUnroll rows' loads issued before their adds, the
  /// 16 slices of a work-group combined in local memory before one atomic
  /// per output (the marker's `ept=1/(SplitK/4)`); 0: not.
  unsigned SplitKUnroll = 0;
};

/// What the compile allows the variants to change.
struct ExploreOptions {
  /// The floating-point reassociation licence (-idiom-fp-reassoc): variants
  /// that reorder a floating-point sum the program writes as a sequential
  /// reduceSeq (the row lanes of a map of row sums) are offered only with it.
  bool FPReassoc = true;
  /// Map kernels take an element offset per buffer parameter (the line
  /// `//@idiom-offsets E0 E1 ...` of OffsetsMarker, OpenCLGen.h; the
  /// runtime's convention in runtime/include/idiomrt.h): the plugin's
  /// kernels, so that a run whose buffer lies inside a device-resident
  /// range uses that range's buffer without a view copy. Off for FunIL
  /// users that set the kernel arguments themselves.
  bool BufferOffsets = false;
};

/// The `ept=` text of the variant's marker line: `E`, or `E0xE1` (RN x RM)
/// for a tiled matrix product.
std::string variantEpt(const VariantParams &V);

/// At most this many variants are emitted per idiom.
constexpr unsigned MaxVariants = 8;

/// One line: "default lowering (work-group size chosen at run time)" or
/// "work-group 256, 4 contiguous elements per work-item step (vector
/// loads/stores)".
std::string describeVariant(const VariantParams &V);

/// The variants of \p P worth emitting, at most \p Max of them. GEMM
/// programs (isCanonicalGemm) get the tiled variants of gemmVariants
/// (docs/Rewrite.md, "Exploration of matrix products"). Otherwise the
/// default lowering first: 1-D maps and reductions over contiguous arrays get
/// work-group sizes {64, 128, 256, 512} and 1, 4, 8 or 16 elements per step,
/// contiguous reductions also a variant with a block per work-item;
/// other maps and reductions work-group sizes only; reductions drop sizes
/// whose local-memory tree needs more than 16 KiB.
std::vector<VariantParams> exploreVariants(const funil::Program &P,
                                           unsigned Max = MaxVariants);
/// exploreVariants with the fusion it classifies by already done: \p Fused
/// is what rewriteProgram(P, fusionStrategy()) gives, or P when that fails
/// (FusedProgram::Fused); nullptr fuses here.
std::vector<VariantParams> exploreVariants(const funil::Program &P, unsigned Max,
                                           const funil::Program *Fused);
/// The same under \p Opts. A 1-D map whose element is one row sum
/// (hasLaneRowReduction, RowLanes.h: a CSR SpMV) gets the default lowering,
/// 4 rows per work-item, and row-lanes variants of 4, 8, 16, 32 and 64
/// work-items per row in work-groups of 256, and a work-group of 256 per
/// row; a floating-point row sum only with Opts.FPReassoc (else the
/// variants of a 1-D map, one row per work-item, each summed in order).
std::vector<VariantParams> exploreVariants(const funil::Program &P, unsigned Max,
                                           const funil::Program *Fused,
                                           const ExploreOptions &Opts);

/// The variants of a GEMM program (isCanonicalGemm of its body), at most
/// \p Max: tiled, register-blocked variants with and without local memory
/// and the default lowering last, pruned by local memory (<= 48 KiB), the
/// work-group size (<= 256) and the private accumulators (<= 256 bytes per
/// work-item). Variant 0 is the best-known tiled variant for the element
/// type (GemmExplore.cpp).
std::vector<VariantParams> gemmVariants(const funil::Program &P, unsigned Max);
/// The same under \p Opts. A GEMV (isGemvProgram, Gemv.h) gets the default
/// lowering, fixed 1-D work-groups and tiles with one row, each output
/// summed in order; under Opts.FPReassoc (a GEMM program's sums are float
/// or double) also row lanes (W work-items per output, gemvAsRowMap
/// then the row-lanes rules), chosen by gemvLayout: lanes along a
/// contiguous row, or neighbouring work-items on neighbouring outputs of a
/// transposed GEMV (docs/Rewrite.md, "Row lanes of a GEMV").
std::vector<VariantParams> gemmVariants(const funil::Program &P, unsigned Max,
                                        const ExploreOptions &Opts);

/// The tiled variants of a TRMM's band program (isBandGemm; docs/FunIL.md,
/// "TRMM programs"), at most \p Room: the matrix-product rule's tiles with
/// every step keeping the band's mask, pruned as gemmVariants prunes.
/// exploreVariants appends them after the 2-D map variants.
std::vector<VariantParams> bandTileVariants(const funil::Program &P, unsigned Room);

/// The whole GEMM candidate set (more than MaxVariants; the default
/// variants are a subset), pruned alike, the default lowering last: for
/// ranking on a device (bench/build_sgemm_carry.sh), not for the plugin.
std::vector<VariantParams> gemmCandidates(const funil::Program &P);

/// The strategy of GEMM variant \p V: the
/// matrix-product macro rule of V's tiles (and to-local-operands when
/// V.Local), or the default map lowering when V is not tiled.
Strategy gemmVariantStrategy(const VariantParams &V);

/// The strategy that lowers \p P for \p V (the default strategy of P's
/// statement kind, with as-vector-* of width V.Elems at the root first when
/// V.Elems > 1).
Strategy variantStrategy(const funil::Program &P, const VariantParams &V);

/// Rewrites \p P with variantStrategy. Returns false with \p Err when the
/// result does not type check, or when V.Elems > 1 and the vectorisation
/// rule does not apply.
bool lowerVariant(funil::Program &P, const VariantParams &V, std::string &Err,
                  std::vector<std::string> *Trace = nullptr);

/// The fusion step that every variant of a map or reduction program starts
/// with (fusionStrategy in variantStrategy), run once per program, and the
/// rule context as it leaves it, so that each variant continues from there
/// and gets the names it would get running the whole strategy.
struct FusedProgram {
  funil::Program Input; ///< the program given to fuseOnce
  /// False for GEMM and histogram programs, whose strategies do not start
  /// with fusion: lowerVariant then runs the whole strategy.
  bool Shared = false;
  ExprPtr Body;                   ///< Input.Body after fusionStrategy
  std::set<std::string> Names;    ///< RuleContext::Names after it
  std::vector<std::string> Trace; ///< the rules it applied
  std::string Err;                ///< "rewriting failed: ..." if it threw
  /// For exploreVariants: Input with Body when that type checks, else Input.
  funil::Program Fused;
};

/// Runs fusionStrategy on \p P once (exactly as rewriteProgram would).
FusedProgram fuseOnce(const funil::Program &P);

/// lowerVariant of a copy of F.Input into \p Out, the fusion step taken from
/// \p F: the same program, trace checks and errors.
bool lowerVariant(const FusedProgram &F, const VariantParams &V, funil::Program &Out,
                  std::string &Err);

} // namespace idiom::rewrite

#endif // IDIOM_REWRITE_EXPLORE_H
