//===-- kevin/Rollout/StageProgress.h - stages that tell progress -*- C++ -*-===//
//
// A StageRunner around another that tells a Progress which stage each record
// has entered (check/build, run, bench, reward; evaluate when the whole
// evaluation is one remote call), so that the heartbeat of kevin eval and
// kevin serve names what runs and for how long. Records are named by
// progressName (kevin/Support/Progress.h).
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_ROLLOUT_STAGEPROGRESS_H
#define KEVIN_ROLLOUT_STAGEPROGRESS_H

#include "kevin/Rollout/StageScheduler.h"
#include "kevin/Support/Progress.h"

namespace kevin {

class StageProgress : public StageRunner {
public:
  StageProgress(const StageRunner &Inner, Progress &Shown)
      : Inner(Inner), Shown(Shown) {}

  Expected<Json> runBuildStages(const Json &Record) const override;
  bool buildPassed(const Json &Record) const override {
    return Inner.buildPassed(Record);
  }
  size_t deviceStageCount() const override { return Inner.deviceStageCount(); }
  Expected<Json> runDeviceStage(size_t Stage, const std::string &Device,
                                const Json &Record) const override;
  bool devicePassed(size_t Stage, const Json &Record) const override {
    return Inner.devicePassed(Stage, Record);
  }
  Expected<Json> runFinalStages(const Json &Record) const override;

private:
  const StageRunner &Inner;
  Progress &Shown;
};

} // namespace kevin

#endif // KEVIN_ROLLOUT_STAGEPROGRESS_H
