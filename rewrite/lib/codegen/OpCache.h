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

/// The primitives Emitter::emitCall emits itself; Other for the rest
/// (emitLayout's and the scalar operations).
enum class EmitPrim : uint8_t {
  Other, View, Iota, Zip, Map, MapSeq, Split, Join, At, Strided, Blocks,
  Halves, ReduceSeq, ToLocal, Iterate, ToGlobal, ToPrivate, Apply
};

/// The EmitPrim named \p Name.
inline EmitPrim emitPrimOf(const std::string &Name) {
  static const char *const Names[] = {
      "",       "view",   "iota",      "zip",     "map",     "mapSeq",
      "split",  "join",   "at",        "strided", "blocks",  "halves",
      "reduceSeq", "toLocal", "iterate", "toGlobal", "toPrivate", "apply"};
  for (size_t I = 1; I < sizeof(Names) / sizeof(*Names); ++I)
    if (Name == Names[I])
      return static_cast<EmitPrim>(I);
  return EmitPrim::Other;
}

/// An operation's table entry, its ScalarOp and its EmitPrim.
struct OpEntry {
  const funil::OpInfo *Info = nullptr; ///< nullptr for an unknown name
  ScalarOp Scalar = ScalarOp::None;
  EmitPrim Prim = EmitPrim::Other;
};

/// funil::lookupOp(\p Name), scalarOpOf(\p Name) and emitPrimOf(\p Name),
/// remembered in a
/// per-thread hash table.
inline const OpEntry &cachedOpEntry(const std::string &Name) {
  thread_local std::unordered_map<std::string, OpEntry> Cache;
  auto It = Cache.find(Name);
  if (It != Cache.end())
    return It->second;
  return Cache
      .emplace(Name, OpEntry{funil::lookupOp(Name), scalarOpOf(Name), emitPrimOf(Name)})
      .first->second;
}

/// funil::lookupOp(\p Name) (a pointer into funil's static table, or nullptr
/// for an unknown name), remembered in a per-thread hash table.
inline const funil::OpInfo *cachedOp(const std::string &Name) {
  return cachedOpEntry(Name).Info;
}

} // namespace idiom::rewrite::codegen

#endif // IDIOM_REWRITE_LIB_CODEGEN_OPCACHE_H
