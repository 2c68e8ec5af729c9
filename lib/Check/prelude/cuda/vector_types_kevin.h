// Vector types of the CUDA toolkit (kevin's declaration subset).
#pragma once
#define KEVIN_VEC2(T, N) struct __align__(2 * sizeof(T)) N##2 { T x, y; }; \
  __host__ __device__ inline N##2 make_##N##2(T x, T y) { return N##2{x, y}; }
#define KEVIN_VEC3(T, N) struct N##3 { T x, y, z; }; \
  __host__ __device__ inline N##3 make_##N##3(T x, T y, T z) { return N##3{x, y, z}; }
#define KEVIN_VEC4(T, N) struct __align__(4 * sizeof(T)) N##4 { T x, y, z, w; }; \
  __host__ __device__ inline N##4 make_##N##4(T x, T y, T z, T w) { return N##4{x, y, z, w}; }
#define KEVIN_VECS(T, N) KEVIN_VEC2(T, N) KEVIN_VEC3(T, N) KEVIN_VEC4(T, N)
KEVIN_VECS(float, float)
KEVIN_VECS(double, double)
KEVIN_VECS(int, int)
KEVIN_VECS(unsigned, uint)
KEVIN_VECS(char, char)
KEVIN_VECS(unsigned char, uchar)
KEVIN_VECS(short, short)
KEVIN_VECS(unsigned short, ushort)
KEVIN_VECS(long long, longlong)
KEVIN_VECS(unsigned long long, ulonglong)
#undef KEVIN_VEC2
#undef KEVIN_VEC3
#undef KEVIN_VEC4
#undef KEVIN_VECS
typedef unsigned int uint;
