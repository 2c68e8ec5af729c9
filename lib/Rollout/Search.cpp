//===-- Search.cpp - spending a budget of kernels -------------------------===//
//
// The plan of each strategy (which kernels a round makes, from which
// parents), and the runner: per task, round after round, the policy's
// requests, then the evaluations, each kernel appended to RUN/search.jsonl.
//
//===----------------------------------------------------------------------===//
#include "kevin/Rollout/Search.h"
#include "kevin/Rollout/SearchCurves.h"
#include "kevin/Rollout/Turn.h"
#include "kevin/Support/FileSystem.h"
#include "kevin/Support/RecordFields.h"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <map>
#include <mutex>
#include <thread>

namespace kevin {

std::string searchLabel(const SearchOptions &O) {
  switch (O.Strategy) {
  case SearchStrategy::Parallel:
    return "parallel " + std::to_string(O.Budget) + "x1";
  case SearchStrategy::Serial:
    return "serial " + std::to_string(O.Budget / O.Run.Turns) + "x" +
           std::to_string(O.Run.Turns);
  case SearchStrategy::Beam:
    return "beam k=" + std::to_string(O.BeamWidth) +
           " b=" + std::to_string(O.Branching);
  }
  return "";
}

static const char *strategyName(SearchStrategy S) {
  switch (S) {
  case SearchStrategy::Parallel:
    return "parallel";
  case SearchStrategy::Serial:
    return "serial";
  case SearchStrategy::Beam:
    return "beam";
  }
  return "";
}

Error validateSearch(const SearchOptions &O) {
  if (O.Budget < 1 || O.Run.Turns < 1 || O.BeamWidth < 1 || O.Branching < 1)
    return Error::make("the budget, n, k and b must be positive",
                       ErrorKind::InvalidInput);
  if (O.Strategy == SearchStrategy::Serial && O.Budget % O.Run.Turns)
    return Error::make("--budget " + std::to_string(O.Budget) +
                           " is not a multiple of --turns " +
                           std::to_string(O.Run.Turns) +
                           " (serial spends B/n trajectories of n turns)",
                       ErrorKind::InvalidInput);
  return Error::success();
}

std::vector<SearchNode> rankNodes(std::vector<SearchNode> Nodes) {
  std::stable_sort(Nodes.begin(), Nodes.end(),
                   [](const SearchNode &A, const SearchNode &B) {
                     if (A.Score != B.Score)
                       return A.Score > B.Score;
                     if (A.Correct != B.Correct)
                       return A.Correct;
                     return A.Slot < B.Slot;
                   });
  return Nodes;
}

std::vector<PlannedKernel> planRound(const SearchOptions &O, int Round,
                                     const std::vector<SearchNode> &Previous,
                                     int BudgetLeft) {
  std::vector<PlannedKernel> Plan;
  auto Add = [&](int Slot, int Parent) {
    if (static_cast<int>(Plan.size()) < BudgetLeft)
      Plan.push_back({Slot, Parent});
  };
  if (Round == 1) {
    int Width = O.Budget;
    if (O.Strategy == SearchStrategy::Serial)
      Width = O.Budget / O.Run.Turns;
    else if (O.Strategy == SearchStrategy::Beam)
      Width = O.BeamWidth * O.Branching;
    for (int Slot = 0; Slot < Width; ++Slot)
      Add(Slot, -1);
    return Plan;
  }
  if (O.Strategy == SearchStrategy::Parallel)
    return Plan;
  if (O.Strategy == SearchStrategy::Serial) {
    if (Round <= O.Run.Turns)
      for (const SearchNode &N : Previous)
        Add(N.Slot, N.Slot);
    return Plan;
  }
  std::vector<SearchNode> Ranked = rankNodes(Previous);
  if (static_cast<int>(Ranked.size()) > O.BeamWidth)
    Ranked.resize(O.BeamWidth);
  for (const SearchNode &Parent : Ranked)
    for (int Child = 0; Child < O.Branching; ++Child)
      Add(static_cast<int>(Plan.size()), Parent.Slot);
  return Plan;
}

namespace {

/// Runs Fn(0..Count-1) on up to Threads threads (this one included).
void forEachConcurrently(size_t Count, int Threads,
                         const std::function<void(size_t)> &Fn) {
  std::atomic<size_t> Next{0};
  auto Work = [&] {
    for (size_t I = Next++; I < Count; I = Next++)
      Fn(I);
  };
  size_t Workers = std::min<size_t>(std::max(Threads, 1), Count);
  std::vector<std::thread> Pool;
  for (size_t T = 1; T < Workers; ++T)
    Pool.emplace_back(Work);
  Work();
  for (std::thread &T : Pool)
    T.join();
}

/// A kernel of the tree as later rounds need it.
struct TreeNode {
  SearchNode Node;
  Attempt AsAttempt;
  std::string Id;
  std::optional<double> Speedup;
};

using NodeKey = std::pair<int, int>; ///< (round, slot)

/// A kernel of the current round on its way to the log.
struct Pending {
  PlannedKernel Planned;
  int Kernel = 0;
  Json Record;
  std::string Code;     ///< Empty when the response had none.
  int SameAs = -1;      ///< Index in the round of the kernel it repeats.
  std::string SameAsId; ///< Or the id of an earlier round's kernel.
};

class SearchRun {
public:
  SearchRun(const SearchOptions &O, const PromptTemplates &Templates,
            Policy &ThePolicy, const StagePipeline &Pipeline,
            DurableRecordLog &Log,
            std::function<void(const SearchProgress &)> OnRound)
      : O(O), Templates(Templates), ThePolicy(ThePolicy), Pipeline(Pipeline),
        Log(Log), OnRound(std::move(OnRound)), Requests(O.Run.MaxInFlight),
        Evaluations(O.Run.EvalJobs) {}

  /// Sorts the logged records by task; a record no task of the run has,
  /// or one logged twice, is an error.
  Error restore(std::vector<Record> Logged, const std::string &LogPath);
  Expected<SearchSummary> run();

private:
  struct TaskState {
    const TaskFile *Task = nullptr;
    std::string Reference;
    std::map<NodeKey, Json> Logged;
    std::map<NodeKey, TreeNode> Tree;
    /// Code already evaluated for this task -> the record with its verdict.
    std::map<std::string, Json> Verdicts;
  };

  void searchTask(TaskState &T);
  /// Generates, evaluates and logs the kernels of Plan not yet logged.
  bool runRound(TaskState &T, int Round, int FirstKernel,
                const std::vector<PlannedKernel> &Plan);
  bool generate(TaskState &T, int Round, std::vector<Pending> &Todo);
  bool evaluate(TaskState &T, std::vector<Pending> &Todo);
  /// Reads a logged or new record into the tree.
  bool addToTree(TaskState &T, const Json &Value, int Parent);
  std::vector<Attempt> historyOf(const TaskState &T, int Round,
                                 int Slot) const;
  bool append(TaskState &T, Pending &P);
  void report(const TaskState &T, int Round, int Spent);
  void fail(const Error &E);

  const SearchOptions &O;
  const PromptTemplates &Templates;
  Policy &ThePolicy;
  const StagePipeline &Pipeline;
  DurableRecordLog &Log;
  std::function<void(const SearchProgress &)> OnRound;
  std::vector<TaskState> Tasks;
  SearchSummary Summary;
  Slots Requests, Evaluations;
  std::mutex LogMutex, ReportMutex, ErrorMutex;
  std::atomic<bool> Failed{false};
  Error FirstError;
};

void SearchRun::fail(const Error &E) {
  std::lock_guard<std::mutex> Lock(ErrorMutex);
  if (!Failed.exchange(true))
    FirstError = E;
}

Error SearchRun::restore(std::vector<Record> Logged,
                         const std::string &LogPath) {
  std::map<std::string, TaskState *> ById;
  Tasks.resize(O.Run.Tasks.size());
  for (size_t I = 0; I < O.Run.Tasks.size(); ++I) {
    Tasks[I].Task = &O.Run.Tasks[I];
    auto Source = fs::readFile(O.Run.Tasks[I].Path);
    if (!Source)
      return Source.error();
    Tasks[I].Reference = std::move(*Source);
    ById[O.Run.Tasks[I].Id] = &Tasks[I];
  }
  for (Record &R : Logged) {
    if (Error E = checkRequiredFields(R, {{"task_id", JsonKind::String},
                                          {"search.round", JsonKind::Integer},
                                          {"search.slot", JsonKind::Integer}}))
      return E;
    auto It = ById.find(R.Value["task_id"].get<std::string>());
    if (It == ById.end())
      return Error::at(R.Origin, describeRecord(R) + ": not a task of this run");
    NodeKey Key{R.Value["search"]["round"].get<int>(),
                R.Value["search"]["slot"].get<int>()};
    if (!It->second->Logged.emplace(Key, std::move(R.Value)).second)
      return Error::at(R.Origin, describeRecord(R) + ": logged twice in " +
                                     LogPath);
  }
  return Error::success();
}

std::vector<Attempt> SearchRun::historyOf(const TaskState &T, int Round,
                                          int Slot) const {
  std::vector<Attempt> History;
  for (; Round >= 1 && Slot >= 0; --Round) {
    const TreeNode &N = T.Tree.at({Round, Slot});
    History.push_back(N.AsAttempt);
    Slot = N.Node.Parent;
  }
  std::reverse(History.begin(), History.end());
  return History;
}

bool SearchRun::addToTree(TaskState &T, const Json &Value, int Parent) {
  auto Score = scoreSearchRecord({Value, {"search.jsonl", 0, 0}});
  if (!Score) {
    fail(Score.error());
    return false;
  }
  TreeNode N;
  N.Node.Round = Value["search"]["round"].get<int>();
  N.Node.Slot = Value["search"]["slot"].get<int>();
  N.Node.Parent = Parent;
  N.Node.Score = Score->Score;
  N.Node.Correct = Score->Correct;
  N.Speedup = Score->Speedup;
  N.Id = Value.value("id", "");
  N.AsAttempt = {N.Node.Round, Value.value("code", ""),
                 Value.value("summary", ""), Value.value("feedback", "")};
  if (fieldIsTrue(Value, field::ParseOk) &&
      !findField(Value, "search.same_code_as"))
    T.Verdicts.emplace(N.AsAttempt.Code, Value);
  T.Tree[{N.Node.Round, N.Node.Slot}] = std::move(N);
  return true;
}

bool SearchRun::generate(TaskState &T, int Round, std::vector<Pending> &Todo) {
  // Children of one parent share a prompt: one request each.
  std::vector<std::vector<size_t>> Groups;
  std::map<int, size_t> GroupOf;
  for (size_t I = 0; I < Todo.size(); ++I) {
    auto [It, New] = GroupOf.emplace(Todo[I].Planned.Parent, Groups.size());
    if (New)
      Groups.emplace_back();
    Groups[It->second].push_back(I);
  }
  forEachConcurrently(Groups.size(), O.Run.MaxInFlight, [&](size_t G) {
    if (Failed)
      return;
    const std::vector<size_t> &Members = Groups[G];
    int Parent = Todo[Members.front()].Planned.Parent;
    BuiltPrompt Prompt =
        buildPrompt(Templates, T.Reference, historyOf(T, Round - 1, Parent),
                    O.Run.ContextBudgetTokens);
    std::vector<int> SlotsAsked;
    for (size_t I : Members)
      SlotsAsked.push_back(Todo[I].Planned.Slot);
    Expected<CompletionResult> Reply = [&] {
      SlotGuard Guard(Requests);
      return ThePolicy.complete(makeCompletionRequest(
          O.Run, T.Task->Id, Prompt, SlotsAsked, Round));
    }();
    if (!Reply)
      return fail(Reply.error());
    if (Reply->Choices.size() != Members.size())
      return fail(Error::make(ThePolicy.describe() + " returned " +
                              std::to_string(Reply->Choices.size()) +
                              " choices for n = " +
                              std::to_string(Members.size())));
    for (size_t C = 0; C < Members.size(); ++C) {
      Pending &P = Todo[Members[C]];
      CompletionResult One = *Reply;
      One.Choices = {Reply->Choices[C]};
      if (Members.size() > 1)
        One.Usage["shared_by_choices"] = Members.size();
      std::string Id = T.Task->Id + "#" + std::to_string(P.Planned.Slot) +
                       "#" + std::to_string(Round);
      ParsedResponse Parsed = parseResponse(One.Choices.front().Text);
      P.Record = makeTurnRecord(O.Run, ThePolicy,
                                {T.Task, P.Planned.Slot, Round, Id}, Prompt,
                                One, Parsed);
      P.Record["search"] = Json{{"strategy", strategyName(O.Strategy)},
                                {"label", searchLabel(O)},
                                {"budget", O.Budget},
                                {"round", Round},
                                {"slot", P.Planned.Slot},
                                {"parent", P.Planned.Parent < 0
                                               ? Json(nullptr)
                                               : Json(P.Planned.Parent)},
                                {"kernel", P.Kernel}};
      if (Parsed.HasCode)
        P.Code = Parsed.Code;
      else
        P.Record["parse"]["problem"] = Parsed.Problem;
    }
  });
  return !Failed;
}

bool SearchRun::evaluate(TaskState &T, std::vector<Pending> &Todo) {
  std::vector<size_t> Originals;
  std::map<std::string, size_t> FirstWithCode;
  for (size_t I = 0; I < Todo.size(); ++I) {
    Pending &P = Todo[I];
    if (P.Code.empty())
      continue;
    if (!O.EvaluateDuplicates) {
      if (auto Known = T.Verdicts.find(P.Code); Known != T.Verdicts.end()) {
        P.SameAsId = Known->second.value("id", "");
        continue;
      }
      auto [It, New] = FirstWithCode.emplace(P.Code, I);
      if (!New) {
        P.SameAs = static_cast<int>(It->second);
        continue;
      }
    }
    Originals.push_back(I);
  }
  forEachConcurrently(Originals.size(), O.Run.EvalJobs, [&](size_t K) {
    if (Failed)
      return;
    Pending &P = Todo[Originals[K]];
    std::string Path = O.Run.RunDir + "/candidates/" + T.Task->Id + "/round" +
                       std::to_string(P.Record["turn"].get<int>()) + "_slot" +
                       std::to_string(P.Planned.Slot) + ".py";
    Expected<Json> Evaluated = [&] {
      SlotGuard Guard(Evaluations);
      return evaluateTurnCode(O.Run, Pipeline, Path, P.Code, P.Record);
    }();
    if (!Evaluated)
      return fail(Evaluated.error().withContext("evaluating " +
                                                P.Record["id"].get<std::string>()));
    P.Record = std::move(*Evaluated);
    append(T, P);
  });
  return !Failed;
}

bool SearchRun::append(TaskState &T, Pending &P) {
  std::lock_guard<std::mutex> Lock(LogMutex);
  if (!P.SameAsId.empty()) {
    const Json *Verdict = &T.Verdicts.at(P.Code);
    Json Fresh = P.Record;
    P.Record["code"] = P.Code;
    P.Record["candidate_path"] = Verdict->value("candidate_path", "");
    for (const auto &[Key, Value] : Verdict->items())
      if (!Fresh.contains(Key) && Key != "code" && Key != "candidate_path" &&
          Key != "feedback")
        P.Record[Key] = Value;
    P.Record["search"]["same_code_as"] = P.SameAsId;
    ++Summary.KernelsReused;
  }
  P.Record["feedback"] = feedbackFor(Templates, P.Record);
  if (Error E = Log.append(P.Record)) {
    fail(E);
    return false;
  }
  ++Summary.KernelsRun;
  return addToTree(T, P.Record, P.Planned.Parent);
}

bool SearchRun::runRound(TaskState &T, int Round, int FirstKernel,
                         const std::vector<PlannedKernel> &Plan) {
  std::vector<Pending> Todo;
  for (size_t I = 0; I < Plan.size(); ++I) {
    auto Logged = T.Logged.find({Round, Plan[I].Slot});
    if (Logged == T.Logged.end()) {
      Todo.emplace_back();
      Todo.back().Planned = Plan[I];
      Todo.back().Kernel = FirstKernel + static_cast<int>(I);
      continue;
    }
    const Json *Parent = findField(Logged->second, "search.parent");
    bool Known = Parent && (Parent->is_null() || Parent->is_number_integer());
    if (!Known || (Parent->is_null() ? -1 : Parent->get<int>()) !=
                      Plan[I].Parent) {
      fail(Error::make("search.jsonl: kernel " +
                       Logged->second.value("id", std::string()) +
                       " has another parent than this search gives it; "
                       "was the log edited or the scoring changed?"));
      return false;
    }
    ++Summary.KernelsResumed;
    if (!addToTree(T, Logged->second, Plan[I].Parent))
      return false;
    T.Logged.erase(Logged);
  }
  if (Todo.empty())
    return true;
  if (!generate(T, Round, Todo) || !evaluate(T, Todo))
    return false;
  // Repeats of this round's kernels and answers without code, in order.
  for (Pending &P : Todo) {
    if (P.SameAs >= 0)
      P.SameAsId = Todo[P.SameAs].Record.value("id", "");
    if ((P.Code.empty() || !P.SameAsId.empty()) && !append(T, P))
      return false;
  }
  return true;
}

void SearchRun::report(const TaskState &T, int Round, int Spent) {
  SearchProgress Progress{T.Task->Id, Round, Spent, 0, 0};
  for (const auto &[Key, N] : T.Tree) {
    Progress.Correct += N.Node.Correct;
    if (N.Node.Correct && N.Speedup)
      Progress.BestSpeedup = std::max(Progress.BestSpeedup, *N.Speedup);
  }
  std::lock_guard<std::mutex> Lock(ReportMutex);
  if (OnRound)
    OnRound(Progress);
}

void SearchRun::searchTask(TaskState &T) {
  int Spent = 0;
  std::vector<SearchNode> Previous;
  for (int Round = 1; !Failed; ++Round) {
    std::vector<PlannedKernel> Plan =
        planRound(O, Round, Previous, O.Budget - Spent);
    if (Plan.empty())
      break;
    if (!runRound(T, Round, Spent + 1, Plan))
      return;
    Previous.clear();
    for (const PlannedKernel &K : Plan)
      Previous.push_back(T.Tree.at({Round, K.Slot}).Node);
    Spent += static_cast<int>(Plan.size());
    report(T, Round, Spent);
  }
  if (!Failed && !T.Logged.empty())
    fail(Error::make("search.jsonl: kernel " +
                     T.Logged.begin()->second.value("id", std::string()) +
                     " is not part of this search's plan"));
}

Expected<SearchSummary> SearchRun::run() {
  forEachConcurrently(Tasks.size(), O.Run.Jobs,
                      [&](size_t I) { searchTask(Tasks[I]); });
  if (Failed)
    return FirstError;
  for (const TaskState &T : Tasks) {
    double Best = 0;
    bool Solved = false;
    for (const auto &[Key, N] : T.Tree) {
      Summary.KernelsCorrect += N.Node.Correct;
      Solved |= N.Node.Correct;
      if (N.Node.Correct && N.Speedup)
        Best = std::max(Best, *N.Speedup);
    }
    Summary.TasksSolved += Solved;
    Summary.MeanBestSpeedup += Best;
  }
  Summary.Tasks = static_cast<int>(Tasks.size());
  if (Summary.Tasks)
    Summary.MeanBestSpeedup /= Summary.Tasks;
  return Summary;
}

} // namespace

Expected<SearchSummary>
runSearch(const SearchOptions &O, const PromptTemplates &Templates,
          Policy &ThePolicy, const StagePipeline &Pipeline,
          std::function<void(const SearchProgress &)> OnRound) {
  if (Error E = validateSearch(O))
    return E;
  std::error_code EC;
  std::filesystem::create_directories(O.Run.RunDir + "/candidates", EC);
  if (EC)
    return Error::inFile(O.Run.RunDir, EC.message());
  Json Shape = {{"strategy", strategyName(O.Strategy)},
                {"budget", O.Budget},
                {"turns", O.Strategy == SearchStrategy::Serial ? O.Run.Turns
                                                                : 0},
                {"beam_width", O.Strategy == SearchStrategy::Beam ? O.BeamWidth
                                                                   : 0},
                {"branching", O.Strategy == SearchStrategy::Beam ? O.Branching
                                                                  : 0},
                {"evaluate_duplicates", O.EvaluateDuplicates}};
  if (Error E = checkOrWriteIdentity(O.Run.RunDir + "/search.json",
                                     runIdentity(O.Run, ThePolicy, Shape)))
    return E;
  std::string LogPath = O.Run.RunDir + "/search.jsonl";
  std::vector<Error> Warnings;
  auto Logged = readResumableLog(LogPath, Warnings);
  if (!Logged)
    return Logged.error();
  auto Log = DurableRecordLog::open(LogPath);
  if (!Log)
    return Log.error();
  SearchRun Run(O, Templates, ThePolicy, Pipeline, *Log, std::move(OnRound));
  if (Error E = Run.restore(std::move(*Logged), LogPath))
    return E;
  auto Summary = Run.run();
  if (Summary)
    Summary->Warnings = std::move(Warnings);
  return Summary;
}

} // namespace kevin
