//===- OpenCLRunner.h - run generated kernels on PoCL in tests --*- C++ -*-===//
//
// Part of Idiom. A tiny OpenCL host for tests: loads libOpenCL.so.1 with
// dlopen (no link-time dependency), prefers a CPU device (PoCL), builds a
// source, and runs one kernel at a time.
//
//===----------------------------------------------------------------------===//

#ifndef IDIOM_TEST_REWRITE_OPENCLRUNNER_H
#define IDIOM_TEST_REWRITE_OPENCLRUNNER_H

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace idiom::rwtest {

/// One kernel argument.
struct KernelArg {
  enum Kind { Buffer, Scalar, Local } K = Scalar;
  std::vector<uint8_t> Bytes; ///< buffer contents (read back after the run)
                              ///< or scalar bytes
  size_t LocalBytes = 0;      ///< Local only

  template <typename T> static KernelArg scalar(T V) {
    KernelArg A;
    A.Bytes.resize(sizeof(T));
    std::memcpy(A.Bytes.data(), &V, sizeof(T));
    return A;
  }
  static KernelArg buffer(std::vector<uint8_t> B) {
    KernelArg A;
    A.K = Buffer;
    A.Bytes = std::move(B);
    if (A.Bytes.empty())
      A.Bytes.resize(8); // OpenCL buffers cannot be empty
    return A;
  }
  static KernelArg local(size_t N) {
    KernelArg A;
    A.K = Local;
    A.LocalBytes = N;
    return A;
  }
};

/// An OpenCL context on the first CPU device (else the first device).
class OpenCLRunner {
public:
  OpenCLRunner();
  ~OpenCLRunner();
  /// False when no OpenCL library or device is present (tests then skip).
  bool available() const { return Ok; }
  /// Builds \p Src; on failure returns false with the build log in \p Err.
  bool build(const std::string &Src, std::string &Err);
  /// Runs \p Kernel of the last built program over Global/LocalSizes
  /// (1 to 3 dimensions); buffers are read back into Args.
  bool run(const std::string &Kernel, std::vector<KernelArg> &Args,
           const std::vector<size_t> &Global, const std::vector<size_t> &Local,
           std::string &Err);

private:
  struct Impl;
  std::unique_ptr<Impl> I;
  bool Ok = false;
};

} // namespace idiom::rwtest

#endif // IDIOM_TEST_REWRITE_OPENCLRUNNER_H
