//===-- StageProgress.cpp - stages that report progress -------------------===//
//
// Each stage call of kevin/Rollout/StageProgress.h: note the stage, then
// run it.
//
//===----------------------------------------------------------------------===//
#include "kevin/Rollout/StageProgress.h"

namespace kevin {

Expected<Json> StageProgress::runBuildStages(const Json &Record) const {
  // Without device stages the build stages are the whole evaluation (a
  // kevin serve's, for kevin eval --server).
  Shown.started(progressName(Record),
                Inner.deviceStageCount() ? "check/build" : "evaluate");
  return Inner.runBuildStages(Record);
}

Expected<Json> StageProgress::runDeviceStage(size_t Stage,
                                             const std::string &Device,
                                             const Json &Record) const {
  static const char *const Names[] = {"run", "bench"};
  Shown.started(progressName(Record),
                Stage < 2 ? Names[Stage]
                          : "device stage " + std::to_string(Stage + 1));
  return Inner.runDeviceStage(Stage, Device, Record);
}

Expected<Json> StageProgress::runFinalStages(const Json &Record) const {
  Shown.started(progressName(Record), "reward");
  return Inner.runFinalStages(Record);
}

} // namespace kevin
