//===-- kevin/Rollout/StageScheduler.h - the evaluation's pools -*- C++ -*-===//
//
// Candidates through check -> build -> run -> bench -> reward on two worker
// pools joined by a queue. Checking and building run on a CPU pool ahead of
// the device stages (a few candidates in flight per device), so devices
// never wait on compiles they could have had done earlier. A device's
// workers take correctness runs before timings (up to a backlog), so timing
// loops, which hold the device alone, seldom wait for runs to drain.
//
// The stages themselves are a StageRunner: kevin's stage tools, each a
// process of its own (ToolStages), or kevin serve's warm engine in this
// process (kevin/Serve/WarmEngine.h). kevin eval submits a batch and drains
// it; kevin serve keeps one scheduler for its whole life.
//
//===----------------------------------------------------------------------===//

#ifndef KEVIN_ROLLOUT_STAGESCHEDULER_H
#define KEVIN_ROLLOUT_STAGESCHEDULER_H

#include "kevin/Rollout/StagePipeline.h"
#include "kevin/Support/Error.h"
#include "kevin/Support/Record.h"

#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace kevin {

/// The stages of an evaluation, however they run. Every method may be called
/// from several threads at once.
class StageRunner {
public:
  virtual ~StageRunner();
  /// Before the device (check, build ahead); the record goes on to the
  /// device when buildPassed says so.
  virtual Expected<Json> runBuildStages(const Json &Record) const = 0;
  virtual bool buildPassed(const Json &Record) const = 0;
  /// The device stages (run, bench), in order.
  virtual size_t deviceStageCount() const = 0;
  virtual Expected<Json> runDeviceStage(size_t Stage, const std::string &Device,
                                        const Json &Record) const = 0;
  /// Whether the record goes on to device stage Stage + 1.
  virtual bool devicePassed(size_t Stage, const Json &Record) const = 0;
  /// After the device or a failed build (reward).
  virtual Expected<Json> runFinalStages(const Json &Record) const = 0;
};

/// The stage tools, each a process of its own, through a StagePipeline:
/// Build, Device ("{device}" in an argument is replaced by the worker's
/// device) and Final stages. A record whose build stages fail skips the
/// device.
class ToolStages : public StageRunner {
public:
  ToolStages(const StagePipeline &Pipeline, std::vector<StageSpec> Build,
             std::vector<StageSpec> Device, std::vector<StageSpec> Final);
  Expected<Json> runBuildStages(const Json &Record) const override;
  bool buildPassed(const Json &Record) const override;
  size_t deviceStageCount() const override { return Device.size(); }
  Expected<Json> runDeviceStage(size_t Stage, const std::string &DeviceName,
                                const Json &Record) const override;
  bool devicePassed(size_t Stage, const Json &Record) const override;
  Expected<Json> runFinalStages(const Json &Record) const override;

private:
  const StagePipeline &Pipeline;
  std::vector<StageSpec> Build, Device, Final;
};

/// Half the cores this process may use (its CPU affinity), at least 2: a
/// candidate's build runs two compiles at once (JudgeOptions::BuildJobs), so
/// the builds in flight keep the cores busy without sharing them, and end
/// one after another, each reaching the devices as soon as it can. Twice as
/// many builds at once would take as long in all, but would end together,
/// the devices idle until then.
int defaultBuildJobs();

struct SchedulerOptions {
  std::vector<std::string> Devices = {"cpu"};
  int BuildJobs = defaultBuildJobs();
  /// Workers per device, each with a candidate in a stage; 0:
  /// defaultDeviceJobs. Up to twice as many more candidates may wait for
  /// their timing.
  int DeviceJobs = 0;
};

/// On a CUDA device, one per core this process may use, from 4 to 16:
/// set-up and correctness runs overlap there, and a run spends seconds off
/// the device (torch's profiler starting, moving tensors), so the H200
/// machine's 16 cores judge 16 at once (docs/EvalThroughput.md measures 8
/// against 16). 1 on the CPU, where every run competes for the cores a
/// timing loop uses.
int defaultDeviceJobs(const std::string &Device);

/// What a submitted record becomes: the finished record, or the Error that
/// kept kevin from finishing it (a stage tool that failed).
using RecordDone = std::function<void(Expected<Json>)>;

class StageScheduler {
public:
  StageScheduler(const StageRunner &Runner, SchedulerOptions Options);
  /// Drains.
  ~StageScheduler();
  StageScheduler(const StageScheduler &) = delete;
  StageScheduler &operator=(const StageScheduler &) = delete;

  /// Queues a record. Done is called once, on a worker thread.
  void submit(Json Record, RecordDone Done);
  /// Takes no more records; returns once every submitted one is done.
  void drain();
  /// Records submitted and not done yet.
  size_t pending() const;
  /// Records not yet taken by a builder.
  size_t queued() const;

private:
  struct Item {
    Json Record;
    std::shared_ptr<RecordDone> Done;
  };
  struct DeviceQueue;

  void runBuilder(size_t Index);
  void runDeviceWorker(const std::string &Device);
  bool takeDeviceWork(DeviceQueue &Queue, Item &Work, size_t &Stage);
  /// The final stages, then the record's Done.
  void finish(Item Work);
  void deliver(Item &Work, Expected<Json> Result);

  const StageRunner &Runner;
  SchedulerOptions Options;
  /// Until the first candidate has left the build pool, only as many builds
  /// run as the devices take at once: they share the cores and reach the
  /// devices sooner than a full pool's builds, which would all end together.
  size_t FirstWave = 0;
  mutable std::mutex Lock;
  std::condition_variable Ready;
  std::condition_variable AllDone;
  std::deque<Item> Todo;  ///< Not yet taken by a builder.
  std::deque<Item> Built; ///< Checked and built, waiting for a device.
  std::map<std::string, std::unique_ptr<DeviceQueue>> Queues;
  size_t Pending = 0;
  size_t BuildersBusy = 0;
  bool PoolOpen = false; ///< A build has ended.
  bool Closed = false;
  std::vector<std::thread> Threads;
};

} // namespace kevin

#endif // KEVIN_ROLLOUT_STAGESCHEDULER_H
