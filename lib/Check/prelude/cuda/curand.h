// Host cuRAND (kevin's declaration subset).
#pragma once
typedef struct curandGenerator_st *curandGenerator_t;
typedef int curandStatus_t;
extern "C" {
curandStatus_t curandCreateGenerator(curandGenerator_t *, int);
curandStatus_t curandGenerateNormal(curandGenerator_t, float *, size_t, float, float);
}
