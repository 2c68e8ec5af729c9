//===-- Device.cpp - the device a candidate runs on -----------------------===//
//
// See kevin/Support/Device.h.
//
//===----------------------------------------------------------------------===//
#include "kevin/Support/Device.h"

#include <algorithm>
#include <charconv>

namespace kevin {

static Error invalidDevice(std::string_view Text) {
  return Error::make("invalid device '" + std::string(Text) +
                         "': expected cpu, cuda or cuda:N",
                     ErrorKind::InvalidInput);
}

Expected<Device> Device::parse(std::string_view Text) {
  if (Text == "cpu")
    return Device::cpu();
  if (Text == "cuda")
    return Device::cuda();
  constexpr std::string_view Prefix = "cuda:";
  if (Text.substr(0, Prefix.size()) != Prefix)
    return invalidDevice(Text);
  std::string_view Digits = Text.substr(Prefix.size());
  // Plain decimal digits only: no sign, no space, no hexadecimal.
  if (Digits.empty() ||
      Digits.find_first_not_of("0123456789") != std::string_view::npos)
    return invalidDevice(Text);
  unsigned Index = 0;
  auto [End, Ec] =
      std::from_chars(Digits.data(), Digits.data() + Digits.size(), Index);
  if (Ec != std::errc() || End != Digits.data() + Digits.size())
    return invalidDevice(Text);
  return Device::cuda(Index);
}

std::string Device::str() const {
  if (!Cuda)
    return "cpu";
  return Index ? "cuda:" + std::to_string(*Index) : "cuda";
}

bool isCudaDevice(std::string_view Text) {
  Expected<Device> D = Device::parse(Text);
  return D && D->isCuda();
}

bool onlyCpuDevices(const std::vector<std::string> &Names) {
  return std::none_of(Names.begin(), Names.end(),
                      [](const std::string &N) { return isCudaDevice(N); });
}

Expected<std::vector<Device>> parseDeviceList(std::string_view Text) {
  std::vector<Device> Devices;
  while (!Text.empty()) {
    size_t Comma = Text.find(',');
    std::string_view Item = Text.substr(0, Comma);
    Text = Comma == std::string_view::npos ? std::string_view()
                                           : Text.substr(Comma + 1);
    if (Item.empty())
      continue;
    Expected<Device> D = Device::parse(Item);
    if (!D)
      return D.error();
    Devices.push_back(*D);
  }
  return Devices;
}

} // namespace kevin
