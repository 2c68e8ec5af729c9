// kevin's declaration subset of the CUDA driver API.
#pragma once
#include <cuda_runtime.h>
typedef int CUresult;
typedef unsigned long long CUdeviceptr;
typedef int CUdevice;
typedef struct CUctx_st *CUcontext;
typedef cudaStream_t CUstream;
#define CUDA_SUCCESS 0
#define CUDA_VERSION 12000
extern "C" {
CUresult cuInit(unsigned);
CUresult cuMemGetAddressRange(CUdeviceptr *, size_t *, CUdeviceptr);
CUresult cuPointerGetAttribute(void *, int, CUdeviceptr);
CUresult cuCtxGetCurrent(CUcontext *);
CUresult cuCtxSynchronize(void);
CUresult cuMemAlloc(CUdeviceptr *, size_t);
CUresult cuMemFree(CUdeviceptr);
CUresult cuStreamCreate(CUstream *, unsigned);
}
