//===-- TimingLoop.cpp - the timing loop of both bench workers ------------===//
//
// Warm-up, the calibration of the synchronize and host-clock overheads, the
// thread census baseline, then timed calls and audit calls until the
// stopping rule (kevin/Bench/Statistics.h) ends the round; more rounds in
// fresh placements until the rounds are settled (TimingRounds).
//
//===----------------------------------------------------------------------===//
#include "TimingLoop.h"
#include "kevin/Support/Clock.h"

#include <torch/csrc/autograd/python_variable.h>

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

/// Out's sync_overhead_ms, host_overhead_ms and cover_baseline_ms: on CUDA,
/// the medians over empty calls of what the device-wide synchronize and the
/// host clock add to the stream's events, and of the launch cover's time;
/// 0 on the CPU.
void calibrateOverheads(CallTimer &Timer, py::module_ &Prelude, Json &Out) {
  if (!Timer.cuda()) {
    Out["sync_overhead_ms"] = 0.0;
    Out["host_overhead_ms"] = 0.0;
    Out["cover_baseline_ms"] = 0.0;
    return;
  }
  std::vector<double> Overhead, HostOverhead, Cover;
  py::object Noop = Prelude.attr("noop");
  py::list NoArgs;
  for (int I = 0; I < 21; ++I) {
    CallTimer::Sample S = Timer.call(Noop, NoArgs, false);
    Overhead.push_back(S.SyncedMs - S.Ms);
    HostOverhead.push_back(S.HostMs - S.SyncedMs);
    Cover.push_back(S.CoverMs);
  }
  Out["sync_overhead_ms"] = summarize(Overhead).Median;
  // The host clock also sees the queued flush: calibrated away likewise.
  Out["host_overhead_ms"] = summarize(HostOverhead).Median;
  Out["cover_baseline_ms"] = summarize(Cover).Median;
}

/// What a timing round calls: the model and the input pool, and whatever
/// must stay alive with them (the spacer of a fresh placement).
struct Placement {
  py::object Model;
  std::vector<py::list> Pool;
  py::object KeepAlive;
};

/// The placement for round Round, made from the first round's model and
/// pool (fresh_placement in the worker prelude).
Placement freshPlacement(py::module_ &Prelude, const Placement &First,
                         const std::string &Device, unsigned Round) {
  py::list Pool;
  for (const py::list &Args : First.Pool)
    Pool.append(Args);
  py::tuple Made =
      Prelude.attr("fresh_placement")(First.Model, Pool, Device, Round);
  Placement P;
  P.Model = Made[0];
  for (py::handle Args : Made[1].cast<py::list>())
    P.Pool.push_back(py::reinterpret_borrow<py::list>(Args));
  P.KeepAlive = Made[2];
  return P;
}

/// One round's timed calls, as the three clocks saw them, each call's
/// launch cover, and where the round's memory lay.
struct RoundSamples {
  Json Ms = Json::array(), Synced = Json::array(), Host = Json::array(),
       Cover = Json::array();
  Json Placement = Json::object();
  Json Device; ///< the device's clocks and heat as the round ended
  std::vector<double> Samples;
};

/// The data address of the first plain tensor among Items, which is a
/// tensor or a list or tuple of objects (0: none, or that tensor has no
/// data).
uintptr_t firstTensorAddress(const py::handle &Items) {
  for (py::handle H : itemsOf(Items))
    if (THPVariable_CheckExact(H.ptr())) {
      at::Tensor T = fromPython(H);
      try {
        if (T.has_storage())
          return reinterpret_cast<uintptr_t>(T.data_ptr());
      } catch (const std::exception &) { // a tensor without data (meta)
      }
      return 0;
    }
  return 0;
}

/// Where a round's first timed call read its first input, wrote its first
/// output and flushed L2 (rounds_placement: whether the placements differ).
Json placementOf(const CallTimer &Timer, const py::list &Args,
                 const CallTimer::Sample &S) {
  return {{"input", firstTensorAddress(Args)},
          {"output", firstTensorAddress(S.Out)},
          {"flush", Timer.flushAddress()}};
}

/// What the rounds share: the thread census and the audits (first round).
struct LoopState {
  unsigned MaxThreads = 0;
  size_t NextAudit = 0;
  Json AuditTimes = Json::array(), AuditLate = Json::array();
};

/// Timed calls rotating through P's pool, with the audits due among them,
/// until the stopping rule ends the round.
RoundSamples timeRound(CallTimer &Timer, const Placement &P,
                       const std::vector<py::list> &Audits,
                       const TimingPlan &Plan, const AuditSink &OnAudit,
                       LoopState &State) {
  RoundSamples R;
  size_t Trial = 0;
  double TimedSeconds = 0; // timed calls only: audits write files
  while (true) {
    size_t &NextAudit = State.NextAudit;
    if (NextAudit < Plan.AuditAt.size() && NextAudit < Audits.size() &&
        Plan.AuditAt[NextAudit] <= R.Samples.size()) {
      CallTimer::Sample S = Timer.call(P.Model, Audits[NextAudit], true);
      State.MaxThreads = std::max(State.MaxThreads, S.Threads);
      Timer.settle(Plan.SettleMs);
      State.AuditLate.push_back(!sameContents(S.Early, outputTensors(S.Out)));
      OnAudit(static_cast<unsigned>(NextAudit), S);
      State.AuditTimes.push_back(S.Ms);
      ++NextAudit;
      continue;
    }
    bool AuditsDone =
        NextAudit >= std::min(Plan.AuditAt.size(), Audits.size());
    if (AuditsDone && Plan.Rule.shouldStop(R.Samples, TimedSeconds))
      break;
    auto CallStart = SteadyClock::now();
    const py::list &Args = P.Pool[Trial++ % P.Pool.size()];
    CallTimer::Sample S = Timer.call(P.Model, Args, false);
    TimedSeconds += secondsSince(CallStart);
    if (R.Samples.empty())
      R.Placement = placementOf(Timer, Args, S);
    State.MaxThreads = std::max(State.MaxThreads, S.Threads);
    R.Samples.push_back(S.Ms);
    R.Ms.push_back(S.Ms);
    R.Synced.push_back(S.SyncedMs);
    R.Host.push_back(S.HostMs);
    R.Cover.push_back(S.CoverMs);
    // A loop the budget cannot end (audits pending past MaxTrials) ends here.
    if (R.Samples.size() >= 4 * Plan.Rule.MaxTrials)
      break;
  }
  R.Device = Timer.deviceState();
  return R;
}

} // namespace

Json timeModel(CallTimer &Timer, py::module_ &Prelude, const py::object &Model,
               const std::vector<py::list> &Pool,
               const std::vector<py::list> &Audits, const TimingPlan &Plan,
               const AuditSink &OnAudit, const std::string &Device) {
  Json Out;
  Placement First{Model, Pool, py::none()};
  auto Start = SteadyClock::now();
  unsigned Warmups = warmUp(Timer, First.Model, First.Pool, Plan);
  calibrateOverheads(Timer, Prelude, Out);
  LoopState State;
  unsigned BaselineThreads = settledThreadCount();
  State.MaxThreads = BaselineThreads;
  std::vector<RoundSamples> Rounds;
  std::vector<double> Medians;
  Rounds.push_back(timeRound(Timer, First, Audits, Plan, OnAudit, State));
  Medians.push_back(summarize(Rounds.back().Samples).Median);
  Placement Current; // the latest fresh placement, alive while it is timed
  while (!Plan.Rounds.settled(Medians)) {
    // The last round's copies and the flush are freed first, and the
    // allocator gives their blocks back (fresh_placement), so that the new
    // copies, the flush and the outputs all land elsewhere.
    Current = Placement();
    Timer.releaseFlush();
    try {
      Current = freshPlacement(Prelude, First, Device,
                               static_cast<unsigned>(Rounds.size()));
      Timer.restoreFlush();
    } catch (const std::exception &E) { // e.g. no memory for the copies
      Out["round_error"] = std::string(E.what()).substr(0, 500);
      break;
    }
    warmUp(Timer, Current.Model, Current.Pool, Plan);
    Rounds.push_back(timeRound(Timer, Current, {}, Plan, OnAudit, State));
    Medians.push_back(summarize(Rounds.back().Samples).Median);
  }
  size_t Kept = Plan.Rounds.keep(Medians);
  Out["ms"] = Rounds[Kept].Ms;
  Out["synced_ms"] = Rounds[Kept].Synced;
  Out["host_ms"] = Rounds[Kept].Host;
  Out["cover_ms"] = Rounds[Kept].Cover;
  Out["rounds_ms"] = Medians;
  Out["rounds_placement"] = Json::array();
  Out["rounds_device"] = Json::array();
  for (const RoundSamples &R : Rounds) {
    Out["rounds_placement"].push_back(R.Placement);
    Out["rounds_device"].push_back(R.Device);
  }
  Out["audit_ms"] = State.AuditTimes;
  Out["audit_late_writes"] = State.AuditLate;
  Out["warmups"] = Warmups;
  Out["l2_persistence_resets"] = Timer.persistingResets();
  Out["threads_baseline"] = BaselineThreads;
  Out["threads_max"] = State.MaxThreads;
  Out["seconds"] = secondsSince(Start);
  return Out;
}

} // namespace worker
} // namespace kevin
