//===- OpenCLGen.h - OpenCL C from FunIL ------------------------*- C++ -*-===//
//
// Part of Idiom.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The public entry point the LLVM pass calls: lower a FunIL program with
/// the default strategy of its statement kind and emit OpenCL C that follows
/// the kernel conventions of runtime/include/idiomrt.h:
///
///  - map (store) programs: one kernel `Name(params...)`; buffers become
///    `__global T *` (const when never stored), scalars are passed by value;
///    NDRange dimension 0 is the innermost map; each dimension guards its
///    bound.
///  - reduction (return) programs: `Name_partial(params..., __global R_k
///    *part_k..., __local R_k *scratch_k...)` and `Name_final(const long m,
///    __global R_k *part_k..., __global R_k *out_k..., __local R_k
///    *scratch_k...)`, one accumulator k per scalar leaf of the result.
///
/// generateOpenCL emits up to MaxVariants low-level variants of the program
/// (Explore.h) in one source: variant 0 is the default lowering with the
/// kernel names above; variant k >= 1 names its kernels `Name_v<k>` (maps)
/// or `Name_v<k>_partial` / `Name_v<k>_final`. When there are two or more,
/// each variant's kernels are preceded by one line
///   `//@idiom-variant K wg=X[xY] ept=E: description`
/// (X, Y: reqd_work_group_size, 0 when the runtime chooses; E: contiguous
/// elements per work-item step in NDRange dimension 0), which the runtime
/// reads (runtime/include/idiomrt.h).
///
//===----------------------------------------------------------------------===//

#ifndef IDIOM_REWRITE_OPENCLGEN_H
#define IDIOM_REWRITE_OPENCLGEN_H

#include "idiom/FunIL/Expr.h"
#include "idiom/Rewrite/Explore.h"

#include <string>
#include <vector>

namespace idiom::rewrite {

/// What generateOpenCL produces.
struct GeneratedOpenCL {
  std::string Source;       ///< OpenCL C source of the kernel(s) of every variant
  std::string LoweredFunIL; ///< variant 0's lowered program, printed
  unsigned NumVariants = 1; ///< variants in Source (1: no marker lines)
  std::vector<std::string> VariantDescs; ///< one line per variant
  std::vector<std::string> VariantFunIL; ///< each variant's lowered program
};

/// The byte sizes of the accumulator slots (part_k, out_k, scratch_k) of the
/// reduction kernels that generateOpenCL emits for reduction program \p P,
/// one per scalar leaf: of P's result type, or, when the body is (or the
/// rule `compensate` makes it) `apply(f, r)`, of r's type, of which the
/// first leaves receive f's result (a compensated sum: slot 0 the finished
/// sum, slot 1 the compensation). Empty for map programs and programs that
/// do not type check. The runtime's descriptor needs one result slot each.
std::vector<unsigned> reductionSlotBytes(const funil::Program &P);

/// Starts a line of the shared part of the source (before the first
/// variant) of every reduction with a floating-point accumulator,
/// `//@idiom-fixed-order cpu=C gpu=G`: the runtime then runs variant C on
/// a CPU device, G on a GPU (0 on others) instead of timing the variants,
/// so that the result, which depends on the variant's order of
/// combination, is the same on every run on one device
/// (runtime/include/idiomrt.h).
constexpr const char *FixedOrderMarker = "//@idiom-fixed-order";

/// Starts the line, in the shared part of a map program's source, that says
/// its kernels take element offsets (ExploreOptions::BufferOffsets):
/// `//@idiom-offsets E0 E1 ...`, the element bytes of each buffer parameter
/// in order. Each kernel then has, after the idiom arguments (and before a
/// load-balanced variant's row blocks), one `const long <b>_off` per buffer
/// parameter, and starts by moving the buffer's pointer by that many
/// elements (runtime/include/idiomrt.h, "Element offsets").
constexpr const char *OffsetsMarker = "//@idiom-offsets";

/// The line that introduces each variant in a multi-variant source.
constexpr const char *VariantMarker = "//@idiom-variant";

/// Base kernel name of variant \p K: \p Name for 0, `Name_v<K>` otherwise.
std::string variantKernelName(const std::string &Name, unsigned K);

/// Lowers P with the default strategy for its statement kind (variant 0)
/// and with the other variants of exploreVariants(P, MaxVariants), and
/// emits OpenCL C following runtime/include/idiomrt.h: kernels KernelName
/// (maps) or KernelName_partial/KernelName_final (reductions) for variant
/// 0, the `_v<k>` names above for the others. A variant other than 0 that
/// the generator cannot emit is left out (the rest are renumbered). Returns
/// false and sets Err when variant 0 is outside what the generator supports.
bool generateOpenCL(const funil::Program &P, const std::string &KernelName,
                    GeneratedOpenCL &Out, std::string &Err);

/// The same with at most \p MaxVariants variants; 1 gives exactly the
/// default lowering's kernels (no marker line).
bool generateOpenCL(const funil::Program &P, const std::string &KernelName,
                    GeneratedOpenCL &Out, std::string &Err, unsigned MaxVariants);

/// The same under \p Opts (ExploreOptions: with FPReassoc false, no variant
/// reorders a floating-point sum that the program writes as a reduceSeq).
bool generateOpenCL(const funil::Program &P, const std::string &KernelName,
                    GeneratedOpenCL &Out, std::string &Err, unsigned MaxVariants,
                    const ExploreOptions &Opts);

/// The same with the variants \p Vs (in this order, for example
/// gemmCandidates(P) for a benchmark) instead of exploreVariants; \p Vs[0]
/// plays the part of variant 0 (its error is the answer). Err when Vs is
/// empty.
bool generateOpenCLVariants(const funil::Program &P, const std::string &KernelName,
                            const std::vector<VariantParams> &Vs, GeneratedOpenCL &Out,
                            std::string &Err);

/// Emits OpenCL C for a program that is already lowered (for example by a
/// strategy chosen on the idiom-funil command line). Same conventions and
/// errors as generateOpenCL; one variant; Out.LoweredFunIL is P printed.
bool emitOpenCL(const funil::Program &P, const std::string &KernelName,
                GeneratedOpenCL &Out, std::string &Err);

} // namespace idiom::rewrite

#endif // IDIOM_REWRITE_OPENCLGEN_H
