//===-- kevin/Rollout/Prompt.h - Kevin's multi-turn prompts ------*- C++ -*-===//
//
// Builds the chat messages of each turn from user-editable TOML templates
// (share/kevin/prompts/kevin.toml): turn 1 is instructions + one-shot example
// + the task's reference; turn t > 1 appends, oldest first, every earlier
// attempt's code, the model's summary and the evaluation feedback, never its
// chain-of-thought. When the prompt exceeds the context budget, the oldest
// attempts are dropped first. Also turns an evaluated record into feedback.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_ROLLOUT_PROMPT_H
#define KEVIN_ROLLOUT_PROMPT_H

#include "kevin/Support/Error.h"
#include "kevin/Support/Record.h"

#include <map>
#include <string>
#include <vector>

namespace kevin {

struct ChatMessage {
  std::string Role;
  std::string Content;
};

Json toJson(const std::vector<ChatMessage> &Messages);

/// The templates of one prompt file, for one device.
struct PromptTemplates {
  std::string System;
  std::string Instructions;
  std::string HistoryHeader;
  std::string Attempt;
  std::string Closing;
  std::string Target;
  std::string Language;
  std::string OneShot;
  /// Feedback templates by outcome kind: format, check, build, runtime,
  /// incorrect, correct, correct_untimed, no_summary, and not_run (optional
  /// in a prompt file: an answer the stages did not run, `--stages check`).
  std::map<std::string, std::string> Feedback;
};

/// share/kevin/prompts/kevin.toml of the installation the running tool
/// belongs to, else of the source tree it was built from.
std::string defaultPromptFile();

/// Loads a prompt file for a device ("cpu" or "cuda"; "cuda:N" counts as cuda).
/// Every template must be present; errors point into the file.
Expected<PromptTemplates> loadPromptTemplates(const std::string &Path,
                                              const std::string &Device);

/// Replaces each {name} in Template by Values[name]; unknown names stay.
std::string fillTemplate(const std::string &Template,
                         const std::map<std::string, std::string> &Values);

/// One earlier turn as later prompts show it.
struct Attempt {
  int Turn = 0;
  std::string Code;
  std::string Summary;
  std::string Feedback;
};

struct BuiltPrompt {
  std::vector<ChatMessage> Messages;
  /// How many of the oldest attempts were left out to fit the budget.
  int DroppedAttempts = 0;
  size_t EstimatedTokens = 0;
};

/// Tokens are estimated as characters / 4 (documented; no tokenizer here).
size_t estimateTokens(const std::vector<ChatMessage> &Messages);

/// The messages of the next turn. ContextBudgetTokens = 0 means no limit.
BuiltPrompt buildPrompt(const PromptTemplates &Templates,
                        const std::string &ReferenceSource,
                        const std::vector<Attempt> &History,
                        size_t ContextBudgetTokens);

/// Feedback text for an evaluated turn record: the first failing stage
/// (no code, check findings with rule ids, build error, runtime failure,
/// mismatch with its error) or the speedup of a correct kernel.
std::string feedbackFor(const PromptTemplates &Templates, const Json &Turn);

} // namespace kevin

#endif // KEVIN_ROLLOUT_PROMPT_H
