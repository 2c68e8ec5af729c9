//===-- HttpPost.cpp - one HTTP POST through libcurl ----------------------===//
//
// The POST of HttpPost.h: the reply's body and status, its Retry-After, and
// libcurl's own message when the request did not complete.
//
//===----------------------------------------------------------------------===//
#include "HttpPost.h"

#include <algorithm>
#include <cstdlib>

namespace kevin {

namespace {

size_t appendBody(char *Data, size_t Size, size_t Count, void *User) {
  static_cast<std::string *>(User)->append(Data, Size * Count);
  return Size * Count;
}

size_t readRetryAfter(char *Data, size_t Size, size_t Count, void *User) {
  std::string Line(Data, Size * Count);
  std::string Lower = Line;
  std::transform(Lower.begin(), Lower.end(), Lower.begin(), ::tolower);
  if (Lower.rfind("retry-after:", 0) == 0) {
    char *End = nullptr;
    double Seconds = std::strtod(Line.c_str() + 12, &End);
    if (End != Line.c_str() + 12)
      *static_cast<double *>(User) = Seconds;
  }
  return Size * Count;
}

} // namespace

HttpReply post(const std::string &Url, const std::string &Body,
               const std::string &ApiKey, double TimeoutSeconds) {
  HttpReply Reply;
  CURL *Curl = curl_easy_init();
  if (!Curl) {
    Reply.Code = CURLE_FAILED_INIT;
    Reply.CurlError = "cannot initialise libcurl";
    return Reply;
  }
  curl_slist *Headers = curl_slist_append(nullptr, "Content-Type: application/json");
  std::string Auth = "Authorization: Bearer " + ApiKey;
  if (!ApiKey.empty())
    Headers = curl_slist_append(Headers, Auth.c_str());
  char ErrorBuffer[CURL_ERROR_SIZE] = "";
  curl_easy_setopt(Curl, CURLOPT_URL, Url.c_str());
  curl_easy_setopt(Curl, CURLOPT_HTTPHEADER, Headers);
  curl_easy_setopt(Curl, CURLOPT_POSTFIELDS, Body.c_str());
  curl_easy_setopt(Curl, CURLOPT_POSTFIELDSIZE_LARGE,
                   static_cast<curl_off_t>(Body.size()));
  curl_easy_setopt(Curl, CURLOPT_WRITEFUNCTION, appendBody);
  curl_easy_setopt(Curl, CURLOPT_WRITEDATA, &Reply.Body);
  curl_easy_setopt(Curl, CURLOPT_HEADERFUNCTION, readRetryAfter);
  curl_easy_setopt(Curl, CURLOPT_HEADERDATA, &Reply.RetryAfter);
  curl_easy_setopt(Curl, CURLOPT_TIMEOUT_MS,
                   static_cast<long>(TimeoutSeconds * 1000));
  curl_easy_setopt(Curl, CURLOPT_CONNECTTIMEOUT_MS, 30000L);
  curl_easy_setopt(Curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(Curl, CURLOPT_ERRORBUFFER, ErrorBuffer);
  Reply.Code = curl_easy_perform(Curl);
  if (Reply.Code != CURLE_OK)
    Reply.CurlError = ErrorBuffer[0] ? ErrorBuffer : curl_easy_strerror(Reply.Code);
  curl_easy_getinfo(Curl, CURLINFO_RESPONSE_CODE, &Reply.Status);
  curl_slist_free_all(Headers);
  curl_easy_cleanup(Curl);
  return Reply;
}


} // namespace kevin
