//===-- EvalBatch.cpp - kevin eval's batch scheduler ---------------------===//
//
// Candidate discovery, and the two worker pools joined by a queue: CPU
// builders ahead, device workers (several per device) after.
//
//===----------------------------------------------------------------------===//
#include "kevin/Rollout/EvalBatch.h"
#include "kevin/Support/Device.h"
#include "kevin/Support/Progress.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>
#include <regex>
#include <set>
#include <thread>

namespace fs = std::filesystem;

namespace kevin {

namespace {

Json candidateRecord(const TaskFile &Task, const std::string &Id) {
  return Json{{"schema_version", RecordSchemaVersion},
              {"id", Id},
              {"task_id", Task.Id},
              {"task_path", Task.Path}};
}

const TaskFile *taskFor(const std::vector<TaskFile> &Tasks,
                        const std::string &RelativeStem, int &Sample) {
  // KernelBench's generation naming.
  static const std::regex KernelBench(
      R"(level_([0-9]+)_problem_([0-9]+)_sample_([0-9]+)_kernel)");
  std::string Name = fs::path(RelativeStem).filename().string();
  std::smatch M;
  if (std::regex_match(Name, M, KernelBench)) {
    Sample = std::stoi(M[3]);
    std::string Prefix = "level" + M[1].str() + "/" + M[2].str() + "_";
    for (const TaskFile &T : Tasks)
      if (T.Id.rfind(Prefix, 0) == 0)
        return &T;
    return nullptr;
  }
  Sample = 0;
  for (const TaskFile &T : Tasks)
    if (T.Id == RelativeStem)
      return &T;
  const TaskFile *ByName = nullptr;
  for (const TaskFile &T : Tasks)
    if (fs::path(T.Id).filename() == Name) {
      if (ByName)
        return nullptr; // ambiguous
      ByName = &T;
    }
  return ByName;
}

} // namespace

Expected<std::vector<Json>> findCandidates(const std::vector<TaskFile> &Tasks,
                                           const std::string &Solutions) {
  std::vector<Json> Candidates;
  std::set<std::string> Ids;
  auto Add = [&](Json Record, const SourceLocation &Where) -> Error {
    std::string Id = Record["id"].get<std::string>();
    if (!Ids.insert(Id).second)
      return Error::at(Where, "two candidates have the id '" + Id + "'");
    Candidates.push_back(std::move(Record));
    return Error::success();
  };
  std::error_code EC;
  if (fs::is_regular_file(Solutions, EC)) {
    std::ifstream In(Solutions);
    RecordReader Reader(In, Solutions);
    Record R;
    int Line = 0;
    while (true) {
      auto More = Reader.next(R);
      if (!More)
        return More.error();
      if (!*More)
        break;
      ++Line;
      if (Error E = checkRequiredFields(R, {{"task_id", JsonKind::String}}))
        return E;
      std::string TaskId = R.Value["task_id"].get<std::string>();
      auto Task = std::find_if(Tasks.begin(), Tasks.end(),
                               [&](const TaskFile &T) { return T.Id == TaskId; });
      if (Task == Tasks.end())
        return Error::at(R.Origin, describeRecord(R) + ": no task '" + TaskId +
                                       "' in the tasks directory");
      if (!R.Value.contains("code") && !R.Value.contains("candidate_path"))
        return Error::at(R.Origin, describeRecord(R) +
                                       ": needs 'code' or 'candidate_path'");
      Json Record = candidateRecord(*Task, TaskId + "#" + std::to_string(Line));
      for (auto &[Key, Value] : R.Value.items())
        Record[Key] = Value;
      if (Error E = Add(std::move(Record), R.Origin))
        return E;
    }
    return Candidates;
  }
  if (!fs::is_directory(Solutions, EC))
    return Error::inFile(Solutions, "not a directory or a JSON Lines file");
  std::vector<fs::path> Files;
  for (auto It = fs::recursive_directory_iterator(Solutions, EC);
       !EC && It != fs::recursive_directory_iterator(); It.increment(EC))
    if (It->is_regular_file() && It->path().extension() == ".py")
      Files.push_back(It->path());
  if (EC)
    return Error::inFile(Solutions, EC.message());
  std::sort(Files.begin(), Files.end());
  for (const fs::path &File : Files) {
    std::string Stem =
        fs::relative(File, Solutions).replace_extension().generic_string();
    int Sample = 0;
    const TaskFile *Task = taskFor(Tasks, Stem, Sample);
    if (!Task)
      return Error::inFile(File.string(),
                           "cannot tell which task this answers: name it "
                           "<task id>.py or level_<L>_problem_<P>_sample_<S>_kernel.py");
    Json Record = candidateRecord(*Task, Task->Id + "#" + std::to_string(Sample));
    Record["sample"] = Sample;
    Record["candidate_path"] = File.string();
    if (Error E = Add(std::move(Record), SourceLocation{File.string(), 0, 0}))
      return E;
  }
  return Candidates;
}

namespace {

std::vector<StageSpec> forDevice(const std::vector<StageSpec> &Stages,
                                 const std::string &Device) {
  std::vector<StageSpec> Out = Stages;
  for (StageSpec &S : Out)
    for (std::string &Arg : S.Args)
      if (Arg == "{device}")
        Arg = Device;
  return Out;
}

bool allPassed(const std::vector<StageSpec> &Stages, const Json &Record) {
  for (const StageSpec &S : Stages)
    if (!StagePipeline::passed(S, Record))
      return false;
  return true;
}

/// The ids of the records already in the results file. A torn last line
/// (an interrupted append) is cut, so new records start on a line of their
/// own.
Expected<std::set<std::string>> readFinishedIds(const std::string &Path) {
  std::set<std::string> Finished;
  std::error_code EC;
  if (!fs::exists(Path, EC))
    return Finished;
  auto Log = readRecordLog(Path);
  if (!Log)
    return Log.error();
  for (const Record &R : Log->Records)
    if (R.Value.contains("id") && R.Value["id"].is_string())
      Finished.insert(R.Value["id"].get<std::string>());
  if (Log->DroppedTail) {
    std::ifstream In(Path, std::ios::binary);
    std::string Text((std::istreambuf_iterator<char>(In)), {});
    size_t Keep = Text.find_last_of('\n');
    fs::resize_file(Path, Keep == std::string::npos ? 0 : Keep + 1, EC);
  }
  return Finished;
}

// Per device, the records past its first stage, waiting for a later one
// (on the device that ran the first): correctness runs go first, timing
// waits until no run is queued or twice its workers' records wait. A
// timing loop holds the device alone; started between runs, its wait
// for them to drain would idle every other worker of the device.
struct DeviceQueue {
  std::vector<std::deque<Json>> Later; ///< Indexed by stage.
  size_t Jobs = 0;                     ///< Its workers.
  size_t Busy = 0;                     ///< Workers inside a stage.
  /// Records in Later.
  size_t waiting() const {
    size_t N = 0;
    for (const std::deque<Json> &Q : Later)
      N += Q.size();
    return N;
  }
};

/// A record a device worker takes on, and the device stage it is due for.
struct DeviceWork {
  Json Record;
  size_t Stage = 0;
};

/// The candidates still to do through the two worker pools: the builders
/// check and build ahead, the device workers take the built records from
/// one queue. Every member below Lock is guarded by it.
class EvalScheduler {
public:
  EvalScheduler(const EvalOptions &O, const StagePipeline &Pipeline,
                std::vector<const Json *> Todo, DurableRecordLog &Log);

  /// Runs every builder and device worker to its end; the first error.
  Error run();
  /// Records finished and appended to the results file.
  int evaluated() const { return Evaluated; }

private:
  void runBuilder(size_t Index);
  void runDeviceWorker(const std::string &Device);
  /// Waits for the next record Queue's worker should take; none when the
  /// evaluation failed or no work can come any more.
  std::optional<DeviceWork> takeDeviceWork(DeviceQueue &Queue);
  /// The final stages, then the record is appended to the results file.
  void finish(const Json &Record);
  void fail(const Error &E);
  /// With Lock held.
  void failLocked(const Error &E);
  /// A thread's unexpected exception (a malformed record from a stage tool)
  /// ends the evaluation with an error, never the process.
  template <typename Body> void guarded(Body Run);

  const EvalOptions &O;
  const StagePipeline &Pipeline;
  std::vector<const Json *> Todo;
  DurableRecordLog &Log;
  Progress Bar;
  /// The build stages at the pool's niceness: it yields the cores to the
  /// device stages' workers.
  std::vector<StageSpec> BuildStages;
  /// Until the first candidate has left the pool, only as many builds run as
  /// the devices take at once: they share the cores and reach the devices
  /// sooner than a full pool's builds, which would all end together.
  size_t FirstWave = 0;
  std::atomic<size_t> Next{0};
  std::atomic<bool> Failed{false};

  std::mutex Lock;
  std::condition_variable Ready;
  Error FirstError;
  int Evaluated = 0;
  std::deque<Json> Built; ///< Checked and built, waiting for a device.
  std::map<std::string, DeviceQueue> Queues;
  size_t BuildersLeft;
  bool PoolOpen = false; ///< A build has ended, or a builder had nothing left.
};

EvalScheduler::EvalScheduler(const EvalOptions &O,
                             const StagePipeline &Pipeline,
                             std::vector<const Json *> TodoRecords,
                             DurableRecordLog &Log)
    : O(O), Pipeline(Pipeline), Todo(std::move(TodoRecords)), Log(Log),
      Bar("eval", Todo.size()), BuildStages(O.BuildStages),
      BuildersLeft(static_cast<size_t>(std::max(1, O.BuildJobs))) {
  if (!O.ShowProgress)
    Bar.finish();
  size_t DeviceSlots = 0;
  for (const std::string &Device : O.Devices) {
    DeviceQueue &Queue = Queues[Device];
    Queue.Jobs = static_cast<size_t>(
        O.DeviceJobs > 0 ? O.DeviceJobs : defaultDeviceJobs(Device));
    Queue.Later.resize(O.DeviceStages.size());
    DeviceSlots += Queue.Jobs;
  }
  FirstWave = std::min(BuildersLeft, std::max<size_t>(1, DeviceSlots));
  for (StageSpec &S : BuildStages)
    S.Niceness = O.BuildNiceness;
}

void EvalScheduler::failLocked(const Error &E) {
  if (!Failed.exchange(true))
    FirstError = E;
  Ready.notify_all();
}

void EvalScheduler::fail(const Error &E) {
  std::lock_guard<std::mutex> Guard(Lock);
  failLocked(E);
}

void EvalScheduler::finish(const Json &Record) {
  auto Final = Pipeline.runStages(O.FinalStages, Record);
  if (!Final)
    return fail(Final.error());
  std::lock_guard<std::mutex> Guard(Lock);
  if (Error E = Log.append(*Final))
    return failLocked(E);
  ++Evaluated;
  Bar.advance(1, Final->value("id", std::string()));
}

template <typename Body> void EvalScheduler::guarded(Body Run) {
  try {
    Run();
  } catch (const std::exception &E) {
    fail(Error::make(std::string("kevin eval: ") + E.what()));
  }
}

void EvalScheduler::runBuilder(size_t Index) {
  if (Index >= FirstWave) {
    std::unique_lock<std::mutex> Guard(Lock);
    Ready.wait(Guard, [&] { return Failed || PoolOpen; });
  }
  for (size_t I = Next++; I < Todo.size() && !Failed; I = Next++) {
    auto Record = Pipeline.runStages(BuildStages, *Todo[I]);
    if (!Record) {
      fail(Record.error());
      break;
    }
    {
      std::lock_guard<std::mutex> Guard(Lock);
      PoolOpen = true;
      Ready.notify_all();
    }
    if (!allPassed(BuildStages, *Record)) {
      finish(*Record); // Nothing for a device to do.
      continue;
    }
    // The device stage rewrites `build` (finding the extension cached):
    // keep the pool's, which has the compile.
    if (Record->contains("build"))
      (*Record)["build_ahead"] = (*Record)["build"];
    std::lock_guard<std::mutex> Guard(Lock);
    Built.push_back(std::move(*Record));
    Ready.notify_one();
  }
  std::lock_guard<std::mutex> Guard(Lock);
  PoolOpen = true;
  --BuildersLeft;
  Ready.notify_all();
}

std::optional<DeviceWork> EvalScheduler::takeDeviceWork(DeviceQueue &Queue) {
  std::unique_lock<std::mutex> Guard(Lock);
  // Idle only while a build or a busy sibling may still bring work.
  Ready.wait(Guard, [&] {
    return Failed || !Built.empty() || Queue.waiting() > 0 ||
           (BuildersLeft == 0 && Queue.Busy == 0);
  });
  if (Failed)
    return std::nullopt;
  DeviceWork Work;
  size_t Waiting = Queue.waiting();
  if (Waiting > 0 && (Built.empty() || Waiting >= 2 * Queue.Jobs)) {
    // The record nearest its end first.
    Work.Stage = Queue.Later.size() - 1;
    while (Queue.Later[Work.Stage].empty())
      --Work.Stage;
    Work.Record = std::move(Queue.Later[Work.Stage].front());
    Queue.Later[Work.Stage].pop_front();
  } else if (!Built.empty()) {
    Work.Record = std::move(Built.front());
    Built.pop_front();
  } else {
    return std::nullopt;
  }
  ++Queue.Busy;
  return Work;
}

void EvalScheduler::runDeviceWorker(const std::string &Device) {
  std::vector<StageSpec> Stages = forDevice(O.DeviceStages, Device);
  DeviceQueue &Queue = Queues.at(Device);
  while (std::optional<DeviceWork> Work = takeDeviceWork(Queue)) {
    size_t Stage = Work->Stage;
    auto Out = Stages.empty() ? Expected<Json>(Work->Record)
                              : Pipeline.runStage(Stages[Stage], Work->Record);
    if (!Out) {
      {
        std::lock_guard<std::mutex> Guard(Lock);
        --Queue.Busy;
      }
      return fail(Out.error());
    }
    bool More = !Stages.empty() && Stage + 1 < Stages.size() &&
                StagePipeline::passed(Stages[Stage], *Out);
    if (!More)
      finish(*Out);
    std::lock_guard<std::mutex> Guard(Lock);
    if (More)
      Queue.Later[Stage + 1].push_back(std::move(*Out));
    --Queue.Busy;
    Ready.notify_all();
  }
}

Error EvalScheduler::run() {
  std::vector<std::thread> Threads;
  for (size_t I = 0; I < static_cast<size_t>(std::max(1, O.BuildJobs)); ++I)
    Threads.emplace_back([this, I] { guarded([&] { runBuilder(I); }); });
  for (const auto &[Device, Queue] : Queues)
    for (size_t J = 0; J < Queue.Jobs; ++J)
      Threads.emplace_back([this, &Device = Device] {
        guarded([&] { runDeviceWorker(Device); });
      });
  for (std::thread &T : Threads)
    T.join();
  Bar.finish();
  if (Failed)
    return FirstError;
  return Error::success();
}

} // namespace

int defaultDeviceJobs(const std::string &Device) {
  return isCudaDevice(Device) ? 4 : 1;
}

Expected<EvalSummary> runEval(const std::vector<Json> &Candidates,
                              const EvalOptions &O,
                              const StagePipeline &Pipeline) {
  auto Finished = readFinishedIds(O.ResultsPath);
  if (!Finished)
    return Finished.error();
  EvalSummary Summary;
  std::vector<const Json *> Todo;
  for (const Json &C : Candidates) {
    if (Finished->count(C["id"].get<std::string>()))
      ++Summary.Skipped;
    else
      Todo.push_back(&C);
  }
  auto Log = DurableRecordLog::open(O.ResultsPath);
  if (!Log)
    return Log.error();

  EvalScheduler Scheduler(O, Pipeline, std::move(Todo), *Log);
  if (Error E = Scheduler.run())
    return E;
  Summary.Evaluated = Scheduler.evaluated();
  return Summary;
}

} // namespace kevin
