// Asynchronous copies into shared memory, cuda_pipeline.h's primitives
// (kevin's declaration subset).
#pragma once
#include <cuda_runtime.h>
__device__ void __pipeline_memcpy_async(void *, const void *, size_t, size_t = 0);
__device__ void __pipeline_commit(void);
__device__ void __pipeline_wait_prior(size_t);
