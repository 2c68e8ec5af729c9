// kevin's pybind11 binding over the torch facade (lib/Build/TorchFacade.cpp)
//
// The binding unit of an extension whose C++ sources fit the facade sees
// this in place of torch/extension.h: the facade, pybind11, and a caster
// for at::Tensor that converts through kevin's Python support object
// (embedded/torch_facade_python.cpp) with torch's own calls, as torch's
// caster does. A bound function's error becomes a Python exception by
// torch's own translation, as torch::wrap_pybind_function does it.
#pragma once
#include <kevin_torch_facade.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <exception>
#include <utility>

namespace kevin_torch_support {
// The Python support object's functions (hidden in the extension).
bool tensorFromPython(PyObject *Object, void *Out);
PyObject *tensorToPython(const void *T);
void setPythonError(const std::exception_ptr &Error);
} // namespace kevin_torch_support

namespace pybind11 {
namespace detail {
// Inline, so that no call binds to torch's own exported caster of the
// same name.
template <> struct type_caster<at::Tensor> {
public:
  PYBIND11_TYPE_CASTER(at::Tensor, const_name("torch.Tensor"));
  KEVIN_FACADE_INLINE bool load(handle Source, bool) {
    return kevin_torch_support::tensorFromPython(Source.ptr(), &value);
  }
  KEVIN_FACADE_INLINE static handle cast(const at::Tensor &T,
                                         return_value_policy, handle) {
    return handle(kevin_torch_support::tensorToPython(&T));
  }
};
} // namespace detail
} // namespace pybind11

namespace kevin_torch_support {
/// Calls F; its errors (other than pybind11's own) become the Python
/// exceptions torch's own translation gives. A type of kevin's namespace,
/// not a lambda of torch's: should the compiler keep the call out of line,
/// its symbol names nothing of torch's (TorchFacade.cpp checks the objects).
template <typename Result, typename... Args> struct ErrorTranslatingCall {
  Result (*F)(Args...);
  KEVIN_FACADE_INLINE Result operator()(Args... A) const {
    try {
      return F(std::forward<Args>(A)...);
    } catch (const pybind11::builtin_exception &) {
      throw;
    } catch (const pybind11::error_already_set &) {
      throw;
    } catch (...) {
      setPythonError(std::current_exception());
      throw pybind11::error_already_set();
    }
  }
};
} // namespace kevin_torch_support

namespace torch {
/// F, whose errors become Python exceptions as torch's own
/// wrap_pybind_function makes them.
template <typename Result, typename... Args>
KEVIN_FACADE_INLINE kevin_torch_support::ErrorTranslatingCall<Result, Args...>
wrap_pybind_function(Result (*F)(Args...)) {
  return {F};
}
} // namespace torch
