//===- OpenCLGenMemo.h - in-process memo of generateOpenCL ------*- C++ -*-===//
//
// Part of Idiom. Plain C++17, no LLVM.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// generateOpenCL (OpenCLGen.h) keeps, per process, the lowered kernels of
/// the programs it generated, keyed by the program's printed text without
/// its name and by MaxVariants. Idioms of one source file often lift to the
/// same FunIL up to the program name (nas-parboil cg.c: 16 idioms, 7
/// distinct); the second and later ones are answered by putting the new
/// program and kernel names into the kept result. Cold generation takes the
/// same path (lower without names, then name), so both give the same bytes.
/// Only successful generations are kept (error texts name the program). The
/// memo holds at most a bounded number of programs (oldest dropped first)
/// and is safe to use from several threads. generateOpenCLVariants and
/// emitOpenCL do not use it.
///
//===----------------------------------------------------------------------===//

#ifndef IDIOM_REWRITE_OPENCLGENMEMO_H
#define IDIOM_REWRITE_OPENCLGENMEMO_H

#include <cstddef>
#include <cstdint>

namespace idiom::rewrite {

/// Counters of the memo since the last clearOpenCLGenMemo.
struct OpenCLGenMemoStats {
  uint64_t Hits = 0;   ///< generateOpenCL calls answered from the memo
  uint64_t Misses = 0; ///< calls that lowered the program (memo enabled)
  size_t Entries = 0;  ///< programs held now
};

/// Default number of programs the memo holds (about 20-40 KB each).
constexpr size_t DefaultOpenCLGenMemoCapacity = 64;

/// The counters and size of the memo.
OpenCLGenMemoStats openCLGenMemoStats();

/// Drops every entry and zeroes the counters (benchmarks: a cold start).
void clearOpenCLGenMemo();

/// Holds at most \p N programs from now on (0 disables the memo and drops
/// every entry).
void setOpenCLGenMemoCapacity(size_t N);

} // namespace idiom::rewrite

#endif // IDIOM_REWRITE_OPENCLGENMEMO_H
