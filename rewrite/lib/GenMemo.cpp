//===- GenMemo.cpp - in-process memo of generateOpenCL --------------------===//
//
// Part of Idiom. A map from key to entry plus the keys in insertion order;
// the oldest entry goes when the memo is full. One mutex guards both; the
// lowering itself runs outside it.
//
//===----------------------------------------------------------------------===//

#include "GenMemo.h"

#include "idiom/FunIL/Printer.h"
#include "idiom/Rewrite/OpenCLGenMemo.h"

#include <deque>
#include <mutex>
#include <unordered_map>

namespace idiom::rewrite {
namespace genmemo {
namespace {

struct Entry {
  funil::Program P; ///< the program generated (for the structural check)
  std::shared_ptr<const Nameless> G;
};

struct Memo {
  std::mutex M;
  size_t Capacity = DefaultOpenCLGenMemoCapacity;
  std::unordered_map<std::string, Entry> Map;
  std::deque<std::string> Order; ///< keys of Map, oldest first
  OpenCLGenMemoStats Stats;
};

Memo &memo() {
  static Memo The;
  return The;
}

bool sameOuts(const funil::Program &A, const funil::Program &B) {
  if (A.IsReturn != B.IsReturn || A.Outs.size() != B.Outs.size() || !A.Body ||
      !B.Body || !funil::sameExpr(*A.Body, *B.Body))
    return false;
  for (size_t I = 0; I < A.Outs.size(); ++I)
    if (!funil::sameExpr(*A.Outs[I], *B.Outs[I]))
      return false;
  return true;
}

} // namespace

std::string keyOf(const funil::Program &P, unsigned Max) {
  funil::Program Q = P;
  Q.Name.clear();
  return funil::printProgram(Q) + "max " + std::to_string(Max);
}

std::shared_ptr<const Nameless> lookup(const std::string &Key,
                                       const funil::Program &P) {
  Memo &Mo = memo();
  std::lock_guard<std::mutex> Lock(Mo.M);
  if (Mo.Capacity == 0)
    return nullptr;
  auto It = Mo.Map.find(Key);
  if (It != Mo.Map.end() && sameOuts(It->second.P, P)) {
    ++Mo.Stats.Hits;
    return It->second.G;
  }
  ++Mo.Stats.Misses;
  return nullptr;
}

void insert(const std::string &Key, const funil::Program &P,
            std::shared_ptr<const Nameless> G) {
  Memo &Mo = memo();
  std::lock_guard<std::mutex> Lock(Mo.M);
  if (Mo.Capacity == 0)
    return;
  auto It = Mo.Map.find(Key);
  if (It != Mo.Map.end()) { // same text, other structure: keep the newer
    It->second = Entry{P, std::move(G)};
    return;
  }
  while (Mo.Map.size() >= Mo.Capacity) {
    Mo.Map.erase(Mo.Order.front());
    Mo.Order.pop_front();
  }
  Mo.Map.emplace(Key, Entry{P, std::move(G)});
  Mo.Order.push_back(Key);
}

} // namespace genmemo

OpenCLGenMemoStats openCLGenMemoStats() {
  genmemo::Memo &Mo = genmemo::memo();
  std::lock_guard<std::mutex> Lock(Mo.M);
  OpenCLGenMemoStats S = Mo.Stats;
  S.Entries = Mo.Map.size();
  return S;
}

void clearOpenCLGenMemo() {
  genmemo::Memo &Mo = genmemo::memo();
  std::lock_guard<std::mutex> Lock(Mo.M);
  Mo.Map.clear();
  Mo.Order.clear();
  Mo.Stats = OpenCLGenMemoStats();
}

void setOpenCLGenMemoCapacity(size_t N) {
  genmemo::Memo &Mo = genmemo::memo();
  std::lock_guard<std::mutex> Lock(Mo.M);
  Mo.Capacity = N;
  while (Mo.Map.size() > N) {
    Mo.Map.erase(Mo.Order.front());
    Mo.Order.pop_front();
  }
}

} // namespace idiom::rewrite
