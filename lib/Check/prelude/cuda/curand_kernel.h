// Device-side cuRAND of the CUDA toolkit (kevin's declaration subset).
#pragma once
#include <cuda_runtime.h>
struct curandStateXORWOW { unsigned d, v[5]; int boxmuller_flag; float boxmuller_extra; };
struct curandStatePhilox4_32_10 { uint4 ctr, output; uint2 key; unsigned STATE; };
typedef curandStateXORWOW curandState_t;
typedef curandStateXORWOW curandState;
typedef curandStatePhilox4_32_10 curandStatePhilox4_32_10_t;
#define KEVIN_CURAND(State)                                                    \
  __device__ void curand_init(unsigned long long, unsigned long long,         \
                              unsigned long long, State *);                   \
  __device__ unsigned curand(State *);                                         \
  __device__ float curand_uniform(State *);                                    \
  __device__ double curand_uniform_double(State *);                            \
  __device__ float curand_normal(State *);                                     \
  __device__ double curand_normal_double(State *);                             \
  __device__ float2 curand_normal2(State *);
KEVIN_CURAND(curandStateXORWOW)
KEVIN_CURAND(curandStatePhilox4_32_10)
#undef KEVIN_CURAND
__device__ uint4 curand4(curandStatePhilox4_32_10 *);
__device__ float4 curand_uniform4(curandStatePhilox4_32_10 *);
__device__ float4 curand_normal4(curandStatePhilox4_32_10 *);
