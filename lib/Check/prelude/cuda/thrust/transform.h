#pragma once
#include <thrust/device_ptr.h>
namespace thrust {
template <class P, class In, class Out, class Op> Out transform(const P &, In, In, Out, Op);
}
