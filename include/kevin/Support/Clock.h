//===-- kevin/Support/Clock.h - measuring elapsed time ----------*- C++ -*-===//
//
// The clock kevin measures durations with (never the wall clock, which can
// jump), and the elapsed seconds that records report.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_SUPPORT_CLOCK_H
#define KEVIN_SUPPORT_CLOCK_H

#include <chrono>

namespace kevin {

using SteadyClock = std::chrono::steady_clock;

/// Seconds from Start until now.
inline double secondsSince(SteadyClock::time_point Start) {
  return std::chrono::duration<double>(SteadyClock::now() - Start).count();
}

} // namespace kevin

#endif // KEVIN_SUPPORT_CLOCK_H
