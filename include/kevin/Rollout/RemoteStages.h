//===-- kevin/Rollout/RemoteStages.h - the stages on a kevin serve -*- C++ -*-===//
//
// kevin eval --server and kevin rollout --server: each record is POSTed to a
// kevin serve's /v1/evaluate (its candidate file read here and sent as
// `code`: the server reads no path a caller names) and comes back with every
// section the in-process engine writes. A full queue (503) is waited out as
// its Retry-After says; any other failure is an Error naming the server.
//
//===----------------------------------------------------------------------===//

#ifndef KEVIN_ROLLOUT_REMOTESTAGES_H
#define KEVIN_ROLLOUT_REMOTESTAGES_H

#include "kevin/Rollout/StageScheduler.h"

#include <string>

namespace kevin {

class RemoteStages : public StageRunner {
public:
  /// Url is the server's base (http://HOST:PORT); Stages its `stages=`
  /// (empty: the server's default, every stage).
  RemoteStages(std::string Url, std::string Token, std::string Stages,
               double TimeoutSeconds);

  /// One record, evaluated by the server.
  Expected<Json> evaluate(const Json &Record) const;

  /// The whole evaluation happens here; nothing is left for a device.
  Expected<Json> runBuildStages(const Json &Record) const override {
    return evaluate(Record);
  }
  bool buildPassed(const Json &) const override { return false; }
  size_t deviceStageCount() const override { return 0; }
  Expected<Json> runDeviceStage(size_t, const std::string &,
                                const Json &Record) const override {
    return Record;
  }
  bool devicePassed(size_t, const Json &) const override { return false; }
  Expected<Json> runFinalStages(const Json &Record) const override {
    return Record;
  }

private:
  std::string Endpoint, Token;
  double TimeoutSeconds;
};

} // namespace kevin

#endif // KEVIN_ROLLOUT_REMOTESTAGES_H
