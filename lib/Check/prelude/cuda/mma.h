// Warp matrix multiply-accumulate (WMMA) of the CUDA toolkit (kevin's
// declaration subset): nvcuda::wmma fragments and their operations.
#pragma once
#include <cuda_fp16.h>
#include <cuda_bf16.h>
namespace nvcuda {
namespace wmma {
struct matrix_a {};
struct matrix_b {};
struct accumulator {};
struct row_major {};
struct col_major {};
enum layout_t { mem_row_major, mem_col_major };
namespace precision {
struct tf32 {};
struct b1 {};
struct s4 {};
struct u4 {};
} // namespace precision
struct experimental {};
template <class Use, int M, int N, int K, class T, class Layout = void>
class fragment {
public:
  typedef T element_type;
  typedef T storage_element_type;
  enum { num_elements = 8 };
  T x[num_elements];
};
template <class Use, int M, int N, int K, class T, class Layout, class U>
__device__ void fill_fragment(fragment<Use, M, N, K, T, Layout> &, const U &);
template <class Use, int M, int N, int K, class T, class Layout, class U>
__device__ void load_matrix_sync(fragment<Use, M, N, K, T, Layout> &, const U *, unsigned);
template <class Use, int M, int N, int K, class T, class U>
__device__ void load_matrix_sync(fragment<Use, M, N, K, T, void> &, const U *, unsigned, layout_t);
template <int M, int N, int K, class T, class U>
__device__ void store_matrix_sync(U *, const fragment<accumulator, M, N, K, T, void> &, unsigned,
                                  layout_t);
template <int M, int N, int K, class TA, class LA, class TB, class LB, class TC, class TD>
__device__ void mma_sync(fragment<accumulator, M, N, K, TD, void> &,
                         const fragment<matrix_a, M, N, K, TA, LA> &,
                         const fragment<matrix_b, M, N, K, TB, LB> &,
                         const fragment<accumulator, M, N, K, TC, void> &, bool = false);
__device__ float __float_to_tf32(float);
} // namespace wmma
} // namespace nvcuda
