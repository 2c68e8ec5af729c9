// cuDNN (kevin's declaration subset).
#pragma once
#include <cuda_runtime.h>
typedef struct cudnnContext *cudnnHandle_t;
typedef enum { CUDNN_STATUS_SUCCESS = 0 } cudnnStatus_t;
extern "C" {
cudnnStatus_t cudnnCreate(cudnnHandle_t *);
cudnnStatus_t cudnnDestroy(cudnnHandle_t);
cudnnStatus_t cudnnSetStream(cudnnHandle_t, cudaStream_t);
}
