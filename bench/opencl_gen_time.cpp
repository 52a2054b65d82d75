//===- opencl_gen_time.cpp - Time rewrite::generateOpenCL on FunIL files --===//
//
// Usage: opencl_gen_time FILE.funil...  (built and run by opencl_gen_time.sh)
// Parses each lifted FunIL program and times rewrite::generateOpenCL on it
// with MaxVariants = 1 and with the default (the plugin's call), in thread
// CPU time; the second of two passes over the files is reported. Each pass
// starts with an empty in-process memo (OpenCLGenMemo.h), as one compile of
// one source file does; a third pass times the default with the memo
// disabled. Prints one line: programs, seconds and bytes of OpenCL for each
// setting, the number of variants the default emitted, and the memo's hits.
//
//===----------------------------------------------------------------------===//

#include "idiom/FunIL/Parser.h"
#include "idiom/Rewrite/OpenCLGen.h"
#include "idiom/Rewrite/OpenCLGenMemo.h"
#include <cstdio>
#include <cstdint>
#include <ctime>
#include <fstream>
#include <sstream>

static double now() {
  timespec T;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &T);
  return T.tv_sec + T.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
  // Pass 0 warms up; pass 1 is reported; pass 2 repeats it without the memo.
  double T1[3] = {}, TD[3] = {};
  unsigned Variants = 0, Programs = 0;
  size_t Bytes1 = 0, BytesD = 0;
  uint64_t Hits = 0;
  for (int Pass = 0; Pass < 3; ++Pass) {
    idiom::rewrite::clearOpenCLGenMemo();
    idiom::rewrite::setOpenCLGenMemoCapacity(
        Pass == 2 ? 0 : idiom::rewrite::DefaultOpenCLGenMemoCapacity);
    Variants = Programs = 0;
    Bytes1 = BytesD = 0;
    for (int I = 1; I < argc; ++I) {
      std::ifstream In(argv[I]);
      std::stringstream SS;
      SS << In.rdbuf();
      idiom::funil::Program P;
      std::string Err;
      if (!idiom::funil::parseProgram(SS.str(), P, Err)) {
        fprintf(stderr, "%s: %s\n", argv[I], Err.c_str());
        return 1;
      }
      idiom::rewrite::GeneratedOpenCL G1, GD;
      double A = now();
      bool Ok1 = idiom::rewrite::generateOpenCL(P, "k", G1, Err, 1);
      double B = now();
      bool OkD = idiom::rewrite::generateOpenCL(P, "k", GD, Err);
      double C = now();
      if (!Ok1 || !OkD) {
        fprintf(stderr, "%s: %s\n", argv[I], Err.c_str());
        return 1;
      }
      T1[Pass] += B - A;
      TD[Pass] += C - B;
      ++Programs;
      Variants += GD.NumVariants;
      Bytes1 += G1.Source.size();
      BytesD += GD.Source.size();
    }
    if (Pass == 1)
      Hits = idiom::rewrite::openCLGenMemoStats().Hits;
  }
  printf("%u programs: 1 variant %.4f s (%zu bytes); default %.4f s "
         "(%u variants, %zu bytes); memo hits %llu; default without memo "
         "%.4f s\n",
         Programs, T1[1], Bytes1, TD[1], Variants, BytesD,
         static_cast<unsigned long long>(Hits), TD[2]);
  return 0;
}
