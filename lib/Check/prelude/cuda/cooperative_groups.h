// Cooperative groups of the CUDA toolkit (kevin's declaration subset).
#pragma once
#include <cuda_runtime.h>
namespace cooperative_groups {
class thread_group {
public:
  __device__ void sync() const;
  __device__ unsigned long long size() const;
  __device__ unsigned long long num_threads() const;
  __device__ unsigned long long thread_rank() const;
};
class thread_block : public thread_group {
public:
  __device__ dim3 group_index() const;
  __device__ dim3 thread_index() const;
  __device__ dim3 group_dim() const;
  __device__ dim3 dim_threads() const;
};
class grid_group : public thread_group {
public:
  __device__ bool is_valid() const;
  __device__ unsigned long long num_blocks() const;
  __device__ unsigned long long block_rank() const;
  __device__ dim3 group_dim() const;
};
class coalesced_group : public thread_group {
public:
  __device__ unsigned long long meta_group_rank() const;
  template <class T> __device__ T shfl(T, int) const;
  template <class T> __device__ T shfl_down(T, unsigned) const;
  template <class T> __device__ T shfl_up(T, unsigned) const;
  template <class T> __device__ T shfl_xor(T, unsigned) const;
  __device__ int any(int) const;
  __device__ int all(int) const;
  __device__ unsigned ballot(int) const;
};
template <unsigned Size, class ParentT = void> class thread_block_tile;
template <unsigned Size>
class thread_block_tile<Size, void> : public coalesced_group {
public:
  __device__ unsigned long long meta_group_size() const;
};
// A tile of a known parent converts to the tile of any parent.
template <unsigned Size, class ParentT>
class thread_block_tile : public thread_block_tile<Size, void> {};
__device__ thread_block this_thread_block();
__device__ grid_group this_grid();
__device__ coalesced_group coalesced_threads();
template <unsigned Size, class ParentT>
__device__ thread_block_tile<Size, ParentT> tiled_partition(const ParentT &);
__device__ thread_group tiled_partition(const thread_group &, unsigned);
template <class Group> __device__ void sync(const Group &);
template <class T> struct plus { __device__ T operator()(const T &, const T &) const; };
template <class T> struct less { __device__ T operator()(const T &, const T &) const; };
template <class T> struct greater { __device__ T operator()(const T &, const T &) const; };
template <class T> struct bit_and { __device__ T operator()(const T &, const T &) const; };
template <class T> struct bit_or { __device__ T operator()(const T &, const T &) const; };
template <class Group, class T, class Op>
__device__ T reduce(const Group &, T, Op);
template <class Group, class T, class Op>
__device__ T inclusive_scan(const Group &, T, Op);
template <class Group, class T>
__device__ T inclusive_scan(const Group &, T);
template <class Group, class T, class Op>
__device__ T exclusive_scan(const Group &, T, Op);
template <class Group, class T>
__device__ T exclusive_scan(const Group &, T);
template <class Group, class T>
__device__ void memcpy_async(const Group &, T *, const T *, size_t);
template <class Group> __device__ void wait(const Group &);
} // namespace cooperative_groups
