//===-- CallTimer.h - time one forward call ---------------------*- C++ -*-===//
//
// Private to lib/Bench. How the timing worker times a single call, the same
// for the trusted reference and the untrusted candidate:
//
// A CUDA call is: reset persisting L2, synchronize, flush L2 (write a buffer
// of twice its size) as many times as the launch cover asks; record Start on
// the timing stream; forward; record
// EndStream; thread census; synchronize the whole device; record EndDevice.
// Start->EndStream is the kernel time (what triton's do_bench measures);
// Start->EndDevice, less the calibrated synchronize overhead, exposes work
// that escaped the timing stream. A CPU call is wall clock around forward.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_LIB_BENCH_CALLTIMER_H
#define KEVIN_LIB_BENCH_CALLTIMER_H

#include "CudaRuntime.h"
#include "DeviceState.h"
#include "kevin/Exec/WorkerSupport.h"

#include <optional>
#include <string>
#include <vector>

namespace kevin {
namespace worker {

/// Entries of /proc/self/task: the threads of this process.
unsigned threadCount();

/// The items of a tuple or list, or Obj itself when it is neither.
std::vector<py::handle> itemsOf(const py::handle &Obj);

/// The tensors of a forward result (a tensor, or a tuple/list of them).
std::vector<at::Tensor> outputTensors(const py::object &Out);

/// Times single calls by the method of the device. Hidden, as the pybind11
/// types its samples hold are.
class __attribute__((visibility("hidden"))) CallTimer {
public:
  struct Sample {
    double Ms = 0;       ///< Start -> EndStream (CUDA), wall clock (CPU)
    double SyncedMs = 0; ///< Start -> EndDevice (CUDA); = Ms on the CPU
    double HostMs = 0;   ///< host clock over call + synchronize
    /// CoverStart -> Start (CUDA): the launch cover as the device ran it.
    /// Work launched by forward outside the timing stream can run beside
    /// the cover, which then takes longer than on its own; 0 on the CPU.
    double CoverMs = 0;
    unsigned Threads = 0;
    py::object Out;
    std::vector<at::Tensor> Early; ///< copies taken right after return
  };

  /// The timer of Device; Environment gets what the prelude reports of the
  /// device and, on CUDA, the persisting-L2 limits, the flush size
  /// (FlushBytes; 0: twice the device's L2, at least 256 MiB) and the launch
  /// cover: the flush is written often enough before each call to keep the
  /// device busy for at least CoverMs while the host launches forward, so
  /// that up to that much launch latency is never timed. On CUDA it makes
  /// the timing stream current: call it before any candidate code.
  static Expected<CallTimer> create(py::module_ &Prelude,
                                    const std::string &Device,
                                    size_t FlushBytes, double CoverMs,
                                    Json &Environment);

  bool cuda() const { return Cuda; }
  /// Calls before which persisting L2 had to be reset (some code set it up).
  unsigned persistingResets() const { return PersistingResets; }

  /// Times Fn(*Args); with Snapshot, Early holds copies of the outputs
  /// taken as it returned.
  Sample call(const py::object &Fn, const py::list &Args, bool Snapshot);

  /// Waits, then synchronizes: what a late writer had time to do is done.
  void settle(double Ms);

  /// On CUDA, frees the flush, so that the allocator can give its block
  /// back: a timing round in a fresh placement moves the flush too. The
  /// next call restores it if restoreFlush has not.
  void releaseFlush();
  /// Allocates the flush (FlushFloats on FlushDevice) when it is not.
  void restoreFlush();
  /// The flush's device address (0 on the CPU or while released).
  uintptr_t flushAddress() const;
  /// What the driver reports of the device now (DeviceMonitor::read); null
  /// on the CPU, or where the driver's library cannot be found.
  Json deviceState() const;

private:
  bool Cuda = false;
  std::optional<CudaRuntime> Runtime;
  std::optional<DeviceMonitor> Monitor;
  CudaRuntime::Stream Stream = nullptr;
  CudaRuntime::Event CoverStart = nullptr, Start = nullptr,
                     EndStream = nullptr, EndDevice = nullptr;
  at::Tensor Flush;
  int64_t FlushFloats = 0;
  std::string FlushDevice;
  /// Flushes queued ahead of each call (the launch cover).
  unsigned CoverFlushes = 1;
  unsigned PersistingResets = 0;
  size_t PersistingFloor = 0;
};

} // namespace worker
} // namespace kevin

#endif // KEVIN_LIB_BENCH_CALLTIMER_H
