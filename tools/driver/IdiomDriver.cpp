//===- IdiomDriver.cpp - idiom-cc and idiom-c++, clang with the plugin ----===//
//
// A compiler driver in the style of mpicc or hipcc:
//
//   idiom-cc -O2 prog.c -o prog
//
// runs clang-19 (idiom-c++: clang++-19) with both plugin flags
// (-fplugin= so that -mllvm options of the plugin are known when clang
// parses them, -fpass-plugin= to run its passes), and, when the command
// links, the runtime archive and -lm, as needed (the runtime itself needs
// no libm: a program that does not need it either does not load it, 10
// page faults and a few system calls at every start, bench/tiny_host.sh).
// Everything else is passed through unchanged, so the driver works as CC
// in `./configure && make`: a
// preprocessing or dependency-only run (-E, -M, -MM) gets no plugin, a
// compile-only run (-c, -S) no link inputs, and a command without inputs
// (-v, --version, -print-*, -dump*) reaches clang untouched.
//
// The plugin and the runtime are found relative to the driver's own path
// (/proc/self/exe): <bindir>/../lib in the build tree, <bindir>/../<libdir>
// in an install prefix.
//
//===----------------------------------------------------------------------===//

#include <cctype>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

#ifndef IDIOM_VERSION
#define IDIOM_VERSION "unknown"
#endif
#ifndef IDIOM_CLANG
#define IDIOM_CLANG "clang-19"
#endif
#ifndef IDIOM_CLANGXX
#define IDIOM_CLANGXX "clang++-19"
#endif
#ifndef IDIOM_INSTALL_LIBDIR
#define IDIOM_INSTALL_LIBDIR "lib"
#endif

namespace {

/// Name under which the driver reports errors (idiom-cc or idiom-c++).
const char *ToolName = "idiom-cc";

/// What the command asks clang to do, from its options.
enum class Mode { Link, Compile, Preprocess };

/// The driver's own options and what it learnt from clang's.
struct Invocation {
  std::vector<std::string> Specs;
  std::string Device;
  bool NoOffload = false;
  bool Show = false;
  Mode M = Mode::Link;
  unsigned Sources = 0;          ///< inputs that clang compiles (C, C++, IR)
  unsigned Inputs = 0;           ///< all inputs, objects and libraries included
  std::vector<std::string> Args; ///< clang's arguments, in order
};

[[noreturn]] void fail(const std::string &Msg) {
  std::fprintf(stderr, "%s: error: %s\n", ToolName, Msg.c_str());
  std::exit(1);
}

bool startsWith(const std::string &S, const char *P) {
  return S.compare(0, std::strlen(P), P) == 0;
}

bool endsWith(const std::string &S, const char *Suffix) {
  size_t N = std::strlen(Suffix);
  return S.size() >= N && S.compare(S.size() - N, N, Suffix) == 0;
}

bool isFile(const std::string &Path) {
  struct stat St;
  return stat(Path.c_str(), &St) == 0 && S_ISREG(St.st_mode);
}

/// The directory that holds the running executable.
std::string selfDir() {
  char Buf[PATH_MAX];
  ssize_t N = readlink("/proc/self/exe", Buf, sizeof Buf - 1);
  if (N <= 0)
    fail("cannot locate the driver itself (/proc/self/exe): " +
         std::string(std::strerror(errno)));
  Buf[N] = '\0';
  std::string P(Buf);
  return P.substr(0, P.rfind('/'));
}

/// The directory with libIdiom.so and libidiomrt.a: the install prefix's
/// libdir, else the build tree's lib/ (both are siblings of bin/).
std::string findLibDir() {
  std::string Bin = selfDir();
  std::string Candidates[] = {Bin + "/../" IDIOM_INSTALL_LIBDIR,
                              Bin + "/../lib"};
  for (const std::string &D : Candidates)
    if (isFile(D + "/libIdiom.so") && isFile(D + "/libidiomrt.a"))
      return D;
  fail("cannot find libIdiom.so and libidiomrt.a in " + Candidates[0] + " or " +
       Candidates[1] + " (is the driver in an Idiom build or " +
       "install tree?)");
}

/// Options of clang that take the next argument as their value.
bool takesSeparateValue(const std::string &A) {
  // clang-format off
  static const char *const Opts[] = {
      "-o", "-x", "-I", "-D", "-U", "-L", "-l", "-include", "-imacros",
      "-isystem", "-iquote", "-idirafter", "-iprefix", "-iwithprefix",
      "-iwithprefixbefore", "-isysroot", "-MF", "-MT", "-MQ", "-Xlinker",
      "-Xclang", "-Xpreprocessor", "-Xassembler", "-mllvm", "-target",
      "-arch", "-T", "-u", "-z", "-e", "-F", "-aux-info", "-Xopenmp-target",
      "--param", "-dependency-file", "-MJ", "-ccc-install-dir",
      "-resource-dir", "-gcc-toolchain", "--sysroot", "--serialize-diagnostics"};
  // clang-format on
  for (const char *O : Opts)
    if (A == O)
      return true;
  return false;
}

/// A file name that clang compiles (rather than hands to the linker or
/// assembler).
bool isSourceName(const std::string &F) {
  static const char *const Exts[] = {".c",   ".i",   ".cc",  ".cp",
                                     ".cxx", ".cpp", ".CPP", ".c++",
                                     ".C",   ".ii",  ".bc",  ".ll"};
  for (const char *E : Exts)
    if (endsWith(F, E))
      return true;
  return false;
}

/// A -x language that clang compiles with the optimizer.
bool isSourceLanguage(const std::string &L) {
  return L == "c" || L == "c++" || L == "cpp-output" || L == "c++-cpp-output" ||
         L == "ir" || L == "c-header" || L == "c++-header";
}

void printHelp(const char *DefaultClang) {
  std::printf(
      "OVERVIEW: %s - %s with the Idiom plugin and runtime\n"
      "\n"
      "USAGE: %s [idiom options] [clang options] files...\n"
      "\n"
      "Adds -fplugin= and -fpass-plugin= (libIdiom.so) when it compiles,\n"
      "and the runtime (libidiomrt.a) and -lm when it links; every other\n"
      "argument goes to %s unchanged.\n"
      "\n"
      "IDIOM OPTIONS:\n"
      "  --idiom-spec=FILE        Load the idiom specs in FILE as well as the\n"
      "                           built-in ones (repeatable; -mllvm\n"
      "                           -idiom-spec=FILE)\n"
      "  --idiom-device=DEVICE    Default device of the linked program: auto,\n"
      "                           gpu, cpu or seq, as if IDIOM_DEVICE=DEVICE\n"
      "                           were set; IDIOM_DEVICE, when set, wins\n"
      "  --idiom-no-offload       Detect and report idioms (-Rpass-analysis\n"
      "                           remarks), change no code (-mllvm\n"
      "                           -idiom-detect-only)\n"
      "  --idiom-show             Print the %s command instead of running it\n"
      "  --help                   Print this help and exit\n"
      "  --version                Print the Idiom and clang versions and exit\n"
      "\n"
      "ENVIRONMENT:\n"
      "  IDIOM_CLANG, IDIOM_CLANGXX  the clang and clang++ to run (default\n"
      "                              %s, %s)\n"
      "\n"
      "Remarks: -Rpass=idiom-offload (offloaded), -Rpass-missed=idiom-offload\n"
      "(near misses), -Rpass-analysis=idiom-offload (notes); -Rpass=idiom\n"
      "also shows LLVM's loop-idiom. Records: -fsave-optimization-record.\n"
      "Other plugin options: -mllvm -idiom-... (README.md). Run-time\n"
      "settings: IDIOM_DEVICE, IDIOM_STATS=1|json|FILE.json, ... "
      "(README.md).\n",
      ToolName, DefaultClang, ToolName, DefaultClang, DefaultClang, IDIOM_CLANG,
      IDIOM_CLANGXX);
}

/// The arguments of response file \p Path in GCC's syntax (white space
/// separates, quotes group, backslash escapes), or false when it cannot be
/// read (clang then reports it).
bool readResponseFile(const std::string &Path, std::vector<std::string> &Out) {
  FILE *F = std::fopen(Path.c_str(), "r");
  if (!F)
    return false;
  std::string Cur;
  bool Have = false;
  char Quote = 0;
  for (int C; (C = std::fgetc(F)) != EOF;) {
    if (C == '\\') {
      int N = std::fgetc(F);
      if (N != EOF) {
        Cur += static_cast<char>(N);
        Have = true;
      }
    } else if (Quote) {
      if (C == Quote)
        Quote = 0;
      else
        Cur += static_cast<char>(C);
    } else if (C == '\'' || C == '"') {
      Quote = static_cast<char>(C);
      Have = true;
    } else if (std::isspace(C)) {
      if (Have)
        Out.push_back(Cur);
      Cur.clear();
      Have = false;
    } else {
      Cur += static_cast<char>(C);
      Have = true;
    }
  }
  if (Have)
    Out.push_back(Cur);
  std::fclose(F);
  return true;
}

/// Appends \p Args to \p Out with response files (@FILE) replaced by their
/// arguments, to \p Depth levels of nesting.
void expandResponseFiles(const std::vector<std::string> &Args,
                         std::vector<std::string> &Out, int Depth = 8) {
  for (const std::string &A : Args) {
    std::vector<std::string> Inner;
    if (Depth > 0 && A.size() > 1 && A[0] == '@' &&
        readResponseFile(A.substr(1), Inner))
      expandResponseFiles(Inner, Out, Depth - 1);
    else
      Out.push_back(A);
  }
}

/// Sets the mode and counts the inputs of clang's arguments \p Args.
void classify(const std::vector<std::string> &Args, Invocation &Inv) {
  std::vector<std::string> All;
  expandResponseFiles(Args, All);
  std::string Lang; // the current -x language, empty for none
  for (size_t I = 0; I < All.size(); ++I) {
    const std::string &A = All[I];
    if (A == "-c" || A == "-S")
      Inv.M = Inv.M == Mode::Preprocess ? Mode::Preprocess : Mode::Compile;
    else if (A == "-E" || A == "-M" || A == "-MM" || A == "-fsyntax-only")
      Inv.M = Mode::Preprocess;
    if (A == "-x" || (startsWith(A, "-x") && A.size() > 2)) {
      if (A == "-x" && I + 1 < All.size())
        Lang = All[++I];
      else if (A != "-x")
        Lang = A.substr(2);
      if (Lang == "none")
        Lang.clear();
      continue;
    }
    if (takesSeparateValue(A)) {
      ++I;
      continue;
    }
    if (A == "-" || (!A.empty() && A[0] != '-')) {
      ++Inv.Inputs;
      if (Lang.empty() ? isSourceName(A) : isSourceLanguage(Lang))
        ++Inv.Sources;
    }
  }
}

Invocation parse(int Argc, char **Argv) {
  Invocation Inv;
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    // The value of an option such as -o or -MF is never a driver option.
    if (takesSeparateValue(A) || A == "-x") {
      Inv.Args.push_back(A);
      if (I + 1 < Argc)
        Inv.Args.push_back(Argv[++I]);
      continue;
    }
    if (!startsWith(A, "--idiom-")) {
      Inv.Args.push_back(A);
      continue;
    }
    if (startsWith(A, "--idiom-spec=")) {
      std::string F = A.substr(std::strlen("--idiom-spec="));
      if (F.empty())
        fail("--idiom-spec= needs a file name");
      if (!isFile(F))
        fail("spec file not found: " + F);
      if (access(F.c_str(), R_OK) != 0)
        fail("spec file not readable: " + F);
      Inv.Specs.push_back(F);
    } else if (startsWith(A, "--idiom-device=")) {
      Inv.Device = A.substr(std::strlen("--idiom-device="));
      if (Inv.Device != "auto" && Inv.Device != "gpu" && Inv.Device != "cpu" &&
          Inv.Device != "seq")
        fail("--idiom-device=" + Inv.Device +
             ": expected auto, gpu, cpu or seq");
    } else if (A == "--idiom-no-offload") {
      Inv.NoOffload = true;
    } else if (A == "--idiom-show") {
      Inv.Show = true;
    } else {
      fail("unknown option " + A + " (see --help)");
    }
  }
  classify(Inv.Args, Inv);
  return Inv;
}

std::string shellQuote(const std::string &S) {
  if (!S.empty() &&
      S.find_first_not_of("abcdefghijklmnopqrstuvwxyz"
                          "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
                          "0123456789_-+=/.,:@%") == std::string::npos)
    return S;
  std::string Q = "'";
  for (char C : S)
    Q += C == '\'' ? std::string("'\\''") : std::string(1, C);
  return Q + "'";
}

} // namespace

int main(int Argc, char **Argv) {
#ifdef IDIOM_DRIVER_CXX
  ToolName = "idiom-c++";
  bool CXX = true;
#else
  ToolName = "idiom-cc";
  bool CXX = false;
#endif
  const char *EnvClang = std::getenv(CXX ? "IDIOM_CLANGXX" : "IDIOM_CLANG");
  std::string Clang =
      EnvClang && *EnvClang ? EnvClang : (CXX ? IDIOM_CLANGXX : IDIOM_CLANG);

  for (int I = 1; I < Argc; ++I) {
    if (std::strcmp(Argv[I], "--help") == 0) {
      printHelp(CXX ? IDIOM_CLANGXX : IDIOM_CLANG);
      return 0;
    }
    if (std::strcmp(Argv[I], "--version") == 0) {
      std::fflush(stdout);
      std::string Cmd = shellQuote(Clang) + " --version";
      int Rc = std::system(Cmd.c_str());
      std::printf("%s (Idiom %s); plugin and runtime in %s\n", ToolName,
                  IDIOM_VERSION, findLibDir().c_str());
      return Rc == 0 ? 0 : 1;
    }
  }

  Invocation Inv = parse(Argc, Argv);
  std::vector<std::string> Cmd{Clang};
  bool Compiles = Inv.Sources > 0 && Inv.M != Mode::Preprocess;
  bool Links = Inv.Inputs > 0 && Inv.M == Mode::Link;
  std::string LibDir;
  if (Compiles || Links)
    LibDir = findLibDir();
  if (Compiles) {
    std::string Plugin = LibDir + "/libIdiom.so";
    Cmd.push_back("-fplugin=" + Plugin);
    Cmd.push_back("-fpass-plugin=" + Plugin);
    for (const std::string &S : Inv.Specs) {
      Cmd.push_back("-mllvm");
      Cmd.push_back("-idiom-spec=" + S);
    }
    if (Inv.NoOffload) {
      Cmd.push_back("-mllvm");
      Cmd.push_back("-idiom-detect-only");
      Cmd.push_back("-Rpass-analysis=idiom-offload");
    }
  }
  Cmd.insert(Cmd.end(), Inv.Args.begin(), Inv.Args.end());
  if (Links) {
    // The runtime after the user's objects and libraries; -u pulls the
    // archive member that bakes in the default device.
    if (!Inv.Device.empty())
      Cmd.push_back("-Wl,-u,idiomrt_default_device_" + Inv.Device);
    Cmd.push_back(LibDir + "/libidiomrt.a");
    Cmd.push_back("-Wl,--push-state,--as-needed");
    Cmd.push_back("-lm");
    Cmd.push_back("-Wl,--pop-state");
  }

  if (Inv.Show) {
    for (size_t I = 0; I < Cmd.size(); ++I)
      std::printf("%s%s", I ? " " : "", shellQuote(Cmd[I]).c_str());
    std::printf("\n");
    return 0;
  }
  std::vector<char *> CArgs;
  for (std::string &S : Cmd)
    CArgs.push_back(S.data());
  CArgs.push_back(nullptr);
  execvp(CArgs[0], CArgs.data());
  fail("cannot run " + Clang + ": " + std::strerror(errno));
}
