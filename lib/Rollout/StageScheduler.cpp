//===-- StageScheduler.cpp - the evaluation's two worker pools -----------===//
//
// CPU builders take submitted records and run the build stages; device
// workers (several per device) take the built records and run the device
// stages; whichever thread ends a record runs the final stages and hands it
// back. The stage tools (ToolStages) are here too.
//
//===----------------------------------------------------------------------===//

#include "kevin/Rollout/StageScheduler.h"
#include "kevin/Support/Device.h"

#include <algorithm>
#include <sched.h>
#include <thread>

namespace kevin {

StageRunner::~StageRunner() = default;

//--- The stage tools ----------------------------------------------------------

ToolStages::ToolStages(const StagePipeline &Pipeline,
                       std::vector<StageSpec> Build,
                       std::vector<StageSpec> Device,
                       std::vector<StageSpec> Final)
    : Pipeline(Pipeline), Build(std::move(Build)), Device(std::move(Device)),
      Final(std::move(Final)) {}

Expected<Json> ToolStages::runBuildStages(const Json &Record) const {
  Expected<Json> Out = Pipeline.runStages(Build, Record);
  // The device stage rewrites `build` (finding the extension cached): keep
  // the pool's, which has the compile.
  if (Out && buildPassed(*Out) && Out->contains("build"))
    (*Out)["build_ahead"] = (*Out)["build"];
  return Out;
}

bool ToolStages::buildPassed(const Json &Record) const {
  return std::all_of(Build.begin(), Build.end(), [&](const StageSpec &S) {
    return StagePipeline::passed(S, Record);
  });
}

Expected<Json> ToolStages::runDeviceStage(size_t Stage,
                                          const std::string &DeviceName,
                                          const Json &Record) const {
  StageSpec Spec = Device[Stage];
  for (std::string &Arg : Spec.Args)
    if (Arg == "{device}")
      Arg = DeviceName;
  return Pipeline.runStage(Spec, Record);
}

bool ToolStages::devicePassed(size_t Stage, const Json &Record) const {
  return StagePipeline::passed(Device[Stage], Record);
}

Expected<Json> ToolStages::runFinalStages(const Json &Record) const {
  return Pipeline.runStages(Final, Record);
}

//--- The scheduler ------------------------------------------------------------

namespace {

/// The cores this process may run on (its affinity, which a container's
/// CPU set narrows), else the machine's.
unsigned usableCores() {
  cpu_set_t Set;
  if (::sched_getaffinity(0, sizeof(Set), &Set) == 0 && CPU_COUNT(&Set) > 0)
    return static_cast<unsigned>(CPU_COUNT(&Set));
  return std::max(1u, std::thread::hardware_concurrency());
}

} // namespace

int defaultBuildJobs() {
  return static_cast<int>(std::max(2u, usableCores() / 2));
}

int defaultDeviceJobs(const std::string &Device) {
  if (!isCudaDevice(Device))
    return 1;
  unsigned Cores = usableCores();
  return static_cast<int>(std::clamp(Cores, 4u, 16u));
}

// Per device, the records past its first stage, waiting for a later one
// (on the device that ran the first): correctness runs go first, timing
// waits until no run is queued or twice its workers' records wait. A
// timing loop holds the device alone; started between runs, its wait for
// them to drain would idle every other worker of the device. Once timing
// starts it has a turn: no new run starts on the device until every record
// waiting for a later stage (those of the runs still in flight included)
// is done, so the runs drain once per turn, not once per timed record.
struct StageScheduler::DeviceQueue {
  std::vector<std::deque<Item>> Later; ///< Indexed by stage.
  size_t Jobs = 0;                     ///< Its workers.
  size_t Busy = 0;                     ///< Workers inside a stage.
  size_t Timing = 0;                   ///< Workers inside a later stage.
  bool TimingTurn = false;
  /// Whether a run may start: not during a timing turn; a turn with
  /// nothing left to time ends here.
  bool mayRun() {
    if (TimingTurn && waiting() == 0 && Timing == 0)
      TimingTurn = false;
    return !TimingTurn;
  }
  size_t waiting() const {
    size_t N = 0;
    for (const std::deque<Item> &Q : Later)
      N += Q.size();
    return N;
  }
};

StageScheduler::StageScheduler(const StageRunner &Runner,
                               SchedulerOptions O)
    : Runner(Runner), Options(std::move(O)) {
  size_t Builders = static_cast<size_t>(std::max(1, Options.BuildJobs));
  size_t DeviceSlots = 0;
  for (const std::string &Device : Options.Devices) {
    auto Queue = std::make_unique<DeviceQueue>();
    Queue->Jobs = static_cast<size_t>(Options.DeviceJobs > 0
                                          ? Options.DeviceJobs
                                          : defaultDeviceJobs(Device));
    Queue->Later.resize(std::max<size_t>(1, Runner.deviceStageCount()));
    DeviceSlots += Queue->Jobs;
    Queues[Device] = std::move(Queue);
  }
  FirstWave = std::min(Builders, std::max<size_t>(1, DeviceSlots));
  for (size_t I = 0; I < Builders; ++I)
    Threads.emplace_back([this, I] { runBuilder(I); });
  for (const auto &[Device, Queue] : Queues)
    for (size_t J = 0; J < Queue->Jobs; ++J)
      Threads.emplace_back([this, &Device = Device] { runDeviceWorker(Device); });
}

StageScheduler::~StageScheduler() { drain(); }

void StageScheduler::submit(Json Record, RecordDone Done) {
  std::lock_guard<std::mutex> Guard(Lock);
  ++Pending;
  Todo.push_back({std::move(Record), std::make_shared<RecordDone>(std::move(Done))});
  Ready.notify_all();
}

void StageScheduler::drain() {
  {
    std::unique_lock<std::mutex> Guard(Lock);
    Closed = true;
    Ready.notify_all();
    AllDone.wait(Guard, [&] { return Pending == 0; });
  }
  for (std::thread &T : Threads)
    if (T.joinable())
      T.join();
}

size_t StageScheduler::pending() const {
  std::lock_guard<std::mutex> Guard(Lock);
  return Pending;
}

size_t StageScheduler::queued() const {
  std::lock_guard<std::mutex> Guard(Lock);
  return Todo.size();
}

void StageScheduler::deliver(Item &Work, Expected<Json> Result) {
  // A thrown exception in the caller's hands must not end a worker thread.
  try {
    (*Work.Done)(std::move(Result));
  } catch (...) {
  }
  std::lock_guard<std::mutex> Guard(Lock);
  if (--Pending == 0)
    AllDone.notify_all();
  Ready.notify_all();
}

void StageScheduler::finish(Item Work) {
  Expected<Json> Final = [&]() -> Expected<Json> {
    try {
      return Runner.runFinalStages(Work.Record);
    } catch (const std::exception &E) {
      return Error::make(std::string("kevin: ") + E.what());
    }
  }();
  deliver(Work, std::move(Final));
}

void StageScheduler::runBuilder(size_t Index) {
  while (true) {
    Item Work;
    {
      std::unique_lock<std::mutex> Guard(Lock);
      Ready.wait(Guard, [&] {
        return (!Todo.empty() && (Index < FirstWave || PoolOpen)) ||
               (Closed && Todo.empty());
      });
      if (Todo.empty())
        return;
      Work = std::move(Todo.front());
      Todo.pop_front();
      ++BuildersBusy;
    }
    Expected<Json> Out = [&]() -> Expected<Json> {
      try {
        return Runner.runBuildStages(Work.Record);
      } catch (const std::exception &E) {
        return Error::make(std::string("kevin: ") + E.what());
      }
    }();
    bool ToDevice = Out && Runner.buildPassed(*Out) && !Queues.empty() &&
                    Runner.deviceStageCount() > 0;
    if (!Out)
      deliver(Work, Out.error());
    else if (!ToDevice)
      finish({std::move(*Out), Work.Done}); // Nothing for a device to do.
    std::lock_guard<std::mutex> Guard(Lock);
    PoolOpen = true;
    --BuildersBusy;
    if (ToDevice)
      Built.push_back({std::move(*Out), Work.Done});
    Ready.notify_all();
  }
}

bool StageScheduler::takeDeviceWork(DeviceQueue &Queue, Item &Work,
                                    size_t &Stage) {
  std::unique_lock<std::mutex> Guard(Lock);
  // Idle only while a build or a busy sibling may still bring work.
  Ready.wait(Guard, [&] {
    return (!Built.empty() && Queue.mayRun()) || Queue.waiting() > 0 ||
           (Closed && Todo.empty() && BuildersBusy == 0 && Queue.Busy == 0);
  });
  size_t Waiting = Queue.waiting();
  bool MayRun = Queue.mayRun();
  if (Waiting > 0 &&
      (!MayRun || Built.empty() || Waiting >= 2 * Queue.Jobs)) {
    // The record nearest its end first.
    Stage = Queue.Later.size() - 1;
    while (Queue.Later[Stage].empty())
      --Stage;
    Work = std::move(Queue.Later[Stage].front());
    Queue.Later[Stage].pop_front();
    Queue.TimingTurn = true;
    ++Queue.Timing;
  } else if (!Built.empty() && MayRun) {
    Stage = 0;
    Work = std::move(Built.front());
    Built.pop_front();
  } else {
    return false;
  }
  ++Queue.Busy;
  return true;
}

void StageScheduler::runDeviceWorker(const std::string &Device) {
  DeviceQueue &Queue = *Queues.at(Device);
  Item Work;
  size_t Stage = 0;
  while (takeDeviceWork(Queue, Work, Stage)) {
    Expected<Json> Out = [&]() -> Expected<Json> {
      try {
        return Runner.runDeviceStage(Stage, Device, Work.Record);
      } catch (const std::exception &E) {
        return Error::make(std::string("kevin: ") + E.what());
      }
    }();
    bool More = Out && Stage + 1 < Runner.deviceStageCount() &&
                Runner.devicePassed(Stage, *Out);
    if (!Out)
      deliver(Work, Out.error());
    else if (!More)
      finish({std::move(*Out), Work.Done});
    std::lock_guard<std::mutex> Guard(Lock);
    if (More)
      Queue.Later[Stage + 1].push_back({std::move(*Out), Work.Done});
    --Queue.Busy;
    if (Stage > 0)
      --Queue.Timing;
    Ready.notify_all();
  }
}

} // namespace kevin
