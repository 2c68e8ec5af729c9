//===-- EvaluationService.cpp - requests to records -----------------------===//
//
// A batch's samples: intake (task, code), the stage scheduler, a collector
// that waits for the batch or its deadline, and the finishing touches
// (outcome, feedback, reward 0 for a sample the engine never scored).
//
//===----------------------------------------------------------------------===//

#include "kevin/Serve/EvaluationService.h"
#include "kevin/Support/Clock.h"
#include "kevin/Support/Device.h"
#include "kevin/Support/RecordFields.h"
#include "kevin/Support/Version.h"
#include "kevin/Task/ModelResponse.h"

#include <condition_variable>
#include <mutex>

namespace kevin {

namespace {

const char *const StageNames[] = {"check", "run", "bench"};

/// A sample kevin did not evaluate: its outcome and why.
Json notEvaluated(Json Record, const std::string &Outcome,
                  const std::string &Message) {
  Record["outcome"] = Outcome;
  Record["message"] = Message;
  return Record;
}

/// One batch's records as they finish, and its waiter.
struct BatchCollector {
  std::mutex Guard;
  std::condition_variable Done;
  std::vector<std::optional<Json>> Records;
  /// The samples handed to the engine, for those it fails or that pass the
  /// deadline.
  std::vector<Json> Submitted;
  size_t Left = 0;
};

} // namespace

Expected<StageSelection> StageSelection::parse(const std::string &List) {
  StageSelection S{false, false, false};
  size_t Start = 0;
  while (Start <= List.size()) {
    size_t Comma = List.find(',', Start);
    std::string Name = List.substr(Start, Comma == std::string::npos
                                              ? std::string::npos
                                              : Comma - Start);
    if (Name == "check")
      S.Check = true;
    else if (Name == "run")
      S.Run = true;
    else if (Name == "bench")
      S.Bench = S.Run = true;
    else
      return Error::make("stages: unknown stage '" + Name +
                         "' (the stages are check, run and bench)");
    if (Comma == std::string::npos)
      break;
    Start = Comma + 1;
  }
  return S;
}

std::string recordOutcome(const Json &Record) {
  if (Record.contains("outcome") && Record["outcome"].is_string())
    return Record["outcome"].get<std::string>();
  if (fieldIsFalse(Record, field::ParseOk))
    return "no-code";
  if (fieldIsFalse(Record, field::CheckOk))
    return "check-failed";
  if (fieldIsFalse(Record, field::BuildOk))
    return fieldString(Record, field::BuildOutcome);
  if (fieldIsFalse(Record, field::RunCorrect))
    return fieldString(Record, field::RunOutcome);
  if (fieldIsFalse(Record, field::BenchOk))
    return "bench-" + fieldString(Record, field::BenchOutcome);
  return "ok";
}

EvaluationService::EvaluationService(ServiceOptions O,
                                     std::unique_ptr<WarmEngine> E)
    : Options(std::move(O)), Engine(std::move(E)) {}

EvaluationService::~EvaluationService() { drain(); }

Expected<std::unique_ptr<EvaluationService>>
EvaluationService::create(ServiceOptions Options,
                          std::unique_ptr<WarmEngine> Engine) {
  Expected<std::vector<TaskFile>> Tasks = findTasks(Options.TasksDir, {});
  if (!Tasks)
    return Tasks.error();
  std::unique_ptr<EvaluationService> S(
      new EvaluationService(std::move(Options), std::move(Engine)));
  for (const TaskFile &T : *Tasks)
    S->TaskPaths[T.Id] = T.Path;
  for (const std::string &Device : S->Options.Scheduling.Devices) {
    std::string Kind = isCudaDevice(Device) ? "cuda" : "cpu";
    if (S->Templates.count(Kind))
      continue;
    Expected<PromptTemplates> T =
        loadPromptTemplates(S->Options.PromptFile, Kind);
    if (!T)
      return T.error();
    S->Templates[Kind] = std::move(*T);
  }
  const StageRunner *Runner = S->Engine.get();
  if (S->Options.ProgressLog) {
    ProgressOptions Shown;
    Shown.Style = ProgressStyle::Lines;
    Shown.Out = S->Options.ProgressLog;
    Shown.LinePrefix = "kevin-serve: ";
    S->Activity = std::make_unique<Progress>("kevin-serve", 0, Shown);
    S->Tracked = std::make_unique<StageProgress>(*S->Engine, *S->Activity);
    Runner = S->Tracked.get();
  }
  S->Scheduler =
      std::make_unique<StageScheduler>(*Runner, S->Options.Scheduling);
  return S;
}

Json EvaluationService::intake(Json Sample, const StageSelection &Stages,
                               bool &Ready) const {
  Ready = false;
  // Nothing the caller names on this machine is read: kevin serve takes
  // code, never paths.
  bool NamedPath = Sample.contains("candidate_path");
  Sample.erase("candidate_path");
  Sample.erase("task_path");
  Sample.erase("stages");
  if (!Sample.contains("task_id") || !Sample["task_id"].is_string())
    return notEvaluated(std::move(Sample), "unknown-task",
                        "the sample has no task_id (a string)");
  std::string TaskId = Sample["task_id"].get<std::string>();
  auto Task = TaskPaths.find(TaskId);
  if (Task == TaskPaths.end())
    return notEvaluated(std::move(Sample), "unknown-task",
                        "no task '" + TaskId + "' is loaded");
  if (Sample.contains("response") && Sample["response"].is_string() &&
      !Sample.contains("code")) {
    ParsedResponse Parsed = parseResponse(Sample["response"].get<std::string>());
    Sample["summary"] = Parsed.Summary;
    Sample["parse"] = Json{{"ok", Parsed.HasCode}};
    if (!Parsed.HasCode) {
      Sample["parse"]["problem"] = Parsed.Problem;
      return notEvaluated(std::move(Sample), "no-code", Parsed.Problem);
    }
    Sample["code"] = Parsed.Code;
  }
  if (!Sample.contains("code") || !Sample["code"].is_string())
    return notEvaluated(std::move(Sample), "no-code",
                        NamedPath ? "kevin serve reads no file: send the "
                                    "candidate's source as 'code'"
                                  : "the sample has neither 'code' nor "
                                    "'response' (strings)");
  Sample["task_path"] = Task->second;
  if (!(Stages.Check && Stages.Run && Stages.Bench)) {
    Json Names = Json::array();
    const bool Wanted[] = {Stages.Check, Stages.Run, Stages.Bench};
    for (size_t I = 0; I < 3; ++I)
      if (Wanted[I])
        Names.push_back(StageNames[I]);
    Sample["stages"] = Names;
  }
  Ready = true;
  return Sample;
}

Json EvaluationService::finish(Json Record) const {
  std::string Outcome = recordOutcome(Record);
  Record["outcome"] = Outcome;
  if (!Record.contains("reward"))
    Record["reward"] = Json{{"score", 0.0},
                            {"correct", false},
                            {"speedup", nullptr},
                            {"flags", Json::array({Outcome})},
                            {"return", 0.0}};
  std::string Kind =
      isCudaDevice(fieldString(Record, "run.device")) ? "cuda" : "cpu";
  auto T = Templates.find(Kind);
  if (T == Templates.end())
    T = Templates.begin();
  if (T != Templates.end()) {
    Json ForFeedback = Record;
    // The feedback of a sample kevin never ran says why.
    if (!findField(Record, field::RunCorrect) &&
        !findField(Record, field::CheckOk) && !Record.contains("parse"))
      ForFeedback["parse"] = Json{
          {"ok", false}, {"problem", Record.value("message", Outcome)}};
    Record["feedback"] = feedbackFor(T->second, ForFeedback);
  }
  return Record;
}

std::optional<std::vector<Json>>
EvaluationService::evaluate(std::vector<Json> Samples,
                            const StageSelection &Stages,
                            double DeadlineSeconds) {
  auto Batch = std::make_shared<BatchCollector>();
  Batch->Records.resize(Samples.size());
  Batch->Submitted.resize(Samples.size());
  std::vector<size_t> ToRun;
  for (size_t I = 0; I < Samples.size(); ++I) {
    bool Ready = false;
    Json Record = intake(std::move(Samples[I]), Stages, Ready);
    if (Ready) {
      Batch->Submitted[I] = std::move(Record);
      ToRun.push_back(I);
    } else {
      logFinished(Record);
      Batch->Records[I] = std::move(Record);
    }
  }
  if (Scheduler->pending() + ToRun.size() > Options.MaxPending)
    return std::nullopt;
  ++Requests;
  Batch->Left = ToRun.size();
  for (size_t Index : ToRun) {
    Scheduler->submit(Batch->Submitted[Index], [this, Batch, Index](
                                                   Expected<Json> Done) {
      std::lock_guard<std::mutex> Hold(Batch->Guard);
      Batch->Records[Index] =
          Done ? std::move(*Done)
               : notEvaluated(Batch->Submitted[Index], "error",
                              "kevin could not evaluate it: " +
                                  Done.error().message());
      logFinished(*Batch->Records[Index]);
      if (--Batch->Left == 0)
        Batch->Done.notify_all();
    });
  }
  std::unique_lock<std::mutex> Hold(Batch->Guard);
  auto AllIn = [&] { return Batch->Left == 0; };
  if (DeadlineSeconds > 0)
    Batch->Done.wait_for(Hold, std::chrono::duration<double>(DeadlineSeconds),
                         AllIn);
  else
    Batch->Done.wait(Hold, AllIn);
  std::vector<Json> Out;
  for (size_t I = 0; I < Batch->Records.size(); ++I) {
    if (!Batch->Records[I]) {
      // Still running: its worker finishes in the background, unheard.
      Out.push_back(finish(notEvaluated(
          Batch->Submitted[I], "timeout",
          "not finished within the request's deadline of " +
              std::to_string(DeadlineSeconds) + " s")));
      continue;
    }
    Out.push_back(finish(std::move(*Batch->Records[I])));
  }
  Evaluated += Out.size();
  return Out;
}

void EvaluationService::logFinished(const Json &Record) const {
  if (Activity)
    Activity->finished(progressName(Record),
                       finishedSummary(Record, recordOutcome(Record)));
}

Json EvaluationService::health() const {
  EngineHealth E = Engine->health();
  return Json{{"ok", true},
              {"version", KEVIN_VERSION},
              {"devices", Options.Scheduling.Devices},
              {"tasks", TaskPaths.size()},
              {"queue_depth", Scheduler->queued()},
              {"in_flight", Scheduler->pending()},
              {"workers_alive",
               {{"zygote", E.ZygoteAlive}, {"zygote_restarts", E.ZygoteRestarts}}},
              {"reference_cache",
               {{"entries", E.ReferenceEntries},
                {"made", E.ReferencesMade},
                {"bytes", E.ReferenceBytes},
                {"limit_bytes", E.ReferenceLimitBytes},
                {"timed_references", E.TimedReferences},
                {"made_ahead", E.ReferencesAhead},
                {"ahead_failed", E.ReferencesAheadFailed},
                {"ahead_pending", E.ReferencesAheadPending},
                {"timed_disk_limit_bytes", E.TimedReferenceDiskLimitBytes}}},
              {"requests", Requests.load()},
              {"evaluated", Evaluated.load()}};
}

void EvaluationService::drain() {
  if (Scheduler)
    Scheduler->drain();
}

} // namespace kevin
