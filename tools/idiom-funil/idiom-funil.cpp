//===- idiom-funil.cpp - FunIL command-line driver ------------------------===//
//
// Part of Idiom. Reads FunIL text, applies a strategy or a list of rules,
// and prints FunIL, lowered FunIL or OpenCL C, or interprets the program.
// Run `idiom-funil --help` for the options (docs/Rewrite.md has examples).
//
//===----------------------------------------------------------------------===//

#include "idiom/FunIL/Interpreter.h"
#include "idiom/FunIL/Parser.h"
#include "idiom/FunIL/Printer.h"
#include "idiom/FunIL/TypeCheck.h"
#include "idiom/Rewrite/DefaultStrategies.h"
#include "idiom/Rewrite/Explore.h"
#include "idiom/Rewrite/OpenCLGen.h"
#include "idiom/Rewrite/Rules.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>

using namespace idiom;

namespace {

const char *Usage =
    "usage: idiom-funil [options] FILE|-\n"
    "\n"
    "Reads a FunIL program (docs/FunIL.md), optionally rewrites it, and prints\n"
    "it, its lowered form or OpenCL C, or runs it in the reference interpreter.\n"
    "\n"
    "options:\n"
    "  --emit=funil        print the program (after --strategy/--rules if given;\n"
    "                      default)\n"
    "  --emit=lowered      print the program lowered by --strategy/--rules, or by\n"
    "                      the default strategy of its statement kind\n"
    "  --emit=opencl       print OpenCL C (kernels per runtime/include/idiomrt.h)\n"
    "                      of the default lowering (variant 0)\n"
    "  --no-fp-reassoc     explore only variants that keep the order of a\n"
    "                      floating-point sum written as reduceSeq (as the\n"
    "                      plugin does with -idiom-fp-reassoc=false)\n"
    "  --variants          with --emit=opencl: every explored variant in one\n"
    "                      source, as the plugin emits it; with --emit=lowered:\n"
    "                      each variant's lowered program after a description\n"
    "  --candidates=B:E    with --variants: GEMM candidates B..E-1 of the whole\n"
    "                      candidate set (gemmCandidates) instead of the\n"
    "                      explored variants (benchmarks)\n"
    "  --variant=K         lower with explored variant K instead of the default\n"
    "                      strategy (for --emit=lowered|opencl and --interpret)\n"
    "  --strategy=NAME     default | map | reduce | none\n"
    "  --rules=R1,R2,...   rewrite to normal form with these rules instead of a\n"
    "                      strategy (see --list-rules)\n"
    "  --kernel-name=N     kernel base name (default: the idiom's name)\n"
    "  --interpret         run the (rewritten) program and print its result:\n"
    "                      the returned value, or every stored buffer\n"
    "  --input NAME=V1,V2  value of a parameter (repeatable; a buffer takes a\n"
    "                      comma-separated list, a scalar one value)\n"
    "  --local-size=L      work-group size seen by localSize(0) (default 4)\n"
    "  --num-groups=G      work-group count seen by numGroups(0) (default 3)\n"
    "  --trace             print the names of applied rules on stderr\n"
    "  --list-rules        print every rule with its family and exit\n"
    "  --help              print this text and exit\n"
    "\n"
    "Errors are printed as FILE:LINE:COL: message; the exit status is then 1.\n";

int fail(const std::string &File, const std::string &Msg) {
  // Messages from the parser and the type checker start with LINE:COL.
  bool HasLoc = !Msg.empty() && std::isdigit(static_cast<unsigned char>(Msg[0]));
  std::cerr << File << ":" << (HasLoc ? "" : " error: ") << Msg << "\n";
  return 1;
}

std::vector<std::string> splitList(const std::string &S) {
  std::vector<std::string> Out;
  std::stringstream SS(S);
  std::string Item;
  while (std::getline(SS, Item, ','))
    if (!Item.empty())
      Out.push_back(Item);
  return Out;
}

bool startsWith(const std::string &S, const char *P, std::string &Rest) {
  size_t N = std::char_traits<char>::length(P);
  if (S.compare(0, N, P) != 0)
    return false;
  Rest = S.substr(N);
  return true;
}

} // namespace

int main(int Argc, char **Argv) {
  std::string Emit = "funil", StrategyName, RulesList, KernelName, File;
  bool Interpret = false, Trace = false, AllVariants = false;
  rewrite::ExploreOptions Explore;
  long VariantIndex = -1;
  long CandFrom = -1, CandTo = -1; // --candidates=B:E
  std::vector<std::string> Inputs;
  funil::ExecConfig Cfg;
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I], V;
    if (A == "--help" || A == "-h") {
      std::cout << Usage;
      return 0;
    }
    if (A == "--list-rules") {
      for (const rewrite::Rule &R : rewrite::allRules())
        std::cout << R.Name << " [" << R.Family << "]: " << R.Doc << "\n";
      return 0;
    }
    if (startsWith(A, "--emit=", V)) {
      if (V != "funil" && V != "opencl" && V != "lowered")
        return fail("idiom-funil", "unknown --emit value '" + V + "'");
      Emit = V;
    } else if (startsWith(A, "--strategy=", V)) {
      StrategyName = V;
    } else if (startsWith(A, "--rules=", V)) {
      RulesList = V;
    } else if (startsWith(A, "--kernel-name=", V)) {
      KernelName = V;
    } else if (A == "--no-fp-reassoc") {
      Explore.FPReassoc = false;
    } else if (A == "--variants") {
      AllVariants = true;
    } else if (startsWith(A, "--candidates=", V)) {
      char *End = nullptr;
      CandFrom = std::strtol(V.c_str(), &End, 10);
      if (*End != ':' || CandFrom < 0)
        return fail("idiom-funil", "bad --candidates value '" + V + "' (want B:E)");
      CandTo = std::strtol(End + 1, &End, 10);
      if (*End || CandTo <= CandFrom)
        return fail("idiom-funil", "bad --candidates value '" + V + "' (want B:E)");
    } else if (startsWith(A, "--variant=", V)) {
      char *End = nullptr;
      VariantIndex = std::strtol(V.c_str(), &End, 10);
      if (V.empty() || *End || VariantIndex < 0)
        return fail("idiom-funil", "bad --variant value '" + V + "'");
    } else if (A == "--interpret") {
      Interpret = true;
    } else if (A == "--trace") {
      Trace = true;
    } else if (A == "--input" && I + 1 < Argc) {
      Inputs.push_back(Argv[++I]);
    } else if (startsWith(A, "--input=", V)) {
      Inputs.push_back(V);
    } else if (startsWith(A, "--local-size=", V)) {
      Cfg.LocalSize = std::atoll(V.c_str());
    } else if (startsWith(A, "--num-groups=", V)) {
      Cfg.NumGroups = std::atoll(V.c_str());
    } else if (A == "-" || A[0] != '-') {
      File = A;
    } else {
      return fail("idiom-funil", "unknown option '" + A + "' (try --help)");
    }
  }
  if (File.empty())
    return fail("idiom-funil", "no input file (try --help)");
  if (CandFrom >= 0 && !AllVariants)
    return fail("idiom-funil", "--candidates needs --variants");

  std::string Text;
  if (File == "-") {
    std::stringstream SS;
    SS << std::cin.rdbuf();
    Text = SS.str();
  } else {
    std::ifstream In(File);
    if (!In)
      return fail(File, "cannot open file");
    std::stringstream SS;
    SS << In.rdbuf();
    Text = SS.str();
  }
  std::string Name = File == "-" ? "<stdin>" : File;

  funil::Program P;
  std::string Err;
  if (!funil::parseProgram(Text, P, Err) || !funil::typeCheckProgram(P, Err))
    return fail(Name, Err);
  if (KernelName.empty())
    KernelName = P.Name;

  if (AllVariants && (Emit == "lowered" || Emit == "opencl")) {
    if (!RulesList.empty() || !StrategyName.empty() || VariantIndex >= 0 || Interpret)
      return fail(Name, "--variants takes no --rules, --strategy, --variant or --interpret");
    rewrite::GeneratedOpenCL G;
    if (CandFrom >= 0) {
      if (!rewrite::isCanonicalGemm(P.Body) || P.IsReturn)
        return fail(Name, "--candidates: the program is not a canonical GEMM");
      std::vector<rewrite::VariantParams> All = rewrite::gemmCandidates(P), Vs;
      for (long I = CandFrom; I < CandTo && I < static_cast<long>(All.size()); ++I)
        Vs.push_back(All[I]);
      if (Vs.empty())
        return fail(Name, "--candidates: the set has " + std::to_string(All.size()) +
                              " candidates");
      if (!rewrite::generateOpenCLVariants(P, KernelName, Vs, G, Err))
        return fail(Name, Err);
    } else if (!rewrite::generateOpenCL(P, KernelName, G, Err, rewrite::MaxVariants,
                                        Explore)) {
      return fail(Name, Err);
    }
    if (Emit == "opencl") {
      std::cout << G.Source;
    } else {
      for (unsigned K = 0; K < G.NumVariants; ++K)
        std::cout << "// variant " << K << ": " << G.VariantDescs[K] << "\n"
                  << G.VariantFunIL[K];
    }
    return 0;
  }

  // Rewriting: explicit rules, an explicit strategy, an explored variant,
  // or for --emit=lowered and --emit=opencl the default strategy.
  bool Explicit = !RulesList.empty() || !StrategyName.empty() || VariantIndex >= 0;
  std::vector<std::string> Applied;
  if (VariantIndex >= 0) {
    if (!RulesList.empty() || !StrategyName.empty())
      return fail(Name, "--variant takes no --rules or --strategy");
    std::vector<rewrite::VariantParams> Vs =
        rewrite::exploreVariants(P, rewrite::MaxVariants, nullptr, Explore);
    if (static_cast<size_t>(VariantIndex) >= Vs.size())
      return fail(Name, "--variant=" + std::to_string(VariantIndex) + ": the program has " +
                            std::to_string(Vs.size()) + " explored variants");
    if (!rewrite::lowerVariant(P, Vs[VariantIndex], Err, &Applied))
      return fail(Name, Err);
  } else if (Explicit || Emit == "lowered") {
    rewrite::Strategy S;
    if (!RulesList.empty()) {
      S = rewrite::rulesChoice(splitList(RulesList), Err);
      if (!S)
        return fail(Name, Err);
      S = rewrite::normalize(S);
    } else {
      S = rewrite::strategyByName(StrategyName.empty() ? "default" : StrategyName,
                                  P, Err);
      if (!S)
        return fail(Name, Err);
    }
    if (!rewrite::rewriteProgram(P, S, Err, &Applied))
      return fail(Name, Err);
  }

  if (Interpret) {
    funil::ValueMap Args;
    for (const std::string &In : Inputs) {
      size_t Eq = In.find('=');
      if (Eq == std::string::npos)
        return fail(Name, "--input needs NAME=VALUES, got '" + In + "'");
      std::string PName = In.substr(0, Eq);
      const funil::Param *Pa = P.findParam(PName);
      if (!Pa)
        return fail(Name, "--input names no parameter: '" + PName + "'");
      funil::ScalarKind K = Pa->Ty->isBuffer() ? Pa->Ty->Elem->S : Pa->Ty->S;
      std::vector<funil::Value> Vs;
      for (const std::string &Item : splitList(In.substr(Eq + 1))) {
        funil::Value V;
        if (!funil::parseScalarValue(Item, K, V))
          return fail(Name, "bad " + std::string(funil::scalarName(K)) +
                                " value '" + Item + "' for '" + PName + "'");
        Vs.push_back(V);
      }
      if (Pa->Ty->isBuffer())
        Args[PName] = funil::Value::array(Vs);
      else if (Vs.size() == 1)
        Args[PName] = Vs[0];
      else
        return fail(Name, "scalar parameter '" + PName + "' takes one value");
    }
    funil::Value R;
    if (!funil::runProgram(P, Args, R, Err, Cfg))
      return fail(Name, "interpreter: " + Err);
    if (P.IsReturn) {
      std::cout << funil::printValue(R) << "\n";
    } else {
      std::set<std::string> Printed;
      for (const auto &O : P.Outs) {
        const std::string &B = O->Args[0]->Name;
        if (Printed.insert(B).second)
          std::cout << B << " = " << funil::printValue(Args[B]) << "\n";
      }
    }
  } else if (Emit == "opencl") {
    rewrite::GeneratedOpenCL G;
    bool Ok = Explicit ? rewrite::emitOpenCL(P, KernelName, G, Err)
                       : rewrite::generateOpenCL(P, KernelName, G, Err, 1);
    if (!Ok)
      return fail(Name, Err);
    std::cout << G.Source;
  } else {
    std::cout << funil::printProgram(P);
  }
  if (Trace)
    for (const std::string &R : Applied)
      std::cerr << "applied " << R << "\n";
  return 0;
}
