// kevin's torch facade for CUDA units (lib/Build/TorchFacade.cpp)
//
// In place of torch's headers, a CUDA unit sees this: at::Tensor with the
// layout of torch's (one pointer to the TensorImpl), whose every operation
// calls a function of kevin's support object, compiled once with torch's
// real headers. Nothing here computes what torch would: it forwards. Every
// other type lives in the inline namespace kevin_facade and carries the ABI
// tag kevin_facade, so that a symbol naming one of them (a function another
// unit could call with torch's own type, a variable of it) is seen in the
// object, and the unit is compiled again with torch's headers. What torch's
// headers reject should not compile here either: where the facade cannot
// tell, it lacks the construct.
#pragma once
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>
#include <cuda_runtime.h>
#if defined(KEVIN_FACADE_HALF)
#include <c10/util/Half.h>
#endif
#if defined(KEVIN_FACADE_BFLOAT16)
#include <c10/util/BFloat16.h>
#endif
#if __has_include(<torch/version.h>)
#include <torch/version.h>
#endif

#define KEVIN_FACADE_INLINE __attribute__((always_inline)) inline
#define KEVIN_FACADE_TYPE __attribute__((abi_tag("kevin_facade")))

// Since torch 2.2, c10::optional is std::optional (until c10/util/Optional.h
// went): an optional tensor then has torch's type in the facade too.
#if defined(TORCH_VERSION_MAJOR) &&                                           \
    (TORCH_VERSION_MAJOR > 2 ||                                                \
     (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 3)) &&                \
    __has_include(<c10/util/Optional.h>)
#include <optional>
#define KEVIN_FACADE_OPTIONAL
namespace c10 {
using std::nullopt;
using std::optional;
} // namespace c10
namespace torch {
using std::nullopt;
using std::optional;
} // namespace torch
#endif

namespace kevin_torch_support {
// The support object's functions (hidden in the extension). A tensor is
// passed as the address of an object of torch's at::Tensor.
void makeUndefined(void *Out);
void copyTensor(void *Out, const void *From);
void moveTensor(void *Out, void *From);
void destroyTensor(void *T);
bool isDefined(const void *T);
int64_t dim(const void *T);
int64_t numel(const void *T);
int64_t size(const void *T, int64_t Dim);
int64_t stride(const void *T, int64_t Dim);
const int64_t *sizes(const void *T);
const int64_t *strides(const void *T);
int scalarType(const void *T);
int64_t elementSize(const void *T);
int deviceType(const void *T);
int deviceIndex(const void *T);
bool isContiguous(const void *T);
void contiguous(void *Out, const void *T);
void *dataPtr(const void *T);
void *typedDataPtr(const void *T, int ScalarType);
void view(void *Out, const void *T, const int64_t *Sizes, size_t Count);
void reshape(void *Out, const void *T, const int64_t *Sizes, size_t Count);
void zero(void *T);
// A scalar as torch's Scalar would hold it: ValueKind 0 a double (D), 1 an
// integer (I), 2 a bool (I).
void fill(void *T, int ValueKind, double D, int64_t I);
void clone(void *Out, const void *T);
void factory(void *Out, int Kind, const int64_t *Sizes, size_t Count,
             const int *Options, int ValueKind, double D, int64_t I);
void factoryLike(void *Out, int Kind, const void *T, const int *Options,
                 int ValueKind, double D, int64_t I);
const char *scalarTypeName(int ScalarType);
const char *typeMetaName(int ScalarType, size_t *Length);
[[noreturn]] void checkFailed(const char *Function, const char *File,
                              uint32_t Line, const char *Condition,
                              bool HasMessage, const char *Message);
[[noreturn]] void dispatchFailed(const char *Function, const char *File,
                                 uint32_t Line, const char *Name,
                                 int ScalarType);
cudaStream_t currentStream(int DeviceIndex, int *Resolved);
cudaStream_t defaultStream(int DeviceIndex, int *Resolved);
// torch's own device guards, constructed in the facade's storage: Kind 0
// CUDAGuard(Device), 1 CUDAGuard(DeviceIndex), 2 OptionalCUDAGuard(Device),
// 3 OptionalCUDAGuard() (no device).
constexpr size_t GuardBytes = 64;
void enterGuard(void *Storage, int Kind, int DeviceType, int DeviceIndex);
void exitGuard(void *Storage, int Kind) noexcept;
const cudaDeviceProp *currentDeviceProperties();
void checkLaunch(const char *Function, const char *File, uint32_t Line);
void checkCuda(cudaError_t Error, const char *Function, const char *File,
               uint32_t Line);
} // namespace kevin_torch_support

namespace c10 {
inline namespace kevin_facade {

enum class ScalarType : int8_t {
  Byte, Char, Short, Int, Long, Half, Float, Double, ComplexHalf,
  ComplexFloat, ComplexDouble, Bool, QInt8, QUInt8, QInt32, BFloat16
};
constexpr ScalarType kByte = ScalarType::Byte;
constexpr ScalarType kChar = ScalarType::Char;
constexpr ScalarType kShort = ScalarType::Short;
constexpr ScalarType kInt = ScalarType::Int;
constexpr ScalarType kLong = ScalarType::Long;
constexpr ScalarType kHalf = ScalarType::Half;
constexpr ScalarType kFloat = ScalarType::Float;
constexpr ScalarType kDouble = ScalarType::Double;
constexpr ScalarType kBool = ScalarType::Bool;
constexpr ScalarType kBFloat16 = ScalarType::BFloat16;
KEVIN_FACADE_INLINE const char *toString(ScalarType T) {
  return kevin_torch_support::scalarTypeName(static_cast<int>(T));
}
KEVIN_FACADE_INLINE std::ostream &operator<<(std::ostream &OS, ScalarType T) {
  return OS << toString(T);
}

enum class DeviceType : int8_t { CPU = 0, CUDA = 1 };
constexpr DeviceType kCPU = DeviceType::CPU;
constexpr DeviceType kCUDA = DeviceType::CUDA;
using DeviceIndex = int8_t;

class KEVIN_FACADE_TYPE Device {
public:
  KEVIN_FACADE_INLINE Device(DeviceType Type, DeviceIndex Index = -1)
      : Type(Type), Index(Index) {}
  KEVIN_FACADE_INLINE DeviceType type() const { return Type; }
  KEVIN_FACADE_INLINE DeviceIndex index() const { return Index; }
  KEVIN_FACADE_INLINE bool has_index() const { return Index != -1; }
  KEVIN_FACADE_INLINE bool is_cuda() const { return Type == DeviceType::CUDA; }
  KEVIN_FACADE_INLINE bool is_cpu() const { return Type == DeviceType::CPU; }
  KEVIN_FACADE_INLINE bool operator==(const Device &O) const {
    return Type == O.Type && Index == O.Index;
  }
  KEVIN_FACADE_INLINE bool operator!=(const Device &O) const {
    return !(*this == O);
  }
  KEVIN_FACADE_INLINE std::string str() const {
    std::string S = Type == DeviceType::CUDA ? "cuda" : "cpu";
    return Index == -1 ? S : S + ":" + std::to_string(int(Index));
  }

private:
  DeviceType Type;
  DeviceIndex Index;
};
KEVIN_FACADE_INLINE std::ostream &operator<<(std::ostream &OS,
                                               const Device &D) {
  return OS << D.str();
}

template <typename T> class KEVIN_FACADE_TYPE ArrayRef {
public:
  KEVIN_FACADE_INLINE ArrayRef() : Data(nullptr), Length(0) {}
  KEVIN_FACADE_INLINE ArrayRef(const T &One) : Data(&One), Length(1) {}
  KEVIN_FACADE_INLINE ArrayRef(const T *Data, size_t Length)
      : Data(Data), Length(Length) {}
  KEVIN_FACADE_INLINE ArrayRef(const std::vector<T> &V)
      : Data(V.data()), Length(V.size()) {}
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winit-list-lifetime"
  // As torch's: the list lives as long as the full expression it is in.
  KEVIN_FACADE_INLINE ArrayRef(std::initializer_list<T> L)
      : Data(L.begin()), Length(L.size()) {}
#pragma GCC diagnostic pop
  KEVIN_FACADE_INLINE const T *begin() const { return Data; }
  KEVIN_FACADE_INLINE const T *end() const { return Data + Length; }
  KEVIN_FACADE_INLINE const T *data() const { return Data; }
  KEVIN_FACADE_INLINE size_t size() const { return Length; }
  KEVIN_FACADE_INLINE bool empty() const { return Length == 0; }
  KEVIN_FACADE_INLINE const T &operator[](size_t I) const { return Data[I]; }
  KEVIN_FACADE_INLINE const T &front() const { return Data[0]; }
  KEVIN_FACADE_INLINE const T &back() const { return Data[Length - 1]; }
  KEVIN_FACADE_INLINE std::vector<T> vec() const { return std::vector<T>(Data, Data + Length); }
  KEVIN_FACADE_INLINE bool equals(ArrayRef O) const {
    if (Length != O.Length)
      return false;
    for (size_t I = 0; I < Length; ++I)
      if (!(Data[I] == O.Data[I]))
        return false;
    return true;
  }

private:
  const T *Data;
  size_t Length;
};
template <typename T>
KEVIN_FACADE_INLINE bool operator==(ArrayRef<T> A, ArrayRef<T> B) {
  return A.equals(B);
}
template <typename T>
KEVIN_FACADE_INLINE bool operator!=(ArrayRef<T> A, ArrayRef<T> B) {
  return !A.equals(B);
}
template <typename T>
KEVIN_FACADE_INLINE std::ostream &operator<<(std::ostream &OS, ArrayRef<T> A) {
  OS << "[";
  for (size_t I = 0; I < A.size(); ++I)
    OS << (I ? ", " : "") << A[I];
  return OS << "]";
}
using IntArrayRef = ArrayRef<int64_t>;

/// A tensor's dtype as torch's dtype() gives it (caffe2::TypeMeta): compared
/// with a ScalarType, printed by its C++ name.
class KEVIN_FACADE_TYPE TypeMeta {
public:
  KEVIN_FACADE_INLINE explicit TypeMeta(ScalarType T) : T(T) {}
  KEVIN_FACADE_INLINE ScalarType toScalarType() const { return T; }
  KEVIN_FACADE_INLINE std::string name() const {
    size_t Length = 0;
    const char *Name = kevin_torch_support::typeMetaName(int(T), &Length);
    return std::string(Name, Length);
  }
  KEVIN_FACADE_INLINE bool operator==(TypeMeta O) const { return T == O.T; }
  KEVIN_FACADE_INLINE bool operator!=(TypeMeta O) const { return T != O.T; }

private:
  ScalarType T;
};
KEVIN_FACADE_INLINE bool operator==(TypeMeta M, ScalarType T) {
  return M.toScalarType() == T;
}
KEVIN_FACADE_INLINE bool operator==(ScalarType T, TypeMeta M) {
  return M.toScalarType() == T;
}
KEVIN_FACADE_INLINE bool operator!=(TypeMeta M, ScalarType T) {
  return M.toScalarType() != T;
}
KEVIN_FACADE_INLINE bool operator!=(ScalarType T, TypeMeta M) {
  return M.toScalarType() != T;
}
KEVIN_FACADE_INLINE std::ostream &operator<<(std::ostream &OS, TypeMeta M) {
  return OS << M.name();
}

/// What a factory is given: -1 where the caller named nothing.
class KEVIN_FACADE_TYPE TensorOptions {
public:
  KEVIN_FACADE_INLINE TensorOptions() {}
  KEVIN_FACADE_INLINE TensorOptions(ScalarType T) { Fields[0] = int(T); }
  KEVIN_FACADE_INLINE TensorOptions(Device D) {
    Fields[1] = int(D.type());
    Fields[2] = D.index();
  }
  KEVIN_FACADE_INLINE TensorOptions(DeviceType D) { Fields[1] = int(D); }
  KEVIN_FACADE_INLINE TensorOptions dtype(ScalarType T) const {
    TensorOptions O = *this;
    O.Fields[0] = int(T);
    return O;
  }
  KEVIN_FACADE_INLINE TensorOptions dtype(TypeMeta T) const {
    return dtype(T.toScalarType());
  }
  KEVIN_FACADE_INLINE TensorOptions device(Device D) const {
    TensorOptions O = *this;
    O.Fields[1] = int(D.type());
    O.Fields[2] = D.index();
    return O;
  }
  KEVIN_FACADE_INLINE TensorOptions device(DeviceType D,
                                           DeviceIndex I = -1) const {
    return device(Device(D, I));
  }
  KEVIN_FACADE_INLINE TypeMeta dtype() const {
    return TypeMeta(Fields[0] < 0 ? ScalarType::Float : ScalarType(Fields[0]));
  }
  KEVIN_FACADE_INLINE Device device() const {
    return Fields[1] < 0 ? Device(DeviceType::CPU)
                         : Device(DeviceType(Fields[1]), Fields[2]);
  }
  KEVIN_FACADE_INLINE const int *fields() const { return Fields; }

private:
  int Fields[3] = {-1, -1, -1};
};
KEVIN_FACADE_INLINE TensorOptions dtype(ScalarType T) {
  return TensorOptions().dtype(T);
}
KEVIN_FACADE_INLINE TensorOptions device(Device D) {
  return TensorOptions().device(D);
}

/// A scalar argument as torch's Scalar keeps it.
struct KEVIN_FACADE_TYPE ScalarArgument {
  int Kind;
  double D;
  int64_t I;
};
template <typename V>
KEVIN_FACADE_INLINE ScalarArgument scalarArgument(V Value) {
  static_assert(std::is_arithmetic<V>::value,
                "kevin's torch facade takes arithmetic fill values");
  if constexpr (std::is_same<V, bool>::value)
    return {2, 0, Value ? 1 : 0};
  else if constexpr (std::is_integral<V>::value)
    return {1, 0, static_cast<int64_t>(Value)};
  else
    return {0, static_cast<double>(Value), 0};
}

template <typename T> struct ScalarTypeOf;
#define KEVIN_FACADE_SCALAR(Type, Name)                                        \
  template <> struct ScalarTypeOf<Type> {                                      \
    static constexpr ScalarType Value = ScalarType::Name;                      \
  };
KEVIN_FACADE_SCALAR(uint8_t, Byte)
KEVIN_FACADE_SCALAR(int8_t, Char)
KEVIN_FACADE_SCALAR(int16_t, Short)
KEVIN_FACADE_SCALAR(int, Int)
KEVIN_FACADE_SCALAR(int64_t, Long)
KEVIN_FACADE_SCALAR(float, Float)
KEVIN_FACADE_SCALAR(double, Double)
KEVIN_FACADE_SCALAR(bool, Bool)
#if defined(KEVIN_FACADE_HALF)
KEVIN_FACADE_SCALAR(c10::Half, Half)
#endif
#if defined(KEVIN_FACADE_BFLOAT16)
KEVIN_FACADE_SCALAR(c10::BFloat16, BFloat16)
#endif
#undef KEVIN_FACADE_SCALAR

} // namespace kevin_facade
} // namespace c10

namespace at {
using namespace c10::kevin_facade;

/// torch's at::Tensor, by its layout: one pointer to the TensorImpl.
class Tensor {
public:
  KEVIN_FACADE_INLINE Tensor() { kevin_torch_support::makeUndefined(this); }
  KEVIN_FACADE_INLINE Tensor(const Tensor &O) {
    kevin_torch_support::copyTensor(this, &O);
  }
  KEVIN_FACADE_INLINE Tensor(Tensor &&O) noexcept {
    kevin_torch_support::moveTensor(this, &O);
  }
  KEVIN_FACADE_INLINE ~Tensor() { kevin_torch_support::destroyTensor(this); }
  // torch assigns through a temporary (`x.view(...) = y` copies into x);
  // the facade does not, so that form does not compile here.
  Tensor &operator=(const Tensor &) && = delete;
  Tensor &operator=(Tensor &&) && = delete;
  KEVIN_FACADE_INLINE Tensor &operator=(const Tensor &O) & {
    if (this != &O) {
      kevin_torch_support::destroyTensor(this);
      kevin_torch_support::copyTensor(this, &O);
    }
    return *this;
  }
  KEVIN_FACADE_INLINE Tensor &operator=(Tensor &&O) & noexcept {
    if (this != &O) {
      kevin_torch_support::destroyTensor(this);
      kevin_torch_support::moveTensor(this, &O);
    }
    return *this;
  }
  KEVIN_FACADE_INLINE bool defined() const {
    return kevin_torch_support::isDefined(this);
  }
  KEVIN_FACADE_INLINE int64_t dim() const {
    return kevin_torch_support::dim(this);
  }
  KEVIN_FACADE_INLINE int64_t ndimension() const { return dim(); }
  KEVIN_FACADE_INLINE int64_t numel() const {
    return kevin_torch_support::numel(this);
  }
  KEVIN_FACADE_INLINE int64_t size(int64_t Dim) const {
    return kevin_torch_support::size(this, Dim);
  }
  KEVIN_FACADE_INLINE IntArrayRef sizes() const {
    return IntArrayRef(kevin_torch_support::sizes(this), size_t(dim()));
  }
  KEVIN_FACADE_INLINE int64_t stride(int64_t Dim) const {
    return kevin_torch_support::stride(this, Dim);
  }
  KEVIN_FACADE_INLINE IntArrayRef strides() const {
    return IntArrayRef(kevin_torch_support::strides(this), size_t(dim()));
  }
  KEVIN_FACADE_INLINE ScalarType scalar_type() const {
    return ScalarType(kevin_torch_support::scalarType(this));
  }
  KEVIN_FACADE_INLINE TypeMeta dtype() const { return TypeMeta(scalar_type()); }
  KEVIN_FACADE_INLINE int64_t element_size() const {
    return kevin_torch_support::elementSize(this);
  }
  KEVIN_FACADE_INLINE Device device() const {
    return Device(DeviceType(kevin_torch_support::deviceType(this)),
                  DeviceIndex(kevin_torch_support::deviceIndex(this)));
  }
  KEVIN_FACADE_INLINE int64_t get_device() const {
    return kevin_torch_support::deviceIndex(this);
  }
  KEVIN_FACADE_INLINE bool is_cuda() const { return device().is_cuda(); }
  KEVIN_FACADE_INLINE bool is_cpu() const { return device().is_cpu(); }
  KEVIN_FACADE_INLINE TensorOptions options() const {
    return TensorOptions().dtype(scalar_type()).device(device());
  }
  KEVIN_FACADE_INLINE bool is_contiguous() const {
    return kevin_torch_support::isContiguous(this);
  }
  KEVIN_FACADE_INLINE Tensor contiguous() const {
    Tensor Out(NoInit{});
    kevin_torch_support::contiguous(&Out, this);
    return Out;
  }
  KEVIN_FACADE_INLINE void *data_ptr() const {
    return kevin_torch_support::dataPtr(this);
  }
  template <typename T> KEVIN_FACADE_INLINE T *data_ptr() const {
    // torch has no data_ptr<const T>: it would not link.
    static_assert(!std::is_const<T>::value && !std::is_volatile<T>::value,
                  "torch's data_ptr takes an unqualified type");
    return static_cast<T *>(kevin_torch_support::typedDataPtr(
        this, int(ScalarTypeOf<T>::Value)));
  }
#if defined(TORCH_VERSION_MAJOR) &&                                           \
    (TORCH_VERSION_MAJOR > 2 ||                                                \
     (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 1))
  template <typename T> KEVIN_FACADE_INLINE const T *const_data_ptr() const {
    return data_ptr<T>();
  }
  template <typename T> KEVIN_FACADE_INLINE T *mutable_data_ptr() const {
    return data_ptr<T>();
  }
#endif
  KEVIN_FACADE_INLINE Tensor view(IntArrayRef Sizes) const {
    Tensor Out(NoInit{});
    kevin_torch_support::view(&Out, this, Sizes.data(), Sizes.size());
    return Out;
  }
  KEVIN_FACADE_INLINE Tensor reshape(IntArrayRef Sizes) const {
    Tensor Out(NoInit{});
    kevin_torch_support::reshape(&Out, this, Sizes.data(), Sizes.size());
    return Out;
  }
  KEVIN_FACADE_INLINE Tensor clone() const {
    Tensor Out(NoInit{});
    kevin_torch_support::clone(&Out, this);
    return Out;
  }
  KEVIN_FACADE_INLINE Tensor &zero_() {
    kevin_torch_support::zero(this);
    return *this;
  }
  template <typename V> KEVIN_FACADE_INLINE Tensor &fill_(V Value) {
    ScalarArgument A = scalarArgument(Value);
    kevin_torch_support::fill(this, A.Kind, A.D, A.I);
    return *this;
  }

  /// Storage for a support function to construct torch's tensor in; null
  /// (nothing to destroy) until it does, so a call that throws leaves
  /// nothing behind.
  struct NoInit {};
  KEVIN_FACADE_INLINE explicit Tensor(NoInit) : Impl(nullptr) {}

private:
  void *Impl;
};
static_assert(sizeof(Tensor) == sizeof(void *), "torch's layout");

namespace kevin_facade {
enum FactoryKind { Empty, Zeros, Ones, Full };
KEVIN_FACADE_INLINE Tensor factory(FactoryKind Kind, IntArrayRef Sizes,
                                   const TensorOptions &O,
                                   ScalarArgument Value = {0, 0, 0}) {
  Tensor Out(Tensor::NoInit{});
  kevin_torch_support::factory(&Out, Kind, Sizes.data(), Sizes.size(),
                               O.fields(), Value.Kind, Value.D, Value.I);
  return Out;
}
KEVIN_FACADE_INLINE Tensor factoryLike(FactoryKind Kind, const Tensor &T,
                                       const TensorOptions &O,
                                       ScalarArgument Value = {0, 0, 0}) {
  Tensor Out(Tensor::NoInit{});
  kevin_torch_support::factoryLike(&Out, Kind, &T, O.fields(), Value.Kind,
                                   Value.D, Value.I);
  return Out;
}
} // namespace kevin_facade

KEVIN_FACADE_INLINE Tensor empty(IntArrayRef Sizes,
                                 TensorOptions O = TensorOptions()) {
  return kevin_facade::factory(kevin_facade::Empty, Sizes, O);
}
KEVIN_FACADE_INLINE Tensor zeros(IntArrayRef Sizes,
                                 TensorOptions O = TensorOptions()) {
  return kevin_facade::factory(kevin_facade::Zeros, Sizes, O);
}
KEVIN_FACADE_INLINE Tensor ones(IntArrayRef Sizes,
                                TensorOptions O = TensorOptions()) {
  return kevin_facade::factory(kevin_facade::Ones, Sizes, O);
}
template <typename V>
KEVIN_FACADE_INLINE Tensor full(IntArrayRef Sizes, V Value,
                                TensorOptions O = TensorOptions()) {
  return kevin_facade::factory(kevin_facade::Full, Sizes, O,
                               scalarArgument(Value));
}
KEVIN_FACADE_INLINE Tensor empty_like(const Tensor &T,
                                      TensorOptions O = TensorOptions()) {
  return kevin_facade::factoryLike(kevin_facade::Empty, T, O);
}
KEVIN_FACADE_INLINE Tensor zeros_like(const Tensor &T,
                                      TensorOptions O = TensorOptions()) {
  return kevin_facade::factoryLike(kevin_facade::Zeros, T, O);
}
KEVIN_FACADE_INLINE Tensor ones_like(const Tensor &T,
                                     TensorOptions O = TensorOptions()) {
  return kevin_facade::factoryLike(kevin_facade::Ones, T, O);
}
template <typename V>
KEVIN_FACADE_INLINE Tensor full_like(const Tensor &T, V Value,
                                     TensorOptions O = TensorOptions()) {
  return kevin_facade::factoryLike(kevin_facade::Full, T, O,
                                   scalarArgument(Value));
}
#if defined(KEVIN_FACADE_HALF)
using Half = c10::Half;
#endif
#if defined(KEVIN_FACADE_BFLOAT16)
using BFloat16 = c10::BFloat16;
#endif
#if defined(KEVIN_FACADE_OPTIONAL)
/// The device a tensor is on, for a device guard (none if undefined).
KEVIN_FACADE_INLINE std::optional<Device> device_of(const Tensor &T) {
  if (!T.defined())
    return std::nullopt;
  return T.device();
}
#endif
} // namespace at

namespace c10 {
namespace cuda {
inline namespace kevin_facade {
class KEVIN_FACADE_TYPE CUDAStream {
public:
  KEVIN_FACADE_INLINE CUDAStream(cudaStream_t S, int Device)
      : S(S), DeviceIndex(Device) {}
  KEVIN_FACADE_INLINE operator cudaStream_t() const { return S; }
  KEVIN_FACADE_INLINE cudaStream_t stream() const { return S; }
  KEVIN_FACADE_INLINE int device_index() const { return DeviceIndex; }

private:
  cudaStream_t S;
  int DeviceIndex;
};
KEVIN_FACADE_INLINE CUDAStream getCurrentCUDAStream(int Device = -1) {
  int Index = -1;
  cudaStream_t S = kevin_torch_support::currentStream(Device, &Index);
  return CUDAStream(S, Index);
}
KEVIN_FACADE_INLINE CUDAStream getDefaultCUDAStream(int Device = -1) {
  int Index = -1;
  cudaStream_t S = kevin_torch_support::defaultStream(Device, &Index);
  return CUDAStream(S, Index);
}
/// torch's CUDAGuard (Kind 0 and 1) or OptionalCUDAGuard (2 and 3), made and
/// ended by the support object in this storage.
class KEVIN_FACADE_TYPE Guard {
public:
  Guard(const Guard &) = delete;
  Guard &operator=(const Guard &) = delete;
  KEVIN_FACADE_INLINE ~Guard() { kevin_torch_support::exitGuard(Storage, Kind); }

protected:
  KEVIN_FACADE_INLINE Guard(int Kind, int Type, int Index) : Kind(Kind) {
    kevin_torch_support::enterGuard(Storage, Kind, Type, Index);
  }

private:
  alignas(16) unsigned char Storage[kevin_torch_support::GuardBytes];
  int Kind;
};
class KEVIN_FACADE_TYPE CUDAGuard : public Guard {
public:
  KEVIN_FACADE_INLINE explicit CUDAGuard(c10::Device D)
      : Guard(0, int(D.type()), D.index()) {}
  KEVIN_FACADE_INLINE explicit CUDAGuard(c10::DeviceIndex I)
      : Guard(1, int(c10::DeviceType::CUDA), I) {}
};
class KEVIN_FACADE_TYPE OptionalCUDAGuard : public Guard {
public:
  KEVIN_FACADE_INLINE OptionalCUDAGuard() : Guard(3, -1, -1) {}
  KEVIN_FACADE_INLINE explicit OptionalCUDAGuard(c10::Device D)
      : Guard(2, int(D.type()), D.index()) {}
#if defined(KEVIN_FACADE_OPTIONAL)
  KEVIN_FACADE_INLINE explicit OptionalCUDAGuard(std::optional<c10::Device> D)
      : Guard(D ? 2 : 3, D ? int(D->type()) : -1, D ? D->index() : -1) {}
#endif
};
} // namespace kevin_facade
} // namespace cuda
} // namespace c10

namespace at {
namespace cuda {
using c10::cuda::CUDAGuard;
using c10::cuda::CUDAStream;
using c10::cuda::getCurrentCUDAStream;
using c10::cuda::getDefaultCUDAStream;
using c10::cuda::OptionalCUDAGuard;
KEVIN_FACADE_INLINE const cudaDeviceProp *getCurrentDeviceProperties() {
  return kevin_torch_support::currentDeviceProperties();
}
} // namespace cuda
} // namespace at

namespace torch {
using namespace at;
#include <kevin_torch_dtype_names.h>
} // namespace torch

namespace kevin_torch_support {
/// The arguments of TORCH_CHECK after the condition, as torch joins them.
KEVIN_FACADE_INLINE std::string joinMessage() { return std::string(); }
template <typename... Parts>
KEVIN_FACADE_INLINE std::string joinMessage(const Parts &...P) {
  std::ostringstream OS;
  (OS << ... << P);
  return OS.str();
}
} // namespace kevin_torch_support

// As torch's: a bare `if` (so `if (a) TORCH_CHECK(b); else` does not
// compile either), torch's default message only when no message is given.
#define TORCH_CHECK(Cond, ...)                                                 \
  if (__builtin_expect(!(Cond), 0)) {                                          \
    ::kevin_torch_support::checkFailed(                                        \
        __func__, __FILE__, static_cast<uint32_t>(__LINE__), #Cond,            \
        sizeof(#__VA_ARGS__) > 1,                                              \
        ::kevin_torch_support::joinMessage(__VA_ARGS__).c_str());              \
  }
// torch's text: "<cond> INTERNAL ASSERT FAILED at "<file>":<line>, please
// report a bug to PyTorch. <message>".
#define KEVIN_FACADE_STRINGIZE_(X) #X
#define KEVIN_FACADE_STRINGIZE(X) KEVIN_FACADE_STRINGIZE_(X)
#define TORCH_INTERNAL_ASSERT(Cond, ...)                                       \
  if (__builtin_expect(!(Cond), 0)) {                                          \
    ::kevin_torch_support::checkFailed(                                        \
        __func__, __FILE__, static_cast<uint32_t>(__LINE__), #Cond, true,      \
        (std::string(#Cond " INTERNAL ASSERT FAILED at " KEVIN_FACADE_STRINGIZE( \
             __FILE__) ":" KEVIN_FACADE_STRINGIZE(__LINE__) ", please report "   \
                                                            "a bug to PyTorch. ") + \
         ::kevin_torch_support::joinMessage(__VA_ARGS__))                      \
            .c_str());                                                         \
  }
#define C10_CUDA_KERNEL_LAUNCH_CHECK()                                         \
  ::kevin_torch_support::checkLaunch(__func__, __FILE__,                      \
                                     static_cast<uint32_t>(__LINE__))
#define C10_CUDA_CHECK(Expr)                                                   \
  ::kevin_torch_support::checkCuda((Expr), __func__, __FILE__,                \
                                   static_cast<uint32_t>(__LINE__))
#define AT_CUDA_CHECK(Expr) C10_CUDA_CHECK(Expr)

namespace kevin_torch_support {
template <c10::ScalarType S> struct CppType;
template <> struct CppType<c10::ScalarType::Byte> { using type = uint8_t; };
template <> struct CppType<c10::ScalarType::Char> { using type = int8_t; };
template <> struct CppType<c10::ScalarType::Short> { using type = int16_t; };
template <> struct CppType<c10::ScalarType::Int> { using type = int; };
template <> struct CppType<c10::ScalarType::Long> { using type = int64_t; };
template <> struct CppType<c10::ScalarType::Float> { using type = float; };
template <> struct CppType<c10::ScalarType::Double> { using type = double; };
template <> struct CppType<c10::ScalarType::Bool> { using type = bool; };
#if defined(KEVIN_FACADE_HALF)
template <> struct CppType<c10::ScalarType::Half> { using type = c10::Half; };
#endif
#if defined(KEVIN_FACADE_BFLOAT16)
template <> struct CppType<c10::ScalarType::BFloat16> {
  using type = c10::BFloat16;
};
#endif
} // namespace kevin_torch_support

// torch's dispatch macros: the lambda called with scalar_t for the tensor's
// type, the same error for any other.
#define KEVIN_FACADE_CASE(Type, ...)                                           \
  case Type: {                                                                 \
    using scalar_t = typename ::kevin_torch_support::CppType<Type>::type;     \
    return __VA_ARGS__();                                                      \
  }
#define KEVIN_FACADE_DISPATCH(TYPE, NAME, CASES)                               \
  [&] {                                                                        \
    const ::c10::ScalarType KevinDispatchType = (TYPE);                        \
    switch (KevinDispatchType) {                                               \
      CASES                                                                    \
    default:                                                                   \
      ::kevin_torch_support::dispatchFailed(__func__, __FILE__,               \
                                            static_cast<uint32_t>(__LINE__),  \
                                            NAME, int(KevinDispatchType));     \
    }                                                                          \
  }()
#define KEVIN_FACADE_FLOATING(...)                                             \
  KEVIN_FACADE_CASE(::c10::ScalarType::Double, __VA_ARGS__)                    \
  KEVIN_FACADE_CASE(::c10::ScalarType::Float, __VA_ARGS__)
#define KEVIN_FACADE_INTEGRAL(...)                                             \
  KEVIN_FACADE_CASE(::c10::ScalarType::Byte, __VA_ARGS__)                      \
  KEVIN_FACADE_CASE(::c10::ScalarType::Char, __VA_ARGS__)                      \
  KEVIN_FACADE_CASE(::c10::ScalarType::Int, __VA_ARGS__)                       \
  KEVIN_FACADE_CASE(::c10::ScalarType::Long, __VA_ARGS__)                      \
  KEVIN_FACADE_CASE(::c10::ScalarType::Short, __VA_ARGS__)
#define AT_DISPATCH_FLOATING_TYPES(TYPE, NAME, ...)                            \
  KEVIN_FACADE_DISPATCH(TYPE, NAME, KEVIN_FACADE_FLOATING(__VA_ARGS__))
#define AT_DISPATCH_FLOATING_TYPES_AND_HALF(TYPE, NAME, ...)                   \
  KEVIN_FACADE_DISPATCH(                                                       \
      TYPE, NAME,                                                              \
      KEVIN_FACADE_FLOATING(__VA_ARGS__)                                       \
          KEVIN_FACADE_CASE(::c10::ScalarType::Half, __VA_ARGS__))
#define AT_DISPATCH_FLOATING_TYPES_AND(S1, TYPE, NAME, ...)                    \
  KEVIN_FACADE_DISPATCH(TYPE, NAME,                                            \
                        KEVIN_FACADE_FLOATING(__VA_ARGS__)                     \
                            KEVIN_FACADE_CASE(S1, __VA_ARGS__))
#define AT_DISPATCH_FLOATING_TYPES_AND2(S1, S2, TYPE, NAME, ...)               \
  KEVIN_FACADE_DISPATCH(TYPE, NAME,                                            \
                        KEVIN_FACADE_FLOATING(__VA_ARGS__)                     \
                            KEVIN_FACADE_CASE(S1, __VA_ARGS__)                 \
                                KEVIN_FACADE_CASE(S2, __VA_ARGS__))
#define AT_DISPATCH_INTEGRAL_TYPES(TYPE, NAME, ...)                            \
  KEVIN_FACADE_DISPATCH(TYPE, NAME, KEVIN_FACADE_INTEGRAL(__VA_ARGS__))
#define AT_DISPATCH_ALL_TYPES(TYPE, NAME, ...)                                 \
  KEVIN_FACADE_DISPATCH(TYPE, NAME,                                            \
                        KEVIN_FACADE_INTEGRAL(__VA_ARGS__)                     \
                            KEVIN_FACADE_FLOATING(__VA_ARGS__))
