// kevin's lean stand-in for ATen/cuda/DeviceUtils.cuh: torch's warp shuffles.
#pragma once
#include <ATen/ATen.h>
template <class T>
__device__ T WARP_SHFL(T, int, int = 32, unsigned = 0xffffffff);
template <class T>
__device__ T WARP_SHFL_XOR(T, int, int = 32, unsigned = 0xffffffff);
template <class T>
__device__ T WARP_SHFL_UP(T, unsigned, int = 32, unsigned = 0xffffffff);
template <class T>
__device__ T WARP_SHFL_DOWN(T, unsigned, int = 32, unsigned = 0xffffffff);
