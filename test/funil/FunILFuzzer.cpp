//===- FunILFuzzer.cpp - libFuzzer target for FunIL text -------------------===//
//
// Feeds arbitrary bytes to the FunIL parser (docs/FunIL.md) and checks that:
//   - a parse error has the form "LINE:COL: message";
//   - a parsed program prints to text that parses again to the same print;
//   - the type checker and, for well-typed programs, the OpenCL generator
//     (generateOpenCL with at most two variants) return instead of
//     crashing; their errors are values.
// Run by test/fuzz/run_spec_fuzzer.sh (target "funil").
//
//===----------------------------------------------------------------------===//

#include "idiom/FunIL/Parser.h"
#include "idiom/FunIL/Printer.h"
#include "idiom/FunIL/TypeCheck.h"
#include "idiom/Rewrite/OpenCLGen.h"

#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <string>

using namespace idiom;

namespace {

/// "LINE:COL: message" with LINE, COL >= 0.
bool hasPosition(const std::string &Err) {
  size_t I = 0;
  auto Digits = [&] {
    size_t S = I;
    while (I < Err.size() && std::isdigit(static_cast<unsigned char>(Err[I])))
      ++I;
    return I > S;
  };
  if (!Digits() || I >= Err.size() || Err[I++] != ':' || !Digits())
    return false;
  return Err.compare(I, 2, ": ") == 0;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string Text(reinterpret_cast<const char *>(Data), Size);
  funil::Program P;
  std::string Err;
  if (!funil::parseProgram(Text, P, Err)) {
    if (!hasPosition(Err))
      std::abort(); // every parse error names its position
    return 0;
  }
  std::string Printed = funil::printProgram(P);
  funil::Program Again;
  std::string Err2;
  if (!funil::parseProgram(Printed, Again, Err2) ||
      funil::printProgram(Again) != Printed)
    std::abort(); // print -> parse -> print must be the identity
  if (!funil::typeCheckProgram(P, Err))
    return 0;
  rewrite::GeneratedOpenCL G;
  (void)rewrite::generateOpenCL(P, "k", G, Err, 2);
  return 0;
}
