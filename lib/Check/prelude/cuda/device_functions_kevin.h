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
// min and max of math_functions.hpp: host and device, every integer and
// floating pairing (clang's headers hold the device int version only).
__host__ int min(int, int);
__host__ int max(int, int);
#define KEVIN_MIN_MAX(R, A, B)                                                 \
  __host__ __device__ R min(A, B);                                             \
  __host__ __device__ R max(A, B);
KEVIN_MIN_MAX(unsigned, unsigned, unsigned)
KEVIN_MIN_MAX(unsigned, int, unsigned)
KEVIN_MIN_MAX(unsigned, unsigned, int)
KEVIN_MIN_MAX(long, long, long)
KEVIN_MIN_MAX(unsigned long, unsigned long, unsigned long)
KEVIN_MIN_MAX(unsigned long, long, unsigned long)
KEVIN_MIN_MAX(unsigned long, unsigned long, long)
KEVIN_MIN_MAX(long long, long long, long long)
KEVIN_MIN_MAX(unsigned long long, unsigned long long, unsigned long long)
KEVIN_MIN_MAX(unsigned long long, long long, unsigned long long)
KEVIN_MIN_MAX(unsigned long long, unsigned long long, long long)
KEVIN_MIN_MAX(float, float, float)
KEVIN_MIN_MAX(double, double, double)
KEVIN_MIN_MAX(double, float, double)
KEVIN_MIN_MAX(double, double, float)
#undef KEVIN_MIN_MAX
// Device-side system calls, as clang's CUDA runtime wrapper declares them.
extern "C" {
__device__ int printf(const char *, ...);
__device__ void free(void *) __attribute((nothrow));
__device__ void *malloc(size_t) __attribute((nothrow)) __attribute__((malloc));
__device__ void __assertfail(const char *, const char *, unsigned, const char *, size_t);
__device__ static inline void __assert_fail(const char *m, const char *f, unsigned l,
                                            const char *fn) {
  __assertfail(m, f, l, fn, sizeof(char));
}
}
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
__device__ unsigned atomicInc(unsigned *, unsigned);
__device__ unsigned atomicDec(unsigned *, unsigned);
__device__ int atomicXor(int *, int);
__device__ unsigned atomicAnd(unsigned *, unsigned);
__device__ unsigned atomicOr(unsigned *, unsigned);
__device__ unsigned atomicXor(unsigned *, unsigned);
__device__ unsigned atomicExch(unsigned *, unsigned);
__device__ unsigned long long atomicExch(unsigned long long *, unsigned long long);
__device__ unsigned atomicSub(unsigned *, unsigned);
__device__ long long atomicMax(long long *, long long);
__device__ unsigned long long atomicMax(unsigned long long *, unsigned long long);
__device__ long long atomicMin(long long *, long long);
__device__ unsigned long long atomicMin(unsigned long long *, unsigned long long);
__device__ float atomicAdd_block(float *, float);
__device__ int atomicAdd_block(int *, int);
__device__ float atomicAdd_system(float *, float);
template <class T> __device__ T __ldcg(const T *);
template <class T> __device__ T __ldca(const T *);
template <class T> __device__ T __ldlu(const T *);
template <class T> __device__ T __ldcv(const T *);
template <class T> __device__ void __stwb(T *, T);
template <class T> __device__ void __stcg(T *, T);
template <class T> __device__ void __stwt(T *, T);
__device__ unsigned __match_any_sync(unsigned, int);
__device__ unsigned __match_any_sync(unsigned, unsigned);
__device__ unsigned __reduce_add_sync(unsigned, unsigned);
__device__ int __reduce_add_sync(unsigned, int);
__device__ unsigned __reduce_max_sync(unsigned, unsigned);
__device__ int __reduce_max_sync(unsigned, int);
__device__ unsigned __reduce_min_sync(unsigned, unsigned);
__device__ int __reduce_min_sync(unsigned, int);
__device__ unsigned __funnelshift_l(unsigned, unsigned, unsigned);
__device__ unsigned __funnelshift_r(unsigned, unsigned, unsigned);
__device__ size_t __cvta_generic_to_shared(const void *);
__device__ size_t __cvta_generic_to_global(const void *);
__device__ unsigned __isShared(const void *);
__device__ unsigned __isGlobal(const void *);
__device__ int __dp4a(int, int, int);
__device__ unsigned __dp4a(unsigned, unsigned, unsigned);
__device__ int __dp2a_lo(int, int, int);
__device__ int __dp2a_hi(int, int, int);
