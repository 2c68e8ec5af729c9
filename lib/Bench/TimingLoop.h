//===-- TimingLoop.h - the timing loop of both bench workers ----*- C++ -*-===//
//
// Private to lib/Bench. One timing loop serves the trusted reference and the
// untrusted candidate, so both are measured by the identical method:
//
//   warmups (secret count) -> synchronize-overhead calibration on an empty
//   call (CUDA) -> thread census baseline -> timed calls rotating through
//   the input pool until the median is precise enough or the budget ends,
//   with audit calls on unseen input sets at secret positions; then, on a
//   CUDA device, more rounds of timed calls in fresh memory placements
//   until two rounds agree, or a fixed number of them (kevin/Bench/
//   Statistics.h, TimingRounds).
//
// Each call is timed by CallTimer (CallTimer.h). The trusted side
// (lib/Bench/Benchmark.cpp) turns the samples into statistics and flags.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_LIB_BENCH_TIMINGLOOP_H
#define KEVIN_LIB_BENCH_TIMINGLOOP_H

#include "CallTimer.h"
#include "kevin/Bench/Benchmark.h"
#include "kevin/Bench/Statistics.h"

#include <algorithm>
#include <functional>
#include <vector>

namespace kevin {
namespace worker {

/// The timing loop's parameters, read from the secrets on stdin.
struct TimingPlan {
  unsigned Warmups = 3;
  /// Warm up for at least this long too (GPU clocks ramp up under load).
  double WarmupMs = 100;
  StoppingRule Rule;
  /// Positions (in timed calls done so far) at which audit K runs.
  std::vector<size_t> AuditAt;
  size_t FlushBytes = 0; ///< 0: twice the device's L2, at least 256 MiB
  /// Device work queued ahead of each CUDA call (CallTimer::create).
  double CoverMs = DefaultLaunchCoverMs;
  double SettleMs = 2;
  /// Rounds after the first time the model in a fresh placement.
  TimingRounds Rounds;

  static TimingPlan from(const Json &J) {
    TimingPlan P;
    P.Warmups = J.value("warmups", 3u);
    P.WarmupMs = J.value("warmup_ms", 100.0);
    P.Rule.MinTrials = J.value("min_trials", size_t(10));
    P.Rule.MaxTrials = J.value("max_trials", size_t(1000));
    P.Rule.TargetRse = J.value("target_rse", 0.01);
    P.Rule.BudgetSeconds = J.value("budget_seconds", 5.0);
    P.FlushBytes = J.value("flush_bytes", size_t(0));
    P.CoverMs = J.value("cover_ms", DefaultLaunchCoverMs);
    P.SettleMs = J.value("settle_ms", 2.0);
    P.Rounds.MaxRounds = std::max<size_t>(J.value("rounds", size_t(1)), 1);
    P.Rounds.Agreement = J.value("round_agreement", 0.01);
    P.Rounds.KeepMedian = J.value("round_keep", std::string()) == "median";
    if (J.contains("audit_at"))
      for (const Json &A : J["audit_at"])
        P.AuditAt.push_back(A.get<size_t>());
    return P;
  }
};

/// Where audit K's outputs go (the candidate) or nowhere (the reference).
using AuditSink = std::function<void(unsigned, const CallTimer::Sample &)>;

/// The samples of one timing loop, as the trusted side reads them: those of
/// the round kept, and each round's median. The first round times Model on
/// Pool with the audits among its calls; later rounds time copies of both
/// in fresh placements on Device (fresh_placement in the worker prelude).
Json timeModel(CallTimer &Timer, py::module_ &Prelude, const py::object &Model,
               const std::vector<py::list> &Pool,
               const std::vector<py::list> &Audits, const TimingPlan &Plan,
               const AuditSink &OnAudit, const std::string &Device);

} // namespace worker
} // namespace kevin

#endif // KEVIN_LIB_BENCH_TIMINGLOOP_H
