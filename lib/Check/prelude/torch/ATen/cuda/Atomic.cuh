// kevin's lean stand-in for ATen/cuda/Atomic.cuh: torch's atomics over
// every scalar type.
#pragma once
#include <ATen/ATen.h>
template <class T> __device__ T gpuAtomicAdd(T *, T);
template <class T> __device__ void gpuAtomicAddNoReturn(T *, T);
template <class T> __device__ T gpuAtomicMax(T *, T);
template <class T> __device__ T gpuAtomicMin(T *, T);
template <class T> __device__ T gpuAtomicMul(T *, T);
