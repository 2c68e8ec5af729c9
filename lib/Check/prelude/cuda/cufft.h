// cuFFT (kevin's declaration subset).
#pragma once
typedef int cufftHandle;
typedef int cufftResult;
extern "C" cufftResult cufftPlan1d(cufftHandle *, int, int, int);
