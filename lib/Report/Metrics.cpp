//===-- Metrics.cpp - metrics over a run's records ------------------------===//
//
// Reading kernels from records, grouping them into trajectories and tasks,
// and the per-task, per-turn and overall metrics.
//
//===----------------------------------------------------------------------===//
#include "kevin/Report/Metrics.h"
#include "kevin/GRPO/Advantage.h"
#include "kevin/Reward/Reward.h"
#include "kevin/Support/FileSystem.h"
#include "kevin/Support/RecordFields.h"
#include "kevin/Support/ToolIO.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <iterator>
#include <set>
#include <string_view>
#include <sys/stat.h>
#include <unordered_map>
#include <unordered_set>

namespace kevin {

static std::optional<std::string> stringField(const Json &Value,
                                              const char *Path) {
  const Json *Field = findField(Value, Path);
  if (Field && Field->is_string())
    return Field->get<std::string>();
  return std::nullopt;
}

static std::optional<double> numberField(const Json &Value, const char *Path) {
  const Json *Field = findField(Value, Path);
  if (Field && Field->is_number())
    return Field->get<double>();
  return std::nullopt;
}

static std::vector<std::string> stringList(const Json &Value,
                                           const char *Path) {
  std::vector<std::string> Items;
  if (const Json *List = findField(Value, Path); List && List->is_array())
    for (const Json &Item : *List)
      if (Item.is_string())
        Items.push_back(Item.get<std::string>());
  return Items;
}

/// The RL signal, the review flags and the cost that a record carries.
static void readSignalAndCost(const Json &Value, KernelSample &K) {
  K.Timed = findField(Value, "bench") ||
            numberField(Value, field::RewardSpeedup).has_value();
  if (auto Score = numberField(Value, field::RewardScore))
    K.Score = *Score;
  K.Return = numberField(Value, field::RewardReturn);
  K.Advantage = numberField(Value, "grpo.advantage");
  K.Group = stringField(Value, "grpo.group").value_or("");
  K.ReviewFlags = stringList(Value, field::BenchFlags);
  auto Build = numberField(Value, "build.seconds");
  auto Ahead = numberField(Value, "build_ahead.seconds");
  if (Build || Ahead)
    K.Seconds.Build = Build.value_or(0) + Ahead.value_or(0);
  K.Seconds.Run = numberField(Value, "run.seconds.total");
  K.Seconds.Bench = numberField(Value, "bench.seconds.total");
  K.Device = stringField(Value, "device").value_or("");
}

/// What the drill-down shows of a record's kernel K.
static KernelDetails readKernelDetails(const Json &Value,
                                       const KernelSample &K) {
  KernelDetails D;
  D.Id = stringField(Value, "id").value_or("");
  if (auto Code = stringField(Value, "code"))
    D.Code = *Code;
  else if (auto Path = stringField(Value, "candidate_path"))
    D.Code = fs::readFileOrEmpty(*Path);
  else
    D.Response = stringField(Value, "response").value_or("");
  D.Outcome = K.Correct ? "correct" : K.Failure;
  for (const char *Path :
       {field::ParseProblem, field::RunMessage, "bench.message"})
    if (auto Message = stringField(Value, Path); Message && !Message->empty())
      D.Message = *Message;
  D.Feedback = stringField(Value, "feedback").value_or("");
  if (const Json *Findings = findField(Value, field::CheckFindings);
      Findings && Findings->is_array())
    for (const Json &F : *Findings) {
      KernelDetails::Finding Entry;
      Entry.Rule = stringField(F, "rule").value_or("");
      Entry.Severity = stringField(F, "severity").value_or("");
      Entry.Message = stringField(F, "message").value_or("");
      if (const Json *Line = findField(F, "line");
          Line && Line->is_number_integer())
        Entry.Line = Line->get<int64_t>();
      D.Findings.push_back(std::move(Entry));
    }
  return D;
}

Expected<KernelSample>
readKernelSample(const Record &R, const ReportOptions &Opts, int64_t Ordinal) {
  KernelSample K;
  if (Error Err = checkRequiredFields(R, {{"task_id", JsonKind::String}}))
    return Err;
  K.TaskId = R.Value["task_id"].get<std::string>();
  auto Key = readTurnKey(R);
  if (!Key)
    return Key.error();
  if (*Key) {
    K.Trajectory = (*Key)->Trajectory;
    K.Turn = (*Key)->Turn;
  } else {
    K.Trajectory = Ordinal;
  }

  bool ParseFailed = false, CheckFailed = false;
  if (findField(R.Value, "reward")) {
    if (Error Err =
            checkRequiredFields(R, {{field::RewardCorrect, JsonKind::Boolean}}))
      return Err;
    K.Correct = R.Value["reward"]["correct"].get<bool>();
    const Json *Speedup = findField(R.Value, field::RewardSpeedup);
    if (K.Correct && Speedup && Speedup->is_number())
      K.Speedup = Speedup->get<double>();
    if (const Json *Flags = findField(R.Value, field::RewardFlags);
        Flags && Flags->is_array()) {
      auto Has = [&](const char *Flag) {
        return std::find(Flags->begin(), Flags->end(), Flag) != Flags->end();
      };
      ParseFailed = Has(score_flag::ParseFailed);
      CheckFailed = Has(score_flag::CheckFailed);
    }
  } else {
    auto Result = readKernelResult(R);
    if (!Result)
      return Result.error();
    KernelScore S = scoreKernel(*Result, Opts.Score);
    K.Correct = S.Correct;
    K.Speedup = S.Speedup;
    K.Score = S.Score;
    ParseFailed = Result->ParseFailed;
    CheckFailed = Result->CheckFailed;
  }
  if (!K.Correct) {
    auto Stage = stringField(R.Value, field::RunStage);
    auto Outcome = stringField(R.Value, field::RunOutcome);
    if (ParseFailed)
      K.Failure = "parse";
    else if (CheckFailed)
      K.Failure = "check";
    else if (Stage || Outcome)
      K.Failure = Stage.value_or("?") + "/" + Outcome.value_or("?");
    else
      K.Failure = "not-run";
  }
  if (const Json *Findings = findField(R.Value, field::CheckFindings)) {
    std::set<std::string> Rules;
    if (Findings->is_array())
      for (const Json &F : *Findings)
        if (auto Rule = stringField(F, "rule"))
          Rules.insert(*Rule);
    K.Rules.assign(Rules.begin(), Rules.end());
  }
  if (const Json *Response = findField(R.Value, "response");
      Response && Response->is_string()) {
    const std::string &Text = Response->get_ref<const std::string &>();
    K.Response =
        KernelSample::ResponseStats{startsWithPrefix(Text, Opts.OkayPrefix),
                                    repetitionScore(Text), Text.size()};
  }
  if (const Json *Tokens = findField(R.Value, field::UsageCompletionTokens);
      Tokens && Tokens->is_number_integer())
    K.CompletionTokens = Tokens->get<int64_t>();
  else if (const Json *Ids = findField(R.Value, "completion_token_ids");
           Ids && Ids->is_array())
    K.CompletionTokens = static_cast<int64_t>(Ids->size());
  K.FinishReason = stringField(R.Value, "finish_reason");
  readSignalAndCost(R.Value, K);
  return K;
}

/// The number of File's last line when it does not end with a newline, else
/// 0; File is left at its start.
static unsigned unterminatedLastLine(std::istream &File) {
  unsigned LastLine = 0;
  if (File.seekg(0, std::ios::end).tellg() > 0) {
    File.seekg(-1, std::ios::end);
    if (File.get() != '\n') {
      File.seekg(0);
      LastLine = 1 + static_cast<unsigned>(
                         std::count(std::istreambuf_iterator<char>(File),
                                    std::istreambuf_iterator<char>(), '\n'));
    }
  }
  File.clear();
  File.seekg(0);
  return LastLine;
}

Expected<std::vector<KernelSample>>
readRunSamples(const std::vector<std::string> &Paths, const ReportOptions &Opts,
               std::vector<Error> &Warnings) {
  std::vector<KernelSample> Samples;
  std::unordered_map<std::string, int64_t> Ordinals;
  std::set<std::pair<std::string, int64_t>> Detailed;
  auto Add = [&](const Record &R) -> Error {
    const Json *Task = findField(R.Value, "task_id");
    int64_t Ordinal =
        Task && Task->is_string() ? Ordinals[Task->get<std::string>()]++ : 0;
    auto K = readKernelSample(R, Opts, Ordinal);
    if (!K)
      return K.error();
    std::pair<std::string, int64_t> Trajectory{K->TaskId, K->Trajectory};
    if (Detailed.count(Trajectory) ||
        Detailed.size() < Opts.DetailTrajectories) {
      Detailed.insert(Trajectory);
      K->Details =
          std::make_shared<const KernelDetails>(readKernelDetails(R.Value, *K));
    }
    Samples.push_back(std::move(*K));
    return Error::success();
  };
  // Reads a stream; LastLine, when not 0, is a final line without a newline,
  // which may be a write cut short by a kill (DurableRecordLog): if it does
  // not parse, it is dropped with a warning.
  auto ReadAll = [&](std::istream &In, const std::string &Name,
                     unsigned LastLine) -> Error {
    RecordReader Reader(In, Name);
    Record R;
    while (true) {
      auto More = Reader.next(R);
      if (!More) {
        if (LastLine && More.error().location().Line == LastLine) {
          Warnings.push_back(Error::inFile(
              Name, "dropped a torn last line (a write cut short)"));
          return Error::success();
        }
        return More.error();
      }
      if (!*More)
        return Error::success();
      if (Error Err = Add(R))
        return Err;
    }
  };
  for (const std::string &Path : Paths) {
    struct stat St;
    if (Path != "-" && ::stat(Path.c_str(), &St) == 0 && S_ISDIR(St.st_mode))
      return Error::inFile(Path, "is a directory (give the run's record "
                                 "files, e.g. 'RUN/turns.jsonl')");
    Expected<ToolInput> Input = ToolInput::open(Path);
    if (!Input)
      return Input.error();
    std::istream &In = Input->stream();
    unsigned LastLine = Input->isFile() ? unterminatedLastLine(In) : 0;
    if (Error Err = ReadAll(In, Input->name(), LastLine))
      return Err;
  }
  deriveSignals(Samples);
  return Samples;
}

/// The kernels of each trajectory, in turn order, keyed by task and index.
using TrajectoryIndex =
    std::map<std::pair<std::string, int64_t>, std::vector<KernelSample *>>;

void deriveSignals(std::vector<KernelSample> &Samples) {
  TrajectoryIndex Trajectories;
  for (KernelSample &K : Samples)
    Trajectories[{K.TaskId, K.Trajectory}].push_back(&K);
  RewardOptions Defaults;
  for (auto &[Key, Kernels] : Trajectories) {
    std::stable_sort(Kernels.begin(), Kernels.end(),
                     [](const KernelSample *A, const KernelSample *B) {
                       return A->Turn < B->Turn;
                     });
    std::vector<double> Scores;
    for (const KernelSample *K : Kernels)
      Scores.push_back(K->Score);
    std::vector<double> Returns =
        discountedReturns(Scores, Defaults.Mode, Defaults.Gamma);
    for (size_t I = 0; I < Kernels.size(); ++I)
      if (!Kernels[I]->Return)
        Kernels[I]->Return = Returns[I];
  }
  std::map<std::string, std::vector<KernelSample *>> Groups;
  for (KernelSample &K : Samples)
    Groups[K.Group.empty() ? K.TaskId : K.Group].push_back(&K);
  for (auto &[Name, Members] : Groups) {
    std::vector<double> Returns;
    for (const KernelSample *K : Members)
      Returns.push_back(*K->Return);
    GroupStats Stats;
    std::vector<double> Advantages =
        groupAdvantages(Returns, AdvantageOptions(), Stats);
    for (size_t I = 0; I < Members.size(); ++I)
      if (!Members[I]->Advantage)
        Members[I]->Advantage = Advantages[I];
  }
}

std::string taskLevel(const std::string &TaskId) {
  size_t Slash = TaskId.find('/');
  return Slash == std::string::npos || Slash == 0 ? "(none)"
                                                  : TaskId.substr(0, Slash);
}

double passAtK(size_t N, size_t C, size_t K) {
  if (N - C < K)
    return 1.0;
  // 1 - prod_{i = N-C+1}^{N} (1 - K / i), the numerically stable form.
  double NoneCorrect = 1.0;
  for (size_t I = N - C + 1; I <= N; ++I)
    NoneCorrect *= 1.0 - static_cast<double>(K) / static_cast<double>(I);
  return 1.0 - NoneCorrect;
}

bool startsWithPrefix(std::string_view Response, std::string_view Prefix) {
  auto SkipSpace = [&] {
    while (!Response.empty() &&
           std::isspace(static_cast<unsigned char>(Response.front())))
      Response.remove_prefix(1);
  };
  SkipSpace();
  constexpr std::string_view Think = "<think>";
  if (Response.substr(0, Think.size()) == Think) {
    Response.remove_prefix(Think.size());
    SkipSpace();
  }
  return Response.substr(0, Prefix.size()) == Prefix;
}

double repetitionScore(std::string_view Text) {
  std::vector<std::string_view> Words;
  size_t I = 0;
  while (I < Text.size()) {
    while (I < Text.size() && std::isspace(static_cast<unsigned char>(Text[I])))
      ++I;
    size_t Start = I;
    while (I < Text.size() &&
           !std::isspace(static_cast<unsigned char>(Text[I])))
      ++I;
    if (I > Start)
      Words.push_back(Text.substr(Start, I - Start));
  }
  if (Words.size() < 4)
    return 0.0;
  std::unordered_set<std::string> Seen;
  size_t Grams = Words.size() - 3, Repeated = 0;
  for (size_t W = 0; W < Grams; ++W) {
    std::string Gram;
    for (size_t J = 0; J < 4; ++J) {
      Gram.append(Words[W + J]);
      Gram += ' ';
    }
    Repeated += !Seen.insert(std::move(Gram)).second;
  }
  return static_cast<double>(Repeated) / static_cast<double>(Grams);
}

namespace {

struct TrajectoryView {
  std::vector<const KernelSample *> ByTurn; ///< sorted by turn
  bool Correct = false;
  double Performance = 0;
};

double mean(const std::vector<double> &V) {
  if (V.empty())
    return 0;
  double Sum = 0;
  for (double X : V)
    Sum += X;
  return Sum / static_cast<double>(V.size());
}

/// The nearest-rank percentile of sorted values.
double percentile(const std::vector<double> &Sorted, double P) {
  if (Sorted.empty())
    return 0;
  size_t Rank = static_cast<size_t>(
      std::ceil(P / 100.0 * static_cast<double>(Sorted.size())));
  return Sorted[std::min(Sorted.size() - 1, Rank ? Rank - 1 : 0)];
}

StabilitySignals stability(const std::vector<KernelSample> &Samples) {
  StabilitySignals S;
  std::vector<double> Chars, Tokens, Repetition;
  size_t NotOkay = 0, Truncated = 0;
  for (const KernelSample &K : Samples) {
    if (K.FinishReason) {
      ++S.WithFinishReason;
      Truncated += *K.FinishReason == "length";
    }
    if (K.CompletionTokens)
      Tokens.push_back(static_cast<double>(*K.CompletionTokens));
    if (!K.Response)
      continue;
    ++S.Responses;
    NotOkay += !K.Response->StartsOkay;
    Chars.push_back(static_cast<double>(K.Response->Chars));
    Repetition.push_back(K.Response->Repetition);
  }
  std::sort(Chars.begin(), Chars.end());
  std::sort(Tokens.begin(), Tokens.end());
  if (S.Responses) {
    S.NotOkayRatio = static_cast<double>(NotOkay) / S.Responses;
    S.MeanRepetition = mean(Repetition);
    S.MaxRepetition = *std::max_element(Repetition.begin(), Repetition.end());
    S.MeanChars = mean(Chars);
    S.P50Chars = percentile(Chars, 50);
    S.P95Chars = percentile(Chars, 95);
    S.MaxChars = Chars.back();
  }
  S.WithTokens = Tokens.size();
  if (!Tokens.empty()) {
    S.MeanTokens = mean(Tokens);
    S.P95Tokens = percentile(Tokens, 95);
    S.MaxTokens = Tokens.back();
  }
  if (S.WithFinishReason)
    S.TruncatedShare = static_cast<double>(Truncated) / S.WithFinishReason;
  return S;
}

} // namespace

namespace {

/// Per-turn sums over all trajectories, slot t-1 for turn t.
struct TurnSums {
  explicit TurnSums(int64_t MaxTurn)
      : Kernels(static_cast<size_t>(MaxTurn)),
        Correct(static_cast<size_t>(MaxTurn)),
        CorrectSoFar(static_cast<size_t>(MaxTurn)),
        BestSoFar(static_cast<size_t>(MaxTurn)) {}
  std::vector<size_t> Kernels, Correct, CorrectSoFar;
  std::vector<double> BestSoFar;
  size_t Trajectories = 0;
};

/// Walks a trajectory's turns (sorted), adding to Sums; sets its
/// correctness and performance.
void walkTrajectory(TrajectoryView &Traj, TurnSums &Sums) {
  bool Correct = false;
  double Best = 0;
  size_t Next = 0;
  ++Sums.Trajectories;
  for (size_t Slot = 0; Slot < Sums.Kernels.size(); ++Slot) {
    int64_t Turn = static_cast<int64_t>(Slot) + 1;
    for (; Next < Traj.ByTurn.size() && Traj.ByTurn[Next]->Turn == Turn;
         ++Next) {
      const KernelSample &K = *Traj.ByTurn[Next];
      ++Sums.Kernels[Slot];
      if (!K.Correct)
        continue;
      ++Sums.Correct[Slot];
      Correct = true;
      if (K.Speedup)
        Best = std::max(Best, *K.Speedup);
    }
    Sums.CorrectSoFar[Slot] += Correct;
    Sums.BestSoFar[Slot] += Best;
  }
  Traj.Correct = Correct;
  Traj.Performance = Best;
}

/// The metrics of one task over its trajectories.
TaskMetrics measureTask(const std::string &Id,
                        std::map<int64_t, TrajectoryView> &Trajectories,
                        const ReportOptions &Opts, TurnSums &Sums,
                        std::vector<double> &CorrectSpeedups) {
  TaskMetrics T;
  T.TaskId = Id;
  T.BestFast.assign(Opts.FastP.size(), 0.0);
  T.AvgFast.assign(Opts.FastP.size(), 0.0);
  size_t CorrectTrajectories = 0;
  for (auto &[Index, Traj] : Trajectories) {
    std::sort(Traj.ByTurn.begin(), Traj.ByTurn.end(),
              [](const KernelSample *A, const KernelSample *B) {
                return A->Turn < B->Turn;
              });
    T.Kernels += Traj.ByTurn.size();
    walkTrajectory(Traj, Sums);
    bool Correct = Traj.Correct;
    double Best = Traj.Performance;
    CorrectTrajectories += Correct;
    T.AvgCorrect += Correct;
    T.BestCorrect = std::max(T.BestCorrect, Correct ? 1.0 : 0.0);
    T.AvgSpeedup += Best;
    T.BestSpeedup = std::max(T.BestSpeedup, Best);
    if (Correct)
      CorrectSpeedups.push_back(Best);
    for (size_t I = 0; I < Opts.FastP.size(); ++I) {
      bool Fast = Correct && Best >= Opts.FastP[I];
      T.AvgFast[I] += Fast;
      T.BestFast[I] = std::max(T.BestFast[I], Fast ? 1.0 : 0.0);
    }
  }
  T.Trajectories = Trajectories.size();
  double N = static_cast<double>(T.Trajectories);
  T.AvgCorrect /= N;
  T.AvgSpeedup /= N;
  for (double &F : T.AvgFast)
    F /= N;
  for (unsigned K : Opts.PassK)
    T.PassAtK.push_back(K >= 1 && K <= T.Trajectories
                            ? std::optional<double>(passAtK(
                                  T.Trajectories, CorrectTrajectories, K))
                            : std::nullopt);
  return T;
}

std::vector<TurnPoint> turnCurve(const TurnSums &Sums) {
  std::vector<TurnPoint> Turns;
  for (size_t Slot = 0; Slot < Sums.Kernels.size(); ++Slot) {
    TurnPoint Point;
    Point.Turn = static_cast<int64_t>(Slot) + 1;
    Point.Kernels = Sums.Kernels[Slot];
    if (Point.Kernels)
      Point.CorrectRate =
          static_cast<double>(Sums.Correct[Slot]) / Point.Kernels;
    if (Sums.Trajectories) {
      Point.CorrectSoFar =
          static_cast<double>(Sums.CorrectSoFar[Slot]) / Sums.Trajectories;
      Point.MeanBestSpeedup = Sums.BestSoFar[Slot] / Sums.Trajectories;
    }
    Turns.push_back(Point);
  }
  return Turns;
}

/// S, R and A of every kernel; a group (`grpo.group`, else the task) has
/// zero variance when all of its returns are equal.
RLSignal rlSignal(const std::vector<KernelSample> &Samples) {
  RLSignal Signal;
  std::map<std::string, std::pair<double, bool>> Groups; // first R, all equal
  for (const KernelSample &K : Samples) {
    double Return = K.Return.value_or(K.Score);
    Signal.Scores.push_back(K.Score);
    Signal.Returns.push_back(Return);
    Signal.Advantages.push_back(K.Advantage.value_or(0));
    auto [It, Inserted] =
        Groups.try_emplace(K.Group.empty() ? K.TaskId : K.Group, Return, true);
    if (!Inserted)
      It->second.second = It->second.second && It->second.first == Return;
  }
  Signal.Groups = Groups.size();
  for (const auto &[Name, Group] : Groups)
    Signal.ZeroVarianceGroups += Group.second;
  return Signal;
}

std::vector<StageCost> stageCosts(const std::vector<KernelSample> &Samples) {
  std::vector<StageCost> Costs = {{"build"}, {"run"}, {"bench"}};
  auto Add = [](StageCost &Cost, const std::optional<double> &Seconds) {
    if (!Seconds)
      return;
    ++Cost.Kernels;
    Cost.Seconds += *Seconds;
    Cost.MaxSeconds = std::max(Cost.MaxSeconds, *Seconds);
  };
  for (const KernelSample &K : Samples) {
    Add(Costs[0], K.Seconds.Build);
    Add(Costs[1], K.Seconds.Run);
    Add(Costs[2], K.Seconds.Bench);
  }
  return Costs;
}

} // namespace

TaskMetrics meanOverTasks(const std::string &Name,
                          const std::vector<const TaskMetrics *> &Tasks,
                          const ReportOptions &Opts) {
  TaskMetrics O;
  O.TaskId = Name;
  size_t P = Opts.FastP.size();
  O.BestFast.assign(P, 0.0);
  O.AvgFast.assign(P, 0.0);
  for (const TaskMetrics *T : Tasks) {
    O.Trajectories += T->Trajectories;
    O.Kernels += T->Kernels;
    O.BestCorrect += T->BestCorrect;
    O.AvgCorrect += T->AvgCorrect;
    O.BestSpeedup += T->BestSpeedup;
    O.AvgSpeedup += T->AvgSpeedup;
    for (size_t I = 0; I < P; ++I) {
      O.BestFast[I] += T->BestFast[I];
      O.AvgFast[I] += T->AvgFast[I];
    }
  }
  if (!Tasks.empty()) {
    double N = static_cast<double>(Tasks.size());
    for (double *V :
         {&O.BestCorrect, &O.AvgCorrect, &O.BestSpeedup, &O.AvgSpeedup})
      *V /= N;
    for (size_t I = 0; I < P; ++I) {
      O.BestFast[I] /= N;
      O.AvgFast[I] /= N;
    }
  }
  for (size_t I = 0; I < Opts.PassK.size(); ++I) {
    std::vector<double> Values;
    for (const TaskMetrics *T : Tasks)
      if (I < T->PassAtK.size() && T->PassAtK[I])
        Values.push_back(*T->PassAtK[I]);
    O.PassAtK.push_back(Values.empty() ? std::nullopt
                                       : std::optional<double>(mean(Values)));
  }
  return O;
}

RunReport computeReport(const std::vector<KernelSample> &Samples,
                        const ReportOptions &Opts) {
  RunReport Report;
  Report.Records = Samples.size();
  // Tasks in order of first appearance; trajectories by index.
  std::vector<std::string> TaskOrder;
  std::unordered_map<std::string, std::map<int64_t, TrajectoryView>> Tasks;
  int64_t MaxTurn = 0;
  for (const KernelSample &K : Samples) {
    auto [It, Inserted] = Tasks.try_emplace(K.TaskId);
    if (Inserted)
      TaskOrder.push_back(K.TaskId);
    It->second[K.Trajectory].ByTurn.push_back(&K);
    MaxTurn = std::max(MaxTurn, K.Turn);
    Report.Timed = Report.Timed || K.Timed;
    if (!K.Correct)
      ++Report.Failures[K.Failure];
    for (const std::string &Rule : K.Rules)
      ++Report.Rules[Rule];
    if (!K.ReviewFlags.empty())
      Report.Flagged.push_back(
          {K.TaskId, K.Trajectory, K.Turn, K.ReviewFlags, K.Speedup});
  }

  TurnSums Sums(MaxTurn);
  for (const std::string &Id : TaskOrder)
    Report.Tasks.push_back(
        measureTask(Id, Tasks[Id], Opts, Sums, Report.CorrectSpeedups));

  std::vector<const TaskMetrics *> All;
  std::vector<std::string> LevelOrder;
  std::map<std::string, std::vector<const TaskMetrics *>> ByLevel;
  for (const TaskMetrics &T : Report.Tasks) {
    All.push_back(&T);
    auto &Members = ByLevel[taskLevel(T.TaskId)];
    if (Members.empty())
      LevelOrder.push_back(taskLevel(T.TaskId));
    Members.push_back(&T);
  }
  Report.Overall = meanOverTasks("(all tasks)", All, Opts);
  for (const std::string &Level : LevelOrder)
    Report.Levels.push_back(meanOverTasks(Level, ByLevel[Level], Opts));
  Report.Turns = turnCurve(Sums);
  Report.Stability = stability(Samples);
  Report.Signal = rlSignal(Samples);
  Report.Costs = stageCosts(Samples);
  return Report;
}

} // namespace kevin
