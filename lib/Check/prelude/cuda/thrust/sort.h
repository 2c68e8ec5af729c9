#pragma once
#include <thrust/device_ptr.h>
namespace thrust {
template <class It> void sort(It, It);
template <class P, class It> void sort(const P &, It, It);
template <class P, class It, class C> void sort(const P &, It, It, C);
}
