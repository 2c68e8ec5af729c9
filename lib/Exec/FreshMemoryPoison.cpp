//===-- FreshMemoryPoison.cpp - fresh CPU tensors read as NaN -------------===//
//
// KEVIN-RT-005 on the CPU: c10's CPU allocator can fill every new block with
// a junk pattern (0x7fedbeef per 32 bits): NaN as float32, a huge finite
// value as float64. Turned on in the candidate worker, an output element a
// kernel never writes holds that pattern on every run, instead of whatever
// the heap held (sometimes NaN, sometimes a plausible number, so the verdict
// was left to chance between nan and mismatch).
//
// The switch is the c10 flag caffe2_cpu_allocator_do_junk_fill. No public
// header declares it, and its namespace depends on whether torch was built
// with gflags (Debian's torch: fLB::) or without (pip wheels: c10::), so it
// is found by symbol in the libc10 the worker has loaded.
//
//===----------------------------------------------------------------------===//
#include "FreshMemoryPoison.h"

#include <dlfcn.h>

namespace kevin {
namespace worker {

bool poisonFreshCpuMemory() {
  for (const char *Symbol :
       {"_ZN3fLB39FLAGS_caffe2_cpu_allocator_do_junk_fillE",
        "_ZN3c1039FLAGS_caffe2_cpu_allocator_do_junk_fillE"}) {
    if (void *Flag = ::dlsym(RTLD_DEFAULT, Symbol)) {
      *static_cast<bool *>(Flag) = true;
      return true;
    }
  }
  return false;
}

int64_t countFreshMemoryPattern(const std::vector<at::Tensor> &Outputs) {
  constexpr int32_t Pattern = 0x7fedbeef;
  constexpr int64_t Pattern64 = static_cast<int64_t>(Pattern) << 32 | Pattern;
  int64_t Count = 0;
  for (const at::Tensor &T : Outputs) {
    if (!T.is_cpu() || T.is_complex() || T.numel() == 0)
      continue;
    at::Tensor Bits = T.contiguous();
    // All bits set: the CUDA fill, counted in floating-point outputs only
    // (-1 is a plain integer).
    bool Floating = T.is_floating_point();
    if (T.element_size() == 4) {
      at::Tensor Words = Bits.view(at::kInt);
      at::Tensor Hit = Words.eq(Pattern);
      if (Floating)
        Hit = Hit.logical_or(Words.eq(-1));
      Count += Hit.sum().item<int64_t>();
    } else if (T.element_size() == 8) {
      at::Tensor Words = Bits.view(at::kLong);
      at::Tensor Hit = Words.eq(Pattern64);
      if (Floating)
        Hit = Hit.logical_or(Words.eq(-1));
      Count += Hit.sum().item<int64_t>();
    } else if (T.element_size() == 2 && Floating) {
      Count += Bits.view(at::kShort).eq(-1).sum().item<int64_t>();
    }
  }
  return Count;
}

} // namespace worker
} // namespace kevin
