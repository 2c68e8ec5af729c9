//===-- FreshMemoryPoison.cpp - fresh CPU tensors read as NaN -------------===//
//
// KEVIN-RT-005 on the CPU: c10's CPU allocator can fill every new block with
// a junk pattern that reads as NaN in every floating type (0x7fedbeef per
// 32 bits). Turned on in the candidate worker, an output element a kernel
// never writes reads NaN on every run, instead of whatever the heap held
// (sometimes NaN, sometimes a plausible number, so the verdict was left to
// chance between nan and mismatch).
//
// The switch is the c10 flag caffe2_cpu_allocator_do_junk_fill. No public
// header declares it, and its namespace depends on whether torch was built
// with gflags (Debian's torch: fLB::) or without (pip wheels: c10::), so it
// is found by symbol in the libc10 the worker has loaded.
//
//===----------------------------------------------------------------------===//
#include "WorkerSupport.h"

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

} // namespace worker
} // namespace kevin
