//===-- Eval.cpp - evaluate many candidates ------------------------------===//
//
// Candidate discovery, and the two worker pools joined by a queue: CPU
// builders ahead, device workers (several per device) after.
//
//===----------------------------------------------------------------------===//
#include "kevin/Rollout/Eval.h"
#include "kevin/Support/Progress.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
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
    if (!PipelineEvaluator::passed(S, Record))
      return false;
  return true;
}

} // namespace

int defaultDeviceJobs(const std::string &Device) {
  return Device.rfind("cuda", 0) == 0 ? 4 : 1;
}

Expected<EvalSummary> runEval(const std::vector<Json> &Candidates,
                              const EvalOptions &O,
                              const PipelineEvaluator &Evaluator) {
  EvalSummary Summary;
  std::set<std::string> Finished;
  std::error_code EC;
  if (fs::exists(O.ResultsPath, EC)) {
    auto Log = readRecordLog(O.ResultsPath);
    if (!Log)
      return Log.error();
    for (const Record &R : Log->Records)
      if (R.Value.contains("id") && R.Value["id"].is_string())
        Finished.insert(R.Value["id"].get<std::string>());
    if (Log->DroppedTail) {
      std::ifstream In(O.ResultsPath, std::ios::binary);
      std::string Text((std::istreambuf_iterator<char>(In)), {});
      size_t Keep = Text.find_last_of('\n');
      fs::resize_file(O.ResultsPath, Keep == std::string::npos ? 0 : Keep + 1, EC);
    }
  }
  std::vector<const Json *> Todo;
  for (const Json &C : Candidates) {
    if (Finished.count(C["id"].get<std::string>()))
      ++Summary.Skipped;
    else
      Todo.push_back(&C);
  }
  auto Log = DurableRecordLog::open(O.ResultsPath);
  if (!Log)
    return Log.error();

  Progress Bar("eval", Todo.size());
  if (!O.ShowProgress)
    Bar.finish();
  std::mutex Lock;
  std::condition_variable Ready;
  std::deque<Json> Built; // Checked and built, waiting for a device.
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
  std::map<std::string, DeviceQueue> Queues;
  size_t BuildersLeft = static_cast<size_t>(std::max(1, O.BuildJobs));
  // Until the first candidate has left the pool, only as many builds run as
  // the devices take at once: they share the cores and reach the devices
  // sooner than a full pool's builds, which would all end together.
  size_t DeviceSlots = 0;
  for (const std::string &Device : O.Devices) {
    DeviceQueue &Queue = Queues[Device];
    Queue.Jobs = static_cast<size_t>(
        O.DeviceJobs > 0 ? O.DeviceJobs : defaultDeviceJobs(Device));
    Queue.Later.resize(O.DeviceStages.size());
    DeviceSlots += Queue.Jobs;
  }
  size_t FirstWave = std::min(BuildersLeft, std::max<size_t>(1, DeviceSlots));
  bool PoolOpen = false; // A build has ended, or a builder had nothing left.
  // The pool yields the cores to the device stages' workers.
  std::vector<StageSpec> BuildStages = O.BuildStages;
  for (StageSpec &S : BuildStages)
    S.Niceness = O.BuildNiceness;
  std::atomic<size_t> Next{0};
  std::atomic<bool> Failed{false};
  Error FirstError;
  // With Lock held.
  auto FailLocked = [&](const Error &E) {
    if (!Failed.exchange(true))
      FirstError = E;
    Ready.notify_all();
  };
  auto Fail = [&](const Error &E) {
    std::lock_guard<std::mutex> Guard(Lock);
    FailLocked(E);
  };
  auto Finish = [&](const Json &Record) {
    auto Final = Evaluator.runStages(O.FinalStages, Record);
    if (!Final)
      return Fail(Final.error());
    std::lock_guard<std::mutex> Guard(Lock);
    if (Error E = Log->append(*Final))
      return FailLocked(E);
    ++Summary.Evaluated;
    Bar.advance(1, Final->value("id", std::string()));
  };
  // A thread's unexpected exception (a malformed record from a stage tool)
  // ends the evaluation with an error, never the process.
  auto Guarded = [&](auto Body) {
    return [&, Body](auto... Args) {
      try {
        Body(Args...);
      } catch (const std::exception &E) {
        Fail(Error::make(std::string("kevin eval: ") + E.what()));
      }
    };
  };

  auto Builder = [&](size_t Index) {
    if (Index >= FirstWave) {
      std::unique_lock<std::mutex> Guard(Lock);
      Ready.wait(Guard, [&] { return Failed || PoolOpen; });
    }
    for (size_t I = Next++; I < Todo.size() && !Failed; I = Next++) {
      auto Record = Evaluator.runStages(BuildStages, *Todo[I]);
      if (!Record) {
        Fail(Record.error());
        break;
      }
      {
        std::lock_guard<std::mutex> Guard(Lock);
        PoolOpen = true;
        Ready.notify_all();
      }
      if (!allPassed(BuildStages, *Record)) {
        Finish(*Record); // Nothing for a device to do.
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
  };
  auto DeviceWorker = [&](const std::string &Device) {
    std::vector<StageSpec> Stages = forDevice(O.DeviceStages, Device);
    DeviceQueue &Queue = Queues.at(Device);
    while (true) {
      Json Record;
      size_t Stage = 0;
      {
        std::unique_lock<std::mutex> Guard(Lock);
        // Idle only while a build or a busy sibling may still bring work.
        Ready.wait(Guard, [&] {
          return Failed || !Built.empty() || Queue.waiting() > 0 ||
                 (BuildersLeft == 0 && Queue.Busy == 0);
        });
        if (Failed)
          return;
        size_t Waiting = Queue.waiting();
        if (Waiting > 0 && (Built.empty() || Waiting >= 2 * Queue.Jobs)) {
          // The record nearest its end first.
          Stage = Queue.Later.size() - 1;
          while (Queue.Later[Stage].empty())
            --Stage;
          Record = std::move(Queue.Later[Stage].front());
          Queue.Later[Stage].pop_front();
        } else if (!Built.empty()) {
          Record = std::move(Built.front());
          Built.pop_front();
        } else {
          return;
        }
        ++Queue.Busy;
      }
      auto Out = Stages.empty() ? Expected<Json>(Record)
                                : Evaluator.runStage(Stages[Stage], Record);
      if (!Out) {
        {
          std::lock_guard<std::mutex> Guard(Lock);
          --Queue.Busy;
        }
        return Fail(Out.error());
      }
      bool More = !Stages.empty() && Stage + 1 < Stages.size() &&
                  PipelineEvaluator::passed(Stages[Stage], *Out);
      if (!More)
        Finish(*Out);
      std::lock_guard<std::mutex> Guard(Lock);
      if (More)
        Queue.Later[Stage + 1].push_back(std::move(*Out));
      --Queue.Busy;
      Ready.notify_all();
    }
  };

  std::vector<std::thread> Threads;
  for (size_t I = 0; I < static_cast<size_t>(std::max(1, O.BuildJobs)); ++I)
    Threads.emplace_back(Guarded(Builder), I);
  for (const auto &[Device, Queue] : Queues)
    for (size_t J = 0; J < Queue.Jobs; ++J)
      Threads.emplace_back(Guarded(DeviceWorker), Device);
  for (std::thread &T : Threads)
    T.join();
  Bar.finish();
  if (Failed)
    return FirstError;
  return Summary;
}

} // namespace kevin
