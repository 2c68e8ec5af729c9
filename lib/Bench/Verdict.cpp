//===-- Verdict.cpp - judge a timed candidate -----------------------------===//
//
// The candidate's worker ended: its result is classified, then its samples
// are cross-checked (the synchronized clock against the stream events, the
// thread census, the audit outputs against the reference and against their
// own copies taken right after forward returned) and turned, with the
// reference's, into statistics, a speedup and flags: the `bench` section.
//
//===----------------------------------------------------------------------===//
#include "BenchmarkRuns.h"
#include "kevin/Bench/Statistics.h"
#include "kevin/Exec/Protocol.h"

#include <algorithm>
#include <cstdio>

namespace kevin {

namespace {

/// The numbers of the array Timing[Key]; empty when the field is missing or
/// not an array (the candidate's worker wrote it: it may be malformed).
std::vector<double> numbers(const Json &Timing, const char *Key) {
  std::vector<double> Out;
  if (Timing.is_object() && Timing.contains(Key) && Timing[Key].is_array())
    for (const Json &V : Timing[Key])
      if (V.is_number())
        Out.push_back(V.get<double>());
  return Out;
}

double median(std::vector<double> V) {
  return V.empty() ? 0.0 : summarize(std::move(V)).Median;
}

/// One side's samples as timed, after the escape check.
struct SideTiming {
  std::vector<double> Ms; ///< the per-call times used (milliseconds)
  TimingSummary Summary;
  bool Escaped = false;
  bool ClocksDisagree = false;
  double CoverExcessMs = 0; ///< median time the launch cover ran long
};

/// Applies the escape check (checkEscape) to a worker's samples, and
/// compares the host clock with the synchronized events.
SideTiming readTiming(const Json &Timing, bool Cuda) {
  SideTiming S;
  std::vector<double> Ms = numbers(Timing, "ms");
  S.Ms = Ms;
  if (Cuda) {
    std::vector<double> Synced = numbers(Timing, "synced_ms");
    EscapeCheck C =
        checkEscape(Ms, Synced, numbers(Timing, "cover_ms"),
                    Timing.value("sync_overhead_ms", 0.0),
                    Timing.value("cover_baseline_ms", 0.0));
    S.Ms = C.Ms;
    S.Escaped = C.Escaped;
    S.CoverExcessMs = C.CoverExcessMs;
    // The host clock spans the queued flush, forward and the synchronize;
    // less its calibrated share it should match the synchronized events.
    S.ClocksDisagree = medianExcessExceeds(
        Synced, numbers(Timing, "host_ms"),
        Timing.value("host_overhead_ms", 0.0), 0.5, 0.05);
  }
  S.Summary = summarize(S.Ms);
  return S;
}

Json summaryJson(const TimingSummary &S) {
  return Json{{"median_ms", S.Median},
              {"mean_ms", S.Mean},
              {"std_ms", S.Std},
              {"min_ms", S.Min},
              {"max_ms", S.Max},
              {"trials", S.Trials},
              {"rse", S.MedianRelativeStandardError}};
}

/// The flags of a verdict, and why its rejecting ones were raised.
struct VerdictFlags {
  Json Flags = Json::array();
  std::vector<std::string> Rejections;
  /// Each flag once (audits can repeat one); every reason is kept.
  void reject(const char *Flag, const std::string &Why) {
    if (std::find(Flags.begin(), Flags.end(), Flag) == Flags.end())
      Flags.push_back(Flag);
    Rejections.push_back(Why);
  }
};

/// Audit K's entry: its outputs as forward returned them (copied on the
/// timing stream into WorkDir) against the reference's Want, and whether
/// they changed after forward returned (LateList: the worker's
/// audit_late_writes).
Json checkAudit(unsigned K, const std::vector<at::Tensor> &Want,
                const Json *LateList, const std::vector<double> &AuditMs,
                const std::string &WorkDir, const ToleranceTable &Tolerances,
                bool Degenerate, VerdictFlags &Flags) {
  Json Entry{{"audit", K}};
  // The outputs as forward returned them, copied on the timing stream.
  Expected<std::vector<at::Tensor>> Early = readTensorFile(
      protocol::auditFile(WorkDir, K, "outputs"), outputReadLimit(Want));
  if (!Early || !LateList || !LateList->is_array() ||
      K >= LateList->size() || !(*LateList)[K].is_boolean()) {
    Flags.reject(bench_flag::AuditMismatch,
                 "audit " + std::to_string(K) + " left no outputs");
    Entry["ok"] = false;
    return Entry;
  }
  bool Late = (*LateList)[K].get<bool>();
  if (Late)
    Flags.reject(bench_flag::LateWrites,
                 "outputs changed after forward returned (audit " +
                     std::to_string(K) + ")");
  std::string Problem;
  if (Early->size() != Want.size()) {
    Problem = "forward returned " + std::to_string(Early->size()) +
              " tensors, expected " + std::to_string(Want.size());
  } else {
    TrialComparison TC = compareTrial(Want, *Early, Tolerances, Degenerate);
    Entry["max_abs_error"] = TC.MaxAbsError;
    if (TC.Result != Outcome::Ok)
      Problem = TC.Message;
  }
  if (!Problem.empty())
    Flags.reject(bench_flag::AuditMismatch,
                 "a timed-path call on unseen inputs was wrong (audit " +
                     std::to_string(K) + "): " + Problem);
  Entry["ok"] = Problem.empty() && !Late;
  if (K < AuditMs.size())
    Entry["ms"] = AuditMs[K];
  return Entry;
}

/// What the candidate's worker says of its sandbox (as in kevin-run's
/// record).
void addIsolation(Json &B, const WorkerVerdict &W) {
  if (!W.HaveResult)
    return;
  for (const char *Field :
       {"network_isolated", "reference_hidden", "processes_isolated"})
    B[Field] = W.Result.contains(Field) && W.Result[Field].is_boolean() &&
               W.Result[Field].get<bool>();
}

} // namespace

void Benchmarker::CandidateRun::referenceFailed(const std::string &Message) {
  V.ReferenceFailed = true;
  V.Bench["outcome"] = outcomeName(Outcome::ReferenceError);
  V.Bench["message"] = truncated(Message, Options.MaxMessageBytes);
}

Json Benchmarker::CandidateRun::seconds(const ReferenceRun &Ref,
                                        double CandidateSeconds) const {
  return Json{{"device_wait", Device->waitedSeconds()},
              {"device_alone", Device->heldAloneSeconds()},
              {"reference", Ref.Seconds},
              {"prepare", PreparedSeconds},
              {"candidate", CandidateSeconds},
              {"total", secondsSince(Start)}};
}

void Benchmarker::CandidateRun::judge(ReferenceRun &Ref,
                                      const SubprocessResult &Proc) {
  Json &B = V.Bench;
  // The candidate's own time, from its plan on.
  double CandidateSeconds = secondsSince(Handoff->sentAt().value_or(Start));
  SubprocessResult Ended = Proc;
  Ended.WallSeconds = CandidateSeconds;
  WorkerVerdict W = classifyWorker(Ended, WorkDir, Nonce,
                                   Options.TimeoutSeconds,
                                   Options.MaxMessageBytes);
  if (W.Result_ != Outcome::Ok) {
    B["outcome"] = outcomeName(W.Result_);
    B["message"] = truncated(W.Message, Options.MaxMessageBytes);
    addIsolation(B, W);
    B["seconds"] = seconds(Ref, CandidateSeconds);
    return;
  }
  // The worker's result came from the candidate's process: malformed
  // fields make the timing invalid, never the tool fail.
  try {
    judgeTiming(Ref, W, CandidateSeconds);
  } catch (const Json::exception &E) {
    V.Ok = false;
    B["ok"] = false;
    B["outcome"] = outcomeName(Outcome::InvalidResult);
    B["message"] = std::string("the worker's timing is malformed: ") + E.what();
  }
}

void Benchmarker::CandidateRun::judgeTiming(ReferenceRun &Ref,
                                            WorkerVerdict &W,
                                            double CandidateSeconds) {
  Json &B = V.Bench;
  const Json &Timing = W.Result["timing"];
  const Json &RefTiming = Ref.Report["timing"];
  SideTiming Cand = readTiming(Timing, Cuda);
  SideTiming Base = readTiming(RefTiming, Cuda);
  VerdictFlags Flags;
  if (Cand.Escaped)
    Flags.reject(bench_flag::StreamEscape,
                 "work escaped the timing stream: the device-wide synchronize "
                 "saw clearly more time than the stream's events");
  unsigned Baseline = Timing.value("threads_baseline", 0u);
  unsigned MaxThreads = Timing.value("threads_max", 0u);
  if (MaxThreads > Baseline)
    Flags.reject(bench_flag::ThreadSpawned,
                 "forward started threads (" + std::to_string(Baseline) +
                     " -> " + std::to_string(MaxThreads) + " in the process)");

  // Audits: unseen inputs, checked against the reference and against
  // the copies taken as forward returned.
  Json Audits = Json::array();
  bool Degenerate =
      trivialOutputWouldPass(Ref.AuditOutputs, Options.Tolerances);
  std::vector<double> AuditMs = numbers(Timing, "audit_ms");
  const Json *LateList = findField(Timing, "audit_late_writes");
  for (unsigned K = 0; K < Ref.AuditOutputs.size(); ++K)
    Audits.push_back(checkAudit(K, Ref.AuditOutputs[K], LateList, AuditMs,
                                WorkDir, Options.Tolerances, Degenerate,
                                Flags));
  if (Cand.Summary.Trials == 0 || Base.Summary.Trials == 0 ||
      !(Cand.Summary.Median > 0) || !(Base.Summary.Median > 0)) {
    B["outcome"] = outcomeName(Outcome::InvalidResult);
    B["message"] = "the timing loop reported no usable samples";
    B["seconds"] = seconds(Ref, CandidateSeconds);
    return;
  }
  SpeedupEstimate Speedup = estimateSpeedup(Base.Ms, Cand.Ms);
  double AuditMedian = median(AuditMs);
  if (AuditMedian > 3 * Cand.Summary.Median + 0.05)
    Flags.Flags.push_back(bench_flag::UnseenInputSlower);
  if (Cand.ClocksDisagree)
    Flags.Flags.push_back(bench_flag::ClocksDisagree);
  if (Cuda && Cand.Summary.Median < 0.002)
    Flags.Flags.push_back(bench_flag::BelowLaunchFloor);
  if (Speedup.Speedup > Options.SpeedupBound)
    Flags.Flags.push_back(bench_flag::SpeedupAboveBound);
  if (Timing.value("l2_persistence_resets", 0u) > 0)
    Flags.Flags.push_back(bench_flag::L2Persistence);

  V.Ok = Flags.Rejections.empty();
  B["ok"] = V.Ok;
  B["outcome"] = V.Ok ? "ok" : "rejected";
  char Buffer[200];
  std::snprintf(Buffer, sizeof(Buffer),
                "%.3f ms vs reference %.3f ms: %.2fx [%.2fx, %.2fx]",
                Cand.Summary.Median, Base.Summary.Median, Speedup.Speedup,
                Speedup.Low, Speedup.High);
  std::string Message = Buffer;
  for (const std::string &Why : Flags.Rejections)
    Message += "; " + Why;
  B["message"] = truncated(Message, Options.MaxMessageBytes);
  B["measured_speedup"] = Speedup.Speedup;
  if (V.Ok) {
    B["speedup"] = Speedup.Speedup;
    B["speedup_ci"] = Json::array({Speedup.Low, Speedup.High});
  }
  B["candidate"] = summaryJson(Cand.Summary);
  B["candidate"]["rounds_ms"] = numbers(Timing, "rounds_ms");
  B["candidate"]["rounds_placement"] =
      Timing.value("rounds_placement", Json::array());
  B["candidate"]["rounds_device"] =
      Timing.value("rounds_device", Json::array());
  B["reference"] = summaryJson(Base.Summary);
  B["reference"]["rounds_ms"] = numbers(RefTiming, "rounds_ms");
  B["reference"]["rounds_placement"] =
      RefTiming.value("rounds_placement", Json::array());
  B["reference"]["rounds_device"] =
      RefTiming.value("rounds_device", Json::array());
  B["reference"]["uses"] = ReferenceUses;
  B["flags"] = Flags.Flags;
  B["warmups"] = Timing.value("warmups", 0u);
  B["pool_size"] = Ref.Report.value("pool", Options.PoolSize);
  B["audits"] = Audits;
  B["sync_overhead_ms"] = Timing.value("sync_overhead_ms", 0.0);
  B["cover_excess_ms"] = Cand.CoverExcessMs;
  Json Env = Ref.Report.value("environment", Json::object());
  for (auto It = B["environment"].begin(); It != B["environment"].end(); ++It)
    Env[It.key()] = It.value();
  B["environment"] = Env;
  addIsolation(B, W);
  B["seconds"] = seconds(Ref, CandidateSeconds);
  // Where the candidate's hold of the device went, as its worker tells it
  // (informational: its process reported it): importing and making ModelNew,
  // then the timing loop; the rest of device_alone is the worker's exit.
  const Json &Worker = W.Result.value("seconds", Json::object());
  if (Worker.is_object() && Worker.value("load", Json()).is_number())
    B["seconds"]["worker_load"] = Worker["load"];
  if (Timing.value("seconds", Json()).is_number())
    B["seconds"]["worker_timing"] = Timing["seconds"];
}

} // namespace kevin
