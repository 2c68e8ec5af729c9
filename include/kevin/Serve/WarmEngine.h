//===-- kevin/Serve/WarmEngine.h - the evaluation stages, kept warm -*- C++ -*-===//
//
// kevin's stages for a long-lived process (kevin serve, and kevin eval in
// this process): the checker and the reward are the kevin-check and
// kevin-reward tools; building, the correctness run and the timing are
// lib/Exec's judge and lib/Bench's benchmarker called here, with three
// things kept warm between candidates:
//
//  * a zygote (kevin/Exec/Zygote.h) that has imported torch and forks every
//    worker, so no worker pays for Python and torch again;
//  * per task and device, the reference's inputs and outputs for one draw of
//    secret seeds (prepareReference), shared by the next ReferenceReuse
//    candidates, then drawn afresh; the cache is bounded in bytes (least
//    recently used first out);
//  * per device, one benchmarker that times each task's reference once and
//    again after ReferenceReuse candidates or when its timing is older than
//    ReferenceMaxAgeSeconds.
//
// A task's reference is made ahead: once a candidate of the task has passed
// its check, threads of the engine draw the reference's outputs (and, on a
// CUDA device, time it) on the first of Devices while the candidates build,
// instead of when the first candidate reaches a device.
//
// Every candidate still gets a worker process of its own with every
// isolation kevin-run gives it, its own nonce and its own secret positions.
//
//===----------------------------------------------------------------------===//

#ifndef KEVIN_SERVE_WARMENGINE_H
#define KEVIN_SERVE_WARMENGINE_H

#include "kevin/Bench/Benchmark.h"
#include "kevin/Exec/Judge.h"
#include "kevin/Rollout/StageScheduler.h"

#include <atomic>
#include <condition_variable>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace kevin {

class TaskThread;
class Zygote;

/// An eighth of the machine's memory, at least 2 GiB and at most 16 GiB: a
/// batch of four gpu-sized tasks holds 5.3 GB of reference outputs, and
/// under a 2 GiB bound the server kept only three of the four.
size_t defaultReferenceCacheBytes();

struct WarmEngineOptions {
  /// The kevin-<stage> tools (kevin-check) and kevin-worker.
  std::string ToolsDir;
  double StageTimeoutSeconds = 1800;
  /// kevin-check's preset; empty: no check stage (records keep any check
  /// section they carry).
  std::string CheckPreset;
  bool Bench = true;
  /// The judge's and the benchmarker's settings; their Device is set per
  /// stage, their Launcher by the engine.
  JudgeOptions Judge;
  BenchOptions Timing;
  /// Candidates served by one reference draw (and one reference timing).
  size_t ReferenceReuse = 64;
  /// Bytes of reference outputs kept in memory, over every task and device.
  size_t ReferenceCacheBytes = defaultReferenceCacheBytes();
  /// Workers fork from a warm zygote; false: a fresh kevin-worker each.
  bool UseZygote = true;
  /// The scheduler's devices; references are made ahead on the first (on
  /// every one they would take as many times the memory, for candidates
  /// that each run on one); none when empty.
  std::vector<std::string> Devices;

  /// One engine per machine keeps every task's timed reference: a batch of
  /// four gpu-sized tasks holds about 4.3 GiB of input sets, and under
  /// kevin-bench's 4 GiB bound three of the four were timed again at every
  /// request (least recently used, round after round).
  WarmEngineOptions() { Timing.ReferenceDiskBytes = uintmax_t(16) << 30; }
};

/// What the engine holds, for /healthz.
struct EngineHealth {
  bool ZygoteAlive = false;
  unsigned ZygoteRestarts = 0;
  size_t ReferenceEntries = 0;
  /// Reference outputs made since the start, ahead or by candidates.
  size_t ReferencesMade = 0;
  size_t ReferenceBytes = 0;
  size_t ReferenceLimitBytes = 0;
  size_t TimedReferences = 0;
  uintmax_t TimedReferenceDiskLimitBytes = 0;
  /// Tasks' references (per device: outputs, timing or both) made ahead of
  /// their candidates; those that failed there (the candidates then make
  /// theirs); those queued or being made.
  size_t ReferencesAhead = 0;
  size_t ReferencesAheadFailed = 0;
  size_t ReferencesAheadPending = 0;
};

class WarmEngine : public StageRunner {
public:
  /// Starts the zygote (when used). An Error when kevin-worker or a stage
  /// tool is missing or the zygote does not come up.
  static Expected<std::unique_ptr<WarmEngine>> start(WarmEngineOptions Options);
  ~WarmEngine() override;

  /// check (kevin-check), then the candidate built ahead (build, and the
  /// same section as build_ahead).
  Expected<Json> runBuildStages(const Json &Record) const override;
  bool buildPassed(const Json &Record) const override;
  /// run, then bench unless Options.Bench is off.
  size_t deviceStageCount() const override;
  Expected<Json> runDeviceStage(size_t Stage, const std::string &Device,
                                const Json &Record) const override;
  bool devicePassed(size_t Stage, const Json &Record) const override;
  /// reward (kevin-reward).
  Expected<Json> runFinalStages(const Json &Record) const override;

  EngineHealth health() const;
  const WarmEngineOptions &options() const { return Options; }

private:
  explicit WarmEngine(WarmEngineOptions Options);
  /// A zygote, started on ZygoteStarter.
  Expected<std::unique_ptr<Zygote>> startZygote() const;
  /// The zygote's launcher, starting a new zygote when the last one died.
  Expected<LaunchedChild> launch(const SubprocessOptions &Run, int In, int Out,
                                 int Err) const;
  /// launch, for the workers' SubprocessOptions; empty without the zygote.
  ChildLauncher zygoteLauncher() const;
  JudgeOptions judgeOptions(const std::string &Device, bool BuildOnly) const;
  /// The task's reference outputs on Device, made when none may serve
  /// (*Made set then); counted as used by one candidate when Use.
  Expected<std::shared_ptr<const PreparedReference>>
  reference(const std::string &TaskPath, const std::string &Device, bool Use,
            bool *Made = nullptr) const;
  /// Queues the making of the task's reference on the first of
  /// Options.Devices (outputs, and its timing when Timed and the device is
  /// a CUDA device), unless it is queued or being made already.
  void prepareAhead(const std::string &TaskPath, bool Timed) const;
  /// The bytes of the cached reference outputs; with CacheGuard held.
  size_t cachedReferenceBytes() const;
  /// kevin-worker prepare-build-cache: the objects the CUDA builds share,
  /// made in the build cache from the engine's start, so that the first
  /// builds of an empty cache do not wait for them.
  void prepareBuildCache() const;
  /// The thread that makes queued references ahead, until the engine ends;
  /// not when the reference cache is full, nor kept ones that may serve.
  void makeReferencesAhead() const;
  Expected<Json> run(const std::string &Device, const Json &Record) const;
  Expected<Json> bench(const std::string &Device, const Json &Record) const;
  Benchmarker &benchmarker(const std::string &Device) const;

  WarmEngineOptions Options;
  StagePipeline Tools;

  struct CachedReference {
    std::shared_ptr<const PreparedReference> Reference;
    size_t Uses = 0;
    size_t Bytes = 0;
    uint64_t LastUse = 0;
  };
  /// Starts the zygotes: at the engine's own nice value, though the request
  /// threads that find one dead run niced (run), as the zygote forks the
  /// timing workers at its own.
  std::unique_ptr<TaskThread> ZygoteStarter;
  /// Runs prepareBuildCache when a device is a CUDA device; stopped (the
  /// worker killed) and joined when the engine ends.
  std::thread BuildCachePreparer;
  std::atomic<bool> PreparerStopping{false};
  mutable std::mutex ZygoteGuard;
  mutable std::unique_ptr<Zygote> Warm;
  mutable unsigned ZygoteRestarts = 0;
  /// Guards the cache; ReferenceMaking serializes the making of new
  /// references per key (two candidates of one task wait for one).
  mutable std::mutex CacheGuard;
  mutable std::map<std::string, CachedReference> References;
  mutable std::map<std::string, std::shared_ptr<std::mutex>> ReferenceMaking;
  mutable uint64_t UseClock = 0;
  mutable size_t ReferencesMade = 0;
  mutable std::mutex BenchGuard;
  mutable std::map<std::string, std::unique_ptr<Benchmarker>> Benchmarkers;

  /// References to make ahead ({device, task path}), queued or being made;
  /// their threads (at most AheadThreadLimit), started on demand.
  mutable std::mutex AheadGuard;
  mutable std::condition_variable AheadWake;
  mutable std::deque<std::pair<std::pair<std::string, std::string>, bool>>
      AheadQueue;
  mutable std::set<std::pair<std::string, std::string>> AheadPending;
  mutable std::vector<std::thread> AheadThreads;
  mutable size_t AheadIdle = 0;
  mutable size_t AheadMade = 0, AheadFailed = 0;
  /// Set as the engine ends: queued work is dropped, a timing in progress
  /// stops.
  std::atomic<bool> AheadStopping{false};
};

/// The run section of a candidate whose build ahead failed: incorrect at
/// the build stage, with the build's outcome and message.
Json buildFailureRunSection(const Json &Build, const std::string &Device);

} // namespace kevin

#endif // KEVIN_SERVE_WARMENGINE_H
