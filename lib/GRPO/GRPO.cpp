//===-- GRPO.cpp - the kevin-grpo pass over records -----------------------===//
//
// Reading and grouping records, advantages per group, and the `grpo` section
// and training-row output.
//
//===----------------------------------------------------------------------===//
#include "kevin/GRPO/GRPO.h"
#include "kevin/Reward/Reward.h"
#include "kevin/Reward/SectionWriter.h"
#include "kevin/Support/RecordFields.h"

#include <unordered_map>
#include <vector>

namespace kevin {

const char *groupByName(GroupBy By) {
  return By == GroupBy::Task ? "task" : "task-turn";
}

Error checkRowFields(const Record &R) {
  return checkRequiredFields(
      R, {{"prompt", JsonKind::Array}, {"response", JsonKind::String}});
}

static Json fieldOr(const Json &Value, const char *Path, Json Default) {
  const Json *Field = findField(Value, Path);
  return Field ? *Field : Default;
}

/// Per-token logprobs: an array of numbers, or the OpenAI chat form
/// {"content": [{"token", "logprob", ...}, ...]} reduced to its numbers.
static Json completionLogprobs(const Json &Logprobs) {
  const Json *Content = findField(Logprobs, "content");
  if (!Content || !Content->is_array())
    return Logprobs;
  Json Values = Json::array();
  for (const Json &Token : *Content)
    Values.push_back(fieldOr(Token, "logprob", nullptr));
  return Values;
}

Json trainingRow(const Json &Record, const SampleAdvantage &Sample,
                 const GrpoOptions &Opts) {
  // The row's fields live in a vector that copies them as it grows.
  Json Row = Json::object();
  Row.get_ref<Json::object_t &>().reserve(32);
  Row["uid"] = Sample.Group;
  if (Record.contains("id"))
    Row["id"] = Record["id"];
  Row["task_id"] = fieldOr(Record, "task_id", nullptr);
  Row["traj_idx"] =
      fieldOr(Record, "trajectory", fieldOr(Record, "trajectory_id", nullptr));
  Row["turn_idx"] = fieldOr(Record, "turn", 1);
  Row["n_turns"] = fieldOr(Record, field::RewardTrajectoryTurns, 1);
  Row["prompt"] = fieldOr(Record, "prompt", Json::array());
  if (const Json *Ids = findField(Record, "prompt_token_ids"))
    Row["prompt_token_ids"] = *Ids;
  Row["completion_text"] = fieldOr(Record, "response", "");
  if (const Json *Ids = findField(Record, "completion_token_ids"))
    Row["completion_token_ids"] = *Ids;
  // kevin rollout writes completion_logprobs; logprobs is the older name
  // (and other producers' raw OpenAI form).
  const Json *Logprobs = findField(Record, "completion_logprobs");
  if (!Logprobs)
    Logprobs = findField(Record, "logprobs");
  if (Logprobs)
    Row["completion_logprobs"] = completionLogprobs(*Logprobs);
  Row["score_S"] = fieldOr(Record, field::RewardScore, nullptr);
  Row["return_R"] = fieldOr(Record, field::RewardReturn, nullptr);
  Row["advantage_A"] = roundForOutput(Sample.Advantage);
  Row["gamma"] = fieldOr(Record, field::RewardGamma, nullptr);
  Row["aggregation"] = fieldOr(Record, field::RewardAggregation, nullptr);
  Json Norm = Json::object();
  Norm["group_by"] = groupByName(Opts.By);
  Norm["baseline"] = baselineName(Opts.Advantage.Base);
  Norm["std"] = stdModeName(Opts.Advantage.Std);
  Norm["eps"] = Opts.Advantage.Eps;
  Row["norm"] = std::move(Norm);
  Row["compiled"] = fieldOr(Record, field::BuildOk, nullptr);
  Row["correct"] = fieldOr(Record, field::RewardCorrect, nullptr);
  Row["speedup"] = fieldOr(Record, field::RewardSpeedup, nullptr);
  Json Finish = fieldOr(Record, "finish_reason", nullptr);
  Row["truncated"] = Finish == "length";
  Row["finish_reason"] = std::move(Finish);
  for (const char *Key : {"policy_step", "model_version"})
    if (Record.contains(Key))
      Row[Key] = Record[Key];
  Row["group_size"] = Sample.Stats.Size;
  Row["group_mean"] = roundForOutput(Sample.Stats.Mean);
  Row["group_std"] = roundForOutput(Sample.Stats.Std);
  Row["zero_variance"] = Sample.Stats.ZeroVariance;
  return Row;
}

namespace {

struct HeldRecord {
  std::string Line; ///< --emit=records: the record's text
  Json RowFields;   ///< --emit=rows: the fields a training row reads
  size_t Group = 0;
  size_t IndexInGroup = 0;
};

struct Group {
  std::string Key;
  std::string QuotedKey; ///< Key as a JSON string.
  std::vector<double> Returns;
  std::vector<double> Advantages;
  GroupStats Stats;
};

std::string grpoSection(const Group &G, const SampleAdvantage &Sample) {
  SectionWriter Section;
  Section.raw("group", G.QuotedKey)
      .number("advantage", Sample.Advantage)
      .number("baseline", Sample.Baseline)
      .integer("group_size", static_cast<int64_t>(G.Stats.Size))
      .number("group_mean", G.Stats.Mean)
      .number("group_std", G.Stats.Std)
      .boolean("zero_variance", G.Stats.ZeroVariance);
  return Section.finish();
}

Expected<std::string> groupKey(const Record &R, GroupBy By) {
  if (Error Err = checkRequiredFields(R, {{"task_id", JsonKind::String}}))
    return Err;
  std::string Key = R.Value["task_id"].get<std::string>();
  if (By == GroupBy::TaskTurn) {
    int64_t Turn = 1;
    if (const Json *Field = findField(R.Value, "turn")) {
      if (!Field->is_number_integer())
        return Error::at(R.Origin, describeRecord(R) +
                                       ": field 'turn' must be an integer, "
                                       "not " +
                                       Field->type_name());
      Turn = Field->get<int64_t>();
    }
    Key += "@turn" + std::to_string(Turn);
  }
  return Key;
}

} // namespace

Error grpoRecords(std::istream &In, const std::string &SourceName,
                  LineWriter &Out, const GrpoOptions &Opts,
                  GrpoSummary &Summary) {
  RecordReader Reader(In, SourceName);
  std::vector<HeldRecord> Held;
  std::vector<Group> Groups;
  std::unordered_map<std::string, size_t> GroupIndex;
  // The fields each output reads; the rest of a line is only validated.
  static const FieldPaths SectionFields(
      {"id", "task_id", "turn", field::RewardReturn, "grpo"});
  static const FieldPaths RowFields({"id",
                                     "task_id",
                                     "trajectory",
                                     "trajectory_id",
                                     "turn",
                                     field::RewardTrajectoryTurns,
                                     "prompt",
                                     "prompt_token_ids",
                                     "response",
                                     "completion_token_ids",
                                     "completion_logprobs",
                                     "logprobs",
                                     field::RewardScore,
                                     field::RewardReturn,
                                     field::RewardGamma,
                                     field::RewardAggregation,
                                     field::RewardCorrect,
                                     field::RewardSpeedup,
                                     field::BuildOk,
                                     "finish_reason",
                                     "policy_step",
                                     "model_version"});
  bool Rows = Opts.Emit == EmitKind::Rows;
  Record R;
  while (true) {
    auto More = Reader.nextFields(R, Rows ? RowFields : SectionFields);
    if (!More)
      return More.error();
    if (!*More)
      break;
    if (Error Err =
            checkRequiredFields(R, {{field::RewardReturn, JsonKind::Number}}))
      return Err;
    if (Rows)
      if (Error Err = checkRowFields(R))
        return Err;
    auto Key = groupKey(R, Opts.By);
    if (!Key)
      return Key.error();
    auto [It, Inserted] = GroupIndex.try_emplace(*Key, Groups.size());
    if (Inserted) {
      Groups.emplace_back();
      Groups.back().Key = *Key;
      Groups.back().QuotedKey = Json(*Key).dump();
    }
    Group &G = Groups[It->second];
    HeldRecord H;
    H.Group = It->second;
    H.IndexInGroup = G.Returns.size();
    G.Returns.push_back(R.Value["reward"]["return"].get<double>());
    if (Rows) {
      H.RowFields = std::move(R.Value);
    } else if (R.Value.contains("grpo")) {
      auto Full = parseRecordLine(Reader.line(), R.Origin);
      if (!Full)
        return Full.error();
      H.Line = lineWithoutField(Reader.line(), *Full, "grpo");
    } else {
      H.Line = Reader.line();
    }
    Held.push_back(std::move(H));
  }

  Summary = GrpoSummary();
  Summary.Records = Held.size();
  Summary.Groups = Groups.size();
  for (Group &G : Groups) {
    G.Advantages = groupAdvantages(G.Returns, Opts.Advantage, G.Stats);
    Summary.ZeroVarianceGroups += G.Stats.ZeroVariance;
    Summary.SingleSampleGroups += G.Stats.Size == 1;
  }
  for (const HeldRecord &H : Held) {
    const Group &G = Groups[H.Group];
    SampleAdvantage Sample;
    Sample.Group = G.Key;
    Sample.Advantage = G.Advantages[H.IndexInGroup];
    Sample.Baseline =
        baselineOf(G.Returns, G.Stats, H.IndexInGroup, Opts.Advantage.Base);
    Sample.Stats = G.Stats;
    Error Err = Rows ? Out.writeRecord(trainingRow(H.RowFields, Sample, Opts))
                     : Out.writeLine(appendFieldToLine(H.Line, "grpo",
                                                       grpoSection(G, Sample)));
    if (Err)
      return Err;
  }
  return Error::success();
}

} // namespace kevin
