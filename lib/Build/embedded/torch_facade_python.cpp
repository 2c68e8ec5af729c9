// kevin's torch facade, Python support (lib/Build/TorchFacade.cpp)
//
// The functions the facade's binding (torch_facade_binding.h) calls,
// compiled once per cache with torch's own headers and linked into each
// extension whose binding unit was compiled with the facade: torch's own
// conversions between a Python tensor and at::Tensor, and torch's own
// translation of an error into a Python exception.
#include <torch/csrc/Exceptions.h>
#include <torch/csrc/autograd/python_variable.h>

#include <exception>

#pragma GCC visibility push(hidden)
namespace kevin_torch_support {

bool tensorFromPython(PyObject *Object, void *Out) {
  if (!THPVariable_Check(Object))
    return false;
  *static_cast<at::Tensor *>(Out) = THPVariable_Unpack(Object);
  return true;
}

PyObject *tensorToPython(const void *T) {
  return THPVariable_Wrap(*static_cast<const at::Tensor *>(T));
}

void setPythonError(const std::exception_ptr &Error) {
  torch::translate_exception_to_python(Error);
}

} // namespace kevin_torch_support
#pragma GCC visibility pop
