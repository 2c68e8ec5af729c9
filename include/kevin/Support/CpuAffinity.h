//===-- kevin/Support/CpuAffinity.h - the CPU a timing loop runs on -*- C++ -*-===//
//
// A forward that waits for its kernels (torch.cuda.synchronize() inside it)
// is timed up to the host's return: how fast the waiting thread sees the
// kernel end and queues the next event depends on the CPU it runs on. The
// timing workers hold their timing loops on one CPU, chosen the same way in
// every process: the last of the CPUs this process may use that are local
// to the GPU (sysfs's local_cpulist), one further down per device ordinal,
// so that two GPUs' timings do not share one.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_SUPPORT_CPUAFFINITY_H
#define KEVIN_SUPPORT_CPUAFFINITY_H

#include "kevin/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

#include <sched.h>

namespace kevin {

/// The CPUs of a Linux CPU list ("0-3,8,10-11"), ascending, without
/// repeats; an error naming the part it cannot read.
Expected<std::vector<int>> parseCpuList(const std::string &List);

/// The CPUs this process may run on (sched_getaffinity), ascending.
std::vector<int> allowedCpus();

/// The CPUs sysfs lists as local to the PCI device BusId ("0000:1B:00.0",
/// any case, a domain of up to 8 digits); empty when it has no such list.
std::vector<int> pciLocalCpus(const std::string &BusId);

/// The timing CPU among Allowed: the last of those also in Local (all of
/// Allowed when none is), Ordinal places further down, wrapping; nullopt
/// when Allowed is empty.
std::optional<int> pickTimingCpu(const std::vector<int> &Allowed,
                                 const std::vector<int> &Local,
                                 unsigned Ordinal);

/// The timing CPU of a choice: "none" gives none, a number that CPU,
/// "auto" pickTimingCpu of this process's CPUs and the device's local ones.
/// An error for anything else.
Expected<std::optional<int>> timingCpuOf(const std::string &Choice,
                                         const std::string &BusId,
                                         unsigned Ordinal);

/// Holds the calling thread on one CPU while it lives, then gives the
/// thread back the CPUs it had.
class PinnedThread {
public:
  /// The thread on Cpu; nothing is held (pinned() false) when Cpu is none
  /// or the system refuses it (a CPU this process may not use).
  explicit PinnedThread(std::optional<int> Cpu);
  ~PinnedThread();
  PinnedThread(const PinnedThread &) = delete;
  PinnedThread &operator=(const PinnedThread &) = delete;

  bool pinned() const { return Pinned; }

private:
  cpu_set_t Before;
  bool Pinned = false;
};

} // namespace kevin

#endif // KEVIN_SUPPORT_CPUAFFINITY_H
