// kevin's lean stand-in for pybind11: enough for load_inline's bindings.
#pragma once
namespace pybind11 {
struct arg {
  explicit arg(const char *);
  template <class T> arg &operator=(const T &);
};
class module_ {
public:
  template <class F, class... Extra> module_ &def(const char *, F &&, const Extra &...);
};
using module = module_;
} // namespace pybind11
#define PYBIND11_MODULE(name, variable)                                         \
  static void pybind11_init_##name(::pybind11::module_ &variable)
