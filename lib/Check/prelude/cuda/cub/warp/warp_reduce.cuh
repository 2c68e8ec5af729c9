// CUB warp-level reduction (kevin's declaration subset; allowed).
#pragma once
namespace cub {
template <class T, int LogicalWarpThreads = 32> class WarpReduce {
public:
  struct TempStorage { char Bytes[32]; };
  __device__ WarpReduce(TempStorage &);
  __device__ T Sum(T);
  template <class Op> __device__ T Reduce(T, Op);
};
}
