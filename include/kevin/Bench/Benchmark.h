//===-- kevin/Bench/Benchmark.h - time a candidate against its task -*- C++ -*-===//
//
// The trusted side of kevin-bench. For a task it runs the bench-reference
// worker once (input sets from secret seeds, audit-set reference outputs,
// the reference's timing) and keeps the result for every candidate of the
// task; for each candidate it runs a bench-candidate worker with a secret
// plan (warmup count, audit positions), then turns both sides' samples into
// statistics, a speedup with a confidence interval and flags. The verdict is
// the record's `bench` section (docs/CommandGuide/kevin-bench.md).
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_BENCH_BENCHMARK_H
#define KEVIN_BENCH_BENCHMARK_H

#include "kevin/Exec/Compare.h"
#include "kevin/Exec/Judge.h"
#include "kevin/Support/DeviceLock.h"
#include "kevin/Support/Error.h"
#include "kevin/Support/Record.h"

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

namespace kevin {

/// The launch cover's default, in milliseconds (BenchOptions::CoverMs).
constexpr double DefaultLaunchCoverMs = 1;

struct BenchOptions {
  std::string WorkerPath; ///< The kevin-worker executable.
  std::string Device = "cpu";
  std::string CacheDir;
  /// Where the device locks live (kevin/Support/DeviceLock.h).
  std::string LockDir = defaultLockDir();
  std::string CudaArch;
  /// "eager", or "compile" (torch.compile reference, torch 2.x).
  std::string Baseline = "eager";
  /// The per-run secret; random when unset.
  std::optional<uint64_t> Seed;
  /// Input sets the timed calls rotate through (at most; see PoolMemoryBytes).
  unsigned PoolSize = 4;
  /// The pool shrinks (to no fewer than 2 sets) to stay within this many
  /// bytes of inputs: large gpu-profile inputs are written and read once per
  /// set.
  size_t PoolMemoryBytes = size_t(1) << 30;
  /// Audit calls on unseen input sets, at secret positions.
  unsigned Audits = 2;
  /// Warmup calls; a secret 0-2 more are added.
  unsigned Warmups = 3;
  size_t MinTrials = 10;
  size_t MaxTrials = 1000;
  /// Stop when the median's relative standard error is below this.
  double TargetRse = 0.01;
  /// Seconds of timed calls per side and round at most (after MinTrials).
  double BudgetSeconds = 2;
  /// Each side is timed in up to this many rounds, each in a fresh memory
  /// placement (TimingRounds in kevin/Bench/Statistics.h). 0: the device's
  /// default, 5 on a CUDA device (placement effects are a device's), 1 on
  /// the CPU.
  size_t Rounds = 0;
  double RoundAgreement = 0.01;
  /// "median": rounds until three agree within RoundAgreement or Rounds are
  /// timed, the round with the median median kept; "fastest": rounds until
  /// two agree, the fastest kept.
  std::string RoundKeep = "median";
  /// A task's reference is timed again, with fresh input sets, after this
  /// many candidates (0: never) or once its timing is older than
  /// ReferenceMaxAgeSeconds (0: never): a long-lived benchmarker (kevin
  /// serve) neither reuses one input draw forever nor keeps a timing the
  /// device's clocks have drifted from.
  size_t ReferenceReuseLimit = 0;
  double ReferenceMaxAgeSeconds = 0;
  /// The kept references' directories (their input sets: up to
  /// PoolMemoryBytes and the audits' each) stay within this many bytes on
  /// disk; the least recently used are let go first (the newest is always
  /// kept). A batch over many tasks then does not fill the disk.
  uintmax_t ReferenceDiskBytes = uintmax_t(4) << 30;
  /// Speedups above this are flagged for review.
  double SpeedupBound = 10;
  /// Bytes written to flush L2 before each CUDA call; 0: twice the L2.
  size_t FlushBytes = 0;
  /// The launch cover: the flush is written often enough before each CUDA
  /// call to keep the device busy this long while forward is launched, so
  /// that the host's launch latency (which varies from process to process)
  /// is not timed unless it is longer.
  double CoverMs = DefaultLaunchCoverMs;
  double TimeoutSeconds = 600;
  bool IsolateNetwork = true;
  /// False: candidates stay in kevin's namespaces.
  bool UseNamespaces = true;
  bool KeepTemporaries = false;
  ToleranceTable Tolerances;
  size_t MaxMessageBytes = 2000;
  /// Starts the workers in place of fork and exec (kevin serve's warm
  /// zygote, kevin/Exec/Zygote.h); empty: a fresh kevin-worker each.
  ChildLauncher Launcher;
};

/// The flags of a `bench` section. Rejecting flags make the timing invalid
/// (`ok` false, no speedup); review flags keep the speedup.
namespace bench_flag {
constexpr const char *StreamEscape = "stream-escape";       ///< rejects
constexpr const char *ThreadSpawned = "thread-spawned";     ///< rejects
constexpr const char *LateWrites = "late-writes";           ///< rejects
constexpr const char *AuditMismatch = "audit-mismatch";     ///< rejects
constexpr const char *SpeedupAboveBound = "speedup-above-bound";
constexpr const char *UnseenInputSlower = "unseen-input-slower";
constexpr const char *ClocksDisagree = "clocks-disagree";
constexpr const char *BelowLaunchFloor = "below-launch-floor";
/// The candidate set aside persisting L2; kevin reset it before each call.
constexpr const char *L2Persistence = "l2-persistence";
} // namespace bench_flag

struct BenchVerdict {
  Json Bench; ///< The record's `bench` section.
  /// Timed, and no rejecting flag.
  bool Ok = false;
  /// The task (reference) could not be timed: a tool error.
  bool ReferenceFailed = false;
};

class Benchmarker {
public:
  explicit Benchmarker(BenchOptions Options);
  ~Benchmarker();
  /// Times one candidate. An Error means kevin itself could not do its job.
  /// Several threads may call it at once: the device's lock keeps timing
  /// loops apart, and a task's reference is timed once for all of them.
  Expected<BenchVerdict> bench(const Candidate &C);
  /// Times the task's reference now, before any candidate asks for it,
  /// unless a timing that may still serve is kept; the timing made is kept
  /// unused (it serves ReferenceReuseLimit candidates, like any other).
  /// kevin serve calls it as a request arrives, so that the reference is
  /// timed while the candidates build. True when it timed it, false when
  /// the kept timing may serve. It gives up (an Error) once Abandon() says
  /// so or after MaxDeviceWaitSeconds waiting for the device: the task's
  /// first candidate then times it, and meanwhile this device's timings
  /// wait for it.
  Expected<bool> timeReferenceAhead(const std::string &TaskPath,
                                    double MaxDeviceWaitSeconds,
                                    std::function<bool()> Abandon);
  /// The tasks whose reference timing is kept.
  size_t referencesKept() const;

private:
  struct ReferenceRun;
  /// One candidate's timing, phase by phase (lib/Bench/Benchmark.cpp).
  struct CandidateRun;
  /// The task's reference run, made on first use (Use: counted as used by
  /// one candidate; *Made set when this call made it). The run is stopped
  /// once Abandon() says so (an Error). Its worker sets up off
  /// the device and gets its secrets once MayStart() (the device held
  /// shared); its timing waits until MayTime() (the device held alone); both
  /// are polled every few milliseconds. DeviceWaiting() tells how long they
  /// have waited for the device so far: that time is left out of the
  /// reference's limit.
  std::shared_ptr<ReferenceRun> cachedReference(const std::string &TaskPath,
                                                bool Use);
  /// Lets the least recently used references go until the kept ones fit
  /// in ReferenceDiskBytes; never Newest. With Guard held.
  void boundReferenceDisk(const ReferenceRun *Newest);
  Expected<std::shared_ptr<ReferenceRun>>
  reference(const std::string &TaskPath, bool Use, bool *Made,
            std::function<bool()> MayStart, std::function<bool()> MayTime,
            std::function<double()> DeviceWaiting,
            std::function<bool()> Abandon = nullptr);
  BenchOptions Options;
  uint64_t Secret = 0;
  /// Guards the members below, and a new reference's timing (the threads
  /// that want the same task's wait for it).
  mutable std::mutex Guard;
  unsigned CandidatesTimed = 0;
  unsigned ReferencesMade = 0;
  std::map<std::string, std::shared_ptr<ReferenceRun>> References;
};

} // namespace kevin

#endif // KEVIN_BENCH_BENCHMARK_H
