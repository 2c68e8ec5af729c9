//===-- CudaRuntime.h - the CUDA runtime torch loaded -----------*- C++ -*-===//
//
// Private to lib/Exec. kevin-worker is built without the CUDA toolkit's
// headers (the CPU machines have none), so the timing worker reaches the few
// CUDA runtime entry points it needs (events, device synchronize, the L2
// persistence reset) in the libcudart that the embedded torch has already
// loaded, by symbol. Native code, out of reach of candidate Python.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_LIB_EXEC_CUDARUNTIME_H
#define KEVIN_LIB_EXEC_CUDARUNTIME_H

#include "kevin/Support/Error.h"

#include <cstdint>

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
  /// When some code set aside persisting L2 (a non-zero persisting limit),
  /// resets the limit to 0 and evicts the persisting lines, and returns true.
  /// A cheap query otherwise: nothing is reconfigured between calls that did
  /// not ask for persistence.
  bool resetPersistingL2() const;

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
};

} // namespace worker
} // namespace kevin

#endif // KEVIN_LIB_EXEC_CUDARUNTIME_H
