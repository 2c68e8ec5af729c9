// thrust (kevin's declaration subset).
#pragma once
namespace thrust {
template <class T> class device_ptr {
public:
  __host__ __device__ explicit device_ptr(T *);
  __host__ __device__ T *get() const;
  __host__ __device__ device_ptr operator+(long) const;
};
template <class T> __host__ __device__ device_ptr<T> device_pointer_cast(T *);
struct device_execution_policy {};
static const device_execution_policy device = {};
namespace cuda { struct par_t { par_t on(cudaStream_t) const; }; static const par_t par = {}; }
template <class T> struct plus { __host__ __device__ T operator()(const T &, const T &) const; };
template <class T> struct maximum { __host__ __device__ T operator()(const T &, const T &) const; };
}
