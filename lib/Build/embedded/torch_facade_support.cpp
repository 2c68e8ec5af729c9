// kevin's torch facade support (lib/Build/TorchFacade.cpp)
//
// The functions kevin's torch facade (torch_facade.h) calls, compiled once
// per cache with torch's own headers and linked into each extension whose
// CUDA unit was compiled with the facade. Each does what the facade's
// caller wrote, with torch's own call: tensors arrive as the addresses of
// torch's at::Tensor objects. With KEVIN_FACADE_NO_CUDA it lacks the CUDA
// functions (streams, guards, CUDA errors), so that a torch without CUDA
// compiles it: kevin's tests link it on a machine without a GPU.
#include <ATen/core/Tensor.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/empty_like.h>
#include <ATen/ops/full.h>
#include <ATen/ops/full_like.h>
#include <ATen/ops/ones.h>
#include <ATen/ops/ones_like.h>
#include <ATen/ops/zeros.h>
#include <ATen/ops/zeros_like.h>
#include <ATen/Dispatch.h>
#include <c10/util/Exception.h>
#ifndef KEVIN_FACADE_NO_CUDA
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAFunctions.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#endif

#include <new>
#include <string>
#include <utility>

static_assert(sizeof(at::Tensor) == sizeof(void *),
              "kevin's facade gives at::Tensor one pointer");
static_assert(static_cast<int>(c10::ScalarType::BFloat16) == 15 &&
                  static_cast<int>(c10::ScalarType::Bool) == 11 &&
                  static_cast<int>(c10::DeviceType::CUDA) == 1,
              "the facade's enumerators are torch's");

#pragma GCC visibility push(hidden)
namespace kevin_torch_support {

/// The bytes torch_facade.h keeps for a device guard.
constexpr size_t GuardBytes = 64;

namespace {
const at::Tensor &tensor(const void *T) {
  return *static_cast<const at::Tensor *>(T);
}
at::Tensor &tensor(void *T) { return *static_cast<at::Tensor *>(T); }
at::IntArrayRef shape(const int64_t *Sizes, size_t Count) {
  return at::IntArrayRef(Sizes, Count);
}
/// The options the facade's caller named, and nothing else.
at::TensorOptions options(const int *Fields) {
  at::TensorOptions O;
  if (Fields[0] >= 0)
    O = O.dtype(static_cast<at::ScalarType>(Fields[0]));
  if (Fields[1] >= 0)
    O = O.device(at::Device(static_cast<at::DeviceType>(Fields[1]),
                            static_cast<c10::DeviceIndex>(Fields[2])));
  return O;
}
/// The scalar the facade's caller passed, as torch's Scalar holds it.
at::Scalar scalar(int Kind, double D, int64_t I) {
  if (Kind == 2)
    return at::Scalar(I != 0);
  if (Kind == 1)
    return at::Scalar(I);
  return at::Scalar(D);
}
/// What torch's dispatch macros throw for a type they lack, in this
/// version of torch: a NotImplementedError (torch 2.8 on) or an Error.
bool dispatchThrowsNotImplemented() {
  static const bool NotImplemented = [] {
    try {
      AT_DISPATCH_FLOATING_TYPES(at::ScalarType::Bool, "kevin", [] {});
    } catch (const c10::NotImplementedError &) {
      return true;
    } catch (const c10::Error &) {
    }
    return false;
  }();
  return NotImplemented;
}
} // namespace

void makeUndefined(void *Out) { new (Out) at::Tensor(); }
void copyTensor(void *Out, const void *From) {
  new (Out) at::Tensor(tensor(From));
}
void moveTensor(void *Out, void *From) {
  new (Out) at::Tensor(std::move(tensor(From)));
}
void destroyTensor(void *T) {
  // Null: a result a support call threw before making.
  if (*static_cast<void **>(T))
    tensor(T).~Tensor();
}
bool isDefined(const void *T) { return tensor(T).defined(); }
int64_t dim(const void *T) { return tensor(T).dim(); }
int64_t numel(const void *T) { return tensor(T).numel(); }
int64_t size(const void *T, int64_t Dim) { return tensor(T).size(Dim); }
int64_t stride(const void *T, int64_t Dim) { return tensor(T).stride(Dim); }
const int64_t *sizes(const void *T) { return tensor(T).sizes().data(); }
const int64_t *strides(const void *T) { return tensor(T).strides().data(); }
int scalarType(const void *T) {
  return static_cast<int>(tensor(T).scalar_type());
}
int64_t elementSize(const void *T) { return tensor(T).element_size(); }
int deviceType(const void *T) {
  return static_cast<int>(tensor(T).device().type());
}
int deviceIndex(const void *T) { return tensor(T).device().index(); }
bool isContiguous(const void *T) { return tensor(T).is_contiguous(); }
void contiguous(void *Out, const void *T) {
  new (Out) at::Tensor(tensor(T).contiguous());
}
void *dataPtr(const void *T) { return tensor(T).data_ptr(); }
void *typedDataPtr(const void *T, int Type) {
  const at::Tensor &X = tensor(T);
  switch (static_cast<at::ScalarType>(Type)) {
  case at::ScalarType::Byte:
    return X.data_ptr<uint8_t>();
  case at::ScalarType::Char:
    return X.data_ptr<int8_t>();
  case at::ScalarType::Short:
    return X.data_ptr<int16_t>();
  case at::ScalarType::Int:
    return X.data_ptr<int>();
  case at::ScalarType::Long:
    return X.data_ptr<int64_t>();
  case at::ScalarType::Half:
    return X.data_ptr<at::Half>();
  case at::ScalarType::Float:
    return X.data_ptr<float>();
  case at::ScalarType::Double:
    return X.data_ptr<double>();
  case at::ScalarType::Bool:
    return X.data_ptr<bool>();
  case at::ScalarType::BFloat16:
    return X.data_ptr<at::BFloat16>();
  default:
    TORCH_CHECK(false, "kevin's torch facade has no data_ptr for ",
                static_cast<at::ScalarType>(Type));
  }
}
void view(void *Out, const void *T, const int64_t *Sizes, size_t Count) {
  new (Out) at::Tensor(tensor(T).view(shape(Sizes, Count)));
}
void reshape(void *Out, const void *T, const int64_t *Sizes, size_t Count) {
  new (Out) at::Tensor(tensor(T).reshape(shape(Sizes, Count)));
}
void zero(void *T) { tensor(T).zero_(); }
void fill(void *T, int Kind, double D, int64_t I) {
  tensor(T).fill_(scalar(Kind, D, I));
}
void clone(void *Out, const void *T) {
  new (Out) at::Tensor(tensor(T).clone());
}
void factory(void *Out, int Kind, const int64_t *Sizes, size_t Count,
             const int *Fields, int ValueKind, double D, int64_t I) {
  at::IntArrayRef Shape = shape(Sizes, Count);
  at::TensorOptions O = options(Fields);
  switch (Kind) {
  case 0:
    new (Out) at::Tensor(at::empty(Shape, O));
    return;
  case 1:
    new (Out) at::Tensor(at::zeros(Shape, O));
    return;
  case 2:
    new (Out) at::Tensor(at::ones(Shape, O));
    return;
  default:
    new (Out) at::Tensor(at::full(Shape, scalar(ValueKind, D, I), O));
  }
}
void factoryLike(void *Out, int Kind, const void *T, const int *Fields,
                 int ValueKind, double D, int64_t I) {
  const at::Tensor &X = tensor(T);
  at::TensorOptions O = options(Fields);
  switch (Kind) {
  case 0:
    new (Out) at::Tensor(at::empty_like(X, O));
    return;
  case 1:
    new (Out) at::Tensor(at::zeros_like(X, O));
    return;
  case 2:
    new (Out) at::Tensor(at::ones_like(X, O));
    return;
  default:
    new (Out) at::Tensor(at::full_like(X, scalar(ValueKind, D, I), O));
  }
}
const char *scalarTypeName(int Type) {
  return c10::toString(static_cast<at::ScalarType>(Type));
}
const char *typeMetaName(int Type, size_t *Length) {
  // A view of a longer constant: not null-terminated.
  auto Name =
      caffe2::TypeMeta::fromScalarType(static_cast<at::ScalarType>(Type))
          .name();
  *Length = Name.size();
  return Name.data();
}
void checkFailed(const char *Function, const char *File, uint32_t Line,
                 const char *Condition, bool HasMessage, const char *Message) {
  std::string Text = Message;
  if (!HasMessage)
    Text = std::string("Expected ") + Condition +
           " to be true, but got false.  (Could this error message be "
           "improved?  If so, please report an enhancement request to "
           "PyTorch.)";
  throw c10::Error({Function, File, Line}, Text);
}
void dispatchFailed(const char *Function, const char *File, uint32_t Line,
                    const char *Name, int Type) {
  std::string Text = std::string("\"") + Name + "\" not implemented for '" +
                     scalarTypeName(Type) + "'";
  if (dispatchThrowsNotImplemented())
    throw c10::NotImplementedError({Function, File, Line}, Text);
  throw c10::Error({Function, File, Line}, Text);
}
#ifndef KEVIN_FACADE_NO_CUDA
cudaStream_t currentStream(int DeviceIndex, int *Resolved) {
  c10::cuda::CUDAStream S = c10::cuda::getCurrentCUDAStream(
      static_cast<c10::DeviceIndex>(DeviceIndex));
  *Resolved = S.device_index();
  return S.stream();
}
cudaStream_t defaultStream(int DeviceIndex, int *Resolved) {
  c10::cuda::CUDAStream S = c10::cuda::getDefaultCUDAStream(
      static_cast<c10::DeviceIndex>(DeviceIndex));
  *Resolved = S.device_index();
  return S.stream();
}
static_assert(sizeof(c10::cuda::CUDAGuard) <= GuardBytes &&
                  sizeof(c10::cuda::OptionalCUDAGuard) <= GuardBytes &&
                  alignof(c10::cuda::CUDAGuard) <= 16 &&
                  alignof(c10::cuda::OptionalCUDAGuard) <= 16,
              "the facade's guard storage holds torch's guards");
void enterGuard(void *Storage, int Kind, int Type, int Index) {
  c10::Device D(static_cast<c10::DeviceType>(Type < 0 ? 1 : Type),
                static_cast<c10::DeviceIndex>(Index));
  switch (Kind) {
  case 0:
    new (Storage) c10::cuda::CUDAGuard(D);
    return;
  case 1:
    new (Storage) c10::cuda::CUDAGuard(static_cast<c10::DeviceIndex>(Index));
    return;
  case 2:
    new (Storage) c10::cuda::OptionalCUDAGuard(D);
    return;
  default:
    new (Storage) c10::cuda::OptionalCUDAGuard();
  }
}
void exitGuard(void *Storage, int Kind) noexcept {
  if (Kind < 2)
    static_cast<c10::cuda::CUDAGuard *>(Storage)->~CUDAGuard();
  else
    static_cast<c10::cuda::OptionalCUDAGuard *>(Storage)->~OptionalCUDAGuard();
}
const cudaDeviceProp *currentDeviceProperties() {
  return at::cuda::getCurrentDeviceProperties();
}
void checkCuda(cudaError_t Error, const char *Function, const char *File,
               uint32_t Line) {
  if (Error == cudaSuccess)
    return;
  (void)cudaGetLastError();
  throw c10::Error({Function, File, Line},
                   std::string("CUDA error: ") + cudaGetErrorString(Error));
}
void checkLaunch(const char *Function, const char *File, uint32_t Line) {
  checkCuda(cudaGetLastError(), Function, File, Line);
}
#endif

} // namespace kevin_torch_support
#pragma GCC visibility pop
