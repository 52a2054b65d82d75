/* Issue 12: what process exit costs after OpenCL use (docs/Benchmarks.md,
   fourth session). Usage: exit_cost NBUF MB PINNED_MB RELEASE; build with
   cc -O2 exit_cost.c -lOpenCL; bench/exit_cost.sh runs the cases. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1e3+t.tv_nsec/1e6;}
int main(int argc,char**argv){
  int nbuf=atoi(argv[1]); size_t mb=atoi(argv[2]); int pinned=atoi(argv[3]); int release=atoi(argv[4]);
  double t0=now();
  cl_platform_id ps[8]; cl_uint np; clGetPlatformIDs(8,ps,&np);
  cl_device_id dev=0; for(cl_uint i=0;i<np;i++){ if(clGetDeviceIDs(ps[i],CL_DEVICE_TYPE_GPU,1,&dev,NULL)==CL_SUCCESS) break; }
  cl_int e; cl_context ctx=clCreateContext(NULL,1,&dev,NULL,NULL,&e);
  cl_command_queue q=clCreateCommandQueue(ctx,dev,0,&e);
  double t1=now();
  size_t sz=mb<<20; char*h=malloc(sz); memset(h,1,sz);
  cl_mem b[64];
  for(int i=0;i<nbuf;i++){ b[i]=clCreateBuffer(ctx,CL_MEM_READ_WRITE,sz,NULL,&e); clEnqueueWriteBuffer(q,b[i],CL_TRUE,0,sz,h,0,NULL,NULL);}
  cl_mem pb=0; void*pm=0;
  if(pinned){ pb=clCreateBuffer(ctx,CL_MEM_ALLOC_HOST_PTR,pinned<<20,NULL,&e); pm=clEnqueueMapBuffer(q,pb,CL_TRUE,CL_MAP_WRITE,0,pinned<<20,0,NULL,NULL,&e); memset(pm,2,pinned<<20);}
  clFinish(q);
  double t2=now();
  if(release){ if(pb){clEnqueueUnmapMemObject(q,pb,pm,0,NULL,NULL);clReleaseMemObject(pb);} for(int i=0;i<nbuf;i++) clReleaseMemObject(b[i]); clReleaseCommandQueue(q); clReleaseContext(ctx);}
  double t3=now();
  fprintf(stderr,"init %.1f ms, alloc+write %.1f ms, release %.1f ms, at exit +%.1f ms since start\n",t1-t0,t2-t1,t3-t2,t3-t0);
  return 0;
}
