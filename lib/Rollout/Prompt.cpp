//===-- Prompt.cpp - Kevin's multi-turn prompts --------------------------===//
//
// Template loading, prompt assembly under a context budget, and feedback.
//
//===----------------------------------------------------------------------===//
#include "kevin/Rollout/Prompt.h"
#include "kevin/Support/Config.h"
#include "kevin/Support/Device.h"
#include "kevin/Support/FileSystem.h"
#include "kevin/Support/RecordFields.h"
#include "kevin/Support/Version.h"

#include <cmath>
#include <cstdio>
#include <unistd.h>

namespace kevin {

std::string defaultPromptFile() {
  std::string Installed =
      fs::selfExecutableDirectory() + "/../share/kevin/prompts/kevin.toml";
  if (::access(Installed.c_str(), R_OK) == 0)
    return Installed;
  return std::string(KEVIN_SOURCE_DIR) + "/share/kevin/prompts/kevin.toml";
}

Json toJson(const std::vector<ChatMessage> &Messages) {
  Json Array = Json::array();
  for (const ChatMessage &M : Messages)
    Array.push_back(Json{{"role", M.Role}, {"content", M.Content}});
  return Array;
}

static Error readTemplate(const ConfigFile &File, const std::string &Path,
                          std::string &Into) {
  auto Value = File.getString(Path);
  if (!Value)
    return Value.error();
  if (!*Value)
    return Error::inFile(File.name(), "missing template '" + Path + "'");
  Into = **Value;
  // TOML's multi-line strings keep the newline after the opening quotes
  // out, but a leading newline written for readability is dropped here too.
  if (!Into.empty() && Into.front() == '\n')
    Into.erase(0, 1);
  return Error::success();
}

Expected<PromptTemplates> loadPromptTemplates(const std::string &Path,
                                              const std::string &Device) {
  auto File = ConfigFile::load(Path);
  if (!File)
    return File.error();
  std::string DeviceKind = isCudaDevice(Device) ? "cuda" : Device;
  if (Error E = File->rejectUnknownKeys("", {"prompt", "feedback", "device"}))
    return E;
  if (Error E = File->rejectUnknownKeys(
          "prompt", {"system", "instructions", "history_header", "attempt",
                     "closing"}))
    return E;
  PromptTemplates T;
  std::string DevicePrefix = "device." + DeviceKind + ".";
  std::vector<std::pair<std::string, std::string *>> Fields = {
      {"prompt.system", &T.System},
      {"prompt.instructions", &T.Instructions},
      {"prompt.history_header", &T.HistoryHeader},
      {"prompt.attempt", &T.Attempt},
      {"prompt.closing", &T.Closing},
      {DevicePrefix + "target", &T.Target},
      {DevicePrefix + "language", &T.Language},
      {DevicePrefix + "one_shot", &T.OneShot}};
  for (auto &[FieldPath, Into] : Fields)
    if (Error E = readTemplate(*File, FieldPath, *Into))
      return E;
  for (const char *Kind : {"format", "check", "build", "runtime", "incorrect",
                           "correct", "correct_untimed", "no_summary"})
    if (Error E = readTemplate(*File, std::string("feedback.") + Kind,
                               T.Feedback[Kind]))
      return E;
  // Optional, so that prompt files written before stage subsets still load.
  T.Feedback["not_run"] = "The code was not compiled or run.";
  auto NotRun = File->getString("feedback.not_run");
  if (!NotRun)
    return NotRun.error();
  if (*NotRun)
    T.Feedback["not_run"] = **NotRun;
  return T;
}

std::string fillTemplate(const std::string &Template,
                         const std::map<std::string, std::string> &Values) {
  std::string Out;
  size_t I = 0;
  while (I < Template.size()) {
    size_t Open = Template.find('{', I);
    if (Open == std::string::npos) {
      Out.append(Template, I, std::string::npos);
      break;
    }
    size_t Close = Template.find('}', Open);
    Out.append(Template, I, Open - I);
    if (Close == std::string::npos) {
      Out.append(Template, Open, std::string::npos);
      break;
    }
    auto It = Values.find(Template.substr(Open + 1, Close - Open - 1));
    if (It == Values.end()) {
      Out += '{';
      I = Open + 1;
      continue;
    }
    Out += It->second;
    I = Close + 1;
  }
  return Out;
}

size_t estimateTokens(const std::vector<ChatMessage> &Messages) {
  size_t Chars = 0;
  for (const ChatMessage &M : Messages)
    Chars += M.Content.size();
  return (Chars + 3) / 4;
}

static std::vector<ChatMessage>
assemble(const PromptTemplates &T, const std::string &Reference,
         const std::vector<Attempt> &History, size_t FirstShown) {
  std::map<std::string, std::string> Values = {{"reference", Reference},
                                               {"target", T.Target},
                                               {"language", T.Language}};
  std::string User = fillTemplate(T.Instructions, Values);
  if (History.empty()) {
    User += "\n\n" + fillTemplate(T.OneShot, Values);
  } else {
    User += "\n\n" + T.HistoryHeader;
    for (size_t I = FirstShown; I < History.size(); ++I) {
      const Attempt &A = History[I];
      User += "\n" + fillTemplate(T.Attempt,
                                  {{"turn", std::to_string(A.Turn)},
                                   {"code", A.Code},
                                   {"summary", A.Summary.empty()
                                                   ? T.Feedback.at("no_summary")
                                                   : A.Summary},
                                   {"feedback", A.Feedback}});
    }
    User += "\n\n" + T.Closing;
  }
  std::vector<ChatMessage> Messages;
  if (!T.System.empty())
    Messages.push_back({"system", T.System});
  Messages.push_back({"user", User});
  return Messages;
}

BuiltPrompt buildPrompt(const PromptTemplates &Templates,
                        const std::string &ReferenceSource,
                        const std::vector<Attempt> &History,
                        size_t ContextBudgetTokens) {
  BuiltPrompt Result;
  size_t First = 0;
  while (true) {
    Result.Messages = assemble(Templates, ReferenceSource, History, First);
    Result.EstimatedTokens = estimateTokens(Result.Messages);
    if (!ContextBudgetTokens || Result.EstimatedTokens <= ContextBudgetTokens ||
        First + 1 >= History.size())
      break;
    ++First;
  }
  Result.DroppedAttempts = static_cast<int>(First);
  return Result;
}


static std::string formatNumber(double Value, const char *Format) {
  char Buffer[64];
  std::snprintf(Buffer, sizeof(Buffer), Format, Value);
  return Buffer;
}

std::string feedbackFor(const PromptTemplates &T, const Json &Turn) {
  std::map<std::string, std::string> Values;
  const std::string Problem = fieldString(Turn, field::ParseProblem);
  if (!Problem.empty()) {
    Values["problem"] = Problem;
    return fillTemplate(T.Feedback.at("format"), Values);
  }
  if (fieldIsFalse(Turn, field::CheckOk)) {
    std::string Findings;
    if (const Json *List = findField(Turn, field::CheckFindings))
      for (const Json &F : *List) {
        if (F.value("severity", "error") != "error")
          continue;
        std::string Line = "- ";
        if (F.contains("line") && F["line"].is_number())
          Line += "line " + std::to_string(F["line"].get<long>()) + ": ";
        Line += F.value("message", "") + " [" + F.value("rule", "") + "]";
        Findings += Line + "\n";
      }
    if (!Findings.empty())
      Findings.pop_back();
    Values["findings"] = Findings;
    return fillTemplate(T.Feedback.at("check"), Values);
  }
  Values["message"] = fieldString(Turn, field::RunMessage);
  Values["outcome"] = fieldString(Turn, field::RunOutcome);
  if (Values["outcome"] == "not-run")
    return fillTemplate(T.Feedback.at("not_run"), Values);
  const Json *Correct = findField(Turn, field::RunCorrect);
  if (!Correct || !Correct->is_boolean() || !Correct->get<bool>()) {
    std::string Stage = fieldString(Turn, field::RunStage);
    if (Stage == "build" || Values["outcome"] == "build-error")
      return fillTemplate(T.Feedback.at("build"), Values);
    if (Stage == "compare")
      return fillTemplate(T.Feedback.at("incorrect"), Values);
    return fillTemplate(T.Feedback.at("runtime"), Values);
  }
  const Json *Speedup = findField(Turn, field::BenchSpeedup);
  if (!Speedup || !Speedup->is_number())
    return fillTemplate(T.Feedback.at("correct_untimed"), Values);
  Values["speedup"] = formatNumber(Speedup->get<double>(), "%.2f");
  return fillTemplate(T.Feedback.at("correct"), Values);
}

} // namespace kevin
