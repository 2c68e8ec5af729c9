// thrust (kevin's declaration subset).
#pragma once
#include <thrust/device_ptr.h>
namespace thrust {
template <class T> class device_vector {
public:
  device_vector();
  explicit device_vector(size_t);
  size_t size() const;
  device_ptr<T> data();
};
}
