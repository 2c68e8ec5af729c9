//===-- kevin/Support/Device.h - the device a candidate runs on -*- C++ -*-===//
//
// A device name as every kevin tool accepts it: exactly `cpu`, `cuda` (the
// current CUDA device) or `cuda:N` with N a plain decimal index. Parsing is
// strict, so that `cudafoo` or `cuda:-1` is an error instead of being taken
// for a CUDA device by a prefix test.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_SUPPORT_DEVICE_H
#define KEVIN_SUPPORT_DEVICE_H

#include "kevin/Support/Error.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kevin {

class Device {
public:
  /// The CPU.
  Device() = default;
  static Device cpu() { return Device(); }
  /// A CUDA device; no index is the current one (`cuda`).
  static Device cuda(std::optional<unsigned> Index = std::nullopt) {
    return Device(true, Index);
  }

  /// Parses `cpu`, `cuda` or `cuda:N`; anything else (other case, spaces,
  /// signs, a missing or trailing part) is an InvalidInput error
  /// `invalid device 'TEXT': expected cpu, cuda or cuda:N`.
  static Expected<Device> parse(std::string_view Text);

  bool isCuda() const { return Cuda; }
  bool isCpu() const { return !Cuda; }
  /// N of `cuda:N`; none for `cuda` and `cpu`.
  std::optional<unsigned> index() const { return Index; }
  /// The name parse accepts back: `cpu`, `cuda` or `cuda:N`.
  std::string str() const;

  bool operator==(const Device &Other) const {
    return Cuda == Other.Cuda && Index == Other.Index;
  }
  bool operator!=(const Device &Other) const { return !(*this == Other); }

private:
  Device(bool Cuda, std::optional<unsigned> Index) : Cuda(Cuda), Index(Index) {}
  bool Cuda = false;
  std::optional<unsigned> Index;
};

/// True for `cuda` and `cuda:N`, false for anything else: for device names
/// already validated by Device::parse.
bool isCudaDevice(std::string_view Text);

/// True when no name in Names is a CUDA device (`cpu`, `cpu,cpu`): kevin
/// then checks candidates with the cpu preset by default.
bool onlyCpuDevices(const std::vector<std::string> &Names);

/// Parses a comma-separated list of devices (`cpu`, `cuda:0,cuda:1`). Empty
/// items are skipped, so an empty list gives no device; the first invalid
/// item is the error.
Expected<std::vector<Device>> parseDeviceList(std::string_view Text);

} // namespace kevin

#endif // KEVIN_SUPPORT_DEVICE_H
