//===- OpenCLRunner.cpp - run generated kernels on PoCL in tests ----------===//
//
// Part of Idiom.
//
//===----------------------------------------------------------------------===//

#include "OpenCLRunner.h"

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <dlfcn.h>

namespace idiom::rwtest {

struct OpenCLRunner::Impl {
  void *Lib = nullptr;
#define FN(Name) decltype(&::Name) Name = nullptr
  FN(clGetPlatformIDs);
  FN(clGetDeviceIDs);
  FN(clCreateContext);
  FN(clCreateCommandQueue);
  FN(clCreateProgramWithSource);
  FN(clBuildProgram);
  FN(clGetProgramBuildInfo);
  FN(clCreateKernel);
  FN(clCreateBuffer);
  FN(clSetKernelArg);
  FN(clEnqueueNDRangeKernel);
  FN(clEnqueueReadBuffer);
  FN(clFinish);
  FN(clReleaseMemObject);
  FN(clReleaseKernel);
  FN(clReleaseProgram);
  FN(clReleaseCommandQueue);
  FN(clReleaseContext);
#undef FN
  cl_context Ctx = nullptr;
  cl_command_queue Queue = nullptr;
  cl_device_id Dev = nullptr;
  cl_program Prog = nullptr;
};

OpenCLRunner::OpenCLRunner() : I(new Impl) {
  I->Lib = dlopen("libOpenCL.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!I->Lib)
    return;
#define LOAD(Name)                                                             \
  I->Name = reinterpret_cast<decltype(I->Name)>(dlsym(I->Lib, #Name));         \
  if (!I->Name)                                                                \
    return;
  LOAD(clGetPlatformIDs) LOAD(clGetDeviceIDs) LOAD(clCreateContext)
  LOAD(clCreateCommandQueue) LOAD(clCreateProgramWithSource) LOAD(clBuildProgram)
  LOAD(clGetProgramBuildInfo) LOAD(clCreateKernel) LOAD(clCreateBuffer)
  LOAD(clSetKernelArg) LOAD(clEnqueueNDRangeKernel) LOAD(clEnqueueReadBuffer)
  LOAD(clFinish) LOAD(clReleaseMemObject) LOAD(clReleaseKernel)
  LOAD(clReleaseProgram) LOAD(clReleaseCommandQueue) LOAD(clReleaseContext)
#undef LOAD
  cl_platform_id Plats[8];
  cl_uint NP = 0;
  if (I->clGetPlatformIDs(8, Plats, &NP) != CL_SUCCESS || NP == 0)
    return;
  for (cl_device_type T : {cl_device_type(CL_DEVICE_TYPE_CPU), cl_device_type(CL_DEVICE_TYPE_ALL)}) {
    for (cl_uint P = 0; P < NP && !I->Dev; ++P) {
      cl_uint ND = 0;
      if (I->clGetDeviceIDs(Plats[P], T, 1, &I->Dev, &ND) != CL_SUCCESS)
        I->Dev = nullptr;
    }
    if (I->Dev)
      break;
  }
  if (!I->Dev)
    return;
  cl_int E;
  I->Ctx = I->clCreateContext(nullptr, 1, &I->Dev, nullptr, nullptr, &E);
  if (E != CL_SUCCESS)
    return;
  I->Queue = I->clCreateCommandQueue(I->Ctx, I->Dev, 0, &E);
  Ok = E == CL_SUCCESS;
}

OpenCLRunner::~OpenCLRunner() {
  if (I->Prog)
    I->clReleaseProgram(I->Prog);
  if (I->Queue)
    I->clReleaseCommandQueue(I->Queue);
  if (I->Ctx)
    I->clReleaseContext(I->Ctx);
  // The library stays loaded: ICDs do not like being unloaded.
}

bool OpenCLRunner::build(const std::string &Src, std::string &Err) {
  if (I->Prog)
    I->clReleaseProgram(I->Prog);
  const char *S = Src.c_str();
  size_t Len = Src.size();
  cl_int E;
  I->Prog = I->clCreateProgramWithSource(I->Ctx, 1, &S, &Len, &E);
  if (E != CL_SUCCESS) {
    Err = "clCreateProgramWithSource failed";
    return false;
  }
  if (I->clBuildProgram(I->Prog, 1, &I->Dev, "-cl-std=CL1.2", nullptr, nullptr) ==
      CL_SUCCESS)
    return true;
  size_t LogLen = 0;
  I->clGetProgramBuildInfo(I->Prog, I->Dev, CL_PROGRAM_BUILD_LOG, 0, nullptr, &LogLen);
  std::string Log(LogLen, '\0');
  I->clGetProgramBuildInfo(I->Prog, I->Dev, CL_PROGRAM_BUILD_LOG, LogLen, Log.data(),
                           nullptr);
  Err = "build failed:\n" + Log;
  return false;
}

bool OpenCLRunner::run(const std::string &Kernel, std::vector<KernelArg> &Args,
                       const std::vector<size_t> &Global,
                       const std::vector<size_t> &Local, std::string &Err) {
  cl_int E;
  cl_kernel K = I->clCreateKernel(I->Prog, Kernel.c_str(), &E);
  if (E != CL_SUCCESS) {
    Err = "no kernel " + Kernel;
    return false;
  }
  std::vector<cl_mem> Mems(Args.size(), nullptr);
  bool Good = true;
  for (size_t A = 0; A < Args.size() && Good; ++A) {
    KernelArg &Arg = Args[A];
    if (Arg.K == KernelArg::Buffer) {
      Mems[A] = I->clCreateBuffer(I->Ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                  Arg.Bytes.size(), Arg.Bytes.data(), &E);
      Good = E == CL_SUCCESS &&
             I->clSetKernelArg(K, A, sizeof(cl_mem), &Mems[A]) == CL_SUCCESS;
    } else if (Arg.K == KernelArg::Local) {
      Good = I->clSetKernelArg(K, A, Arg.LocalBytes, nullptr) == CL_SUCCESS;
    } else {
      Good = I->clSetKernelArg(K, A, Arg.Bytes.size(), Arg.Bytes.data()) == CL_SUCCESS;
    }
    if (!Good)
      Err = "setting argument " + std::to_string(A) + " failed";
  }
  if (Good) {
    E = I->clEnqueueNDRangeKernel(I->Queue, K, Global.size(), nullptr, Global.data(),
                                  Local.empty() ? nullptr : Local.data(), 0, nullptr,
                                  nullptr);
    Good = E == CL_SUCCESS && I->clFinish(I->Queue) == CL_SUCCESS;
    if (!Good)
      Err = "enqueue failed: " + std::to_string(E);
  }
  for (size_t A = 0; A < Args.size(); ++A) {
    if (!Mems[A])
      continue;
    if (Good)
      I->clEnqueueReadBuffer(I->Queue, Mems[A], CL_TRUE, 0, Args[A].Bytes.size(),
                             Args[A].Bytes.data(), 0, nullptr, nullptr);
    I->clReleaseMemObject(Mems[A]);
  }
  I->clReleaseKernel(K);
  return Good;
}

} // namespace idiom::rwtest
