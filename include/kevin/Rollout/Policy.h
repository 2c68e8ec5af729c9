//===-- kevin/Rollout/Policy.h - where responses come from ------*- C++ -*-===//
//
// A policy answers a chat prompt with n completions. Two kinds:
//   openai:URL   an OpenAI-compatible server (/v1/chat/completions over
//                libcurl: vLLM, SGLang, ...), with timeouts and retries with
//                backoff on 429, 5xx and connection errors;
//   replay:FILE  recorded responses keyed by (task, trajectory, turn), for
//                re-scoring, the demo and tests.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_ROLLOUT_POLICY_H
#define KEVIN_ROLLOUT_POLICY_H

#include "kevin/Rollout/Prompt.h"
#include "kevin/Support/Error.h"
#include "kevin/Support/Record.h"

#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

namespace kevin {

struct CompletionRequest {
  std::vector<ChatMessage> Messages;
  int N = 1;
  // Sampling (sent to servers; ignored by replay).
  std::string Model;
  double Temperature = 0.9;
  double TopP = 1.0;
  int MaxTokens = 16384;
  bool Logprobs = false;
  // Which turn this is (used by replay; servers never see it): choice I
  // belongs to trajectory Trajectories[I].
  std::string TaskId;
  std::vector<int> Trajectories = {0};
  int Turn = 1;
};

struct Completion {
  std::string Text;
  std::string FinishReason;
  /// Token ids and their logprobs, when the server returned them.
  std::vector<int64_t> TokenIds;
  std::vector<double> Logprobs;
};

struct CompletionResult {
  std::vector<Completion> Choices;
  /// The prompt's token ids, when the server returned them (vLLM's
  /// top-level `prompt_token_ids`).
  std::vector<int64_t> PromptTokenIds;
  Json Usage = Json::object();
  int Attempts = 1; ///< Requests made, retries included.
};

class Policy {
public:
  virtual ~Policy() = default;
  virtual Expected<CompletionResult> complete(const CompletionRequest &R) = 0;
  /// A description for records and messages ("replay:demo.jsonl").
  virtual std::string describe() const = 0;
};

/// Responses recorded as JSON Lines {"task", "trajectory", "turn", "response"}.
class ReplayPolicy : public Policy {
public:
  static Expected<std::unique_ptr<ReplayPolicy>> open(const std::string &Path);
  Expected<CompletionResult> complete(const CompletionRequest &R) override;
  std::string describe() const override { return "replay:" + Path; }

private:
  explicit ReplayPolicy(std::string Path) : Path(std::move(Path)) {}
  std::string Path;
  std::map<std::tuple<std::string, int, int>, std::string> Responses;
};

struct OpenAIOptions {
  std::string BaseUrl; ///< e.g. http://127.0.0.1:8000 or .../v1
  std::string ApiKey;
  double TimeoutSeconds = 600;
  int MaxRetries = 5;
  double BackoffSeconds = 1.0; ///< Doubled after each retry.
};

class OpenAIPolicy : public Policy {
public:
  explicit OpenAIPolicy(OpenAIOptions Options);
  Expected<CompletionResult> complete(const CompletionRequest &R) override;
  std::string describe() const override { return "openai:" + Options.BaseUrl; }
  /// The endpoint requests go to.
  std::string endpoint() const;

private:
  OpenAIOptions Options;
};

/// Builds the JSON body of a chat-completions request.
Json makeChatRequestBody(const CompletionRequest &R);
/// Reads a chat-completions response body; a clear error when malformed.
Expected<CompletionResult> parseChatResponse(const std::string &Body);

/// Parses `openai:URL` or `replay:FILE`; Key is the API key for openai.
Expected<std::unique_ptr<Policy>> makePolicy(const std::string &Spec,
                                             const OpenAIOptions &Base);

} // namespace kevin

#endif // KEVIN_ROLLOUT_POLICY_H
