//===- GenMemo.h - generateOpenCL's results without names -------*- C++ -*-===//
//
// Part of Idiom. Private to rewrite/lib: what OpenCLGen.cpp keeps in the
// in-process memo (idiom/Rewrite/OpenCLGenMemo.h).
//
//===----------------------------------------------------------------------===//

#ifndef IDIOM_REWRITE_LIB_GENMEMO_H
#define IDIOM_REWRITE_LIB_GENMEMO_H

#include "idiom/FunIL/Expr.h"
#include "idiom/Rewrite/Explore.h"

#include <memory>
#include <string>
#include <vector>

namespace idiom::rewrite::genmemo {

/// One kernel without its base name and attribute, which printKernels adds
/// (variants that lower alike share their kernels).
struct Kernel {
  std::string Suffix; ///< appended to the base name: "", "_partial", "_final"
  std::vector<std::string> Params;
  std::vector<std::string> Body;
};

/// One distinct lowering: its kernels and its printed FunIL after the
/// leading `idiom NAME` (that is, from the `(` of the parameter list).
struct Lowered {
  std::vector<Kernel> Kernels;
  std::string FunILTail;
};

/// generateOpenCL's result with the program and kernel names left out.
struct Nameless {
  std::string Pragmas; ///< the source header after its first (named) line
  struct Variant {
    VariantParams V;
    std::string Desc; ///< describeVariant(V)
    std::shared_ptr<const Lowered> L;
  };
  std::vector<Variant> Variants; ///< the emitted ones, in order
};

/// The memo key of \p P: its printed text with an empty name, then Max.
std::string keyOf(const funil::Program &P, unsigned Max);

/// The kept result for \p Key when its program is structurally equal to
/// \p P (sameExpr on body and outputs), else nullptr. Counts a hit or miss.
std::shared_ptr<const Nameless> lookup(const std::string &Key,
                                       const funil::Program &P);

/// Keeps \p G for \p Key (no-op when the memo is disabled).
void insert(const std::string &Key, const funil::Program &P,
            std::shared_ptr<const Nameless> G);

} // namespace idiom::rewrite::genmemo

#endif // IDIOM_REWRITE_LIB_GENMEMO_H
