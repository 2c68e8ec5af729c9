//===-- HttpServer.cpp - kevin serve's HTTP face --------------------------===//
//
// Routes, authorization, body parsing with positions, OpenRLHF's request and
// reply shapes, and the stop on SIGTERM/SIGINT (a thread that waits for the
// blocked signals and stops the listener; httplib's pool then finishes the
// requests in flight).
//
//===----------------------------------------------------------------------===//

#include "kevin/Serve/HttpServer.h"
#include "kevin/Support/Clock.h"
#include "kevin/Support/RecordFields.h"

#include <httplib.h>

#include <csignal>
#include <mutex>
#include <pthread.h>
#include <thread>

namespace kevin {

namespace {

void replyError(httplib::Response &Res, int Status, const std::string &Message) {
  Res.status = Status;
  Res.set_content(Json{{"error", Message}}.dump() + "\n", "application/json");
}

/// The JSON Lines of a request body, each an object; an Error names the
/// line and column of the first that is not.
Expected<std::vector<Json>> parseBody(const std::string &Body) {
  std::vector<Json> Records;
  size_t Start = 0, Line = 0;
  while (Start < Body.size()) {
    size_t End = Body.find('\n', Start);
    if (End == std::string::npos)
      End = Body.size();
    std::string Text = Body.substr(Start, End - Start);
    ++Line;
    Start = End + 1;
    if (Text.find_first_not_of(" \t\r") == std::string::npos)
      continue;
    std::string Where = "request body:" + std::to_string(Line) + ":";
    try {
      Json Record = Json::parse(Text);
      if (!Record.is_object())
        return Error::make(Where + "1: a record must be a JSON object");
      Records.push_back(std::move(Record));
    } catch (const Json::parse_error &E) {
      std::string What = E.what();
      size_t Reason = What.find(": ");
      return Error::make(Where + std::to_string(E.byte) + ": " +
                         (Reason == std::string::npos ? What
                                                      : What.substr(Reason + 2)));
    }
  }
  return Records;
}

/// A number in [0, inf) from a query parameter; an Error names it.
Expected<double> nonNegative(const httplib::Request &Req, const char *Name) {
  if (!Req.has_param(Name))
    return 0.0;
  std::string Text = Req.get_param_value(Name);
  char *End = nullptr;
  double Value = std::strtod(Text.c_str(), &End);
  if (Text.empty() || *End != '\0' || !(Value >= 0))
    return Error::make(std::string(Name) + ": not a number of seconds, 0 or "
                                           "more: '" + Text + "'");
  return Value;
}

std::string toLines(const std::vector<Json> &Records) {
  std::string Out;
  for (const Json &R : Records)
    Out += R.dump(-1, ' ', false, Json::error_handler_t::replace) + "\n";
  return Out;
}

/// OpenRLHF's samples: the response is the query after its prompt (the
/// whole query when it does not start with the prompt), the label the task.
Expected<std::vector<Json>> rewardSamples(const Json &Body) {
  if (!Body.is_object() || !Body.contains("query") || !Body["query"].is_array())
    return Error::make("the body needs 'query', a list of strings");
  const Json &Query = Body["query"];
  Json Prompts = Body.value("prompts", Json::array());
  Json Labels = Body.value("labels", Json::array());
  if (!Prompts.is_array() || !Labels.is_array() ||
      Labels.size() != Query.size() ||
      (!Prompts.empty() && Prompts.size() != Query.size()))
    return Error::make("'labels' (the task ids) and 'prompts' must be lists "
                       "as long as 'query'");
  std::vector<Json> Samples;
  for (size_t I = 0; I < Query.size(); ++I) {
    if (!Query[I].is_string())
      return Error::make("query[" + std::to_string(I) + "] is not a string");
    std::string Text = Query[I].get<std::string>();
    std::string Prompt = I < Prompts.size() && Prompts[I].is_string()
                             ? Prompts[I].get<std::string>()
                             : std::string();
    if (!Prompt.empty() && Text.compare(0, Prompt.size(), Prompt) == 0)
      Text = Text.substr(Prompt.size());
    Samples.push_back(Json{{"id", "get_reward#" + std::to_string(I)},
                           {"task_id", Labels[I]},
                           {"response", Text}});
  }
  return Samples;
}

Json rewardReply(const std::vector<Json> &Records) {
  Json Rewards = Json::array(), Correct = Json::array(),
       Speedup = Json::array(), Stage = Json::array(), Outcome = Json::array();
  for (const Json &R : Records) {
    const Json *Score = findField(R, field::RewardScore);
    Rewards.push_back(Score && Score->is_number() ? Score->get<double>() : 0.0);
    Correct.push_back(fieldIsTrue(R, field::RewardCorrect));
    const Json *S = findField(R, field::RewardSpeedup);
    Speedup.push_back(S && S->is_number() ? *S : Json());
    const Json *RunStage = findField(R, field::RunStage);
    Stage.push_back(RunStage && RunStage->is_string() ? *RunStage : Json("none"));
    Outcome.push_back(R.value("outcome", std::string()));
  }
  return Json{{"rewards", Rewards},
              {"scores", Rewards},
              {"extra_logs",
               {{"correct", Correct},
                {"speedup", Speedup},
                {"stage", Stage},
                {"outcome", Outcome}}}};
}

class Routes {
public:
  Routes(EvaluationService &Service, const HttpOptions &Options,
         std::ostream &Log)
      : Service(Service), Options(Options), Log(Log) {}
  void install(httplib::Server &Server);

private:
  httplib::Server::HandlerResponse authorize(const httplib::Request &Req,
                                             httplib::Response &Res);
  void evaluate(const httplib::Request &Req, httplib::Response &Res);
  void getReward(const httplib::Request &Req, httplib::Response &Res);
  /// Runs the samples; false (503 written) when the queue is full.
  std::optional<std::vector<Json>> run(std::vector<Json> Samples,
                                       const StageSelection &Stages,
                                       double Deadline, httplib::Response &Res);
  void logLine(const std::string &Line);

  EvaluationService &Service;
  const HttpOptions &Options;
  std::ostream &Log;
  std::mutex LogGuard;
};

void Routes::logLine(const std::string &Line) {
  std::lock_guard<std::mutex> Hold(LogGuard);
  // One insertion, so that the service's progress lines (written to the
  // same stream) do not cut into it.
  Log << ("kevin-serve: " + Line + "\n") << std::flush;
}

httplib::Server::HandlerResponse
Routes::authorize(const httplib::Request &Req, httplib::Response &Res) {
  if (Options.Token.empty() ||
      Req.get_header_value("Authorization") == "Bearer " + Options.Token)
    return httplib::Server::HandlerResponse::Unhandled;
  replyError(Res, 401, "missing or wrong 'Authorization: Bearer' token");
  return httplib::Server::HandlerResponse::Handled;
}

std::optional<std::vector<Json>> Routes::run(std::vector<Json> Samples,
                                             const StageSelection &Stages,
                                             double Deadline,
                                             httplib::Response &Res) {
  size_t Count = Samples.size();
  auto Start = SteadyClock::now();
  std::optional<std::vector<Json>> Records =
      Service.evaluate(std::move(Samples), Stages, Deadline);
  if (!Records) {
    Res.set_header("Retry-After", std::to_string(Options.RetryAfterSeconds));
    replyError(Res, 503, "the queue is full; retry later");
    logLine("refused " + std::to_string(Count) + " samples: queue full");
    return std::nullopt;
  }
  size_t Correct = 0;
  for (const Json &R : *Records)
    Correct += R.value("outcome", std::string()) == "ok";
  char Seconds[32];
  std::snprintf(Seconds, sizeof(Seconds), "%.1f", secondsSince(Start));
  logLine(std::to_string(Count) + " samples, " + std::to_string(Correct) +
          " ok, in " + Seconds + " s");
  return Records;
}

void Routes::evaluate(const httplib::Request &Req, httplib::Response &Res) {
  Expected<double> Deadline = nonNegative(Req, "deadline_s");
  Expected<StageSelection> Stages =
      Req.has_param("stages") ? StageSelection::parse(Req.get_param_value("stages"))
                              : Expected<StageSelection>(StageSelection());
  Expected<std::vector<Json>> Samples = parseBody(Req.body);
  for (const Error *E : {Deadline ? nullptr : &Deadline.error(),
                         Stages ? nullptr : &Stages.error(),
                         Samples ? nullptr : &Samples.error()})
    if (E)
      return replyError(Res, 400, E->message());
  if (auto Records = run(std::move(*Samples), *Stages, *Deadline, Res))
    Res.set_content(toLines(*Records), "application/x-ndjson");
}

void Routes::getReward(const httplib::Request &Req, httplib::Response &Res) {
  Json Body;
  try {
    Body = Json::parse(Req.body);
  } catch (const Json::parse_error &E) {
    return replyError(Res, 400, "request body:1:" + std::to_string(E.byte) +
                                    ": malformed JSON");
  }
  Expected<std::vector<Json>> Samples = rewardSamples(Body);
  if (!Samples)
    return replyError(Res, 400, Samples.error().message());
  if (auto Records = run(std::move(*Samples), StageSelection(), 0, Res))
    Res.set_content(rewardReply(*Records).dump() + "\n", "application/json");
}

void Routes::install(httplib::Server &Server) {
  Server.set_pre_routing_handler(
      [this](const httplib::Request &Req, httplib::Response &Res) {
        return authorize(Req, Res);
      });
  Server.Get("/healthz", [this](const httplib::Request &,
                                httplib::Response &Res) {
    Res.set_content(Service.health().dump() + "\n", "application/json");
  });
  Server.Post("/v1/evaluate",
              [this](const httplib::Request &Req, httplib::Response &Res) {
                evaluate(Req, Res);
              });
  Server.Post("/get_reward",
              [this](const httplib::Request &Req, httplib::Response &Res) {
                getReward(Req, Res);
              });
  Server.set_error_handler([](const httplib::Request &Req,
                              httplib::Response &Res) {
    if (Res.status == 404)
      replyError(Res, 404, "no endpoint " + Req.method + " " + Req.path);
    else if (Res.status == 413)
      replyError(Res, 413, "the request body is over the server's limit");
  });
  Server.set_exception_handler([this](const httplib::Request &,
                                      httplib::Response &Res,
                                      std::exception_ptr Thrown) {
    std::string What = "unknown";
    try {
      std::rethrow_exception(Thrown);
    } catch (const std::exception &E) {
      What = E.what();
    } catch (...) {
    }
    logLine("internal error: " + What);
    replyError(Res, 500, "internal error: " + What);
  });
}

} // namespace

bool isLoopbackHost(const std::string &Host) {
  return Host == "localhost" || Host == "::1" || Host.rfind("127.", 0) == 0;
}

void blockStopSignals() {
  sigset_t Stop;
  sigemptyset(&Stop);
  sigaddset(&Stop, SIGTERM);
  sigaddset(&Stop, SIGINT);
  ::pthread_sigmask(SIG_BLOCK, &Stop, nullptr);
}

Error serveHttp(EvaluationService &Service, const HttpOptions &Options,
                std::ostream &Log) {
  httplib::Server Server;
  Server.set_payload_max_length(Options.MaxBodyBytes);
  int Threads = std::max(2, Options.Threads);
  Server.new_task_queue = [Threads] { return new httplib::ThreadPool(Threads); };
  Routes Handlers(Service, Options, Log);
  Handlers.install(Server);
  int Port = Options.Port;
  if (Port == 0)
    Port = Server.bind_to_any_port(Options.Host);
  else if (!Server.bind_to_port(Options.Host, Port))
    Port = -1;
  if (Port < 0)
    return Error::make("cannot listen on " + Options.Host + ":" +
                       std::to_string(Options.Port));
  // SIGTERM or SIGINT stops the listener; the pool answers the requests in
  // flight before listen_after_bind returns.
  std::thread Stopper([&Server] {
    sigset_t Stop;
    sigemptyset(&Stop);
    sigaddset(&Stop, SIGTERM);
    sigaddset(&Stop, SIGINT);
    int Signal = 0;
    ::sigwait(&Stop, &Signal);
    Server.stop();
  });
  Log << "kevin-serve: listening on http://" << Options.Host << ":" << Port
      << std::endl;
  bool Served = Server.listen_after_bind();
  if (Stopper.joinable()) {
    if (Served)
      Stopper.join();
    else
      Stopper.detach();
  }
  Log << "kevin-serve: stopped; waiting for the samples in flight"
      << std::endl;
  Service.drain();
  return Served ? Error::success()
                : Error::make("the listener on " + Options.Host + " failed");
}

} // namespace kevin
