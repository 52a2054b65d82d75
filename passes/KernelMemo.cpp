//===- KernelMemo.cpp - On-disk memo of generated OpenCL ------------------===//

#include "KernelMemo.h"
#include "idiom/Constraints/CompileCache.h"
#include "idiom/Constraints/TimeReport.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include <dlfcn.h>
#include <vector>

using namespace llvm;

namespace idiom {
namespace {

/// Bump when the stored layout changes.
constexpr const char *MemoVersion = "opencl-memo 1";

// Every field of GeneratedOpenCL is stored: a new field must be added to
// serialise/deserialise below (and MemoVersion bumped).
struct ExpectedLayout {
  std::string Source, LoweredFunIL;
  unsigned NumVariants;
  std::vector<std::string> VariantDescs, VariantFunIL;
};
static_assert(sizeof(rewrite::GeneratedOpenCL) == sizeof(ExpectedLayout),
              "rewrite::GeneratedOpenCL changed: update KernelMemo.cpp");

/// "PATH SIZE MTIME" of the library this code is in (PATH without links or
/// relative parts); "" when unknown (then nothing is memoised).
const std::string &pluginIdentity() {
  static const std::string Id = [] {
    Dl_info Info;
    if (!dladdr(reinterpret_cast<void *>(&generateOpenCLMemo), &Info) ||
        !Info.dli_fname)
      return std::string();
    // dlopen may have been given a relative path: name the file itself.
    SmallString<256> Path;
    sys::fs::file_status St;
    if (sys::fs::real_path(Info.dli_fname, Path) || sys::fs::status(Path, St))
      return std::string();
    return std::string(Path) + " " + std::to_string(St.getSize()) +
           " " +
           std::to_string(
               St.getLastModificationTime().time_since_epoch().count());
  }();
  return Id;
}

void put(std::string &Out, StringRef Field) {
  Out += std::to_string(Field.size());
  Out += '\n';
  Out += Field;
}

bool get(StringRef &In, std::string &Field) {
  auto [Size, Rest] = In.split('\n');
  size_t N;
  if (Size.getAsInteger(10, N) || N > Rest.size())
    return false;
  Field = Rest.take_front(N).str();
  In = Rest.drop_front(N);
  return true;
}

bool getList(StringRef &In, std::vector<std::string> &List) {
  std::string Count;
  unsigned N;
  if (!get(In, Count) || StringRef(Count).getAsInteger(10, N))
    return false;
  List.assign(N, std::string());
  for (std::string &S : List)
    if (!get(In, S))
      return false;
  return true;
}

std::string serialise(const rewrite::GeneratedOpenCL &G) {
  std::string Out;
  put(Out, G.Source);
  put(Out, G.LoweredFunIL);
  put(Out, std::to_string(G.NumVariants));
  for (const auto *List : {&G.VariantDescs, &G.VariantFunIL}) {
    put(Out, std::to_string(List->size()));
    for (const std::string &S : *List)
      put(Out, S);
  }
  return Out;
}

bool deserialise(StringRef In, rewrite::GeneratedOpenCL &G) {
  std::string NV;
  return get(In, G.Source) && get(In, G.LoweredFunIL) && get(In, NV) &&
         !StringRef(NV).getAsInteger(10, G.NumVariants) &&
         getList(In, G.VariantDescs) && getList(In, G.VariantFunIL) &&
         In.empty();
}

} // namespace

bool generateOpenCLMemo(StringRef FunILText, const funil::Program &P,
                        const std::string &KernelName,
                        rewrite::GeneratedOpenCL &Out, std::string &Err,
                        const rewrite::ExploreOptions &Opts) {
  const std::string &Id = pluginIdentity();
  std::string Key;
  if (!Id.empty()) {
    Key = std::string(MemoVersion) + "\n" + Id + "\n" + KernelName + "\n" +
          (Opts.FPReassoc ? "" : "fp-exact\n") + (Opts.BufferOffsets ? "offsets\n" : "") +
          FunILText.str();
    if (std::optional<std::string> V = readCompileCache("opencl", Key)) {
      rewrite::GeneratedOpenCL G;
      if (deserialise(*V, G)) {
        TimeReport::count("opencl memo hit");
        Out = std::move(G);
        return true;
      }
    }
  }
  TimeScope T("generateOpenCL");
  if (!rewrite::generateOpenCL(P, KernelName, Out, Err, rewrite::MaxVariants, Opts))
    return false;
  if (!Key.empty())
    writeCompileCache("opencl", Key, serialise(Out));
  return true;
}

} // namespace idiom
