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
//===----------------------------------------------------------------------===//

#ifndef IDIOM_REWRITE_OPENCLGEN_H
#define IDIOM_REWRITE_OPENCLGEN_H

#include "idiom/FunIL/Expr.h"

#include <string>

namespace idiom::rewrite {

/// What generateOpenCL produces.
struct GeneratedOpenCL {
  std::string Source;       ///< OpenCL C source of the kernel(s)
  std::string LoweredFunIL; ///< the lowered program, printed
};

/// Lowers P with the default strategy for its statement kind and emits
/// OpenCL C whose kernels are named KernelName (maps) or
/// KernelName_partial/KernelName_final (reductions), following
/// runtime/include/idiomrt.h. Returns false and sets Err when P is outside
/// what the generator supports.
bool generateOpenCL(const funil::Program &P, const std::string &KernelName,
                    GeneratedOpenCL &Out, std::string &Err);

/// Emits OpenCL C for a program that is already lowered (for example by a
/// strategy chosen on the idiom-funil command line). Same conventions and
/// errors as generateOpenCL; Out.LoweredFunIL is P printed.
bool emitOpenCL(const funil::Program &P, const std::string &KernelName,
                GeneratedOpenCL &Out, std::string &Err);

} // namespace idiom::rewrite

#endif // IDIOM_REWRITE_OPENCLGEN_H
