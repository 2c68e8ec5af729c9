//===-- EvalBatch.cpp - kevin eval's batch scheduler ---------------------===//
//
// Candidate discovery, and the batch through the stage scheduler, each
// record appended to the results file as it finishes.
//
//===----------------------------------------------------------------------===//
#include "kevin/Rollout/EvalBatch.h"
#include "kevin/Rollout/StageProgress.h"
#include "kevin/Support/Progress.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <regex>
#include <set>

namespace fs = std::filesystem;

namespace kevin {

namespace {

Json candidateRecord(const TaskFile &Task, const std::string &Id) {
  return Json{{"schema_version", RecordSchemaVersion},
              {"id", Id},
              {"task_id", Task.Id},
              {"task_path", Task.Path}};
}

/// The `run` section of a candidate that is never evaluated.
Json notEvaluated(const char *Stage, const char *Outcome,
                  const std::string &Message) {
  return Json{{"correct", false},
              {"stage", Stage},
              {"outcome", Outcome},
              {"message", Message}};
}

/// The record of a candidate that answers no task: an input-error.
Json unmatchedRecord(const std::string &Id, const std::string &Message) {
  return Json{{"schema_version", RecordSchemaVersion},
              {"id", Id},
              {"run", notEvaluated("input", "input-error", Message)}};
}

/// The task a candidate file answers, by its name; Problem says why there is
/// none.
const TaskFile *taskFor(const std::vector<TaskFile> &Tasks,
                        const std::string &RelativeStem, int &Sample,
                        std::string &Problem) {
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
    Problem = "the tasks directory has no task " + Prefix +
              "*, the task this KernelBench name answers";
    return nullptr;
  }
  Sample = 0;
  for (const TaskFile &T : Tasks)
    if (T.Id == RelativeStem)
      return &T;
  const TaskFile *ByName = nullptr;
  for (const TaskFile &T : Tasks)
    if (fs::path(T.Id).filename() == Name) {
      if (ByName) {
        Problem = "several tasks are named '" + Name + "' (" + ByName->Id +
                  ", " + T.Id + "): put the candidate at its task's path";
        return nullptr;
      }
      ByName = &T;
    }
  if (!ByName)
    Problem = "no task is named '" + Name +
              "': name a candidate <task id>.py or "
              "level_<L>_problem_<P>_sample_<S>_kernel.py";
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
      std::string Id = TaskId + "#" + std::to_string(Line);
      std::string Where = formatDiagnostic(R.Origin, Severity::Error, "");
      Json Record =
          Task == Tasks.end()
              ? unmatchedRecord(Id, Where + "no task '" + TaskId +
                                        "' in the tasks directory")
          : !R.Value.contains("code") && !R.Value.contains("candidate_path")
              ? unmatchedRecord(Id, Where + "needs 'code' or 'candidate_path'")
              : candidateRecord(*Task, Id);
      for (auto &[Key, Value] : R.Value.items())
        if (Key != "run")
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
    std::string Problem;
    const TaskFile *Task = taskFor(Tasks, Stem, Sample, Problem);
    Json Record =
        Task ? candidateRecord(*Task, Task->Id + "#" + std::to_string(Sample))
             : unmatchedRecord(Stem, "'" + File.string() + "': " + Problem);
    Record["sample"] = Sample;
    Record["candidate_path"] = File.string();
    if (Error E = Add(std::move(Record), SourceLocation{File.string(), 0, 0}))
      return E;
  }
  return Candidates;
}

namespace {

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

/// A stage's failure that is about the candidate's task (its reference
/// failed: the task raises on import, say) rather than about kevin: the
/// message or its location names the task file.
bool isAboutTask(const Error &E, const Json &Candidate) {
  const Json *Task = findField(Candidate, "task_path");
  if (!Task || !Task->is_string())
    return false;
  const std::string &Path = Task->get_ref<const std::string &>();
  return E.location().File == Path ||
         E.message().find(Path) != std::string::npos;
}

} // namespace

Expected<EvalSummary> runEval(const std::vector<Json> &Candidates,
                              const EvalOptions &O, const StageRunner &Runner) {
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

  Progress Bar("eval", Todo.size(), stderrProgress(!O.ShowProgress));
  // Records are appended as they finish; the first failure of kevin's own
  // is reported once every other record is done.
  std::mutex Guard;
  Error FirstError;
  bool Failed = false;
  auto Finish = [&](const Json &Done) {
    if (Error E = Log->append(Done)) {
      if (!Failed)
        FirstError = E;
      Failed = true;
      return;
    }
    ++Summary.Evaluated;
    std::string Outcome = evaluationOutcome(Done);
    ++Summary.Outcomes[Outcome];
    Bar.finished(progressName(Done), finishedSummary(Done, Outcome));
  };
  {
    StageProgress Tracked(Runner, Bar);
    StageScheduler Scheduler(Tracked, O.Scheduling);
    for (const Json *C : Todo) {
      // A candidate that answers no task is recorded as it is.
      if (C->contains("run")) {
        std::lock_guard<std::mutex> Hold(Guard);
        Finish(*C);
        continue;
      }
      Scheduler.submit(*C, [&, C](Expected<Json> Done) {
        std::lock_guard<std::mutex> Hold(Guard);
        if (Done)
          return Finish(*Done);
        if (!isAboutTask(Done.error(), *C)) {
          if (!Failed)
            FirstError = Done.error();
          Failed = true;
          // Reported in full once the batch is done.
          Bar.finished(progressName(*C), "not evaluated: kevin failed");
          return;
        }
        Json Record = *C;
        const Error &E = Done.error();
        bool Located =
            E.message().find(E.location().File) != std::string::npos;
        Record["run"] = notEvaluated(
            "task", "task-error",
            Located ? E.message() : diagnosticLine(E));
        Finish(Record);
      });
    }
    Scheduler.drain();
  }
  Bar.finish();
  if (Failed)
    return FirstError;
  return Summary;
}

} // namespace kevin
