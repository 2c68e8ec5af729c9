// kevin's CUDA prelude, included before every cuda.cu that kevin-check
// parses. clang 14 cannot read CUDA 13's headers, so the CUDA keywords are
// defined here on clang's own attributes, and kevin's declaration headers in
// cuda/ stand in for the CUDA toolkit.
#pragma once
#include <stddef.h>
#include <stdlib.h>
#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __forceinline__ __inline__ __attribute__((always_inline))
// __noinline__ is left undefined: libstdc++ spells __attribute__((__noinline__)).
#define __restrict__ __restrict
#define __align__(n) __attribute__((aligned(n)))
#include <__clang_cuda_builtin_vars.h>
// nvcc force-includes cuda_runtime.h; torch/types.h comes first in cuda.cu.
#include <cuda_runtime.h>
