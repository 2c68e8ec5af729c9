// CUB block-level reduction (kevin's declaration subset; allowed).
#pragma once
namespace cub {
struct Sum { template <class T> __host__ __device__ T operator()(const T &, const T &) const; };
struct Max { template <class T> __host__ __device__ T operator()(const T &, const T &) const; };
struct Min { template <class T> __host__ __device__ T operator()(const T &, const T &) const; };
template <class T, int BlockDimX, int Algorithm = 0, int BlockDimY = 1, int BlockDimZ = 1>
class BlockReduce {
public:
  struct TempStorage { char Bytes[64]; };
  __device__ BlockReduce(TempStorage &);
  __device__ T Sum(T);
  __device__ T Sum(T, int);
  template <class Op> __device__ T Reduce(T, Op);
  template <class Op> __device__ T Reduce(T, Op, int);
};
}
