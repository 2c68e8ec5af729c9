//===-- kevin/Serve/HttpServer.h - kevin serve's HTTP face ------*- C++ -*-===//
//
// The endpoints of kevin serve over cpp-httplib: GET /healthz, POST
// /v1/evaluate (JSON Lines of samples in, JSON Lines of records out) and
// POST /get_reward (OpenRLHF's remote reward protocol). A bearer token when
// one is set, a bound on the request body, 400 with the position for
// malformed JSON, 503 with Retry-After when the queue is full. Serving stops
// on SIGTERM or SIGINT once the requests in flight are answered.
//
//===----------------------------------------------------------------------===//

#ifndef KEVIN_SERVE_HTTPSERVER_H
#define KEVIN_SERVE_HTTPSERVER_H

#include "kevin/Serve/EvaluationService.h"
#include "kevin/Support/Error.h"

#include <ostream>
#include <string>

namespace kevin {

struct HttpOptions {
  std::string Host = "127.0.0.1";
  /// 0: any free port.
  int Port = 8765;
  /// Empty: no authorization (loopback hosts only).
  std::string Token;
  size_t MaxBodyBytes = size_t(64) << 20;
  /// Requests handled at once (each waits for its batch).
  int Threads = 32;
  /// Seconds a client is asked to wait after a 503.
  int RetryAfterSeconds = 5;
};

/// Whether Host is a loopback address (127.0.0.0/8, ::1, localhost).
bool isLoopbackHost(const std::string &Host);

/// Blocks SIGTERM and SIGINT in this thread and every thread it starts from
/// now on; serveHttp waits for them. Call before starting any thread.
void blockStopSignals();

/// Serves until SIGTERM or SIGINT, then answers the requests in flight and
/// returns. Log gets the listening line and one line per request.
Error serveHttp(EvaluationService &Service, const HttpOptions &Options,
                std::ostream &Log);

} // namespace kevin

#endif // KEVIN_SERVE_HTTPSERVER_H
