//===-- HttpPost.h - one HTTP POST through libcurl --------------*- C++ -*-===//
//
// Private to lib/Rollout: the POST the policy client and the kevin serve
// client share (JSON body, optional bearer token, a timeout, Retry-After).
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_LIB_ROLLOUT_HTTPPOST_H
#define KEVIN_LIB_ROLLOUT_HTTPPOST_H

#include <curl/curl.h>

#include <string>

namespace kevin {

struct HttpReply {
  CURLcode Code = CURLE_OK;
  long Status = 0;
  std::string Body;
  /// Seconds from a Retry-After header, or -1.
  double RetryAfter = -1;
  std::string CurlError;
};

/// POSTs Body (JSON) to Url, with `Authorization: Bearer Token` when Token is
/// not empty.
HttpReply post(const std::string &Url, const std::string &Body,
               const std::string &Token, double TimeoutSeconds);

} // namespace kevin

#endif // KEVIN_LIB_ROLLOUT_HTTPPOST_H
