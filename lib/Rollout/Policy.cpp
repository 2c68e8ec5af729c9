//===-- Policy.cpp - where responses come from ---------------------------===//
//
// The replay policy (a keyed file of recorded responses) and the
// OpenAI-compatible client on libcurl with retries and backoff.
//
//===----------------------------------------------------------------------===//
#include "kevin/Rollout/Policy.h"
#include "HttpPost.h"

#include <curl/curl.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <mutex>
#include <thread>

namespace kevin {

//===----------------------------------------------------------------------===//
// Replay
//===----------------------------------------------------------------------===//

Expected<std::unique_ptr<ReplayPolicy>>
ReplayPolicy::open(const std::string &Path) {
  std::ifstream In(Path);
  if (!In)
    return Error::inFile(Path, "cannot open replay file");
  std::unique_ptr<ReplayPolicy> Policy(new ReplayPolicy(Path));
  RecordReader Reader(In, Path);
  Record R;
  while (true) {
    auto More = Reader.next(R);
    if (!More)
      return More.error();
    if (!*More)
      break;
    if (Error E = checkRequiredFields(R, {{"task", JsonKind::String},
                                          {"trajectory", JsonKind::Integer},
                                          {"turn", JsonKind::Integer},
                                          {"response", JsonKind::String}}))
      return E;
    auto Key = std::make_tuple(R.Value["task"].get<std::string>(),
                               R.Value["trajectory"].get<int>(),
                               R.Value["turn"].get<int>());
    if (!Policy->Responses.emplace(Key, R.Value["response"].get<std::string>())
             .second)
      return Error::at(R.Origin, "duplicate response for task '" +
                                     std::get<0>(Key) + "' trajectory " +
                                     std::to_string(std::get<1>(Key)) +
                                     " turn " +
                                     std::to_string(std::get<2>(Key)));
  }
  return Policy;
}

Expected<CompletionResult>
ReplayPolicy::complete(const CompletionRequest &R) {
  CompletionResult Result;
  for (int I = 0; I < R.N; ++I) {
    int Trajectory = I < static_cast<int>(R.Trajectories.size())
                         ? R.Trajectories[I]
                         : R.Trajectories.back() + I;
    auto It = Responses.find({R.TaskId, Trajectory, R.Turn});
    if (It == Responses.end())
      return Error::inFile(Path, "no recorded response for task '" + R.TaskId +
                                     "' trajectory " +
                                     std::to_string(Trajectory) + " turn " +
                                     std::to_string(R.Turn));
    Result.Choices.push_back({It->second, "stop", {}, {}});
  }
  return Result;
}

//===----------------------------------------------------------------------===//
// OpenAI-compatible server
//===----------------------------------------------------------------------===//

Json makeChatRequestBody(const CompletionRequest &R) {
  Json Body = {{"model", R.Model},
               {"messages", toJson(R.Messages)},
               {"n", R.N},
               {"temperature", R.Temperature},
               {"top_p", R.TopP},
               {"max_tokens", R.MaxTokens},
               {"stream", false}};
  if (R.Logprobs) {
    Body["logprobs"] = true;
    // vLLM extension: return the sampled token ids with each choice.
    Body["return_token_ids"] = true;
  }
  return Body;
}

Expected<CompletionResult> parseChatResponse(const std::string &Body) {
  Json Value = Json::parse(Body, nullptr, /*allow_exceptions=*/false);
  auto Snippet = [&] {
    return Body.size() > 200 ? Body.substr(0, 200) + "..." : Body;
  };
  if (Value.is_discarded() || !Value.is_object())
    return Error::make("the server's reply is not a JSON object: " + Snippet());
  auto Choices = Value.find("choices");
  if (Choices == Value.end() || !Choices->is_array() || Choices->empty())
    return Error::make("the server's reply has no 'choices': " + Snippet());
  CompletionResult Result;
  for (const Json &Choice : *Choices) {
    const Json *Content = findField(Choice, "message.content");
    if (!Content || !(Content->is_string() || Content->is_null()))
      return Error::make("a choice in the server's reply has no "
                         "'message.content': " +
                         Snippet());
    Completion C;
    if (Content->is_string())
      C.Text = Content->get<std::string>();
    // Servers with a reasoning parser split the chain-of-thought off; put it
    // back as <think> so later turns can drop it the same way.
    for (const char *Key : {"message.reasoning_content", "message.reasoning"})
      if (const Json *Reasoning = findField(Choice, Key);
          Reasoning && Reasoning->is_string() && !Reasoning->empty()) {
        C.Text = "<think>\n" + Reasoning->get<std::string>() + "\n</think>\n" +
                 C.Text;
        break;
      }
    if (Choice.contains("finish_reason") && Choice["finish_reason"].is_string())
      C.FinishReason = Choice["finish_reason"].get<std::string>();
    if (const Json *Ids = findField(Choice, "token_ids"); Ids && Ids->is_array())
      for (const Json &Id : *Ids)
        if (Id.is_number_integer())
          C.TokenIds.push_back(Id.get<int64_t>());
    if (const Json *Lp = findField(Choice, "logprobs.content");
        Lp && Lp->is_array())
      for (const Json &Entry : *Lp)
        if (Entry.contains("logprob") && Entry["logprob"].is_number())
          C.Logprobs.push_back(Entry["logprob"].get<double>());
    Result.Choices.push_back(std::move(C));
  }
  if (Value.contains("usage") && Value["usage"].is_object())
    Result.Usage = Value["usage"];
  if (const Json *Ids = findField(Value, "prompt_token_ids");
      Ids && Ids->is_array())
    for (const Json &Id : *Ids)
      if (Id.is_number_integer())
        Result.PromptTokenIds.push_back(Id.get<int64_t>());
  return Result;
}

OpenAIPolicy::OpenAIPolicy(OpenAIOptions Opts) : Options(std::move(Opts)) {
  static std::once_flag Init;
  std::call_once(Init, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

std::string OpenAIPolicy::endpoint() const {
  std::string Url = Options.BaseUrl;
  while (!Url.empty() && Url.back() == '/')
    Url.pop_back();
  auto EndsWith = [&](const std::string &Suffix) {
    return Url.size() >= Suffix.size() &&
           Url.compare(Url.size() - Suffix.size(), Suffix.size(), Suffix) == 0;
  };
  if (EndsWith("/chat/completions"))
    return Url;
  if (EndsWith("/v1"))
    return Url + "/chat/completions";
  return Url + "/v1/chat/completions";
}

namespace {

/// The `error.message` of an error reply, or a snippet of the body.
std::string serverMessage(const std::string &Body) {
  Json Value = Json::parse(Body, nullptr, false);
  if (const Json *M = Value.is_discarded() ? nullptr
                                           : findField(Value, "error.message");
      M && M->is_string())
    return M->get<std::string>();
  return Body.size() > 200 ? Body.substr(0, 200) + "..." : Body;
}

} // namespace

Expected<CompletionResult> OpenAIPolicy::complete(const CompletionRequest &R) {
  std::string Url = endpoint();
  std::string Body = formatRecordLine(makeChatRequestBody(R));
  double Backoff = Options.BackoffSeconds;
  std::string LastProblem;
  for (int Attempt = 1; Attempt <= Options.MaxRetries + 1; ++Attempt) {
    HttpReply Reply = post(Url, Body, Options.ApiKey, Options.TimeoutSeconds);
    bool Retryable = false;
    if (Reply.Code != CURLE_OK) {
      LastProblem = Reply.CurlError;
      Retryable = true;
    } else if (Reply.Status == 429 || Reply.Status >= 500) {
      LastProblem = "HTTP " + std::to_string(Reply.Status) + ": " +
                    serverMessage(Reply.Body);
      Retryable = true;
    } else if (Reply.Status >= 400) {
      return Error::make("'" + Url + "' answered HTTP " +
                         std::to_string(Reply.Status) + ": " +
                         serverMessage(Reply.Body));
    } else {
      auto Result = parseChatResponse(Reply.Body);
      if (!Result)
        return Result.error().withContext("'" + Url + "'");
      Result->Attempts = Attempt;
      return Result;
    }
    if (!Retryable || Attempt > Options.MaxRetries)
      break;
    double Wait = Reply.RetryAfter >= 0 ? Reply.RetryAfter : Backoff;
    std::this_thread::sleep_for(
        std::chrono::duration<double>(std::min(Wait, 60.0)));
    Backoff = std::min(Backoff * 2, 60.0);
  }
  return Error::make("'" + Url + "' failed after " +
                     std::to_string(Options.MaxRetries + 1) +
                     " attempts: " + LastProblem);
}

Expected<std::unique_ptr<Policy>> makePolicy(const std::string &Spec,
                                             const OpenAIOptions &Base) {
  auto Colon = Spec.find(':');
  std::string Kind = Spec.substr(0, Colon);
  std::string Rest = Colon == std::string::npos ? "" : Spec.substr(Colon + 1);
  if (Kind == "replay" && !Rest.empty()) {
    auto Replay = ReplayPolicy::open(Rest);
    if (!Replay)
      return Replay.error();
    return std::unique_ptr<Policy>(std::move(*Replay));
  }
  if (Kind == "openai" && !Rest.empty()) {
    OpenAIOptions Options = Base;
    Options.BaseUrl = Rest;
    return std::unique_ptr<Policy>(new OpenAIPolicy(Options));
  }
  return Error::make("unknown policy '" + Spec +
                     "': expected openai:URL or replay:FILE");
}

} // namespace kevin
