//===- CompileCache.cpp - On-disk memo shared by compiles -----------------===//
//
// File layout: the value's size in decimal and a newline, the value, then the
// key up to the end of the file.
//
//===----------------------------------------------------------------------===//

#include "idiom/Constraints/CompileCache.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"
#include <cstdlib>
#include <mutex>

using namespace llvm;

namespace idiom {

std::string compileCacheDir(StringRef Kind) {
  static std::mutex Lock;
  static StringMap<std::string> Dirs;
  std::lock_guard<std::mutex> G(Lock);
  auto It = Dirs.find(Kind);
  if (It != Dirs.end())
    return It->second;
  std::string Base;
  if (const char *D = getenv("IDIOM_CACHE_DIR")) {
    if (StringRef(D) != "off")
      Base = D;
  } else if (const char *X = getenv("XDG_CACHE_HOME")) {
    Base = std::string(X) + "/idiom";
  } else if (const char *H = getenv("HOME")) {
    Base = std::string(H) + "/.cache/idiom";
  }
  std::string Dir;
  if (!Base.empty()) {
    Dir = Base + "/" + Kind.str();
    if (sys::fs::create_directories(Dir))
      Dir.clear();
  }
  return Dirs[Kind] = Dir;
}

/// The file of \p Key under \p Kind, or "" when the memo is off.
static std::string cacheFile(StringRef Kind, StringRef Key) {
  std::string Dir = compileCacheDir(Kind);
  return Dir.empty() ? Dir : Dir + "/" + utohexstr(xxh3_64bits(Key));
}

std::optional<std::string> readCompileCache(StringRef Kind, StringRef Key) {
  std::string F = cacheFile(Kind, Key);
  if (F.empty())
    return std::nullopt;
  auto Buf = MemoryBuffer::getFile(F, /*IsText=*/false,
                                   /*RequiresNullTerminator=*/false);
  if (!Buf)
    return std::nullopt;
  StringRef All = (*Buf)->getBuffer();
  auto [Size, Rest] = All.split('\n');
  size_t N;
  if (Size.getAsInteger(10, N) || N > Rest.size() || Rest.drop_front(N) != Key)
    return std::nullopt;
  return Rest.take_front(N).str();
}

void writeCompileCache(StringRef Kind, StringRef Key, StringRef Value) {
  std::string F = cacheFile(Kind, Key);
  if (F.empty())
    return;
  std::string Tmp = F + ".tmp" + std::to_string(sys::Process::getProcessId());
  {
    std::error_code EC;
    raw_fd_ostream Out(Tmp, EC, sys::fs::OF_None);
    if (EC)
      return;
    Out << Value.size() << "\n" << Value << Key;
    Out.close();
    if (Out.has_error()) {
      Out.clear_error();
      sys::fs::remove(Tmp);
      return;
    }
  }
  if (sys::fs::rename(Tmp, F))
    sys::fs::remove(Tmp);
}

} // namespace idiom
