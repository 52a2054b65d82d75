//===- GemmExplore.cpp - the variants of a matrix product ------------------===//
//
// Part of Idiom. Exploration for GEMM programs (DESIGN section 5; seeds/000,
// "Heuristics for Matrix Multiplication": the macro rules are applied with
// a small set of tile parameters, pruned by resource limits, and the
// choice is left to measurement, runtime/lib/tuning.c).
//
//===----------------------------------------------------------------------===//

#include "idiom/Rewrite/DefaultStrategies.h"
#include "idiom/Rewrite/Explore.h"
#include "idiom/Rewrite/Gemv.h"
#include "idiom/Rewrite/RowLanes.h"
#include "idiom/Rewrite/Rules.h"

#include "idiom/FunIL/Type.h"

#include <algorithm>

namespace idiom::rewrite {

using funil::Expr;
using funil::Program;

namespace {

struct GemmRow {
  unsigned TM, TN, TK, RM, RN;
  bool Local;
  unsigned G;     ///< row and column group width (0: one group)
  unsigned Pad;   ///< __local row padding
  bool Vec, Dbl, Loop; ///< vector fills, double buffering, #pragma unroll loop
};

// The candidate set (bench/build_sgemm_carry.sh ranks all of them on a
// device; docs/Benchmarks.md). {0, ...}: the default lowering.
const GemmRow Candidates[] = {
    /* 0*/ {128, 128, 8, 8, 8, true, 4, 4, true, true, false},
    /* 1*/ {128, 128, 8, 8, 8, true, 4, 4, true, true, true},
    /* 2*/ {128, 128, 16, 8, 8, true, 4, 4, true, true, false},
    /* 3*/ {128, 128, 16, 8, 8, true, 4, 4, true, false, false},
    /* 4*/ {128, 128, 8, 8, 8, true, 4, 4, true, false, false},
    /* 5*/ {128, 128, 8, 8, 8, true, 4, 0, true, true, false},
    /* 6*/ {128, 128, 16, 8, 8, true, 4, 0, true, true, false},
    /* 7*/ {128, 64, 16, 8, 4, true, 4, 4, true, true, false},
    /* 8*/ {128, 64, 16, 8, 4, true, 4, 4, true, false, false},
    /* 9*/ {128, 64, 8, 8, 4, true, 4, 4, true, true, false},
    /*10*/ {64, 128, 16, 4, 8, true, 4, 4, true, true, false},
    /*11*/ {64, 64, 16, 4, 4, true, 0, 4, true, true, false},
    /*12*/ {64, 64, 32, 4, 4, true, 0, 4, true, true, false},
    /*13*/ {128, 128, 16, 8, 8, true, 0, 4, true, true, false},
    /*14*/ {128, 128, 8, 8, 8, true, 0, 4, false, false, false},
    /*15*/ {128, 64, 16, 8, 4, true, 0, 4, false, false, false},
    /*16*/ {128, 128, 32, 8, 8, true, 4, 4, true, false, true},
    /*17*/ {128, 64, 32, 8, 4, true, 4, 0, true, true, true},
    /*18*/ {128, 64, 16, 8, 8, true, 4, 4, true, true, false},
    /*19*/ {64, 128, 16, 8, 8, true, 4, 4, true, true, false},
    /*20*/ {64, 64, 16, 8, 8, true, 4, 4, true, true, false},
    /*21*/ {64, 64, 16, 8, 4, true, 4, 4, true, true, false},
    /*22*/ {128, 32, 16, 8, 4, true, 4, 4, true, true, false},
    /*23*/ {64, 128, 8, 8, 8, true, 4, 4, true, true, false},
    /*24*/ {128, 64, 8, 8, 8, true, 4, 4, true, true, false},
    /*25*/ {128, 128, 16, 8, 8, true, 4, 4, true, true, true},
    /*26*/ {128, 64, 16, 8, 4, true, 4, 4, true, true, true},
    /*27*/ {64, 64, 8, 4, 4, true, 0, 4, true, true, false},
    /*28*/ {32, 32, 16, 4, 4, true, 0, 4, true, true, false},
    /*29*/ {128, 128, 8, 8, 8, true, 4, 4, false, true, false},
    /*30*/ {128, 64, 16, 8, 4, true, 4, 4, false, false, false},
    /*31*/ {128, 128, 8, 8, 8, false, 0, 4, false, false, false},
    /*32*/ {64, 64, 16, 8, 8, true, 4, 0, true, false, true},
    /*33*/ {64, 64, 8, 4, 4, true, 0, 4, false, true, false},
    /*34*/ {64, 64, 8, 8, 8, false, 4, 4, false, false, false},
};

/// The default variants, fastest first on the H200 (indices into
/// Candidates; the ranking of the 36 candidates, 2026-11-21, is in
/// docs/Benchmarks.md: 25 and 2 tie at 43.3 TFLOP/s, 25 is the smaller
/// source), then the default lowering when there is room. Rows over the
/// limits of the element type are skipped (f64 keeps 21, 11, 26, 12, 27, 28).
const unsigned DefaultOrder[] = {25, 19, 18, 20, 6, 3, 21, 11, 26, 12, 27, 28};

/// Limits known at compile time (conservative: every GPU we target has at
/// least these).
constexpr unsigned MaxWorkGroup = 256;
constexpr unsigned MaxAccumulatorBytes = 256; ///< private accumulators per work-item

unsigned elementBytes(const Program &P) {
  for (const funil::Param &Pa : P.Params)
    if (Pa.Ty->isBuffer())
      return funil::scalarBits(Pa.Ty->Elem->S) / 8;
  return 4;
}

/// The operand pairs of a GEMM program: 2 with two products per step (BLAS
/// SYR2K: four __local tiles instead of two), else 1.
unsigned operandPairs(const Program &P) { return isTwoProductGemm(P.Body) ? 2 : 1; }

/// Row \p R as a variant, or false when it exceeds a limit for elements of
/// \p Bytes with \p Pairs operand pairs.
bool fromRow(const GemmRow &R, unsigned Bytes, VariantParams &V, unsigned Pairs = 1) {
  V = VariantParams();
  V.Gemm = true;
  unsigned WX = R.TN / R.RN, WY = R.TM / R.RM;
  unsigned Bufs = R.Dbl ? 2 : 1;
  unsigned LocalBytes =
      R.Local ? Pairs * Bufs * R.TK * (R.TM + R.Pad + R.TN + R.Pad) * Bytes : 0;
  if (WX * WY > MaxWorkGroup || R.RM * R.RN * Bytes > MaxAccumulatorBytes ||
      LocalBytes > MaxLocalBytes)
    return false;
  V.WorkGroup[0] = WX;
  V.WorkGroup[1] = WY;
  V.Tile[0] = R.TM;
  V.Tile[1] = R.TN;
  V.Tile[2] = R.TK;
  V.Block[0] = R.RM;
  V.Block[1] = R.RN;
  V.Group[0] = R.G && R.G < R.RM ? R.G : 0;
  V.Group[1] = R.G && R.G < R.RN ? R.G : 0;
  V.Local = R.Local;
  V.Kernel.Pad = R.Pad;
  V.Kernel.VectorFill = R.Vec;
  V.Kernel.DoubleBuffer = R.Local && R.Dbl;
  V.Kernel.UnrollLoop = R.Loop;
  return true;
}

VariantParams defaultLowering() {
  VariantParams V;
  V.Gemm = true;
  return V;
}

/// Work-group sizes of the GEMV variants after the default lowering: one
/// output per work-item along OpenCL dimension 0 (the runtime's NDRange
/// is {N, 1}); the tiles of a GEMM would compute mostly padding.
const unsigned GemvWorkGroups[] = {128, 256, 64};

/// GEMV tiles: one row (TM = 1), TN outputs per work-group, the matrix
/// read in TK x TN tiles through local memory by the whole work-group, so
/// that a row-major y = A x, whose work-items each walk a row, still reads
/// memory in consecutive runs.
const GemmRow GemvTiles[] = {
    {1, 64, 64, 1, 1, true, 0, 4, false, false, false},
    {1, 128, 32, 1, 1, true, 0, 4, false, false, false},
    {1, 256, 16, 1, 16, false, 0, 4, false, false, false},
};

/// Row lanes of a GEMV: W work-items per output, R outputs per work-group,
/// the lanes' local dimension (VariantParams::LaneDim).
struct GemvLanes {
  unsigned W, R, Dim;
};

/// Lanes along a contiguous row (y = A x, row-major): a warp (32) up to a
/// work-group (256) per output, so that 8192 outputs are 2^18 to 2^21
/// work-items and a work-group reads whole 128-byte lines of its rows.
const GemvLanes RowLanesShapes[] = {{32, 8, 0}, {64, 4, 0}, {128, 2, 0}, {256, 1, 0}};
/// Outputs in neighbouring work-items (s = A^T r): R consecutive outputs
/// per work-group read R consecutive elements (64 or 128 bytes of floats)
/// of W matrix rows per step, each sum split into W strided chunks of the
/// reduction; 16 to 64 lanes, so that 8192 outputs are 2^17 to 2^19
/// work-items, enough loads in flight to cover a GPU's memory latency.
/// (16, 16) last: its work-groups read half a 128-byte line of a float row
/// per step; an in-place GEMV^T's split-K variants take its place.
const GemvLanes ColumnLanesShapes[] = {{16, 32, 1}, {32, 32, 1}, {64, 16, 1}, {16, 16, 1}};
/// Vector-load lanes along a contiguous row: W lanes each reading 4
/// consecutive elements a step (float4 / double4 loads of the row and of
/// x), R rows per work-group of 256 (reduceSeqLanesVecRule).
const GemvLanes RowVecLanesShapes[] = {{32, 8, 0}, {64, 4, 0}};
constexpr unsigned GemvLaneVec = 4;
/// Split-K of an in-place GEMV^T (gemvAsSplitK): S work-items per output,
/// work-groups of 256 consecutive outputs; for n = 8192, 2^18 work-items
/// each folding n / 32 rows (the best GEMV^T kernel on the H200, 68% of the
/// copy bandwidth; S = 64 was dropped for the tiles below).
const unsigned SplitKSlices[] = {32};
/// The split-K tiles (codegen/SplitKTilesGen.h): (S, U) = S slices, U rows'
/// vector loads before their adds. For n = 8192: 2^18 work-items each
/// folding 64 rows of 4 outputs 8 at a time, and 2^19 folding 32 rows 4 at
/// a time (1024 and 2048 work-groups of 256, 8 and 16 per H200 SM).
const unsigned SplitKTiles[][2] = {{128, 8}, {256, 4}};
/// Run-time strides: two of each.
const GemvLanes UnknownLanesShapes[] = {{32, 8, 0}, {256, 1, 0}, {16, 32, 1}, {32, 32, 1}};

VariantParams gemvLanes(const GemvLanes &L) {
  VariantParams V = defaultLowering();
  V.WorkGroup[0] = L.W * L.R;
  V.WorkGroup[1] = 1;
  V.RowLanes = L.W;
  V.RowsPerGroup = L.R;
  V.LaneDim = L.Dim;
  return V;
}

/// The GEMV variants: in-order ones (the default lowering, fixed 1-D
/// work-groups, one-row tiles), and with \p Lanes (the licence) the
/// default lowering, one in-order variant a CPU device prefers (work-group
/// 128 for y = A x, 16 outputs per work-item for the transposed form; a CPU
/// does not time lanes), two of the licensed kernels for P's layout
/// (vector-load lanes for y = A x, split-K for the in-place transposed
/// form) and four row-lanes shapes. The in-order tiles and the other CPU
/// variant were at most 19-20% of the copy bandwidth on the H200, where the
/// row lanes reached 74-78% (docs/Benchmarks.md): they make room.
std::vector<VariantParams> gemvVariants(const Program &P, unsigned Max, bool Lanes) {
  unsigned Bytes = elementBytes(P);
  std::vector<VariantParams> Out{defaultLowering()};
  auto Add = [&](const VariantParams &V) {
    if (Out.size() < Max)
      Out.push_back(V);
  };
  auto AddTile = [&](const GemmRow &R) {
    VariantParams V;
    if (fromRow(R, Bytes, V))
      Add(V);
  };
  VariantParams WG = defaultLowering();
  WG.WorkGroup[1] = 1;
  if (!Lanes) {
    for (unsigned W : GemvWorkGroups) {
      WG.WorkGroup[0] = W;
      Add(WG);
    }
    for (const GemmRow &R : GemvTiles)
      AddTile(R);
    return Out;
  }
  GemvLayout L = gemvLayout(P);
  WG.WorkGroup[0] = GemvWorkGroups[0];
  if (L == GemvLayout::RowContiguous) {
    Add(WG);
    for (const GemvLanes &S : RowVecLanesShapes) {
      VariantParams V = gemvLanes(S);
      V.LaneVec = GemvLaneVec;
      Add(V);
    }
  } else if (L == GemvLayout::ColumnContiguous) {
    AddTile(GemvTiles[2]);
    Program Q = P;
    std::string Err;
    if (gemvAsRowMap(Q, Err) && gemvAsSplitK(Q, 2, Err)) { // in place
      VariantParams V = defaultLowering();
      V.WorkGroup[0] = 256;
      V.WorkGroup[1] = 1;
      for (unsigned S : SplitKSlices) {
        V.SplitK = S;
        Add(V);
      }
      for (const auto &T : SplitKTiles) {
        V.SplitK = T[0];
        V.SplitKUnroll = T[1];
        Add(V);
      }
    }
  } else {
    Add(WG);
    AddTile(GemvTiles[1]);
    AddTile(GemvTiles[2]);
  }
  const GemvLanes *Shapes = L == GemvLayout::RowContiguous      ? RowLanesShapes
                            : L == GemvLayout::ColumnContiguous ? ColumnLanesShapes
                                                                : UnknownLanesShapes;
  for (unsigned I = 0; I < 4; ++I)
    Add(gemvLanes(Shapes[I]));
  return Out;
}

} // namespace

std::vector<VariantParams> gemmVariants(const Program &P, unsigned Max) {
  return gemmVariants(P, Max, ExploreOptions());
}

std::vector<VariantParams> gemmVariants(const Program &P, unsigned Max,
                                        const ExploreOptions &Opts) {
  Max = std::max(1u, Max);
  if (isGemvProgram(P))
    return gemvVariants(P, Max, Opts.FPReassoc); // float or double sums
  unsigned Bytes = elementBytes(P), Pairs = operandPairs(P);
  std::vector<VariantParams> Out;
  for (unsigned I : DefaultOrder) {
    VariantParams V;
    if (Out.size() < Max && fromRow(Candidates[I], Bytes, V, Pairs))
      Out.push_back(V);
  }
  if (Out.size() < Max)
    Out.push_back(defaultLowering());
  return Out;
}

std::vector<VariantParams> bandTileVariants(const Program &P, unsigned Room) {
  // The best-known GEMM tiles for the element type (DefaultOrder's first
  // that fits: a GPU's), then small tiles a CPU device keeps in cache
  // (Candidates[28], 32x32x16, 4x4 per work-item).
  unsigned Bytes = elementBytes(P);
  std::vector<VariantParams> Out;
  VariantParams V;
  for (unsigned I : DefaultOrder)
    if (fromRow(Candidates[I], Bytes, V)) {
      Out.push_back(V);
      break;
    }
  if (fromRow(Candidates[28], Bytes, V))
    Out.push_back(V);
  if (Out.size() > Room)
    Out.resize(Room);
  return Out;
}

std::vector<VariantParams> gemmCandidates(const Program &P) {
  unsigned Bytes = elementBytes(P), Pairs = operandPairs(P);
  std::vector<VariantParams> Out;
  for (const GemmRow &R : Candidates) {
    VariantParams V;
    if (fromRow(R, Bytes, V, Pairs))
      Out.push_back(V);
  }
  Out.push_back(defaultLowering());
  return Out;
}

Strategy gemmVariantStrategy(const VariantParams &V) {
  // No fmuladd-to-fma: the lifter writes `fma` where the host's back end
  // fuses llvm.fmuladd, and in a GEMM under the floating-point licence, and
  // `fmuladd` (unfused) elsewhere, so every variant computes the lifted
  // program bit for bit (docs/ARCHITECTURE.md, "Floating point").
  std::vector<Strategy> Steps;
  if (V.RowLanes) { // a GEMV as a map of row sums (lowerVariant): lanes
    Steps.push_back(oncePosition(ruleStrategy(
        V.LaneVec ? reduceSeqLanesVecRule(V.RowLanes, V.LaneVec) : reduceSeqLanesRule(V.RowLanes))));
    Steps.push_back(ruleStrategy(mapRowLanesRule(V.RowsPerGroup, V.LaneDim)));
  } else if (V.Tile[0]) {
    Steps.push_back(ruleStrategy(
        matMulRule(V.Tile[0], V.Tile[1], V.Tile[2], V.Block[0], V.Block[1], V.Group[0],
                   V.Group[1])));
    if (V.Local)
      Steps.push_back(oncePosition(ruleStrategy(*findRule("to-local-operands"))));
  } else {
    Steps.push_back(mapToGlobalStrategy());
    Steps.push_back(sequentialiseStrategy());
  }
  return sequence(std::move(Steps));
}

} // namespace idiom::rewrite
