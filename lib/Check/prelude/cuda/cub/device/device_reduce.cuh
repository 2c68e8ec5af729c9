// CUB device-level algorithms (kevin's declaration subset; library
// substitution, rejected by kevin-cu-library).
#pragma once
namespace cub {
struct DeviceReduce {
  template <class In, class Out>
  static cudaError_t Sum(void *, size_t &, In, Out, int, cudaStream_t = 0);
  template <class In, class Out>
  static cudaError_t Max(void *, size_t &, In, Out, int, cudaStream_t = 0);
};
struct DeviceScan {
  template <class In, class Out>
  static cudaError_t InclusiveSum(void *, size_t &, In, Out, int, cudaStream_t = 0);
};
struct DeviceRadixSort {
  template <class K>
  static cudaError_t SortKeys(void *, size_t &, const K *, K *, int, int = 0, int = sizeof(K) * 8, cudaStream_t = 0);
};
}
