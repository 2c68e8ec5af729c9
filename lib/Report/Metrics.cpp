//===-- Metrics.cpp - metrics over a run's records ------------------------===//
//
// Reading kernels from records, grouping them into trajectories and tasks,
// and the per-task, per-turn and overall metrics.
//
//===----------------------------------------------------------------------===//
#include "kevin/Report/Metrics.h"
#include "kevin/Reward/Reward.h"
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
  auto Add = [&](const Record &R) -> Error {
    const Json *Task = findField(R.Value, "task_id");
    int64_t Ordinal =
        Task && Task->is_string() ? Ordinals[Task->get<std::string>()]++ : 0;
    auto K = readKernelSample(R, Opts, Ordinal);
    if (!K)
      return K.error();
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
  return Samples;
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
    if (!K.Correct)
      ++Report.Failures[K.Failure];
    for (const std::string &Rule : K.Rules)
      ++Report.Rules[Rule];
  }

  size_t P = Opts.FastP.size(), KCount = Opts.PassK.size();
  std::vector<double> Zero(P, 0.0);
  std::vector<std::vector<double>> PassSums(KCount);
  std::vector<double> SoFarSpeedup(static_cast<size_t>(MaxTurn), 0.0);
  std::vector<size_t> TurnKernels(static_cast<size_t>(MaxTurn), 0),
      TurnCorrect(static_cast<size_t>(MaxTurn), 0);
  std::vector<size_t> SoFarCount(static_cast<size_t>(MaxTurn), 0);
  size_t TrajectoryCount = 0;

  for (const std::string &Id : TaskOrder) {
    TaskMetrics T;
    T.TaskId = Id;
    T.BestFast = Zero;
    T.AvgFast = Zero;
    size_t CorrectTrajectories = 0;
    for (auto &[Index, Traj] : Tasks[Id]) {
      std::sort(Traj.ByTurn.begin(), Traj.ByTurn.end(),
                [](const KernelSample *A, const KernelSample *B) {
                  return A->Turn < B->Turn;
                });
      ++TrajectoryCount;
      T.Kernels += Traj.ByTurn.size();
      // Walk the turns, tracking correctness and the best speedup so far.
      bool Correct = false;
      double Best = 0;
      size_t Next = 0;
      for (int64_t Turn = 1; Turn <= MaxTurn; ++Turn) {
        size_t Slot = static_cast<size_t>(Turn - 1);
        for (; Next < Traj.ByTurn.size() && Traj.ByTurn[Next]->Turn == Turn;
             ++Next) {
          const KernelSample &K = *Traj.ByTurn[Next];
          ++TurnKernels[Slot];
          if (!K.Correct)
            continue;
          ++TurnCorrect[Slot];
          Correct = true;
          if (K.Speedup)
            Best = std::max(Best, *K.Speedup);
        }
        SoFarCount[Slot] += Correct;
        SoFarSpeedup[Slot] += Best;
      }
      Traj.Correct = Correct;
      Traj.Performance = Best;
      CorrectTrajectories += Correct;
      T.AvgCorrect += Correct;
      T.BestCorrect = std::max(T.BestCorrect, Correct ? 1.0 : 0.0);
      T.AvgSpeedup += Best;
      T.BestSpeedup = std::max(T.BestSpeedup, Best);
      if (Correct)
        Report.CorrectSpeedups.push_back(Best);
      for (size_t I = 0; I < P; ++I) {
        bool Fast = Correct && Best >= Opts.FastP[I];
        T.AvgFast[I] += Fast;
        T.BestFast[I] = std::max(T.BestFast[I], Fast ? 1.0 : 0.0);
      }
    }
    T.Trajectories = Tasks[Id].size();
    double N = static_cast<double>(T.Trajectories);
    T.AvgCorrect /= N;
    T.AvgSpeedup /= N;
    for (double &F : T.AvgFast)
      F /= N;
    for (size_t I = 0; I < KCount; ++I) {
      unsigned K = Opts.PassK[I];
      if (K >= 1 && K <= T.Trajectories) {
        T.PassAtK.push_back(passAtK(T.Trajectories, CorrectTrajectories, K));
        PassSums[I].push_back(*T.PassAtK.back());
      } else {
        T.PassAtK.push_back(std::nullopt);
      }
    }
    Report.Tasks.push_back(std::move(T));
  }

  TaskMetrics &O = Report.Overall;
  O.TaskId = "(all tasks)";
  O.BestFast = Zero;
  O.AvgFast = Zero;
  for (const TaskMetrics &T : Report.Tasks) {
    O.Trajectories += T.Trajectories;
    O.Kernels += T.Kernels;
    O.BestCorrect += T.BestCorrect;
    O.AvgCorrect += T.AvgCorrect;
    O.BestSpeedup += T.BestSpeedup;
    O.AvgSpeedup += T.AvgSpeedup;
    for (size_t I = 0; I < P; ++I) {
      O.BestFast[I] += T.BestFast[I];
      O.AvgFast[I] += T.AvgFast[I];
    }
  }
  if (!Report.Tasks.empty()) {
    double N = static_cast<double>(Report.Tasks.size());
    O.BestCorrect /= N;
    O.AvgCorrect /= N;
    O.BestSpeedup /= N;
    O.AvgSpeedup /= N;
    for (size_t I = 0; I < P; ++I) {
      O.BestFast[I] /= N;
      O.AvgFast[I] /= N;
    }
  }
  for (size_t I = 0; I < KCount; ++I)
    O.PassAtK.push_back(PassSums[I].empty()
                            ? std::nullopt
                            : std::optional<double>(mean(PassSums[I])));

  for (int64_t Turn = 1; Turn <= MaxTurn; ++Turn) {
    size_t Slot = static_cast<size_t>(Turn - 1);
    TurnPoint Point;
    Point.Turn = Turn;
    Point.Kernels = TurnKernels[Slot];
    if (Point.Kernels)
      Point.CorrectRate =
          static_cast<double>(TurnCorrect[Slot]) / Point.Kernels;
    if (TrajectoryCount) {
      Point.CorrectSoFar =
          static_cast<double>(SoFarCount[Slot]) / TrajectoryCount;
      Point.MeanBestSpeedup = SoFarSpeedup[Slot] / TrajectoryCount;
    }
    Report.Turns.push_back(Point);
  }
  Report.Stability = stability(Samples);
  return Report;
}

} // namespace kevin
