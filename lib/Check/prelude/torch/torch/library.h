// kevin's lean stand-in for torch/library.h: operator registration, so that
// kevin-cu-foreign-symbol sees a TORCH_LIBRARY block as what it expands to.
#pragma once
#include <torch/types.h>
namespace torch {
class Library {
public:
  template <class Schema> Library &def(Schema &&);
  template <class Schema, class F> Library &def(Schema &&, F &&);
  template <class Name, class F> Library &impl(Name &&, F &&);
};
} // namespace torch
#define TORCH_LIBRARY(ns, m) static void TORCH_LIBRARY_init_##ns(torch::Library &m)
#define TORCH_LIBRARY_FRAGMENT(ns, m)                                          \
  static void TORCH_LIBRARY_FRAGMENT_init_##ns(torch::Library &m)
#define TORCH_LIBRARY_IMPL(ns, k, m)                                           \
  static void TORCH_LIBRARY_IMPL_init_##ns##_##k(torch::Library &m)
