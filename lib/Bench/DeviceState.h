//===-- DeviceState.h - clocks, temperature and power of a GPU --*- C++ -*-===//
//
// Private to lib/Bench. What the driver's management library (NVML, opened
// with dlopen: the CPU machines have none) reports of the timing device at
// the end of each timing round: its SM and memory clocks, temperature, power
// draw and the reasons its clocks are held down. Beside each round's median
// this tells a device that changed (clocks, heat) from a kernel whose speed
// depends on where its buffers lie.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_LIB_BENCH_DEVICESTATE_H
#define KEVIN_LIB_BENCH_DEVICESTATE_H

#include "kevin/Support/Record.h"

#include <optional>
#include <string>

namespace kevin {
namespace worker {

class DeviceMonitor {
public:
  /// The monitor of the GPU with PCI bus id BusId; nullopt when NVML, or
  /// that device in it, cannot be found.
  static std::optional<DeviceMonitor> open(const std::string &BusId);

  /// {"sm_mhz", "memory_mhz", "temperature_c", "power_w", "clock_limits"}:
  /// each key only when the driver reported it; clock_limits names the
  /// reasons the clocks are held down ("gpu-idle", "sw-power-cap",
  /// "hw-thermal-slowdown", ...), empty when none.
  Json read() const;

private:
  using Status = int;
  using Handle = void *;
  Handle Device = nullptr;
  Status (*ClockInfo)(Handle, int, unsigned *) = nullptr;
  Status (*Temperature)(Handle, int, unsigned *) = nullptr;
  Status (*PowerUsage)(Handle, unsigned *) = nullptr;
  Status (*ClockLimitReasons)(Handle, unsigned long long *) = nullptr;
};

} // namespace worker
} // namespace kevin

#endif // KEVIN_LIB_BENCH_DEVICESTATE_H
