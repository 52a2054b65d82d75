//===- OpCache.h - funil::lookupOp through a hash table (private) -*- C++ -*-===//
//
// Part of Idiom.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// funil::lookupOp scans the operation table comparing C strings; the
/// generator asks for every call it emits (a tenth of generateOpenCL's time
/// on the nas-parboil programs). cachedOp remembers the answers per thread.
///
//===----------------------------------------------------------------------===//

#ifndef IDIOM_REWRITE_LIB_CODEGEN_OPCACHE_H
#define IDIOM_REWRITE_LIB_CODEGEN_OPCACHE_H

#include "idiom/FunIL/Ops.h"

#include <string>
#include <unordered_map>

namespace idiom::rewrite::codegen {

/// funil::lookupOp(\p Name) (a pointer into funil's static table, or nullptr
/// for an unknown name), remembered in a per-thread hash table.
inline const funil::OpInfo *cachedOp(const std::string &Name) {
  thread_local std::unordered_map<std::string, const funil::OpInfo *> Cache;
  auto It = Cache.find(Name);
  if (It != Cache.end())
    return It->second;
  const funil::OpInfo *Op = funil::lookupOp(Name);
  Cache.emplace(Name, Op);
  return Op;
}

} // namespace idiom::rewrite::codegen

#endif // IDIOM_REWRITE_LIB_CODEGEN_OPCACHE_H
