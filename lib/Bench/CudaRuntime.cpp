//===-- CudaRuntime.cpp - the CUDA runtime torch loaded -------------------===//
//
// Looks the runtime up among the objects already mapped into the process
// (dl_iterate_phdr), so the worker never loads a second, different libcudart.
//
//===----------------------------------------------------------------------===//
#include "CudaRuntime.h"

#include <cstring>
#include <dlfcn.h>
#include <link.h>
#include <string>

namespace kevin {
namespace worker {

namespace {

int findCudart(struct dl_phdr_info *Info, size_t, void *Data) {
  auto *Found = static_cast<std::string *>(Data);
  if (Info->dlpi_name && std::strstr(Info->dlpi_name, "libcudart.so")) {
    *Found = Info->dlpi_name;
    return 1;
  }
  return 0;
}

/// cudaLimitPersistingL2CacheSize in cuda_runtime_api.h's cudaLimit.
constexpr int LimitPersistingL2CacheSize = 0x06;

} // namespace

Expected<CudaRuntime> CudaRuntime::find() {
  std::string Path;
  dl_iterate_phdr(findCudart, &Path);
  void *Handle = Path.empty() ? nullptr
                              : ::dlopen(Path.c_str(), RTLD_NOW | RTLD_NOLOAD);
  if (!Handle)
    Handle = RTLD_DEFAULT;
  CudaRuntime R;
  auto bind = [&](auto &Fn, const char *Name) {
    Fn = reinterpret_cast<std::remove_reference_t<decltype(Fn)>>(
        ::dlsym(Handle, Name));
    return Fn != nullptr;
  };
  bool Ok = bind(R.EventCreate, "cudaEventCreate") &&
            bind(R.EventDestroy, "cudaEventDestroy") &&
            bind(R.EventRecord, "cudaEventRecord") &&
            bind(R.EventSynchronize, "cudaEventSynchronize") &&
            bind(R.EventElapsedTime, "cudaEventElapsedTime") &&
            bind(R.DeviceSynchronize, "cudaDeviceSynchronize");
  if (!Ok)
    return Error::make("cannot find the CUDA runtime (libcudart) that torch "
                       "loaded: CUDA timing is not available");
  bind(R.CtxResetPersistingL2Cache, "cudaCtxResetPersistingL2Cache");
  bind(R.DeviceSetLimit, "cudaDeviceSetLimit");
  bind(R.DeviceGetLimit, "cudaDeviceGetLimit");
  bind(R.GetDevice, "cudaGetDevice");
  bind(R.DeviceGetPCIBusId, "cudaDeviceGetPCIBusId");
  return R;
}

CudaRuntime::Event CudaRuntime::createEvent() const {
  Event E = nullptr;
  EventCreate(&E);
  return E;
}

void CudaRuntime::destroyEvent(Event E) const { EventDestroy(E); }

void CudaRuntime::record(Event E, Stream S) const { EventRecord(E, S); }

double CudaRuntime::elapsedMilliseconds(Event Start, Event End) const {
  EventSynchronize(End);
  float Ms = 0;
  if (EventElapsedTime(&Ms, Start, End) != 0)
    return -1;
  return Ms;
}

bool CudaRuntime::synchronizeDevice() const { return DeviceSynchronize() == 0; }

size_t CudaRuntime::persistingL2Limit() const {
  size_t Limit = 0;
  if (!DeviceGetLimit ||
      DeviceGetLimit(&Limit, LimitPersistingL2CacheSize) != 0)
    return 0;
  return Limit;
}

bool CudaRuntime::resetPersistingL2(size_t Floor) const {
  if (persistingL2Limit() <= Floor)
    return false;
  if (DeviceSetLimit)
    DeviceSetLimit(LimitPersistingL2CacheSize, 0);
  if (CtxResetPersistingL2Cache)
    CtxResetPersistingL2Cache();
  return true;
}

std::string CudaRuntime::pciBusId() const {
  int Device = 0;
  char Id[64] = {0};
  if (!GetDevice || !DeviceGetPCIBusId || GetDevice(&Device) != 0 ||
      DeviceGetPCIBusId(Id, sizeof(Id), Device) != 0)
    return "";
  return Id;
}

} // namespace worker
} // namespace kevin
