//===-- CallTimer.cpp - time one forward call -----------------------------===//
//
// CUDA events and the device-wide synchronize through the runtime torch
// loaded (CudaRuntime.h), the L2 flush, launch cover and persisting-L2 reset
// before each call, the wall clock on the CPU, the thread census after each
// call.
//
//===----------------------------------------------------------------------===//
#include "CallTimer.h"
#include "kevin/Support/Clock.h"
#include "kevin/Support/Device.h"

#include <torch/csrc/autograd/python_variable.h>

#include <algorithm>
#include <cmath>
#include <dirent.h>
#include <thread>

namespace kevin {
namespace worker {

unsigned threadCount() {
  DIR *D = ::opendir("/proc/self/task");
  if (!D)
    return 0;
  unsigned N = 0;
  while (struct dirent *E = ::readdir(D))
    N += E->d_name[0] != '.';
  ::closedir(D);
  return N;
}

std::vector<py::handle> itemsOf(const py::handle &Obj) {
  std::vector<py::handle> Items;
  if (py::isinstance<py::tuple>(Obj) || py::isinstance<py::list>(Obj))
    for (py::handle H : Obj)
      Items.push_back(H);
  else
    Items.push_back(Obj);
  return Items;
}

std::vector<at::Tensor> outputTensors(const py::object &Out) {
  std::vector<at::Tensor> Tensors;
  for (py::handle H : itemsOf(Out)) {
    if (!THPVariable_CheckExact(H.ptr()))
      throw std::runtime_error("TypeError: forward returned something other "
                               "than a plain torch.Tensor");
    Tensors.push_back(fromPython(H).detach());
  }
  return Tensors;
}

namespace {

/// The median milliseconds of one write of Flush on Stream, on an idle
/// device.
double flushMilliseconds(const CudaRuntime &Runtime, CudaRuntime::Stream Stream,
                         CudaRuntime::Event Start, CudaRuntime::Event End,
                         at::Tensor &Flush) {
  std::vector<double> Ms;
  for (int I = 0; I < 7; ++I) {
    Runtime.synchronizeDevice();
    Runtime.record(Start, Stream);
    Flush.zero_();
    Runtime.record(End, Stream);
    Ms.push_back(Runtime.elapsedMilliseconds(Start, End));
  }
  std::sort(Ms.begin(), Ms.end());
  return Ms[Ms.size() / 2];
}

} // namespace

Expected<CallTimer> CallTimer::create(py::module_ &Prelude,
                                      const std::string &Device,
                                      size_t FlushBytes, double CoverMs,
                                      Json &Environment) {
  CallTimer T;
  T.Cuda = isCudaDevice(Device);
  Environment = Json::parse(
      Prelude.attr("to_json")(Prelude.attr("device_info")(Device))
          .cast<std::string>());
  if (!T.Cuda)
    return T;
  Expected<CudaRuntime> Rt = CudaRuntime::find();
  if (!Rt)
    return Rt.error();
  T.Runtime = *Rt;
  T.Stream = reinterpret_cast<CudaRuntime::Stream>(
      Prelude.attr("use_timing_stream")(Device).cast<uintptr_t>());
  // After use_timing_stream, which makes Device the current device.
  T.Monitor = DeviceMonitor::open(T.Runtime->pciBusId());
  // Before any candidate code: a limit the device starts with, or keeps
  // through a reset, is the machine's, not the candidate's.
  Environment["l2_persisting_limit_at_start"] = T.Runtime->persistingL2Limit();
  T.Runtime->resetPersistingL2(0);
  T.PersistingFloor = T.Runtime->persistingL2Limit();
  Environment["l2_persisting_limit_floor"] = T.PersistingFloor;
  if (!FlushBytes)
    FlushBytes = std::max<size_t>(
        2 * Environment.value("l2_bytes", size_t(0)), size_t(256) << 20);
  Environment["l2_flush_bytes"] = FlushBytes;
  T.FlushFloats = static_cast<int64_t>(FlushBytes / 4);
  T.FlushDevice = Device;
  T.restoreFlush();
  for (CudaRuntime::Event *E :
       {&T.CoverStart, &T.Start, &T.EndStream, &T.EndDevice})
    *E = T.Runtime->createEvent();
  // The launch cover: a call's first kernel is launched some tens of
  // microseconds after the flush, more in a slower or busier process. Were
  // the device idle by then, that wait would be timed, and the time would
  // depend on the process rather than on the kernels.
  double FlushMs =
      flushMilliseconds(*T.Runtime, T.Stream, T.Start, T.EndStream, T.Flush);
  if (FlushMs > 0 && CoverMs > FlushMs)
    T.CoverFlushes = static_cast<unsigned>(
        std::min(std::ceil(CoverMs / FlushMs), 1000.0));
  Environment["l2_flush_ms"] = FlushMs;
  Environment["launch_cover_ms"] = CoverMs;
  Environment["launch_cover_flushes"] = T.CoverFlushes;
  return T;
}

CallTimer::Sample CallTimer::call(const py::object &Fn, const py::list &Args,
                                  bool Snapshot) {
  Sample S;
  if (Cuda) {
    // Idle device, then the flush queued ahead of Start, as many times as
    // the launch cover asks: the flushes are outside the timed region, and
    // the GPU is busy with them while the host launches forward, so that
    // launch latency is hidden (one flush: as in triton's do_bench).
    // CoverStart times the cover: escaped work that runs beside it ends
    // before Start, yet slows the flushes.
    restoreFlush(); // when a fresh placement failed after releasing it
    PersistingResets += Runtime->resetPersistingL2(PersistingFloor);
    Runtime->synchronizeDevice();
    Runtime->record(CoverStart, Stream);
    for (unsigned I = 0; I < CoverFlushes; ++I)
      Flush.zero_();
  }
  auto HostStart = SteadyClock::now();
  if (Cuda)
    Runtime->record(Start, Stream);
  S.Out = Fn(*Args);
  if (Cuda)
    Runtime->record(EndStream, Stream);
  auto Returned = SteadyClock::now();
  S.Threads = threadCount();
  if (Snapshot)
    for (const at::Tensor &T : outputTensors(S.Out))
      S.Early.push_back(T.clone()); // on the timing stream, in order
  if (!Cuda) {
    S.Ms = S.SyncedMs = S.HostMs =
        std::chrono::duration<double, std::milli>(Returned - HostStart)
            .count();
    return S;
  }
  if (!Runtime->synchronizeDevice())
    throw std::runtime_error("CUDA error: the device reported an error "
                             "after forward (cudaDeviceSynchronize)");
  Runtime->record(EndDevice, Stream);
  S.Ms = Runtime->elapsedMilliseconds(Start, EndStream);
  S.SyncedMs = Runtime->elapsedMilliseconds(Start, EndDevice);
  S.CoverMs = Runtime->elapsedMilliseconds(CoverStart, Start);
  S.HostMs = secondsSince(HostStart) * 1e3;
  return S;
}

void CallTimer::releaseFlush() { Flush = at::Tensor(); }

void CallTimer::restoreFlush() {
  if (Cuda && !Flush.defined())
    Flush = at::empty({FlushFloats}, at::TensorOptions()
                                         .dtype(at::kFloat)
                                         .device(at::Device(FlushDevice)));
}

uintptr_t CallTimer::flushAddress() const {
  return Cuda && Flush.defined()
             ? reinterpret_cast<uintptr_t>(Flush.data_ptr())
             : 0;
}

Json CallTimer::deviceState() const {
  return Monitor ? Monitor->read() : Json();
}

void CallTimer::settle(double Ms) {
  py::gil_scoped_release Release; // a Python late writer may run meanwhile
  std::this_thread::sleep_for(
      std::chrono::microseconds(static_cast<long>(Ms * 1000)));
  if (Cuda)
    Runtime->synchronizeDevice();
}

} // namespace worker
} // namespace kevin
