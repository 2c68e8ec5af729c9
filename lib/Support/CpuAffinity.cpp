//===-- CpuAffinity.cpp - the CPU a timing loop runs on -------------------===//
//
// CPU lists as Linux writes them, the process's CPUs, the CPUs local to a PCI
// device, and the choice and hold of the timing CPU (kevin/Support/
// CpuAffinity.h).
//
//===----------------------------------------------------------------------===//
#include "kevin/Support/CpuAffinity.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <pthread.h>
#include <set>

namespace kevin {

namespace {

/// A CPU number of a list: digits only, below CPU_SETSIZE.
std::optional<int> cpuNumber(const std::string &Text) {
  if (Text.empty() || Text.size() > 6 ||
      !std::all_of(Text.begin(), Text.end(),
                   [](unsigned char C) { return std::isdigit(C); }))
    return std::nullopt;
  int N = std::stoi(Text);
  if (N >= CPU_SETSIZE)
    return std::nullopt;
  return N;
}

} // namespace

Expected<std::vector<int>> parseCpuList(const std::string &List) {
  std::set<int> Cpus;
  std::string Text = List;
  while (!Text.empty() && std::isspace(static_cast<unsigned char>(Text.back())))
    Text.pop_back();
  size_t Pos = 0;
  while (Pos < Text.size()) {
    size_t Comma = Text.find(',', Pos);
    std::string Part = Text.substr(
        Pos, Comma == std::string::npos ? std::string::npos : Comma - Pos);
    size_t Dash = Part.find('-');
    std::optional<int> First = cpuNumber(Part.substr(0, Dash));
    std::optional<int> Last =
        Dash == std::string::npos ? First : cpuNumber(Part.substr(Dash + 1));
    if (!First || !Last || *Last < *First)
      return Error::make("cannot read the CPU list '" + List + "' at '" +
                         Part + "'");
    for (int Cpu = *First; Cpu <= *Last; ++Cpu)
      Cpus.insert(Cpu);
    if (Comma == std::string::npos)
      break;
    Pos = Comma + 1;
  }
  return std::vector<int>(Cpus.begin(), Cpus.end());
}

std::vector<int> allowedCpus() {
  cpu_set_t Set;
  CPU_ZERO(&Set);
  std::vector<int> Cpus;
  if (sched_getaffinity(0, sizeof(Set), &Set) != 0)
    return Cpus;
  for (int Cpu = 0; Cpu < CPU_SETSIZE; ++Cpu)
    if (CPU_ISSET(Cpu, &Set))
      Cpus.push_back(Cpu);
  return Cpus;
}

std::vector<int> pciLocalCpus(const std::string &BusId) {
  // CUDA writes "0000:1B:00.0", NVML "00000000:1B:00.0"; sysfs names the
  // device with a four-digit domain in lower case.
  std::string Id = BusId;
  std::transform(Id.begin(), Id.end(), Id.begin(),
                 [](unsigned char C) { return std::tolower(C); });
  size_t Colon = Id.find(':');
  if (Colon == std::string::npos || Id.find('/') != std::string::npos)
    return {};
  if (Colon > 4)
    Id = Id.substr(Colon - 4);
  std::ifstream In("/sys/bus/pci/devices/" + Id + "/local_cpulist");
  std::string Line;
  if (!std::getline(In, Line))
    return {};
  Expected<std::vector<int>> Cpus = parseCpuList(Line);
  return Cpus ? *Cpus : std::vector<int>();
}

std::optional<int> pickTimingCpu(const std::vector<int> &Allowed,
                                 const std::vector<int> &Local,
                                 unsigned Ordinal) {
  std::vector<int> Choices;
  for (int Cpu : Allowed)
    if (std::find(Local.begin(), Local.end(), Cpu) != Local.end())
      Choices.push_back(Cpu);
  if (Choices.empty())
    Choices = Allowed;
  if (Choices.empty())
    return std::nullopt;
  return Choices[Choices.size() - 1 - Ordinal % Choices.size()];
}

Expected<std::optional<int>> timingCpuOf(const std::string &Choice,
                                         const std::string &BusId,
                                         unsigned Ordinal) {
  if (Choice == "none")
    return std::optional<int>();
  if (Choice == "auto")
    return pickTimingCpu(allowedCpus(), pciLocalCpus(BusId), Ordinal);
  if (std::optional<int> Cpu = cpuNumber(Choice))
    return std::optional<int>(*Cpu);
  return Error::make("the timing CPU is 'auto', 'none' or a CPU number, not '" +
                     Choice + "'");
}

PinnedThread::PinnedThread(std::optional<int> Cpu) {
  CPU_ZERO(&Before);
  if (!Cpu ||
      pthread_getaffinity_np(pthread_self(), sizeof(Before), &Before) != 0)
    return;
  cpu_set_t One;
  CPU_ZERO(&One);
  CPU_SET(*Cpu, &One);
  Pinned = pthread_setaffinity_np(pthread_self(), sizeof(One), &One) == 0;
}

PinnedThread::~PinnedThread() {
  if (Pinned)
    pthread_setaffinity_np(pthread_self(), sizeof(Before), &Before);
}

} // namespace kevin
