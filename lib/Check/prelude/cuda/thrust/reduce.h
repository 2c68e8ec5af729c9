#pragma once
#include <thrust/device_ptr.h>
namespace thrust {
template <class It> float reduce(It, It);
template <class P, class It, class T> T reduce(const P &, It, It, T);
template <class P, class It, class T, class Op> T reduce(const P &, It, It, T, Op);
}
