//===-- EvalBatch.cpp - kevin eval's batch scheduler ---------------------===//
//
// Candidate discovery, and the batch through the stage scheduler, each
// record appended to the results file as it finishes.
//
//===----------------------------------------------------------------------===//
#include "kevin/Rollout/EvalBatch.h"
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

  Progress Bar("eval", Todo.size());
  if (!O.ShowProgress)
    Bar.finish();
  // Records are appended as they finish; the first failure of kevin's own
  // is reported once every other record is done.
  std::mutex Guard;
  Error FirstError;
  bool Failed = false;
  {
    StageScheduler Scheduler(Runner, O.Scheduling);
    for (const Json *C : Todo)
      Scheduler.submit(*C, [&](Expected<Json> Done) {
        std::lock_guard<std::mutex> Hold(Guard);
        Error E = Done ? Log->append(*Done) : Done.error();
        if (E) {
          if (!Failed)
            FirstError = E;
          Failed = true;
          return;
        }
        ++Summary.Evaluated;
        Bar.advance(1, Done->value("id", std::string()));
      });
    Scheduler.drain();
  }
  Bar.finish();
  if (Failed)
    return FirstError;
  return Summary;
}

} // namespace kevin
