//===-- Turn.cpp - one turn, shared by rollout and search -----------------===//
//
// The request, record and evaluation of one turn, the run description and
// the resumable log, as kevin rollout and kevin search both use them.
//
//===----------------------------------------------------------------------===//
#include "kevin/Rollout/Turn.h"
#include "kevin/Support/FileSystem.h"
#include "kevin/Support/RecordFields.h"

#include <algorithm>
#include <filesystem>
#include <fstream>

namespace stdfs = std::filesystem;

namespace kevin {

void Slots::acquire() {
  std::unique_lock<std::mutex> Lock(M);
  CV.wait(Lock, [&] { return Free > 0; });
  --Free;
}

void Slots::release() {
  {
    std::lock_guard<std::mutex> Lock(M);
    ++Free;
  }
  CV.notify_one();
}

CompletionRequest makeCompletionRequest(const RolloutOptions &O,
                                        const std::string &TaskId,
                                        const BuiltPrompt &Prompt,
                                        std::vector<int> Trajectories,
                                        int Turn) {
  CompletionRequest Request;
  Request.Messages = Prompt.Messages;
  Request.N = static_cast<int>(Trajectories.size());
  Request.Model = O.Model;
  Request.Temperature = O.Temperature;
  Request.TopP = O.TopP;
  Request.MaxTokens = O.MaxTokens;
  Request.Logprobs = O.Logprobs;
  Request.TaskId = TaskId;
  Request.Trajectories = std::move(Trajectories);
  Request.Turn = Turn;
  return Request;
}

Json makeTurnRecord(const RolloutOptions &O, const Policy &ThePolicy,
                    const TurnSlot &Slot, const BuiltPrompt &Prompt,
                    const CompletionResult &Reply,
                    const ParsedResponse &Parsed) {
  const Completion &C = Reply.Choices.front();
  Json Record = {{"schema_version", RecordSchemaVersion},
                 {"id", Slot.Id},
                 {"task_id", Slot.Task->Id},
                 {"task_path", Slot.Task->Path},
                 {"trajectory", Slot.Trajectory},
                 {"turn", Slot.Turn},
                 {"device", O.Device},
                 {"policy", ThePolicy.describe()},
                 {"model", O.Model},
                 {"prompt", toJson(Prompt.Messages)},
                 {"prompt_dropped_attempts", Prompt.DroppedAttempts},
                 {"prompt_tokens_estimate", Prompt.EstimatedTokens},
                 {"response", C.Text},
                 {"finish_reason", C.FinishReason},
                 {"usage", Reply.Usage},
                 {"policy_attempts", Reply.Attempts}};
  if (!Reply.PromptTokenIds.empty())
    Record["prompt_token_ids"] = Reply.PromptTokenIds;
  if (!C.TokenIds.empty())
    Record["completion_token_ids"] = C.TokenIds;
  if (!C.Logprobs.empty())
    Record["completion_logprobs"] = C.Logprobs;
  Record["summary"] = Parsed.Summary;
  Record["reasoning_chars"] = Parsed.Reasoning.size();
  Record["parse"] = Json{{"ok", Parsed.HasCode}};
  return Record;
}

Expected<Json> evaluateTurnCode(const RolloutOptions &O,
                                const StagePipeline &Pipeline,
                                const std::string &CandidatePath,
                                const std::string &Code, Json Record) {
  Record["code"] = Code;
  std::error_code DirEC;
  stdfs::create_directories(stdfs::path(CandidatePath).parent_path(), DirEC);
  std::ofstream(CandidatePath, std::ios::binary) << Code;
  Record["candidate_path"] = CandidatePath;
  Expected<Json> Evaluated = O.Server ? O.Server->evaluate(Record)
                                      : Pipeline.runStages(O.Stages, Record);
  if (!Evaluated)
    return Evaluated.error();
  // Stages without a run (--stages check) leave the record without a
  // verdict: it says so, for the feedback and for kevin-reward (score 0).
  if (!Evaluated->contains("run") && !fieldIsFalse(*Evaluated, field::CheckOk))
    (*Evaluated)["run"] =
        Json{{"correct", false},
             {"stage", "run"},
             {"outcome", "not-run"},
             {"message", "the evaluation's stages have no run"}};
  return Evaluated;
}

Json runIdentity(const RolloutOptions &O, const Policy &P, const Json &Shape) {
  Json Tasks = Json::array();
  for (const TaskFile &T : O.Tasks)
    Tasks.push_back(T.Id);
  Json Stages = Json::array();
  for (const StageSpec &S : O.Stages) {
    std::string Command = S.Tool;
    for (const std::string &Arg : S.Args)
      Command += " " + Arg;
    Stages.push_back(Command);
  }
  Json Identity = {{"schema_version", RecordSchemaVersion},
                   {"policy", P.describe()},
                   {"model", O.Model}};
  for (const auto &[Key, Value] : Shape.items())
    Identity[Key] = Value;
  Identity["device"] = O.Device;
  Identity["tasks"] = Tasks;
  Identity["temperature"] = O.Temperature;
  Identity["top_p"] = O.TopP;
  Identity["max_tokens"] = O.MaxTokens;
  Identity["logprobs"] = O.Logprobs;
  Identity["context_budget_tokens"] = O.ContextBudgetTokens;
  Identity["stages"] = Stages;
  return Identity;
}

Error checkOrWriteIdentity(const std::string &Path, const Json &Identity) {
  std::error_code EC;
  if (!stdfs::exists(Path, EC)) {
    std::ofstream Out(Path);
    Out << Identity.dump(2) << "\n";
    if (!Out)
      return Error::inFile(Path, "cannot write");
    return Error::success();
  }
  auto Text = fs::readFile(Path);
  if (!Text)
    return Text.error();
  Json Previous = Json::parse(*Text, nullptr, false);
  if (Previous.is_discarded() || !Previous.is_object())
    return Error::inFile(Path, "not a run description; was it edited?");
  for (const auto &[Key, Value] : Identity.items()) {
    if (!Previous.contains(Key) || Previous[Key] != Value)
      return Error::inFile(
          Path, "this run was started with " + Key + " = " +
                    (Previous.contains(Key) ? Previous[Key].dump() : "nothing") +
                    ", now " + Value.dump() +
                    "; resume with the same options or use a new run directory");
  }
  return Error::success();
}

Expected<std::vector<Record>> readResumableLog(const std::string &LogPath,
                                               std::vector<Error> &Warnings) {
  std::error_code EC;
  if (!stdfs::exists(LogPath, EC))
    return std::vector<Record>();
  auto Log = readRecordLog(LogPath);
  if (!Log)
    return Log.error();
  if (Log->DroppedTail) {
    auto Text = fs::readFile(LogPath);
    if (!Text)
      return Text.error();
    unsigned TornLine = 1 + static_cast<unsigned>(
                                std::count(Text->begin(), Text->end(), '\n'));
    Warnings.push_back(Error::at(
        {LogPath, TornLine, 0},
        "dropped a torn last line (a write cut short); its turn is redone"));
    size_t LastNewline = Text->find_last_of('\n');
    stdfs::resize_file(
        LogPath, LastNewline == std::string::npos ? 0 : LastNewline + 1, EC);
    if (EC)
      return Error::inFile(LogPath, EC.message());
  }
  return std::move(Log->Records);
}

} // namespace kevin
