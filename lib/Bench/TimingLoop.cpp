//===-- TimingLoop.cpp - the timing loop of both bench workers ------------===//
//
// Warm-up, the calibration of the synchronize and host-clock overheads, the
// thread census baseline, then timed calls and audit calls until the
// stopping rule (kevin/Bench/Statistics.h) ends the loop.
//
//===----------------------------------------------------------------------===//
#include "TimingLoop.h"
#include "kevin/Support/Clock.h"

#include <algorithm>
#include <thread>

namespace kevin {
namespace worker {

namespace {

/// The thread count once short-lived threads have ended: the interpreter
/// lock is let go for up to 200 ms while the count keeps falling. Threads
/// that forward started during the warm-up wait for that lock, which the
/// timing loop holds; counted in the census baseline, they would hide a
/// thread started by every timed call.
unsigned settledThreadCount() {
  py::gil_scoped_release Free;
  unsigned Count = threadCount();
  for (int Step = 0; Step < 20; ++Step) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    unsigned Now = threadCount();
    if (Now >= Count)
      break;
    Count = Now;
  }
  return Count;
}

/// Bitwise-equal contents (NaN equal to NaN), compared where they live.
bool sameContents(const std::vector<at::Tensor> &A,
                  const std::vector<at::Tensor> &B) {
  if (A.size() != B.size())
    return false;
  for (size_t I = 0; I < A.size(); ++I) {
    if (A[I].scalar_type() != B[I].scalar_type() ||
        !A[I].sizes().equals(B[I].sizes()))
      return false;
    if (!at::isFloatingType(A[I].scalar_type())) {
      if (!at::equal(A[I], B[I]))
        return false;
      continue;
    }
    at::Tensor Same =
        A[I].eq(B[I]).logical_or(A[I].isnan().logical_and(B[I].isnan()));
    if (!Same.all().item<bool>())
      return false;
  }
  return true;
}

/// Warm-up calls through the pool: Plan.Warmups of them, and more until
/// Plan.WarmupMs have passed. Returns how many were made.
unsigned warmUp(CallTimer &Timer, const py::object &Model,
                const std::vector<py::list> &Pool, const TimingPlan &Plan) {
  unsigned Warmups = 0;
  for (auto WarmStart = SteadyClock::now();
       Warmups < Plan.Warmups || secondsSince(WarmStart) * 1e3 < Plan.WarmupMs;
       ++Warmups)
    Timer.call(Model, Pool[Warmups % Pool.size()], false);
  return Warmups;
}

/// Out's sync_overhead_ms and host_overhead_ms: on CUDA, the medians over
/// empty calls of what the device-wide synchronize and the host clock add to
/// the stream's events; 0 on the CPU.
void calibrateOverheads(CallTimer &Timer, py::module_ &Prelude, Json &Out) {
  if (!Timer.cuda()) {
    Out["sync_overhead_ms"] = 0.0;
    Out["host_overhead_ms"] = 0.0;
    return;
  }
  std::vector<double> Overhead;
  py::object Noop = Prelude.attr("noop");
  std::vector<double> HostOverhead;
  py::list NoArgs;
  for (int I = 0; I < 21; ++I) {
    CallTimer::Sample S = Timer.call(Noop, NoArgs, false);
    Overhead.push_back(S.SyncedMs - S.Ms);
    HostOverhead.push_back(S.HostMs - S.SyncedMs);
  }
  Out["sync_overhead_ms"] = summarize(Overhead).Median;
  // The host clock also sees the queued flush: calibrated away likewise.
  Out["host_overhead_ms"] = summarize(HostOverhead).Median;
}

} // namespace

Json timeModel(CallTimer &Timer, py::module_ &Prelude, const py::object &Model,
               const std::vector<py::list> &Pool,
               const std::vector<py::list> &Audits, const TimingPlan &Plan,
               const AuditSink &OnAudit) {
  Json Out;
  auto Start = SteadyClock::now();
  unsigned Warmups = warmUp(Timer, Model, Pool, Plan);
  calibrateOverheads(Timer, Prelude, Out);
  unsigned BaselineThreads = settledThreadCount(),
           MaxThreads = BaselineThreads;
  Json Ms = Json::array(), Synced = Json::array(), Host = Json::array();
  Json AuditTimes = Json::array(), AuditLate = Json::array();
  std::vector<double> Samples;
  size_t NextAudit = 0, Trial = 0;
  double TimedSeconds = 0; // timed calls only: audits write files
  while (true) {
    if (NextAudit < Plan.AuditAt.size() && NextAudit < Audits.size() &&
        Plan.AuditAt[NextAudit] <= Samples.size()) {
      CallTimer::Sample S = Timer.call(Model, Audits[NextAudit], true);
      MaxThreads = std::max(MaxThreads, S.Threads);
      Timer.settle(Plan.SettleMs);
      AuditLate.push_back(!sameContents(S.Early, outputTensors(S.Out)));
      OnAudit(static_cast<unsigned>(NextAudit), S);
      AuditTimes.push_back(S.Ms);
      ++NextAudit;
      continue;
    }
    bool AuditsDone =
        NextAudit >= std::min(Plan.AuditAt.size(), Audits.size());
    if (AuditsDone && Plan.Rule.shouldStop(Samples, TimedSeconds))
      break;
    auto CallStart = SteadyClock::now();
    CallTimer::Sample S = Timer.call(Model, Pool[Trial++ % Pool.size()], false);
    TimedSeconds += secondsSince(CallStart);
    MaxThreads = std::max(MaxThreads, S.Threads);
    Samples.push_back(S.Ms);
    Ms.push_back(S.Ms);
    Synced.push_back(S.SyncedMs);
    Host.push_back(S.HostMs);
    // A loop the budget cannot end (audits pending past MaxTrials) ends here.
    if (Samples.size() >= 4 * Plan.Rule.MaxTrials)
      break;
  }
  Out["ms"] = Ms;
  Out["synced_ms"] = Synced;
  Out["host_ms"] = Host;
  Out["audit_ms"] = AuditTimes;
  Out["audit_late_writes"] = AuditLate;
  Out["warmups"] = Warmups;
  Out["l2_persistence_resets"] = Timer.persistingResets();
  Out["threads_baseline"] = BaselineThreads;
  Out["threads_max"] = MaxThreads;
  Out["seconds"] = secondsSince(Start);
  return Out;
}

} // namespace worker
} // namespace kevin
