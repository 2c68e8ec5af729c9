//===-- LaunchGateSwitch.h - turn the candidate's launches off -*- C++ -*-===//
//
// Private to lib/Exec: the kevin-worker side of the launch gate that kevin
// links into every CUDA extension (kevin/Build/LaunchGate.h). The worker
// exports the two variables the gate reads; ghost replay (KEVIN-RT-010)
// turns the skipping on for one forward and reads how many launches the
// gate skipped.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_LIB_EXEC_LAUNCHGATESWITCH_H
#define KEVIN_LIB_EXEC_LAUNCHGATESWITCH_H

#include <cstdint>

namespace kevin {
namespace worker {

/// While on, every launch through a kevin-built extension's gate launches
/// nothing and returns success.
void skipCandidateLaunches(bool On);

/// The launches the gates have skipped in this process so far.
uint64_t skippedCandidateLaunches();

} // namespace worker
} // namespace kevin

#endif // KEVIN_LIB_EXEC_LAUNCHGATESWITCH_H
