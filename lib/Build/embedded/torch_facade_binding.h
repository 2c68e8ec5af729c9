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

namespace kevin_torch_support {
// The Python support object's functions (hidden in the extension).
bool tensorFromPython(PyObject *Object, void *Out);
PyObject *tensorToPython(const void *T);
void setPythonError(const std::exception_ptr &Error);
} // namespace kevin_torch_support

namespace pybind11 {
namespace detail {
template <> struct type_caster<at::Tensor> {
public:
  PYBIND11_TYPE_CASTER(at::Tensor, const_name("torch.Tensor"));
  bool load(handle Source, bool) {
    return kevin_torch_support::tensorFromPython(Source.ptr(), &value);
  }
  static handle cast(const at::Tensor &T, return_value_policy, handle) {
    return handle(kevin_torch_support::tensorToPython(&T));
  }
};
} // namespace detail
} // namespace pybind11

namespace torch {
/// The binding's functions are bound as they are; the module translates
/// their errors (kevinTranslateTorchErrors).
template <typename Function>
KEVIN_FACADE_INLINE Function wrap_pybind_function(Function F) {
  return F;
}
} // namespace torch

/// Errors of the module's functions, other than pybind11's own, become
/// the Python exceptions torch would raise for them.
inline void kevinTranslateTorchErrors() {
  pybind11::register_local_exception_translator([](std::exception_ptr E) {
    try {
      std::rethrow_exception(E);
    } catch (const pybind11::builtin_exception &) {
      throw;
    } catch (const pybind11::error_already_set &) {
      throw;
    } catch (...) {
      kevin_torch_support::setPythonError(std::current_exception());
    }
  });
}
