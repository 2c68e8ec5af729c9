//===-- Reward.cpp - the kevin-reward pass over records -------------------===//
//
// Streaming, holding and trajectory bookkeeping for kevin-reward: duplicate
// turns are caught as they arrive, missing turns at the end of the input.
//
//===----------------------------------------------------------------------===//
#include "kevin/Reward/Reward.h"
#include "kevin/Reward/SectionWriter.h"
#include "kevin/Support/RecordFields.h"

#include <charconv>
#include <cmath>
#include <unordered_map>
#include <vector>

namespace kevin {

Error validateRewardOptions(const RewardOptions &Opts) {
  if (!(Opts.Gamma >= 0))
    return Error::make("--gamma must be >= 0");
  if (Opts.Score.SpeedupCap && !(*Opts.Score.SpeedupCap > 0))
    return Error::make("--speedup-cap must be > 0");
  if (!(Opts.Score.FlagPenalty >= 0))
    return Error::make("--flag-penalty must be >= 0");
  if (!std::isfinite(Opts.Score.CorrectWeight))
    return Error::make("--correct-weight must be a finite number");
  return Error::success();
}

double roundForOutput(double V) {
  if (!std::isfinite(V))
    return V;
  char Buffer[32];
  auto [End, Ec] = std::to_chars(Buffer, Buffer + sizeof(Buffer), V,
                                 std::chars_format::general, 15);
  double Rounded = V;
  std::from_chars(Buffer, End, Rounded);
  return Rounded;
}

static Expected<int64_t> readInteger(const Record &R, const Json &Field,
                                     const char *Name, int64_t Min) {
  if (!Field.is_number_integer())
    return Error::at(R.Origin, describeRecord(R) + ": field '" + Name +
                                   "' must be an integer, not " +
                                   Field.type_name());
  int64_t Value = Field.get<int64_t>();
  if (Value < Min)
    return Error::at(R.Origin, describeRecord(R) + ": field '" + Name +
                                   "' must be >= " + std::to_string(Min) +
                                   ", not " + std::to_string(Value));
  return Value;
}

Expected<std::optional<TurnKey>> readTurnKey(const Record &R) {
  const char *TrajectoryName = "trajectory";
  auto Traj = R.Value.find(TrajectoryName);
  if (Traj == R.Value.end()) {
    TrajectoryName = "trajectory_id";
    Traj = R.Value.find(TrajectoryName);
  }
  auto Turn = R.Value.find("turn");
  if (Traj == R.Value.end() && Turn == R.Value.end())
    return std::optional<TurnKey>();
  auto Missing = [&](const char *Name) {
    return Error::at(R.Origin, describeRecord(R) +
                                   ": missing required field '" + Name +
                                   "' (a multi-turn record has 'task_id', "
                                   "'trajectory' and 'turn')");
  };
  if (Traj == R.Value.end())
    return Missing("trajectory");
  if (Turn == R.Value.end())
    return Missing("turn");
  auto Task = R.Value.find("task_id");
  if (Task == R.Value.end())
    return Missing("task_id");
  if (!Task->is_string())
    return Error::at(R.Origin, describeRecord(R) +
                                   ": field 'task_id' must be a string, not " +
                                   Task->type_name());
  TurnKey Key;
  Key.TaskId = Task->get<std::string>();
  auto TrajIndex = readInteger(R, *Traj, TrajectoryName, 0);
  if (!TrajIndex)
    return TrajIndex.error();
  auto TurnIndex = readInteger(R, *Turn, "turn", 1);
  if (!TurnIndex)
    return TurnIndex.error();
  Key.Trajectory = *TrajIndex;
  Key.Turn = *TurnIndex;
  return std::optional<TurnKey>(std::move(Key));
}

namespace {

constexpr size_t NoIndex = static_cast<size_t>(-1);

struct HeldRecord {
  std::string Line;
  KernelScore Score;
  size_t Trajectory = NoIndex;
  double Return = 0.0;
};

struct Trajectory {
  TurnKey Key; ///< Turn unused.
  SourceLocation FirstSeen;
  std::vector<size_t> Turns; ///< Held indices by turn - 1.
  std::vector<unsigned> Lines;
  double BestScore = 0.0;
  std::optional<int64_t> FirstCorrectTurn;
};

std::string describeTrajectory(const TurnKey &Key) {
  return "task '" + Key.TaskId + "' trajectory " +
         std::to_string(Key.Trajectory);
}

/// The fields of the `reward` section every record gets; multi-turn records
/// add theirs before finish().
SectionWriter scoreSection(const KernelScore &Score, double Return) {
  SectionWriter Section;
  Section.number("score", Score.Score).boolean("correct", Score.Correct);
  if (Score.Speedup)
    Section.number("speedup", *Score.Speedup);
  else
    Section.null("speedup");
  std::string Flags = "[";
  for (const char *Flag : Score.Flags) {
    if (Flags.size() > 1)
      Flags += ',';
    Flags += '"';
    Flags += Flag;
    Flags += '"';
  }
  Flags += ']';
  Section.raw("flags", Flags).number("return", Return);
  return Section;
}

class RewardPass {
public:
  RewardPass(LineWriter &Out, const RewardOptions &Opts)
      : Out(Out), Opts(Opts) {}
  Error add(const Record &R, const std::string &Line);
  Error finish();

private:
  Error hold(const Record &R, std::string Line, KernelScore Score,
             const std::optional<TurnKey> &Key);
  LineWriter &Out;
  const RewardOptions &Opts;
  bool Holding = false;
  std::vector<HeldRecord> Held;
  std::vector<Trajectory> Trajectories;
  std::unordered_map<std::string, size_t> TrajectoryIndex;
};

Error RewardPass::add(const Record &R, const std::string &Line) {
  auto Result = readKernelResult(R);
  if (!Result)
    return Result.error();
  auto Key = readTurnKey(R);
  if (!Key)
    return Key.error();
  KernelScore Score = scoreKernel(*Result, Opts.Score);
  std::string Bare = Line;
  if (R.Value.contains("reward")) {
    auto Full = parseRecordLine(Line, R.Origin);
    if (!Full)
      return Full.error();
    Bare = lineWithoutField(Line, *Full, "reward");
  }
  if (!Holding && !*Key)
    return Out.writeLine(appendFieldToLine(
        Bare, "reward", scoreSection(Score, Score.Score).finish()));
  Holding = true;
  return hold(R, std::move(Bare), std::move(Score), *Key);
}

Error RewardPass::hold(const Record &R, std::string Line, KernelScore Score,
                       const std::optional<TurnKey> &Key) {
  HeldRecord H;
  H.Line = std::move(Line);
  H.Score = std::move(Score);
  H.Return = H.Score.Score;
  if (Key) {
    std::string Id = Key->TaskId;
    Id += '\0';
    Id += std::to_string(Key->Trajectory);
    auto [It, Inserted] = TrajectoryIndex.try_emplace(Id, Trajectories.size());
    if (Inserted) {
      Trajectories.emplace_back();
      Trajectories.back().Key = *Key;
      Trajectories.back().FirstSeen = R.Origin;
    }
    Trajectory &T = Trajectories[It->second];
    size_t Slot = static_cast<size_t>(Key->Turn - 1);
    if (Slot >= T.Turns.size()) {
      T.Turns.resize(Slot + 1, NoIndex);
      T.Lines.resize(Slot + 1, 0);
    }
    if (T.Turns[Slot] != NoIndex)
      return Error::at(R.Origin, describeTrajectory(*Key) + " turn " +
                                     std::to_string(Key->Turn) +
                                     " appears twice (first at line " +
                                     std::to_string(T.Lines[Slot]) + ")");
    T.Turns[Slot] = Held.size();
    T.Lines[Slot] = R.Origin.Line;
    H.Trajectory = It->second;
  }
  Held.push_back(std::move(H));
  return Error::success();
}

Error RewardPass::finish() {
  std::vector<double> Scores;
  for (Trajectory &T : Trajectories) {
    Scores.clear();
    for (size_t I = 0; I < T.Turns.size(); ++I) {
      if (T.Turns[I] == NoIndex)
        return Error::at(T.FirstSeen,
                         describeTrajectory(T.Key) + " has no turn " +
                             std::to_string(I + 1) + " (its turns go up to " +
                             std::to_string(T.Turns.size()) + ")");
      const KernelScore &S = Held[T.Turns[I]].Score;
      Scores.push_back(S.Score);
      T.BestScore = I == 0 ? S.Score : std::max(T.BestScore, S.Score);
      if (S.Correct && !T.FirstCorrectTurn)
        T.FirstCorrectTurn = static_cast<int64_t>(I + 1);
    }
    std::vector<double> Returns =
        discountedReturns(Scores, Opts.Mode, Opts.Gamma);
    for (size_t I = 0; I < T.Turns.size(); ++I)
      Held[T.Turns[I]].Return = Returns[I];
  }
  std::string Aggregation = '"' + std::string(returnModeName(Opts.Mode)) + '"';
  for (const HeldRecord &H : Held) {
    SectionWriter Section = scoreSection(H.Score, H.Return);
    if (H.Trajectory != NoIndex) {
      const Trajectory &T = Trajectories[H.Trajectory];
      SectionWriter Aggregates;
      Aggregates.integer("turns", static_cast<int64_t>(T.Turns.size()))
          .number("best_score", T.BestScore);
      if (T.FirstCorrectTurn)
        Aggregates.integer("first_correct_turn", *T.FirstCorrectTurn);
      else
        Aggregates.null("first_correct_turn");
      Section.number("gamma", Opts.Gamma)
          .raw("aggregation", Aggregation)
          .raw("trajectory", Aggregates.finish());
    }
    if (Error Err = Out.writeLine(
            appendFieldToLine(H.Line, "reward", Section.finish())))
      return Err;
  }
  return Error::success();
}

} // namespace

/// The record that stands for a line that is not one.
static Record unreadableLine(const Error &E) {
  Record R;
  R.Origin = E.location();
  R.Value = badLineRecord(E);
  R.Value["run"] = Json{{"correct", false},
                        {"stage", "input"},
                        {"outcome", "input-error"},
                        {"message", diagnosticLine(E)}};
  return R;
}

Error rewardRecords(std::istream &In, const std::string &SourceName,
                    LineWriter &Out, const RewardOptions &Opts,
                    std::vector<Error> *Warnings) {
  RecordReader Reader(In, SourceName);
  RewardPass Pass(Out, Opts);
  // Everything RewardPass::add reads; the rest of a line is only validated.
  static const FieldPaths Fields(
      {"id", "task_id", "trajectory", "trajectory_id", "turn", field::CheckOk,
       field::CheckFindings, field::BuildOk, field::RunCorrect,
       field::RunOutcome, field::BenchSpeedup,
       field::BenchFlags, field::BenchOk, field::BenchOutcome, "reward",
       field::ParseOk});
  Record R;
  while (true) {
    auto More = Reader.nextFields(R, Fields);
    if (!More && !In.bad() && In.eof()) {
      if (Warnings)
        Warnings->push_back(
            Error::at(More.error().location(),
                      "dropped a torn last line (a write cut short)"));
      break;
    }
    if (!More && !In.bad()) {
      Record Stand = unreadableLine(More.error());
      if (Error Err = Pass.add(Stand, formatRecordLine(Stand.Value)))
        return Err;
      continue;
    }
    if (!More)
      return More.error();
    if (!*More)
      break;
    if (Error Err = Pass.add(R, Reader.line()))
      return Err;
  }
  return Pass.finish();
}

} // namespace kevin
