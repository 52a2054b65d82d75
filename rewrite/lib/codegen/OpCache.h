//===- OpCache.h - funil::lookupOp through a hash table (private) -*- C++ -*-===//
//
// Part of Idiom.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// funil::lookupOp scans the operation table comparing C strings; the
/// generator asks for every call it emits (a tenth of generateOpenCL's time
/// on the nas-parboil programs). cachedOpEntry remembers the answers, with
/// the ScalarOp that clScalarOp dispatches on, per thread.
///
//===----------------------------------------------------------------------===//

#ifndef IDIOM_REWRITE_LIB_CODEGEN_OPCACHE_H
#define IDIOM_REWRITE_LIB_CODEGEN_OPCACHE_H

#include "ScalarC.h"
#include "idiom/FunIL/Ops.h"

#include <string>
#include <unordered_map>

namespace idiom::rewrite::codegen {

/// An operation's table entry and, for scalar operations, its ScalarOp.
struct OpEntry {
  const funil::OpInfo *Info = nullptr; ///< nullptr for an unknown name
  ScalarOp Scalar = ScalarOp::None;
};

/// funil::lookupOp(\p Name) and scalarOpOf(\p Name), remembered in a
/// per-thread hash table.
inline const OpEntry &cachedOpEntry(const std::string &Name) {
  thread_local std::unordered_map<std::string, OpEntry> Cache;
  auto It = Cache.find(Name);
  if (It != Cache.end())
    return It->second;
  return Cache.emplace(Name, OpEntry{funil::lookupOp(Name), scalarOpOf(Name)})
      .first->second;
}

/// funil::lookupOp(\p Name) (a pointer into funil's static table, or nullptr
/// for an unknown name), remembered in a per-thread hash table.
inline const funil::OpInfo *cachedOp(const std::string &Name) {
  return cachedOpEntry(Name).Info;
}

} // namespace idiom::rewrite::codegen

#endif // IDIOM_REWRITE_LIB_CODEGEN_OPCACHE_H
