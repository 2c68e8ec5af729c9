// kevin's lean torch prelude: a declaration subset of ATen/c10 that is
// enough to parse typical load_inline sources in milliseconds. Compute
// functions are declared so that kevin-cu-aten-compute can see them; when a
// source uses something missing here, kevin-check parses it again with the
// real torch headers.
#pragma once
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iosfwd>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>
#include <cuda_runtime.h>

#if defined(__CUDA__)
#define C10_HOST_DEVICE __host__ __device__
#define C10_DEVICE __device__
#else
#define C10_HOST_DEVICE
#define C10_DEVICE
#endif
#define C10_UNUSED __attribute__((__unused__))
#define C10_LIKELY(x) (x)
#define C10_UNLIKELY(x) (x)

namespace c10 {
enum class ScalarType : int8_t {
  Byte, Char, Short, Int, Long, Half, Float, Double, ComplexHalf, ComplexFloat,
  ComplexDouble, Bool, QInt8, QUInt8, QInt32, BFloat16, Undefined
};
constexpr ScalarType kByte = ScalarType::Byte, kChar = ScalarType::Char,
                     kShort = ScalarType::Short, kInt = ScalarType::Int,
                     kLong = ScalarType::Long, kHalf = ScalarType::Half,
                     kFloat = ScalarType::Float, kDouble = ScalarType::Double,
                     kBool = ScalarType::Bool, kBFloat16 = ScalarType::BFloat16,
                     kFloat32 = ScalarType::Float, kFloat64 = ScalarType::Double,
                     kFloat16 = ScalarType::Half, kInt32 = ScalarType::Int,
                     kInt64 = ScalarType::Long, kUInt8 = ScalarType::Byte;
const char *toString(ScalarType);
size_t elementSize(ScalarType);
bool isFloatingType(ScalarType);
bool isIntegralType(ScalarType, bool includeBool);
bool isComplexType(ScalarType);

struct Half {
  unsigned short x;
  Half() = default;
  C10_HOST_DEVICE Half(float);
  C10_HOST_DEVICE operator float() const;
#if defined(__CUDA__)
  C10_HOST_DEVICE Half(const __half &);
  C10_HOST_DEVICE operator __half() const;
#endif
};
struct BFloat16 {
  unsigned short x;
  BFloat16() = default;
  C10_HOST_DEVICE BFloat16(float);
  C10_HOST_DEVICE operator float() const;
};
// The arithmetic of c10/util/Half-inl.h and BFloat16-inl.h: in the type
// itself, and with float, double and int (computed in float or double).
// Comparisons are declared too, so that they do not reach cuda_fp16.h's
// __half operators through Half's conversion to __half.
#define KEVIN_REDUCED_FLOAT_OPS(T)                                              \
  C10_HOST_DEVICE T operator+(const T &, const T &);                            \
  C10_HOST_DEVICE T operator-(const T &, const T &);                            \
  C10_HOST_DEVICE T operator*(const T &, const T &);                            \
  C10_HOST_DEVICE T operator/(const T &, const T &);                            \
  C10_HOST_DEVICE T operator-(const T &);                                       \
  C10_HOST_DEVICE T &operator+=(T &, const T &);                                \
  C10_HOST_DEVICE T &operator-=(T &, const T &);                                \
  C10_HOST_DEVICE T &operator*=(T &, const T &);                                \
  C10_HOST_DEVICE T &operator/=(T &, const T &);                                \
  C10_HOST_DEVICE float &operator+=(float &, const T &);                        \
  C10_HOST_DEVICE float &operator-=(float &, const T &);                        \
  C10_HOST_DEVICE float &operator*=(float &, const T &);                        \
  C10_HOST_DEVICE float &operator/=(float &, const T &);                        \
  C10_HOST_DEVICE bool operator==(const T &, const T &);                        \
  C10_HOST_DEVICE bool operator!=(const T &, const T &);                        \
  C10_HOST_DEVICE bool operator<(const T &, const T &);                         \
  C10_HOST_DEVICE bool operator<=(const T &, const T &);                        \
  C10_HOST_DEVICE bool operator>(const T &, const T &);                         \
  C10_HOST_DEVICE bool operator>=(const T &, const T &);                        \
  KEVIN_REDUCED_FLOAT_MIXED(T, float, float)                                    \
  KEVIN_REDUCED_FLOAT_MIXED(T, double, double)                                  \
  KEVIN_REDUCED_FLOAT_MIXED(T, int, T)                                          \
  KEVIN_REDUCED_FLOAT_MIXED(T, int64_t, T)
#define KEVIN_REDUCED_FLOAT_MIXED(T, U, R)                                      \
  C10_HOST_DEVICE R operator+(T, U);                                            \
  C10_HOST_DEVICE R operator-(T, U);                                            \
  C10_HOST_DEVICE R operator*(T, U);                                            \
  C10_HOST_DEVICE R operator/(T, U);                                            \
  C10_HOST_DEVICE R operator+(U, T);                                            \
  C10_HOST_DEVICE R operator-(U, T);                                            \
  C10_HOST_DEVICE R operator*(U, T);                                            \
  C10_HOST_DEVICE R operator/(U, T);
KEVIN_REDUCED_FLOAT_OPS(Half)
KEVIN_REDUCED_FLOAT_OPS(BFloat16)
#undef KEVIN_REDUCED_FLOAT_OPS
#undef KEVIN_REDUCED_FLOAT_MIXED
template <class T> struct complex { T real_, imag_; };

enum class DeviceType : int8_t { CPU = 0, CUDA = 1, Meta = 9 };
constexpr DeviceType kCPU = DeviceType::CPU, kCUDA = DeviceType::CUDA;
using DeviceIndex = int8_t;
struct Device {
  Device(DeviceType, DeviceIndex = -1);
  Device(const std::string &);
  DeviceType type() const;
  DeviceIndex index() const;
  bool has_index() const;
  bool is_cuda() const;
  bool is_cpu() const;
  bool operator==(const Device &) const;
  bool operator!=(const Device &) const;
};
std::string toString(Device);
std::ostream &operator<<(std::ostream &, const Device &);
enum class Layout : int8_t { Strided, Sparse };
constexpr Layout kStrided = Layout::Strided;
enum class MemoryFormat : int8_t { Contiguous, Preserve, ChannelsLast, ChannelsLast3d };

template <class T> class ArrayRef {
public:
  ArrayRef();
  ArrayRef(const T &);
  ArrayRef(const T *, size_t);
  ArrayRef(const T *, const T *);
  ArrayRef(const std::vector<T> &);
  template <size_t N> ArrayRef(const T (&)[N]);
  ArrayRef(const std::initializer_list<T> &);
  const T *begin() const;
  const T *end() const;
  const T *data() const;
  size_t size() const;
  bool empty() const;
  const T &front() const;
  const T &back() const;
  const T &operator[](size_t) const;
  std::vector<T> vec() const;
  ArrayRef slice(size_t, size_t) const;
};
template <class T> bool operator==(ArrayRef<T>, ArrayRef<T>);
template <class T> bool operator!=(ArrayRef<T>, ArrayRef<T>);
using IntArrayRef = ArrayRef<int64_t>;
template <class T> std::ostream &operator<<(std::ostream &, ArrayRef<T>);
std::ostream &operator<<(std::ostream &, ScalarType);
template <class T> using optional = std::optional<T>;
using std::nullopt;

struct TypeMeta {
  ScalarType toScalarType() const;
  size_t itemsize() const;
  bool operator==(const TypeMeta &) const;
  bool operator!=(const TypeMeta &) const;
  bool operator==(ScalarType) const;
  bool operator!=(ScalarType) const;
  operator ScalarType() const;
  const char *name() const;
};

struct TensorOptions {
  TensorOptions();
  TensorOptions(ScalarType);
  TensorOptions(Device);
  TensorOptions(DeviceType);
  TensorOptions(Layout);
  TensorOptions(MemoryFormat);
  TensorOptions dtype(ScalarType) const;
  TensorOptions dtype(TypeMeta) const;
  TensorOptions device(Device) const;
  TensorOptions device(DeviceType, DeviceIndex = -1) const;
  TensorOptions device_index(DeviceIndex) const;
  TensorOptions layout(Layout) const;
  TensorOptions requires_grad(bool) const;
  TensorOptions memory_format(MemoryFormat) const;
  TensorOptions pinned_memory(bool) const;
  TypeMeta dtype() const;
  Device device() const;
  Layout layout() const;
  bool requires_grad() const;
};
TensorOptions dtype(ScalarType);
TensorOptions device(Device);
TensorOptions layout(Layout);
TensorOptions requires_grad(bool = true);
TensorOptions memory_format(MemoryFormat);

class Scalar {
public:
  Scalar();
  Scalar(double);
  Scalar(float);
  Scalar(int);
  Scalar(int64_t);
  Scalar(long long);
  Scalar(bool);
  Scalar(Half);
  Scalar(BFloat16);
  template <class T> T to() const;
  double toDouble() const;
  float toFloat() const;
  int64_t toLong() const;
  int toInt() const;
  bool toBool() const;
  bool isFloatingPoint() const;
};
struct Storage {};
struct Stream {};
template <class... Args> std::string str(const Args &...);
namespace detail {
[[noreturn]] void torchCheckFail(const char *, const char *, unsigned, const std::string &);
[[noreturn]] void torchInternalAssertFail(const char *, const char *, unsigned, const char *,
                                          const std::string &);
}
struct Error {};
} // namespace c10

#define TORCH_CHECK(cond, ...)                                                      \
  if (C10_UNLIKELY(!(cond)))                                                        \
  ::c10::detail::torchCheckFail(__func__, __FILE__, static_cast<unsigned>(__LINE__), \
                                ::c10::str(__VA_ARGS__))
#define TORCH_CHECK_EQ(a, b) TORCH_CHECK((a) == (b))
#define TORCH_CHECK_NE(a, b) TORCH_CHECK((a) != (b))
#define TORCH_CHECK_LE(a, b) TORCH_CHECK((a) <= (b))
#define TORCH_CHECK_LT(a, b) TORCH_CHECK((a) < (b))
#define TORCH_CHECK_GE(a, b) TORCH_CHECK((a) >= (b))
#define TORCH_CHECK_GT(a, b) TORCH_CHECK((a) > (b))
#define TORCH_INTERNAL_ASSERT(cond, ...)                                             \
  if (C10_UNLIKELY(!(cond)))                                                        \
  ::c10::detail::torchInternalAssertFail(__func__, __FILE__,                        \
                                         static_cast<unsigned>(__LINE__), #cond,    \
                                         ::c10::str(__VA_ARGS__))
#define AT_ASSERT(...) TORCH_INTERNAL_ASSERT(__VA_ARGS__)
#define AT_ASSERTM(cond, ...) TORCH_INTERNAL_ASSERT(cond, __VA_ARGS__)
#define TORCH_CHECK_VALUE(cond, ...) TORCH_CHECK(cond, __VA_ARGS__)
#define TORCH_CHECK_INDEX(cond, ...) TORCH_CHECK(cond, __VA_ARGS__)
#define TORCH_CHECK_TYPE(cond, ...) TORCH_CHECK(cond, __VA_ARGS__)
#define TORCH_CHECK_NOT_IMPLEMENTED(cond, ...) TORCH_CHECK(cond, __VA_ARGS__)
#define AT_ERROR(...) ::c10::detail::torchCheckFail(__func__, __FILE__, static_cast<unsigned>(__LINE__), ::c10::str(__VA_ARGS__))
#define TORCH_WARN(...) ((void)::c10::str(__VA_ARGS__))

namespace at {
using c10::ArrayRef;
using c10::BFloat16;
using c10::Device;
using c10::DeviceType;
using c10::Half;
using c10::IntArrayRef;
using c10::Layout;
using c10::MemoryFormat;
using c10::optional;
using c10::nullopt;
using c10::Scalar;
using c10::ScalarType;
using c10::TensorOptions;
using c10::kBFloat16;
using c10::kBool;
using c10::kByte;
using c10::kChar;
using c10::kCPU;
using c10::kCUDA;
using c10::kDouble;
using c10::kFloat;
using c10::kFloat16;
using c10::kFloat32;
using c10::kFloat64;
using c10::kHalf;
using c10::kInt;
using c10::kInt32;
using c10::kInt64;
using c10::kLong;
using c10::kShort;
using c10::kStrided;
using c10::kUInt8;
using c10::toString;
using c10::elementSize;
using c10::isFloatingType;
using c10::isIntegralType;
using c10::dtype;
using c10::device;

template <class T> struct DefaultPtrTraits { typedef T *PtrType; };
template <class T> struct RestrictPtrTraits { typedef T *__restrict__ PtrType; };

template <class T, size_t N, template <class> class PtrTraits = DefaultPtrTraits,
          class index_t = int64_t>
class GenericPackedTensorAccessor {
public:
  C10_HOST_DEVICE GenericPackedTensorAccessor<T, N - 1, PtrTraits, index_t>
  operator[](index_t) const;
  C10_HOST_DEVICE index_t size(index_t) const;
  C10_HOST_DEVICE index_t stride(index_t) const;
  C10_HOST_DEVICE typename PtrTraits<T>::PtrType data() const;
};
template <class T, template <class> class PtrTraits, class index_t>
class GenericPackedTensorAccessor<T, 1, PtrTraits, index_t> {
public:
  C10_HOST_DEVICE T &operator[](index_t) const;
  C10_HOST_DEVICE index_t size(index_t) const;
  C10_HOST_DEVICE index_t stride(index_t) const;
  C10_HOST_DEVICE typename PtrTraits<T>::PtrType data() const;
};
template <class T, size_t N, template <class> class PtrTraits = DefaultPtrTraits>
using PackedTensorAccessor32 = GenericPackedTensorAccessor<T, N, PtrTraits, int32_t>;
template <class T, size_t N, template <class> class PtrTraits = DefaultPtrTraits>
using PackedTensorAccessor64 = GenericPackedTensorAccessor<T, N, PtrTraits, int64_t>;
template <class T, size_t N> class TensorAccessor {
public:
  TensorAccessor<T, N - 1> operator[](int64_t) const;
  int64_t size(int64_t) const;
  int64_t stride(int64_t) const;
};
template <class T> class TensorAccessor<T, 1> {
public:
  T &operator[](int64_t) const;
  int64_t size(int64_t) const;
  int64_t stride(int64_t) const;
};

class Tensor;
using TensorList = ArrayRef<Tensor>;

class TensorBase {
public:
  int64_t size(int64_t) const;
  IntArrayRef sizes() const;
  int64_t stride(int64_t) const;
  IntArrayRef strides() const;
  int64_t dim() const;
  int64_t ndimension() const;
  int64_t numel() const;
  template <class T> T *data_ptr() const;
  void *data_ptr() const;
  template <class T> const T *const_data_ptr() const;
  template <class T> T *mutable_data_ptr() const;
  TensorOptions options() const;
  ScalarType scalar_type() const;
  c10::TypeMeta dtype() const;
  Device device() const;
  bool is_cuda() const;
  bool is_cpu() const;
  bool is_contiguous(MemoryFormat = MemoryFormat::Contiguous) const;
  bool defined() const;
  bool is_floating_point() const;
  bool is_complex() const;
  bool is_signed() const;
  bool is_same(const TensorBase &) const;
  bool is_non_overlapping_and_dense() const;
  int64_t element_size() const;
  size_t itemsize() const;
  size_t nbytes() const;
  int64_t storage_offset() const;
  int64_t get_device() const;
  Layout layout() const;
  bool requires_grad() const;
  MemoryFormat suggest_memory_format(bool = false) const;
  template <class T, size_t N> TensorAccessor<T, N> accessor() const &;
  template <class T, size_t N, template <class> class PtrTraits = DefaultPtrTraits,
            class index_t = int64_t>
  GenericPackedTensorAccessor<T, N, PtrTraits, index_t> generic_packed_accessor() const &;
  template <class T, size_t N, template <class> class PtrTraits = DefaultPtrTraits>
  PackedTensorAccessor32<T, N, PtrTraits> packed_accessor32() const &;
  template <class T, size_t N, template <class> class PtrTraits = DefaultPtrTraits>
  PackedTensorAccessor64<T, N, PtrTraits> packed_accessor64() const &;
};

class Tensor : public TensorBase {
public:
  Tensor();
  Tensor(const Tensor &);
  Tensor(Tensor &&);
  ~Tensor();
  Tensor &operator=(const Tensor &) &;
  Tensor &operator=(Tensor &&) &;
  // Views and layout glue.
  Tensor contiguous(MemoryFormat = MemoryFormat::Contiguous) const;
  Tensor view(IntArrayRef) const;
  Tensor reshape(IntArrayRef) const;
  Tensor transpose(int64_t, int64_t) const;
  Tensor permute(IntArrayRef) const;
  Tensor unsqueeze(int64_t) const;
  Tensor squeeze() const;
  Tensor squeeze(int64_t) const;
  Tensor flatten(int64_t = 0, int64_t = -1) const;
  Tensor narrow(int64_t, int64_t, int64_t) const;
  Tensor select(int64_t, int64_t) const;
  Tensor slice(int64_t = 0, optional<int64_t> = nullopt, optional<int64_t> = nullopt,
               int64_t = 1) const;
  Tensor expand(IntArrayRef, bool = false) const;
  Tensor expand_as(const Tensor &) const;
  Tensor view_as(const Tensor &) const;
  Tensor reshape_as(const Tensor &) const;
  bool is_same_size(const Tensor &) const;
  Tensor new_empty(IntArrayRef, TensorOptions = {}) const;
  Tensor new_zeros(IntArrayRef, TensorOptions = {}) const;
  Tensor as_strided(IntArrayRef, IntArrayRef, optional<int64_t> = nullopt) const;
  Tensor &zero_() const;
  Tensor &fill_(const Scalar &) const;
  // Compute (rejected by kevin-cu-aten-compute).
  Tensor &copy_(const Tensor &, bool = false) const;
  Tensor clone() const;
  Tensor to(ScalarType, bool = false, bool = false) const;
  Tensor to(Device, ScalarType, bool = false, bool = false) const;
  Tensor to(TensorOptions, bool = false, bool = false) const;
  Tensor cpu() const;
  Tensor cuda() const;
  Tensor toType(ScalarType) const;
  Tensor t() const;
  Tensor mm(const Tensor &) const;
  Tensor matmul(const Tensor &) const;
  Tensor bmm(const Tensor &) const;
  Tensor mv(const Tensor &) const;
  Tensor dot(const Tensor &) const;
  Tensor addmm(const Tensor &, const Tensor &, const Scalar & = 1, const Scalar & = 1) const;
  Tensor sum() const;
  Tensor sum(IntArrayRef, bool = false, optional<ScalarType> = nullopt) const;
  Tensor mean() const;
  Tensor mean(IntArrayRef, bool = false, optional<ScalarType> = nullopt) const;
  Tensor max() const;
  std::tuple<Tensor, Tensor> max(int64_t, bool = false) const;
  Tensor min() const;
  std::tuple<Tensor, Tensor> min(int64_t, bool = false) const;
  Tensor amax(IntArrayRef = {}, bool = false) const;
  Tensor argmax(optional<int64_t> = nullopt, bool = false) const;
  Tensor norm() const;
  Tensor var() const;
  Tensor std() const;
  Tensor cumsum(int64_t) const;
  std::tuple<Tensor, Tensor> sort(int64_t = -1, bool = false) const;
  std::tuple<Tensor, Tensor> topk(int64_t, int64_t = -1, bool = true, bool = true) const;
  Tensor relu() const;
  Tensor &relu_() const;
  Tensor sigmoid() const;
  Tensor tanh() const;
  Tensor exp() const;
  Tensor log() const;
  Tensor sqrt() const;
  Tensor rsqrt() const;
  Tensor abs() const;
  Tensor neg() const;
  Tensor pow(const Scalar &) const;
  Tensor softmax(int64_t, optional<ScalarType> = nullopt) const;
  Tensor log_softmax(int64_t, optional<ScalarType> = nullopt) const;
  Tensor clamp(optional<Scalar> = nullopt, optional<Scalar> = nullopt) const;
  Tensor clamp_min(const Scalar &) const;
  Tensor clamp_max(const Scalar &) const;
  Tensor add(const Tensor &, const Scalar & = 1) const;
  Tensor add(const Scalar &, const Scalar & = 1) const;
  Tensor sub(const Tensor &, const Scalar & = 1) const;
  Tensor mul(const Tensor &) const;
  Tensor mul(const Scalar &) const;
  Tensor div(const Tensor &) const;
  Tensor div(const Scalar &) const;
  Tensor &add_(const Tensor &, const Scalar & = 1) const;
  Tensor &mul_(const Tensor &) const;
  Tensor &mul_(const Scalar &) const;
  Tensor &div_(const Scalar &) const;
  Tensor index_select(int64_t, const Tensor &) const;
  Tensor gather(int64_t, const Tensor &) const;
  Tensor masked_fill(const Tensor &, const Scalar &) const;
  Scalar item() const;
  template <class T> T item() const;
  Tensor operator[](int64_t) const;
  Tensor operator-() const;
  Tensor &operator+=(const Tensor &) const;
  Tensor &operator+=(const Scalar &) const;
  Tensor &operator-=(const Tensor &) const;
  Tensor &operator*=(const Tensor &) const;
  Tensor &operator*=(const Scalar &) const;
  Tensor &operator/=(const Tensor &) const;
  Tensor &operator/=(const Scalar &) const;
};

Tensor operator+(const Tensor &, const Tensor &);
Tensor operator+(const Tensor &, const Scalar &);
Tensor operator+(const Scalar &, const Tensor &);
Tensor operator-(const Tensor &, const Tensor &);
Tensor operator-(const Tensor &, const Scalar &);
Tensor operator-(const Scalar &, const Tensor &);
Tensor operator*(const Tensor &, const Tensor &);
Tensor operator*(const Tensor &, const Scalar &);
Tensor operator*(const Scalar &, const Tensor &);
Tensor operator/(const Tensor &, const Tensor &);
Tensor operator/(const Tensor &, const Scalar &);
Tensor operator>(const Tensor &, const Scalar &);
Tensor operator<(const Tensor &, const Scalar &);

// Factories (allowed).
Tensor empty(IntArrayRef, TensorOptions = {}, optional<MemoryFormat> = nullopt);
Tensor empty_like(const Tensor &, TensorOptions = {}, optional<MemoryFormat> = nullopt);
Tensor empty_strided(IntArrayRef, IntArrayRef, TensorOptions = {});
Tensor zeros(IntArrayRef, TensorOptions = {});
Tensor zeros_like(const Tensor &, TensorOptions = {}, optional<MemoryFormat> = nullopt);
// Other factories and compute (rejected).
Tensor ones(IntArrayRef, TensorOptions = {});
Tensor ones_like(const Tensor &, TensorOptions = {});
Tensor full(IntArrayRef, const Scalar &, TensorOptions = {});
Tensor full_like(const Tensor &, const Scalar &, TensorOptions = {});
Tensor rand(IntArrayRef, TensorOptions = {});
Tensor randn(IntArrayRef, TensorOptions = {});
Tensor arange(const Scalar &, TensorOptions = {});
Tensor arange(const Scalar &, const Scalar &, TensorOptions = {});
Tensor from_blob(void *, IntArrayRef, TensorOptions = {});
Tensor matmul(const Tensor &, const Tensor &);
Tensor mm(const Tensor &, const Tensor &);
Tensor bmm(const Tensor &, const Tensor &);
Tensor addmm(const Tensor &, const Tensor &, const Tensor &, const Scalar & = 1, const Scalar & = 1);
Tensor baddbmm(const Tensor &, const Tensor &, const Tensor &, const Scalar & = 1, const Scalar & = 1);
Tensor &mm_out(Tensor &, const Tensor &, const Tensor &);
Tensor &matmul_out(Tensor &, const Tensor &, const Tensor &);
Tensor &addmm_out(Tensor &, const Tensor &, const Tensor &, const Tensor &, const Scalar & = 1, const Scalar & = 1);
Tensor &bmm_out(Tensor &, const Tensor &, const Tensor &);
Tensor linear(const Tensor &, const Tensor &, const optional<Tensor> & = {});
Tensor conv1d(const Tensor &, const Tensor &, const optional<Tensor> & = {}, IntArrayRef = 1, IntArrayRef = 0, IntArrayRef = 1, int64_t = 1);
Tensor conv2d(const Tensor &, const Tensor &, const optional<Tensor> & = {}, IntArrayRef = 1, IntArrayRef = 0, IntArrayRef = 1, int64_t = 1);
Tensor conv3d(const Tensor &, const Tensor &, const optional<Tensor> & = {}, IntArrayRef = 1, IntArrayRef = 0, IntArrayRef = 1, int64_t = 1);
Tensor conv_transpose2d(const Tensor &, const Tensor &, const optional<Tensor> & = {}, IntArrayRef = 1, IntArrayRef = 0, IntArrayRef = 0, int64_t = 1, IntArrayRef = 1);
Tensor relu(const Tensor &);
Tensor &relu_(Tensor &);
Tensor sigmoid(const Tensor &);
Tensor tanh(const Tensor &);
Tensor gelu(const Tensor &, const char * = "none");
Tensor silu(const Tensor &);
Tensor leaky_relu(const Tensor &, const Scalar & = 0.01);
Tensor softmax(const Tensor &, int64_t, optional<ScalarType> = nullopt);
Tensor log_softmax(const Tensor &, int64_t, optional<ScalarType> = nullopt);
Tensor layer_norm(const Tensor &, IntArrayRef, const optional<Tensor> & = {}, const optional<Tensor> & = {}, double = 1e-5, bool = true);
Tensor batch_norm(const Tensor &, const optional<Tensor> &, const optional<Tensor> &, const optional<Tensor> &, const optional<Tensor> &, bool, double, double, bool);
Tensor group_norm(const Tensor &, int64_t, const optional<Tensor> & = {}, const optional<Tensor> & = {}, double = 1e-5, bool = true);
Tensor max_pool2d(const Tensor &, IntArrayRef, IntArrayRef = {}, IntArrayRef = 0, IntArrayRef = 1, bool = false);
Tensor avg_pool2d(const Tensor &, IntArrayRef, IntArrayRef = {}, IntArrayRef = 0, bool = false, bool = true, optional<int64_t> = nullopt);
Tensor sum(const Tensor &, optional<ScalarType> = nullopt);
Tensor sum(const Tensor &, IntArrayRef, bool = false, optional<ScalarType> = nullopt);
Tensor mean(const Tensor &, IntArrayRef, bool = false, optional<ScalarType> = nullopt);
Tensor max(const Tensor &);
Tensor min(const Tensor &);
Tensor amax(const Tensor &, IntArrayRef = {}, bool = false);
Tensor exp(const Tensor &);
Tensor log(const Tensor &);
Tensor sqrt(const Tensor &);
Tensor rsqrt(const Tensor &);
Tensor abs(const Tensor &);
Tensor pow(const Tensor &, const Scalar &);
Tensor clamp(const Tensor &, const optional<Scalar> & = nullopt, const optional<Scalar> & = nullopt);
Tensor where(const Tensor &, const Tensor &, const Tensor &);
Tensor cat(TensorList, int64_t = 0);
Tensor stack(TensorList, int64_t = 0);
Tensor einsum(const char *, TensorList);
Tensor cumsum(const Tensor &, int64_t, optional<ScalarType> = nullopt);
Tensor add(const Tensor &, const Tensor &, const Scalar & = 1);
Tensor mul(const Tensor &, const Tensor &);
Tensor div(const Tensor &, const Tensor &);
Tensor mse_loss(const Tensor &, const Tensor &, int64_t = 1);
Tensor dropout(const Tensor &, double, bool);

namespace cuda {
class CUDAStream {
public:
  cudaStream_t stream() const;
  operator cudaStream_t() const;
  c10::DeviceIndex device_index() const;
  Device device() const;
  void synchronize() const;
};
CUDAStream getCurrentCUDAStream(c10::DeviceIndex = -1);
CUDAStream getDefaultCUDAStream(c10::DeviceIndex = -1);
CUDAStream getStreamFromPool(bool = false, c10::DeviceIndex = -1);
CUDAStream getStreamFromExternal(cudaStream_t, c10::DeviceIndex);
void setCurrentCUDAStream(CUDAStream);
cudaDeviceProp *getCurrentDeviceProperties();
cudaDeviceProp *getDeviceProperties(int64_t);
c10::DeviceIndex current_device();
int warp_size();
struct CUDAGuard {
  explicit CUDAGuard(Device);
  explicit CUDAGuard(c10::DeviceIndex);
  ~CUDAGuard();
};
struct OptionalCUDAGuard {
  OptionalCUDAGuard();
  explicit OptionalCUDAGuard(optional<Device>);
  ~OptionalCUDAGuard();
  void set_device(Device);
};
struct CUDAStreamGuard {
  explicit CUDAStreamGuard(CUDAStream);
  ~CUDAStreamGuard();
};
} // namespace cuda
optional<Device> device_of(const Tensor &);
std::ostream &operator<<(std::ostream &, const Tensor &);
} // namespace at

namespace c10 {
namespace cuda {
using at::cuda::CUDAGuard;
using at::cuda::CUDAStream;
using at::cuda::CUDAStreamGuard;
using at::cuda::OptionalCUDAGuard;
using at::cuda::getCurrentCUDAStream;
using at::cuda::getDefaultCUDAStream;
using at::cuda::getStreamFromExternal;
using at::cuda::getStreamFromPool;
using at::cuda::setCurrentCUDAStream;
using at::cuda::current_device;
} // namespace cuda
} // namespace c10

#define C10_CUDA_CHECK(expr)                                                    \
  do {                                                                          \
    cudaError_t kevin_err = (expr);                                             \
    TORCH_CHECK(kevin_err == cudaSuccess, "CUDA error: ", cudaGetErrorString(kevin_err)); \
  } while (0)
#define C10_CUDA_KERNEL_LAUNCH_CHECK() C10_CUDA_CHECK(cudaGetLastError())
#define AT_CUDA_CHECK(expr) C10_CUDA_CHECK(expr)

#define KEVIN_DISPATCH_CASE(ENUM, TYPE, ...)                                    \
  case ::c10::ScalarType::ENUM: {                                               \
    using scalar_t C10_UNUSED = TYPE;                                           \
    return __VA_ARGS__();                                                       \
  }
#define KEVIN_DISPATCH_DEFAULT(NAME)                                            \
  default:                                                                      \
    ::c10::detail::torchCheckFail(__func__, __FILE__, 0, ::c10::str(NAME, " not implemented"));
#define AT_DISPATCH_FLOATING_TYPES(TYPE, NAME, ...)                             \
  [&] { switch (TYPE) {                                                         \
    KEVIN_DISPATCH_CASE(Double, double, __VA_ARGS__)                            \
    KEVIN_DISPATCH_CASE(Float, float, __VA_ARGS__)                              \
    KEVIN_DISPATCH_DEFAULT(NAME) } }()
#define AT_DISPATCH_FLOATING_TYPES_AND_HALF(TYPE, NAME, ...)                    \
  [&] { switch (TYPE) {                                                         \
    KEVIN_DISPATCH_CASE(Double, double, __VA_ARGS__)                            \
    KEVIN_DISPATCH_CASE(Float, float, __VA_ARGS__)                              \
    KEVIN_DISPATCH_CASE(Half, ::c10::Half, __VA_ARGS__)                         \
    KEVIN_DISPATCH_DEFAULT(NAME) } }()
#define AT_DISPATCH_FLOATING_TYPES_AND(T1, TYPE, NAME, ...)                     \
  AT_DISPATCH_FLOATING_TYPES_AND2(T1, T1, TYPE, NAME, __VA_ARGS__)
#define AT_DISPATCH_FLOATING_TYPES_AND2(T1, T2, TYPE, NAME, ...)                \
  [&] { switch (TYPE) {                                                         \
    KEVIN_DISPATCH_CASE(Double, double, __VA_ARGS__)                            \
    KEVIN_DISPATCH_CASE(Float, float, __VA_ARGS__)                              \
    KEVIN_DISPATCH_CASE(Half, ::c10::Half, __VA_ARGS__)                         \
    KEVIN_DISPATCH_CASE(BFloat16, ::c10::BFloat16, __VA_ARGS__)                 \
    KEVIN_DISPATCH_DEFAULT(NAME) } }()
#define AT_DISPATCH_INTEGRAL_TYPES(TYPE, NAME, ...)                             \
  [&] { switch (TYPE) {                                                         \
    KEVIN_DISPATCH_CASE(Byte, uint8_t, __VA_ARGS__)                             \
    KEVIN_DISPATCH_CASE(Char, int8_t, __VA_ARGS__)                              \
    KEVIN_DISPATCH_CASE(Short, int16_t, __VA_ARGS__)                            \
    KEVIN_DISPATCH_CASE(Int, int32_t, __VA_ARGS__)                              \
    KEVIN_DISPATCH_CASE(Long, int64_t, __VA_ARGS__)                             \
    KEVIN_DISPATCH_DEFAULT(NAME) } }()
#define AT_DISPATCH_ALL_TYPES(TYPE, NAME, ...)                                  \
  [&] { switch (TYPE) {                                                         \
    KEVIN_DISPATCH_CASE(Double, double, __VA_ARGS__)                            \
    KEVIN_DISPATCH_CASE(Float, float, __VA_ARGS__)                              \
    KEVIN_DISPATCH_CASE(Int, int32_t, __VA_ARGS__)                              \
    KEVIN_DISPATCH_CASE(Long, int64_t, __VA_ARGS__)                             \
    KEVIN_DISPATCH_DEFAULT(NAME) } }()
#define AT_DISPATCH_ALL_TYPES_AND_HALF(TYPE, NAME, ...)                         \
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(TYPE, NAME, __VA_ARGS__)
#define AT_DISPATCH_REDUCED_FLOATING_TYPES(TYPE, NAME, ...)                     \
  [&] { switch (TYPE) {                                                         \
    KEVIN_DISPATCH_CASE(Half, ::c10::Half, __VA_ARGS__)                         \
    KEVIN_DISPATCH_CASE(BFloat16, ::c10::BFloat16, __VA_ARGS__)                 \
    KEVIN_DISPATCH_DEFAULT(NAME) } }()
