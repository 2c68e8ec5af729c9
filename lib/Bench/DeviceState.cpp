//===-- DeviceState.cpp - clocks, temperature and power of a GPU ----------===//
//
// NVML's entry points by symbol, with the constants of its public header
// (nvml.h) that kevin uses written out here, as the CPU machines lack it.
//
//===----------------------------------------------------------------------===//
#include "DeviceState.h"

#include <dlfcn.h>
#include <utility>

namespace kevin {
namespace worker {

namespace {

/// nvmlClockType_t and nvmlTemperatureSensors_t.
constexpr int ClockSm = 1, ClockMemory = 2, TemperatureGpu = 0;

/// The bits of nvmlDeviceGetCurrentClocksEventReasons, named.
constexpr std::pair<unsigned long long, const char *> ClockLimits[] = {
    {0x1, "gpu-idle"},
    {0x2, "applications-clocks-setting"},
    {0x4, "sw-power-cap"},
    {0x8, "hw-slowdown"},
    {0x10, "sync-boost"},
    {0x20, "sw-thermal-slowdown"},
    {0x40, "hw-thermal-slowdown"},
    {0x80, "hw-power-brake-slowdown"},
    {0x100, "display-clock-setting"}};

} // namespace

std::optional<DeviceMonitor> DeviceMonitor::open(const std::string &BusId) {
  if (BusId.empty())
    return std::nullopt;
  void *Library = ::dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!Library)
    return std::nullopt;
  auto bind = [&](auto &Fn, const char *Name) {
    Fn = reinterpret_cast<std::remove_reference_t<decltype(Fn)>>(
        ::dlsym(Library, Name));
    return Fn != nullptr;
  };
  Status (*Init)() = nullptr;
  Status (*ByBusId)(const char *, Handle *) = nullptr;
  DeviceMonitor M;
  if (!bind(Init, "nvmlInit_v2") ||
      !bind(ByBusId, "nvmlDeviceGetHandleByPciBusId_v2") || Init() != 0 ||
      ByBusId(BusId.c_str(), &M.Device) != 0)
    return std::nullopt;
  bind(M.ClockInfo, "nvmlDeviceGetClockInfo");
  bind(M.Temperature, "nvmlDeviceGetTemperature");
  bind(M.PowerUsage, "nvmlDeviceGetPowerUsage");
  // The newer name first; drivers before 535 have only the older one.
  if (!bind(M.ClockLimitReasons, "nvmlDeviceGetCurrentClocksEventReasons"))
    bind(M.ClockLimitReasons, "nvmlDeviceGetCurrentClocksThrottleReasons");
  return M;
}

Json DeviceMonitor::read() const {
  Json State = Json::object();
  unsigned Value = 0;
  if (ClockInfo && ClockInfo(Device, ClockSm, &Value) == 0)
    State["sm_mhz"] = Value;
  if (ClockInfo && ClockInfo(Device, ClockMemory, &Value) == 0)
    State["memory_mhz"] = Value;
  if (Temperature && Temperature(Device, TemperatureGpu, &Value) == 0)
    State["temperature_c"] = Value;
  if (PowerUsage && PowerUsage(Device, &Value) == 0)
    State["power_w"] = Value / 1000.0;
  unsigned long long Reasons = 0;
  if (ClockLimitReasons && ClockLimitReasons(Device, &Reasons) == 0) {
    Json Names = Json::array();
    for (const auto &[Bit, Name] : ClockLimits)
      if (Reasons & Bit)
        Names.push_back(Name);
    State["clock_limits"] = Names;
  }
  return State;
}

} // namespace worker
} // namespace kevin
