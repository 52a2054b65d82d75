//===- CompileCache.h - On-disk memo shared by compiles ---------*- C++ -*-===//
//
// Results that a compile computes from a self-contained key (a law's formula,
// a lifted FunIL program) are kept in files under one directory per kind, so
// that later compiles, of this file or others, read them instead of
// recomputing. The directory is $IDIOM_CACHE_DIR/KIND, else
// $XDG_CACHE_HOME/idiom/KIND or $HOME/.cache/idiom/KIND (the runtime's
// program cache lives beside them, runtime/README.md); IDIOM_CACHE_DIR=off
// turns every memo off. A file is named by a 64-bit hash of its key and holds
// the full key, compared on reading, so a hash collision reads as a miss.
// Writes go to a temporary file renamed into place, so concurrent compiles
// never read half a file.
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_CONSTRAINTS_COMPILECACHE_H
#define IDIOM_CONSTRAINTS_COMPILECACHE_H

#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>

namespace idiom {

/// The directory of memo kind \p Kind (e.g. "laws"), created on first use;
/// empty when IDIOM_CACHE_DIR=off or no directory can be made.
std::string compileCacheDir(llvm::StringRef Kind);

/// The value stored for \p Key under \p Kind, or nothing (no memo, a miss, a
/// collision, an unreadable or malformed file).
std::optional<std::string> readCompileCache(llvm::StringRef Kind,
                                            llvm::StringRef Key);

/// Stores \p Value for \p Key under \p Kind; does nothing when the memo is
/// off or the file cannot be written.
void writeCompileCache(llvm::StringRef Kind, llvm::StringRef Key,
                       llvm::StringRef Value);

} // namespace idiom

#endif // IDIOM_CONSTRAINTS_COMPILECACHE_H
