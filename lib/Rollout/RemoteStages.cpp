//===-- RemoteStages.cpp - the stages on a kevin serve --------------------===//
//
// The record as the server takes it (code inline), one POST per record,
// 503s waited out, and the record's own paths put back on the reply.
//
//===----------------------------------------------------------------------===//

#include "kevin/Rollout/RemoteStages.h"
#include "HttpPost.h"
#include "kevin/Support/FileSystem.h"

#include <chrono>
#include <thread>

namespace kevin {

RemoteStages::RemoteStages(std::string Url, std::string Token,
                           std::string Stages, double TimeoutSeconds)
    : Token(std::move(Token)), TimeoutSeconds(TimeoutSeconds) {
  while (!Url.empty() && Url.back() == '/')
    Url.pop_back();
  Endpoint = Url + "/v1/evaluate" + (Stages.empty() ? "" : "?stages=" + Stages);
}

Expected<Json> RemoteStages::evaluate(const Json &Record) const {
  Json Sent = Record;
  if (!Sent.contains("code") && Sent.contains("candidate_path")) {
    Expected<std::string> Code =
        fs::readFile(Sent["candidate_path"].get<std::string>());
    if (!Code)
      return Code.error();
    Sent["code"] = *Code;
  }
  std::string Body = Sent.dump() + "\n";
  for (unsigned Attempt = 0;; ++Attempt) {
    HttpReply Reply = post(Endpoint, Body, Token, TimeoutSeconds);
    if (Reply.Code != CURLE_OK)
      return Error::make("kevin serve at " + Endpoint + ": " + Reply.CurlError);
    if (Reply.Status == 503 && Attempt < 100) {
      double Wait = Reply.RetryAfter > 0 ? Reply.RetryAfter : 5;
      std::this_thread::sleep_for(std::chrono::duration<double>(Wait));
      continue;
    }
    Json Out = Json::parse(Reply.Body, nullptr, false);
    if (Reply.Status != 200 || Out.is_discarded() || !Out.is_object()) {
      std::string Why = !Out.is_discarded() && Out.is_object() &&
                                Out.contains("error")
                            ? Out["error"].dump()
                            : Reply.Body.substr(0, 200);
      return Error::make("kevin serve at " + Endpoint + " answered " +
                         std::to_string(Reply.Status) + ": " + Why);
    }
    // The server neither reads nor returns this machine's paths.
    for (const char *Field : {"candidate_path", "task_path"})
      if (Record.contains(Field))
        Out[Field] = Record[Field];
    return Out;
  }
}

} // namespace kevin
