//===- Explore.cpp - bounded exploration of low-level variants ------------===//
//
// Part of Idiom. DESIGN section 5 (exploration); the choice among the
// variants is made by the runtime on the device (runtime/lib/tuning.c).
//
//===----------------------------------------------------------------------===//

#include "idiom/Rewrite/Explore.h"

#include "idiom/FunIL/TypeCheck.h"
#include "idiom/Rewrite/DefaultStrategies.h"
#include "idiom/Rewrite/Gemv.h"
#include "idiom/Rewrite/Histogram.h"
#include "idiom/Rewrite/RowLanes.h"
#include "idiom/Rewrite/Rules.h"

#include <algorithm>

namespace idiom::rewrite {

using funil::Expr;
using funil::Program;

namespace {

// Measured on the H200 (docs/Benchmarks.md): 4 or 8 elements per step reach
// the hand-written float4 reduction; on PoCL 8 and 16 do best. 512 work-items
// do not fit every kernel on every device: the runtime skips what does not.

/// Local memory the reduction tree may take per variant (the OpenCL 1.2
/// minimum is 32 KiB; half of it leaves room for the compiler's own use).
constexpr unsigned MaxScratchBytes = 16384;

/// A store target that vector stores can write: view(b, off, 1, n).
bool contiguousOut(const funil::ExprPtr &O) {
  return O->isCall("view") && O->Args.size() == 4 && isContiguousArray(O);
}

bool isOneDimensionalMap(const funil::ExprPtr &Body) {
  if (!Body->isCall("map") || Body->Args[0]->K != Expr::Lambda)
    return false;
  const funil::ExprPtr &B = Body->Args[0]->body();
  return !B->isCall("map") && !B->isCall("mapSeq");
}

/// map(\p => map(\r => map(g, e), x), a): a 3-D map (lifted nests of
/// three loops).
bool isThreeDimensionalMap(const funil::ExprPtr &Body) {
  if (!Body->isCall("map") || Body->Args[0]->K != Expr::Lambda ||
      Body->Args[0]->Params.size() != 1)
    return false;
  const funil::ExprPtr &R = Body->Args[0]->body();
  return R->isCall("map") && R->Args[0]->K == Expr::Lambda &&
         R->Args[0]->Params.size() == 1 && R->Args[0]->body()->isCall("map");
}

bool isTwoDimensionalMap(const funil::ExprPtr &Body) {
  return Body->isCall("map") && Body->Args[0]->K == Expr::Lambda &&
         Body->Args[0]->Params.size() == 1 && Body->Args[0]->body()->isCall("map");
}

/// Bytes of one element of every accumulator of reduction program \p P
/// (of the pairs of a compensated sum).
unsigned accumulatorBytes(const Program &P) {
  funil::TypePtr T;
  std::string Err;
  if (!funil::typeCheckProgram(P, Err, &T) || !T)
    return 64;
  if (P.Body->isCall("apply") && P.Body->Args[0]->K == Expr::Lambda)
    T = P.Body->Args[0]->Params[0].Ty;
  std::vector<funil::TypePtr> Leaves;
  funil::flattenLeaves(T, Leaves);
  unsigned B = 0;
  for (const funil::TypePtr &L : Leaves)
    B += L->isScalar() ? std::max(1u, funil::scalarBits(L->S) / 8) : 8;
  return B;
}

} // namespace

std::string variantEpt(const VariantParams &V) {
  if (V.RowBlocks)
    return "blocks/" + std::to_string(V.WorkGroup[0]);
  if (V.SplitK && V.SplitKUnroll) // a work-item per 4 outputs of a slice
    return "1/" + std::to_string(V.SplitK / 4);
  if (V.RowLanes || V.SplitK)
    return "1/" + std::to_string(V.RowLanes ? V.RowLanes : V.SplitK);
  if (V.Tile[0])
    return std::to_string(V.Block[1]) + "x" + std::to_string(V.Block[0]);
  if (V.Planes)
    return std::to_string(V.Elems) + "x1x" + std::to_string(V.Planes);
  if (V.RowWalk)
    return "*x" + std::to_string(V.RowWalk);
  return std::to_string(V.Elems);
}

std::string describeVariant(const VariantParams &V) {
  std::string S;
  if (V.Tile[0]) {
    auto N = [](unsigned X) { return std::to_string(X); };
    std::string D = "matrix tiles " + N(V.Tile[0]) + "x" + N(V.Tile[1]) + ", K tile " +
                    N(V.Tile[2]) + ", " + N(V.Block[0]) + "x" + N(V.Block[1]) +
                    " outputs per work-item";
    if (V.Group[0] || V.Group[1])
      D += " in groups of " + N(V.Group[0] ? V.Group[0] : V.Block[0]) + "x" +
           N(V.Group[1] ? V.Group[1] : V.Block[1]);
    D += std::string(", ") +
         (V.Local ? "operands in local memory" : "operands read from global memory") +
         ", work-group " + N(V.WorkGroup[0]) + "x" + N(V.WorkGroup[1]);
    if (V.Local) {
      const GemmKernelOptions &O = V.Kernel;
      D += ", pad " + N(O.Pad);
      if (O.VectorFill)
        D += ", vector fills";
      if (O.DoubleBuffer)
        D += ", double-buffered";
    }
    if (V.Kernel.UnrollLoop)
      D += ", unroll pragma";
    return D;
  }
  if (V.Gemm && V.WorkGroup[0] == 0)
    return "default lowering, one output per work-item, work-group "
           "size chosen at run time";
  if (V.WorkGroup[0] == 0)
    S = "default lowering, work-group size chosen at run time";
  else if (V.WorkGroup[1] > 1)
    S = "work-group " + std::to_string(V.WorkGroup[0]) + "x" +
        std::to_string(V.WorkGroup[1]);
  else
    S = "work-group " + std::to_string(V.WorkGroup[0]);
  if (V.RowBlocks)
    S += ", a work-group per block of rows of about equal work (CSR-Adaptive row blocks "
         "built at run time; " + std::to_string(V.RowLanes) +
         " / rows strided partial sums per row, local-memory tree)";
  else if (V.SplitK && V.SplitKUnroll)
    S += " (16 x 16), split-K tiles: " + std::to_string(V.SplitK) +
         " slices of rows, 4 outputs per work-item (vector loads), " +
         std::to_string(V.SplitKUnroll) +
         " rows' loads before their adds, 16 slices combined in local memory, one atomic "
         "per output and tile";
  else if (V.SplitK)
    S += ", " + std::to_string(V.SplitK) + " work-items per output (split-K: each folds rows " +
         std::to_string(V.SplitK) + " apart, partial sums added with atomics)";
  else if (V.RowLanes && V.LaneDim == 1)
    S += ", " + std::to_string(V.RowLanes) + " work-items per row " +
         std::to_string(V.RowsPerGroup) + " apart (strided partial sums, local-memory tree), " +
         std::to_string(V.RowsPerGroup) + " rows per work-group in neighbouring work-items";
  else if (V.RowLanes && V.RowsPerGroup == 1)
    S += ", a work-group per row (" + std::to_string(V.RowLanes) +
         " strided partial sums, local-memory tree)";
  else if (V.RowLanes)
    S += ", " + std::to_string(V.RowLanes) + " work-items per row (strided partial sums" +
         (V.LaneVec ? " of " + std::to_string(V.LaneVec) + "-element vector loads" : "") +
         ", local-memory tree), " + std::to_string(V.RowsPerGroup) + " rows per work-group";
  else if (V.Bins == VariantParams::LocalBins)
    S += ", per-work-group bins in local memory, " + std::to_string(V.Elems) +
         " elements per work-item";
  else if (V.Bins == VariantParams::GlobalBins)
    S += ", atomics on the global bins, " + std::to_string(V.Elems) +
         (V.Elems > 1 ? " elements per work-item (grid-stride)" : " element per work-item");
  else if (V.Elems > 1)
    S += ", " + std::to_string(V.Elems) +
         " contiguous elements per work-item step (vector loads/stores)" +
         (V.Blocked ? ", one contiguous block per work-item" : "");
  else
    S += ", 1 element per work-item step";
  if (V.RowWalk)
    S += ", " + std::to_string(V.RowWalk) +
         " consecutive whole rows walked by each work-item (CPU devices)";
  if (V.Planes)
    S += ", " + std::to_string(V.Planes) +
         " consecutive planes walked by each work-item (z-neighbours from its cache)";
  return S;
}

namespace {
struct Row {
  unsigned X, Y, E;
  bool Blocked = false;
  unsigned Lanes = 0, Rows = 0; ///< VariantParams::RowLanes, RowsPerGroup
  bool Blocks = false;          ///< VariantParams::RowBlocks
  unsigned Planes = 0;          ///< VariantParams::Planes
  unsigned RowWalk = 0;         ///< VariantParams::RowWalk
};
// Candidate tables, the default lowering first, most promising next.
const Row MapContiguous[] = {{0, 0, 1},   {256, 1, 4}, {128, 1, 4}, {64, 1, 4},
                             {256, 1, 1}, {512, 1, 4}, {256, 1, 16}, {256, 1, 8}};
const Row Map1D[] = {{0, 0, 1}, {128, 1, 1}, {256, 1, 1}, {512, 1, 1}};
// 2-D maps: tiles for GPUs, then row walks for CPUs (work-groups of one
// work-item that each own 16 or 64 whole rows: the host loop's shape, which
// PoCL vectorises along the unit stride; docs/Benchmarks.md, "Why PoCL's
// kernels lose on 2 cores").
const Row Map2D[] = {{0, 0, 1},
                     {32, 8, 1},
                     {64, 4, 1},
                     {256, 1, 1},
                     {1, 1, 1, false, 0, 0, false, 0, 16},
                     {1, 1, 1, false, 0, 0, false, 0, 64}};
// 3-D maps (stencils over a grid): tiles of a plane, wide in the unit
// stride (dimension 0: whole 256- and 2048-byte lines of doubles per row of
// the tile), then the plane walks (mapWalk3dRule), each work-item finding
// its z-neighbours in the cache. On the H200 at 256^3 (docs/Benchmarks.md,
// fourteenth session) the walk's length decided: 4- and 8-plane walks ran
// at 81-82% of the copy bandwidth, 16 planes at 78-79%, 32 and 64 planes
// at 60-62% (too few work-items in flight), one plane (the 2-D tiles) at
// 65-69%; the tile's shape (64x4, 32x8, 128x2, 256x1) moved it by 1-2
// points. The 16-plane walk is the best at 512^3 (90%). Walks that kept
// the z-neighbours in registers (the 2.5-D scheme of Micikevicius, GPGPU
// 2009) ran at 33-35% on the H200 and never won on the H100: removed.
const Row Map3D[] = {{0, 0, 1},
                     {32, 8, 1},
                     {256, 1, 1},
                     {64, 4, 1, false, 0, 0, false, 16},
                     {32, 8, 1, false, 0, 0, false, 8},
                     {64, 4, 1, false, 0, 0, false, 8},
                     {64, 4, 1, false, 0, 0, false, 4},
                     {32, 8, 1, false, 0, 0, false, 4}};
// Reductions: grid-stride rows for GPUs, and one contiguous block per
// work-item (Blocked) for CPUs (docs/Benchmarks.md, the PoCL section; a
// second blocked width, 8, ran as fast there and cost a lowering more).
const Row ReduceContiguous[] = {{0, 0, 1},   {256, 1, 4},  {256, 1, 16, true}, {128, 1, 4},
                                {256, 1, 8}, {256, 1, 16}, {128, 1, 8},        {256, 1, 1}};
const Row Reduce[] = {{0, 0, 1}, {128, 1, 1}, {256, 1, 1}, {512, 1, 1}};
// Maps of row sums (a CSR SpMV): one row per work-item (default, 4 rows per
// work-item), then CSR-vector with 4..64 work-items per row (short rows
// waste fewer lanes with fewer), then a work-group per block of rows of
// about equal work (skewed rows; a long row is a block alone, which is a
// work-group per row).
const Row MapRowLanes[] = {{0, 0, 1},
                           {256, 1, 4},
                           {256, 1, 1, false, 4, 64},
                           {256, 1, 1, false, 8, 32},
                           {256, 1, 1, false, 16, 16},
                           {256, 1, 1, false, 32, 8},
                           {256, 1, 1, false, 64, 4},
                           {256, 1, 1, false, 256, 1, true}};
const Row Default[] = {{0, 0, 1}};

template <size_t N> std::vector<Row> rows(const Row (&A)[N]) {
  return std::vector<Row>(A, A + N);
}
} // namespace

std::vector<VariantParams> exploreVariants(const Program &P, unsigned Max) {
  return exploreVariants(P, Max, nullptr);
}

std::vector<VariantParams> exploreVariants(const Program &P, unsigned Max,
                                           const Program *Fused) {
  return exploreVariants(P, Max, Fused, ExploreOptions());
}

std::vector<VariantParams> exploreVariants(const Program &P, unsigned Max,
                                           const Program *Fused,
                                           const ExploreOptions &Opts) {
  if (!P.IsReturn && (isCanonicalGemm(P.Body) || isTriangularGemm(P.Body)))
    return gemmVariants(P, Max, Opts);
  if (isHistogramProgram(P))
    return histogramVariants(P, Max);
  std::vector<Row> Rows = rows(Default);
  Program F = P;
  std::string Err;
  if (Fused)
    F = *Fused;
  else if (!rewriteProgram(F, sequence({compensationStrategy(), fusionStrategy()}), Err))
    F = P;
  const funil::ExprPtr &B = P.IsReturn ? reductionOf(F.Body) : F.Body;
  if (!P.IsReturn) {
    if (B->isCall("scatter") && isOneDimensionalMap(B->Args[1])) {
      // stored through the scatter's index function: work-group sizes only
      // (one element per work-item, no vector stores)
      Rows = rows(Map1D);
    } else if (hasLaneRowReduction(B, Opts.FPReassoc)) {
      Rows = rows(MapRowLanes);
    } else if (isOneDimensionalMap(B)) {
      bool Contig = isContiguousArray(B->Args[1]);
      for (const funil::ExprPtr &O : F.Outs)
        Contig &= contiguousOut(O);
      Rows = Contig ? rows(MapContiguous) : rows(Map1D);
    } else if (isThreeDimensionalMap(B)) {
      Rows = rows(Map3D);
    } else if (isTwoDimensionalMap(B)) {
      Rows = rows(Map2D);
    }
  } else if (B->isCall("reduce")) {
    Rows = isContiguousArray(B->Args[2]) ? rows(ReduceContiguous) : rows(Reduce);
    unsigned Bytes = accumulatorBytes(F);
    Rows.erase(std::remove_if(Rows.begin(), Rows.end(),
                              [&](const Row &R) {
                                return R.X * Bytes > MaxScratchBytes;
                              }),
               Rows.end());
  }
  std::vector<VariantParams> Out;
  for (const Row &R : Rows) {
    if (Out.size() >= std::max(1u, Max))
      break;
    VariantParams V;
    V.WorkGroup[0] = R.X;
    V.WorkGroup[1] = R.Y;
    V.Elems = R.E;
    V.Blocked = R.Blocked;
    V.RowLanes = R.Lanes;
    V.RowsPerGroup = R.Rows;
    V.RowBlocks = R.Blocks;
    V.Planes = R.Planes;
    V.RowWalk = R.RowWalk;
    Out.push_back(V);
  }
  // A TRMM's band program: its tiled variants after the 2-D maps.
  if (!P.IsReturn && isBandGemm(P.Body) && Out.size() < Max)
    for (const VariantParams &V : bandTileVariants(P, Max - static_cast<unsigned>(Out.size())))
      Out.push_back(V);
  return Out;
}

namespace {
/// variantStrategy's steps after fusionStrategy, for a variant that is
/// neither GEMM nor histogram.
std::vector<Strategy> stepsAfterFusion(const Program &P, const VariantParams &V) {
  std::vector<Strategy> Steps;
  if (V.RowLanes) { // the row's sum in lanes, then R rows per work-group
    Steps.push_back(oncePosition(ruleStrategy(reduceSeqLanesRule(V.RowLanes))));
    Steps.push_back(ruleStrategy(mapRowLanesRule(V.RowsPerGroup)));
    return Steps;
  }
  if (P.IsReturn && V.Blocked && V.Elems > 1) {
    // compensated sums: lane-wise pairs per block (the vectorised CPU form,
    // docs/Benchmarks.md "helper zcback"); other reductions as before
    Steps.push_back(atReduction(
        choice({ruleStrategy(compensatedLanesRule()),
                sequence({ruleStrategy(asVectorReduceRule(V.Elems)),
                          ruleStrategy(*findRule("reduce-two-stage-blocks"))})})));
    Steps.push_back(sequentialiseStrategy());
    return Steps;
  }
  if (V.Elems > 1)
    Steps.push_back(P.IsReturn ? atReduction(ruleStrategy(asVectorReduceRule(V.Elems)))
                               : ruleStrategy(asVectorMapRule(V.Elems)));
  if (V.Planes && !P.IsReturn)
    Steps.push_back(ruleStrategy(mapWalk3dRule(V.Planes)));
  if (V.RowWalk && !P.IsReturn)
    Steps.push_back(ruleStrategy(mapRowWalk2dRule(V.RowWalk)));
  if (P.IsReturn)
    Steps.push_back(atReduction(
        ruleStrategy(*findRule(V.Blocked ? "reduce-two-stage-blocks" : "reduce-two-stage"))));
  else
    Steps.push_back(mapToGlobalStrategy());
  Steps.push_back(sequentialiseStrategy());
  return Steps;
}

/// lowerVariant's checks of \p P rewritten for \p V, with the rules
/// applied from T[Before] on.
bool checkLowered(const Program &P, const VariantParams &V,
                  const std::vector<std::string> &T, size_t Before, std::string &Err) {
  if (isHistogramProgram(P) && !P.Body->isCall("reduceIndexedAtomic")) {
    Err = "the histogram lowering of this variant does not apply";
    return false;
  }
  if (V.RowLanes && !P.Body->isCall("join")) {
    Err = "the row-lanes lowering does not apply (not a map of one row sum)";
    return false;
  }
  // True when a rule whose name starts with \p Prefix applied.
  auto Applied = [&](const char *Prefix) {
    for (size_t I = Before; I < T.size(); ++I)
      if (T[I].rfind(Prefix, 0) == 0)
        return true;
    return false;
  };
  if (V.Planes && !Applied("map-to-mapGlobal-3d-walk")) {
    Err = "the plane walk does not apply (not a 3-D map)";
    return false;
  }
  if (V.RowWalk && !Applied("map-to-mapGlobal-2d-rows")) {
    Err = "the row walk does not apply (not a 2-D map)";
    return false;
  }
  if (V.Tile[0] && !Applied("mm-tile-")) {
    Err = "the matrix-product tiling does not apply";
    return false;
  }
  if (V.Elems > 1 && !isHistogramProgram(P) && !Applied("as-vector-")) {
    Err = "vectorisation with width " + std::to_string(V.Elems) +
          " does not apply (the array is not contiguous)";
    return false;
  }
  return true;
}
} // namespace

Strategy variantStrategy(const Program &P, const VariantParams &V) {
  if (V.Gemm && V.SplitK) // gemvAsSplitK's histogram, global atomics
    return histogramStrategy(false, 1);
  if (V.Gemm)
    return gemmVariantStrategy(V);
  if (isHistogramProgram(P))
    return histogramStrategy(V.Bins == VariantParams::LocalBins, V.Elems);
  std::vector<Strategy> Steps{compensationStrategy(), fusionStrategy()};
  for (Strategy &S : stepsAfterFusion(P, V))
    Steps.push_back(std::move(S));
  return sequence(std::move(Steps));
}

bool lowerVariant(Program &P, const VariantParams &V, std::string &Err,
                  std::vector<std::string> *Trace) {
  std::vector<std::string> Local;
  std::vector<std::string> &T = Trace ? *Trace : Local;
  size_t Before = T.size();
  if (V.Gemm && (V.RowLanes || V.SplitK)) { // a GEMV's lanes: a map of row sums
    if (!gemvAsRowMap(P, Err))
      return false;
    T.push_back("gemv-as-row-map");
  }
  if (V.Gemm && V.SplitK) { // then its sums split across work-items
    if (!gemvAsSplitK(P, V.SplitK, Err))
      return false;
    T.push_back("gemv-split-k-" + std::to_string(V.SplitK));
  }
  if (!rewriteProgram(P, variantStrategy(P, V), Err, &T))
    return false;
  return checkLowered(P, V, T, Before, Err);
}

FusedProgram fuseOnce(const Program &P) {
  FusedProgram F;
  F.Input = P;
  F.Fused = P;
  F.Shared = !(!P.IsReturn && (isCanonicalGemm(P.Body) || isTriangularGemm(P.Body))) &&
             !isHistogramProgram(P);
  if (!F.Shared)
    return F;
  RuleContext Ctx = programContext(P);
  Ctx.Trace = &F.Trace;
  try {
    F.Body = fusionStrategy()(compensationStrategy()(P.Body, Ctx), Ctx);
  } catch (const std::exception &X) {
    F.Err = std::string("rewriting failed: ") + X.what();
    return F;
  }
  F.Names = std::move(Ctx.Names);
  F.Fused.Body = F.Body;
  std::string TErr;
  if (!funil::typeCheckProgram(F.Fused, TErr))
    F.Fused = P; // as exploreVariants when its rewriteProgram fails
  return F;
}

bool lowerVariant(const FusedProgram &F, const VariantParams &V, Program &Out,
                  std::string &Err) {
  Out = F.Input;
  if (!F.Shared || V.Gemm)
    return lowerVariant(Out, V, Err);
  if (!F.Err.empty()) {
    Err = F.Err;
    return false;
  }
  // programContext(Out) with fusion's names (a superset of Out's), without
  // collecting Out's names only to replace them.
  RuleContext Ctx;
  for (const funil::Param &Pa : Out.Params)
    Ctx.Env.push(Pa.Name, Pa.Ty);
  Ctx.Names = F.Names;
  std::vector<std::string> T = F.Trace;
  Ctx.Trace = &T;
  // The fused body is never nullptr (normalize does not fail), so the whole
  // sequence fails exactly when its remaining steps fail.
  if (!rewriteProgramFrom(Out, F.Body, sequence(stepsAfterFusion(F.Input, V)), Ctx, Err))
    return false;
  return checkLowered(Out, V, T, 0, Err);
}

} // namespace idiom::rewrite
