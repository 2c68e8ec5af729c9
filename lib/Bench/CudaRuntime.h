//===-- CudaRuntime.h - the CUDA runtime torch loaded -----------*- C++ -*-===//
//
// Private to lib/Bench. kevin-worker is built without the CUDA toolkit's
// headers (the CPU machines have none), so the timing worker reaches the few
// CUDA runtime entry points it needs (events, device synchronize, the L2
// persistence reset) in the libcudart that the embedded torch has already
// loaded, by symbol. Native code, out of reach of candidate Python.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_LIB_BENCH_CUDARUNTIME_H
#define KEVIN_LIB_BENCH_CUDARUNTIME_H

#include "kevin/Support/Error.h"

#include <cstdint>
#include <string>

namespace kevin {
namespace worker {

class CudaRuntime {
public:
  using Event = void *;
  using Stream = void *;

  /// Finds the runtime torch loaded; an Error when there is none (a CPU-only
  /// torch, or one linking the runtime statically).
  static Expected<CudaRuntime> find();

  Event createEvent() const;
  void destroyEvent(Event E) const;
  void record(Event E, Stream S) const;
  /// Waits for the event; the milliseconds from Start to End.
  double elapsedMilliseconds(Event Start, Event End) const;
  /// cudaDeviceSynchronize; false when it reports an error.
  bool synchronizeDevice() const;
  /// The persisting-L2 limit (cudaLimitPersistingL2CacheSize); 0 when it
  /// cannot be read.
  size_t persistingL2Limit() const;
  /// When the persisting limit is above Floor (some code set aside
  /// persisting L2), resets it to 0, evicts the persisting lines and returns
  /// true. A cheap query otherwise: nothing is reconfigured between calls
  /// that did not ask for persistence. Floor is what a reset leaves on this
  /// device before any candidate code ran (normally 0).
  bool resetPersistingL2(size_t Floor) const;
  /// The current device's PCI bus id ("0000:1B:00.0"); empty when it
  /// cannot be read.
  std::string pciBusId() const;

private:
  using Status = int;
  Status (*EventCreate)(Event *) = nullptr;
  Status (*EventDestroy)(Event) = nullptr;
  Status (*EventRecord)(Event, Stream) = nullptr;
  Status (*EventSynchronize)(Event) = nullptr;
  Status (*EventElapsedTime)(float *, Event, Event) = nullptr;
  Status (*DeviceSynchronize)() = nullptr;
  Status (*CtxResetPersistingL2Cache)() = nullptr;
  Status (*DeviceSetLimit)(int, size_t) = nullptr;
  Status (*DeviceGetLimit)(size_t *, int) = nullptr;
  Status (*GetDevice)(int *) = nullptr;
  Status (*DeviceGetPCIBusId)(char *, int, int) = nullptr;
};

} // namespace worker
} // namespace kevin

#endif // KEVIN_LIB_BENCH_CUDARUNTIME_H
