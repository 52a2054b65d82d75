//===- TimeReport.cpp - Counters behind -idiom-time-report ----------------===//

#include "idiom/Constraints/TimeReport.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdlib>
#include <mutex>
#include <utility>

using namespace llvm;

namespace idiom {

bool TimeReport::On = false;

namespace {
struct Table {
  std::mutex Lock;
  StringMap<std::pair<unsigned, double>> Rows;
};
Table &table() {
  static Table *T = new Table(); // never destroyed: printed from atexit
  return *T;
}
} // namespace

void TimeReport::enable(bool PrintAtExit) {
  if (On)
    return;
  On = true;
  if (PrintAtExit)
    std::atexit([] { print(errs()); });
}

unsigned TimeReport::calls(StringRef Phase) {
  Table &T = table();
  std::lock_guard<std::mutex> G(T.Lock);
  auto It = T.Rows.find(Phase);
  return It == T.Rows.end() ? 0 : It->second.first;
}

void TimeReport::add(StringRef Phase, double Seconds) {
  Table &T = table();
  std::lock_guard<std::mutex> G(T.Lock);
  auto &R = T.Rows[Phase];
  ++R.first;
  R.second += Seconds;
}

void TimeReport::print(raw_ostream &OS) {
  Table &T = table();
  std::lock_guard<std::mutex> G(T.Lock);
  std::vector<StringRef> Names;
  for (auto &E : T.Rows)
    Names.push_back(E.getKey());
  llvm::sort(Names);
  OS << "===-- idiom time report (inclusive) --===\n"
     << "   calls   seconds  phase\n";
  for (StringRef N : Names) {
    auto &R = T.Rows[N];
    OS << format("%8u  %8.4f  ", R.first, R.second) << N << "\n";
  }
  OS.flush();
}

} // namespace idiom
