// Device intrinsics of the CUDA toolkit (kevin's declaration subset).
#pragma once
// Device versions of the C math library and CUDA's device functions, from
// clang's own CUDA headers (they call libdevice's __nv_* declarations).
#ifndef CUDA_VERSION
#define CUDA_VERSION 11050
#endif
#include <limits.h>
#include <__clang_cuda_math_forward_declares.h>
#include <__clang_cuda_libdevice_declares.h>
#include <__clang_cuda_device_functions.h>
#include <__clang_cuda_math.h>
#ifndef warpSize
#define warpSize 32
#endif
__device__ void __syncthreads(void);
__device__ void __syncwarp(unsigned = 0xffffffffu);
__device__ unsigned __activemask(void);
__device__ unsigned __ballot_sync(unsigned, int);
__device__ int __all_sync(unsigned, int);
__device__ int __any_sync(unsigned, int);
template <class T> __device__ T __shfl_sync(unsigned, T, int, int = 32);
template <class T> __device__ T __shfl_up_sync(unsigned, T, unsigned, int = 32);
template <class T> __device__ T __shfl_down_sync(unsigned, T, unsigned, int = 32);
template <class T> __device__ T __shfl_xor_sync(unsigned, T, int, int = 32);
template <class T> __device__ T __ldg(const T *);
template <class T> __device__ T __ldcs(const T *);
template <class T> __device__ void __stcs(T *, T);
__device__ int atomicAdd(int *, int);
__device__ unsigned atomicAdd(unsigned *, unsigned);
__device__ unsigned long long atomicAdd(unsigned long long *, unsigned long long);
__device__ float atomicAdd(float *, float);
__device__ double atomicAdd(double *, double);
__device__ int atomicSub(int *, int);
__device__ int atomicMax(int *, int);
__device__ unsigned atomicMax(unsigned *, unsigned);
__device__ int atomicMin(int *, int);
__device__ unsigned atomicMin(unsigned *, unsigned);
__device__ int atomicExch(int *, int);
__device__ float atomicExch(float *, float);
__device__ int atomicCAS(int *, int, int);
__device__ unsigned atomicCAS(unsigned *, unsigned, unsigned);
__device__ unsigned long long atomicCAS(unsigned long long *, unsigned long long, unsigned long long);
__device__ int atomicAnd(int *, int);
__device__ int atomicOr(int *, int);
__device__ void __nanosleep(unsigned);
