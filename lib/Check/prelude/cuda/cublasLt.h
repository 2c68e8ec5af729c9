// cuBLASLt (kevin's declaration subset).
#pragma once
#include <cublas_v2.h>
typedef struct cublasLtContext *cublasLtHandle_t;
extern "C" cublasStatus_t cublasLtCreate(cublasLtHandle_t *);
