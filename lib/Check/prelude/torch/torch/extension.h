// kevin's lean torch prelude: torch/extension.h.
#pragma once
#include <torch/types.h>
#include <pybind11/pybind11.h>
namespace torch {
template <class F> F wrap_pybind_function(F f);
}
namespace py = pybind11;
