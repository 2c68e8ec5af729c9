//===-- Rollout.cpp - Kevin's multi-turn loop ----------------------------===//
//
// Resume bookkeeping, the per-trajectory turn loop and its thread pool.
//
//===----------------------------------------------------------------------===//
#include "kevin/Rollout/Rollout.h"
#include "kevin/Rollout/Turn.h"
#include "kevin/Support/Progress.h"
#include "kevin/Support/RecordFields.h"
#include "kevin/Task/ModelResponse.h"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>
#include <sstream>
#include <thread>

namespace fs = std::filesystem;

namespace kevin {

Expected<std::vector<TaskFile>>
findTasks(const std::string &Dir, const std::vector<std::string> &Only) {
  std::error_code EC;
  if (!fs::is_directory(Dir, EC))
    return Error::inFile(Dir, "not a directory of tasks");
  std::vector<TaskFile> Tasks;
  for (auto It = fs::recursive_directory_iterator(Dir, EC);
       !EC && It != fs::recursive_directory_iterator(); It.increment(EC)) {
    const fs::path &P = It->path();
    if (!It->is_regular_file() || P.extension() != ".py")
      continue;
    std::string Id = fs::relative(P, Dir).replace_extension().generic_string();
    // Package files and caches are not tasks; KernelBench names such as
    // 63_conv_standard_2D__square_input__square_kernel are.
    if (P.filename() == "__init__.py" ||
        Id.find("__pycache__") != std::string::npos)
      continue;
    Tasks.push_back({Id, P.string()});
  }
  if (EC)
    return Error::inFile(Dir, EC.message());
  std::sort(Tasks.begin(), Tasks.end(),
            [](const TaskFile &A, const TaskFile &B) { return A.Id < B.Id; });
  if (Only.empty())
    return Tasks;
  std::vector<TaskFile> Selected;
  for (const std::string &Id : Only) {
    auto It = std::find_if(Tasks.begin(), Tasks.end(),
                           [&](const TaskFile &T) { return T.Id == Id; });
    if (It == Tasks.end())
      return Error::inFile(Dir, "no task '" + Id + "' (expected " + Dir + "/" +
                                    Id + ".py)");
    Selected.push_back(*It);
  }
  return Selected;
}

namespace {

Expected<std::string> readFile(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  if (!In)
    return Error::inFile(Path, "cannot read file");
  std::stringstream Buffer;
  Buffer << In.rdbuf();
  return Buffer.str();
}

/// What a resume must match, so a rerun cannot silently change the run:
/// the policy, m and n, every sampling setting and every evaluation stage.
Json rolloutIdentity(const RolloutOptions &O, const Policy &P) {
  return runIdentity(O, P,
                     Json{{"trajectories", O.Trajectories}, {"turns", O.Turns}});
}

/// Turn 1 has the same prompt in every trajectory of a task, so it is asked
/// for once with n = the number of trajectories that still need it; the
/// first trajectory of the task to get there makes the call.
struct FirstTurnBatch {
  std::mutex M;
  bool Fetched = false;
  std::vector<int> Trajectories;
  std::map<int, Completion> Choices;
  Json Usage;
  std::vector<int64_t> PromptTokenIds;
  int Attempts = 0;
};

struct TrajectoryState {
  const TaskFile *Task = nullptr;
  FirstTurnBatch *Batch = nullptr;
  std::string Reference;
  int Index = 0;
  std::vector<Attempt> History;
};

Attempt attemptFrom(const Json &Turn) {
  Attempt A;
  A.Turn = Turn.value("turn", 0);
  A.Code = Turn.value("code", "");
  A.Summary = Turn.value("summary", "");
  A.Feedback = Turn.value("feedback", "");
  return A;
}

bool turnCorrect(const Json &Turn) {
  return fieldIsTrue(Turn, field::RunCorrect);
}

/// Makes RUN/ and RUN/candidates/, and writes RUN/run.json or checks that a
/// resume matches it.
Error prepareRunDirectory(const RolloutOptions &O, const Policy &ThePolicy) {
  std::error_code EC;
  fs::create_directories(O.RunDir + "/candidates", EC);
  if (EC)
    return Error::inFile(O.RunDir, EC.message());
  return checkOrWriteIdentity(O.RunDir + "/run.json",
                              rolloutIdentity(O, ThePolicy));
}

/// The turns already in the log, by task id and trajectory.
using FinishedTurns = std::map<std::pair<std::string, int>, std::vector<Json>>;

/// Reads back the finished turns of LogPath (none when it does not exist yet).
/// A torn last line (a write cut short by a kill) is cut off and reported in
/// Warnings.
Expected<FinishedTurns> readFinishedTurns(const std::string &LogPath,
                                          std::vector<Error> &Warnings) {
  auto Log = readResumableLog(LogPath, Warnings);
  if (!Log)
    return Log.error();
  FinishedTurns Done;
  for (Record &R : *Log) {
    if (Error E = checkRequiredFields(R, {{"task_id", JsonKind::String},
                                          {"trajectory", JsonKind::Integer},
                                          {"turn", JsonKind::Integer}}))
      return E;
    Done[{R.Value["task_id"].get<std::string>(),
          R.Value["trajectory"].get<int>()}]
        .push_back(std::move(R.Value));
  }
  return Done;
}

/// One run of the loop over every trajectory: their states restored from
/// the log, then a pool of threads advancing them turn by turn.
class RolloutRun {
public:
  RolloutRun(const RolloutOptions &O, const PromptTemplates &Templates,
             Policy &ThePolicy, const StagePipeline &Pipeline,
             DurableRecordLog &Log)
      : O(O), Templates(Templates), ThePolicy(ThePolicy), Pipeline(Pipeline),
        Log(Log), Requests(O.MaxInFlight), Evaluations(O.EvalJobs) {}

  /// Every trajectory of every task, with the history of its turns in Done
  /// (read from LogPath); a gap or a duplicate there is an error.
  Error restoreTrajectories(FinishedTurns &Done, const std::string &LogPath);
  /// Advances every trajectory to its last turn.
  Expected<RolloutSummary> run();

private:
  /// Sorts a trajectory's finished turns into its history; a turn out of
  /// sequence is an error.
  Error restoreHistory(TrajectoryState &S, std::vector<Json> &Turns,
                       const std::string &LogPath);
  void runTrajectory(TrajectoryState &S, Progress &Bar);
  /// The policy's reply to the turn's prompt; none after failing the run.
  std::optional<CompletionResult> askPolicy(const TrajectoryState &S, int Turn,
                                            const BuiltPrompt &Prompt);
  /// Turn 1's reply, from the task's batch (fetched by the first trajectory
  /// of the task to get here).
  std::optional<CompletionResult> firstTurnReply(const TrajectoryState &S,
                                                 CompletionRequest Request);
  /// One policy request, within the bound on requests in flight.
  Expected<CompletionResult> complete(const CompletionRequest &Request);
  /// The turn's record before evaluation: its prompt, the policy's reply and
  /// what the response was split into.
  Json turnRecord(const TrajectoryState &S, int Turn, const std::string &Id,
                  const BuiltPrompt &Prompt, const CompletionResult &Reply,
                  const ParsedResponse &Parsed) const;
  /// Saves the code under RUN/candidates/ and runs the record through the
  /// stages; false after failing the run.
  bool evaluateCode(const TrajectoryState &S, int Turn, const std::string &Id,
                    const std::string &Code, Json &Record);
  /// Appends the finished turn to the log; false after failing the run.
  bool appendTurn(const Json &Record);
  void fail(const Error &E);

  const RolloutOptions &O;
  const PromptTemplates &Templates;
  Policy &ThePolicy;
  const StagePipeline &Pipeline;
  DurableRecordLog &Log;
  std::vector<TrajectoryState> States;
  std::map<std::string, FirstTurnBatch> Batches;
  RolloutSummary Summary;
  Slots Requests, Evaluations;
  std::mutex LogMutex;
  std::atomic<size_t> Next{0};
  std::atomic<bool> Failed{false};
  Error FirstError;
  std::mutex ErrorMutex;
};

Error RolloutRun::restoreTrajectories(FinishedTurns &Done,
                                      const std::string &LogPath) {
  for (const TaskFile &Task : O.Tasks) {
    auto Source = readFile(Task.Path);
    if (!Source)
      return Source.error();
    FirstTurnBatch &Batch = Batches[Task.Id];
    for (int J = 0; J < O.Trajectories; ++J) {
      TrajectoryState S{&Task, &Batch, *Source, J, {}};
      auto It = Done.find({Task.Id, J});
      if (It != Done.end())
        if (Error E = restoreHistory(S, It->second, LogPath))
          return E;
      if (S.History.empty())
        Batch.Trajectories.push_back(J);
      States.push_back(std::move(S));
    }
  }
  return Error::success();
}

Error RolloutRun::restoreHistory(TrajectoryState &S, std::vector<Json> &Turns,
                                 const std::string &LogPath) {
  std::sort(Turns.begin(), Turns.end(), [](const Json &A, const Json &B) {
    return A["turn"].get<int>() < B["turn"].get<int>();
  });
  for (size_t K = 0; K < Turns.size(); ++K) {
    int TurnNo = Turns[K]["turn"].get<int>();
    if (TurnNo != static_cast<int>(K) + 1)
      return Error::inFile(LogPath, "task '" + S.Task->Id + "' trajectory " +
                                        std::to_string(S.Index) + ": turn " +
                                        std::to_string(TurnNo) +
                                        (TurnNo <= static_cast<int>(K)
                                             ? " is duplicated"
                                             : " follows a missing turn"));
    S.History.push_back(attemptFrom(Turns[K]));
    Summary.TurnsCorrect += turnCorrect(Turns[K]);
  }
  Summary.TurnsResumed += static_cast<int>(Turns.size());
  return Error::success();
}

void RolloutRun::fail(const Error &E) {
  std::lock_guard<std::mutex> Lock(ErrorMutex);
  if (!Failed.exchange(true))
    FirstError = E;
}

Expected<CompletionResult>
RolloutRun::complete(const CompletionRequest &Request) {
  SlotGuard Guard(Requests);
  return ThePolicy.complete(Request);
}

std::optional<CompletionResult>
RolloutRun::askPolicy(const TrajectoryState &S, int Turn,
                      const BuiltPrompt &Prompt) {
  CompletionRequest Request =
      makeCompletionRequest(O, S.Task->Id, Prompt, {S.Index}, Turn);
  if (Turn == 1)
    return firstTurnReply(S, std::move(Request));
  Expected<CompletionResult> Single = complete(Request);
  if (!Single) {
    fail(Single.error());
    return std::nullopt;
  }
  return std::move(*Single);
}

std::optional<CompletionResult>
RolloutRun::firstTurnReply(const TrajectoryState &S,
                           CompletionRequest Request) {
  FirstTurnBatch &B = *S.Batch;
  std::lock_guard<std::mutex> Lock(B.M);
  if (!B.Fetched) {
    Request.N = static_cast<int>(B.Trajectories.size());
    Request.Trajectories = B.Trajectories;
    Expected<CompletionResult> Batch = complete(Request);
    if (!Batch) {
      fail(Batch.error());
      return std::nullopt;
    }
    if (Batch->Choices.size() != B.Trajectories.size()) {
      fail(Error::make(
          ThePolicy.describe() + " returned " +
          std::to_string(Batch->Choices.size()) +
          " choices for n = " + std::to_string(B.Trajectories.size())));
      return std::nullopt;
    }
    for (size_t I = 0; I < B.Trajectories.size(); ++I)
      B.Choices[B.Trajectories[I]] = std::move(Batch->Choices[I]);
    B.Usage = Batch->Usage;
    B.PromptTokenIds = Batch->PromptTokenIds;
    B.Attempts = Batch->Attempts;
    B.Fetched = true;
  }
  CompletionResult Reply;
  Reply.Choices = {B.Choices.at(S.Index)};
  Reply.Usage = B.Usage;
  Reply.PromptTokenIds = B.PromptTokenIds;
  if (B.Trajectories.size() > 1)
    Reply.Usage["shared_by_choices"] = B.Trajectories.size();
  Reply.Attempts = B.Attempts;
  return Reply;
}

Json RolloutRun::turnRecord(const TrajectoryState &S, int Turn,
                            const std::string &Id, const BuiltPrompt &Prompt,
                            const CompletionResult &Reply,
                            const ParsedResponse &Parsed) const {
  return makeTurnRecord(O, ThePolicy, {S.Task, S.Index, Turn, Id}, Prompt,
                        Reply, Parsed);
}

bool RolloutRun::evaluateCode(const TrajectoryState &S, int Turn,
                              const std::string &Id, const std::string &Code,
                              Json &Record) {
  std::string Path = O.RunDir + "/candidates/" + S.Task->Id + "/traj" +
                     std::to_string(S.Index) + "_turn" + std::to_string(Turn) +
                     ".py";
  Expected<Json> Evaluated = [&] {
    SlotGuard Guard(Evaluations);
    return evaluateTurnCode(O, Pipeline, Path, Code, std::move(Record));
  }();
  if (!Evaluated) {
    fail(Evaluated.error().withContext("evaluating " + Id));
    return false;
  }
  Record = std::move(*Evaluated);
  return true;
}

bool RolloutRun::appendTurn(const Json &Record) {
  std::lock_guard<std::mutex> Lock(LogMutex);
  if (Error E = Log.append(Record)) {
    fail(E);
    return false;
  }
  ++Summary.TurnsRun;
  Summary.TurnsCorrect += turnCorrect(Record);
  return true;
}

void RolloutRun::runTrajectory(TrajectoryState &S, Progress &Bar) {
  for (int Turn = static_cast<int>(S.History.size()) + 1;
       Turn <= O.Turns && !Failed; ++Turn) {
    std::string Id =
        S.Task->Id + "#" + std::to_string(S.Index) + "#" + std::to_string(Turn);
    Bar.started(Id, "policy");
    BuiltPrompt Prompt =
        buildPrompt(Templates, S.Reference, S.History, O.ContextBudgetTokens);
    std::optional<CompletionResult> Reply = askPolicy(S, Turn, Prompt);
    if (!Reply)
      return;
    ParsedResponse Parsed = parseResponse(Reply->Choices.front().Text);

    Json Record = turnRecord(S, Turn, Id, Prompt, *Reply, Parsed);
    if (Parsed.HasCode) {
      Bar.started(Id, "evaluate");
      if (!evaluateCode(S, Turn, Id, Parsed.Code, Record))
        return;
    } else {
      Record["parse"]["problem"] = Parsed.Problem;
    }
    Record["feedback"] = feedbackFor(Templates, Record);
    if (!appendTurn(Record))
      return;
    S.History.push_back(attemptFrom(Record));
    Bar.finished(Id, finishedSummary(Record));
  }
}

Expected<RolloutSummary> RolloutRun::run() {
  size_t Remaining = 0;
  for (const TrajectoryState &S : States)
    Remaining += O.Turns > static_cast<int>(S.History.size())
                     ? O.Turns - S.History.size()
                     : 0;
  Progress Bar("rollout", Remaining, stderrProgress(!O.ShowProgress));

  int Workers =
      std::max(1, std::min<int>(O.Jobs, static_cast<int>(States.size())));
  std::vector<std::thread> Pool;
  for (int W = 0; W < Workers; ++W)
    Pool.emplace_back([&] {
      for (size_t I = Next++; I < States.size() && !Failed; I = Next++)
        runTrajectory(States[I], Bar);
    });
  for (std::thread &T : Pool)
    T.join();
  Bar.finish();
  if (Failed)
    return FirstError;
  Summary.TurnsTotal = Summary.TurnsResumed + Summary.TurnsRun;
  return Summary;
}

} // namespace

Expected<RolloutSummary> runRollout(const RolloutOptions &O,
                                    const PromptTemplates &Templates,
                                    Policy &ThePolicy,
                                    const StagePipeline &Pipeline) {
  if (Error E = prepareRunDirectory(O, ThePolicy))
    return E;
  std::string LogPath = O.RunDir + "/turns.jsonl";
  std::vector<Error> Warnings;
  auto Done = readFinishedTurns(LogPath, Warnings);
  if (!Done)
    return Done.error();
  auto Log = DurableRecordLog::open(LogPath);
  if (!Log)
    return Log.error();
  RolloutRun Run(O, Templates, ThePolicy, Pipeline, *Log);
  if (Error E = Run.restoreTrajectories(*Done, LogPath))
    return E;
  auto Summary = Run.run();
  if (Summary)
    Summary->Warnings = std::move(Warnings);
  return Summary;
}

} // namespace kevin
