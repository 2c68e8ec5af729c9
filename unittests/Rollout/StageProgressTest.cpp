//===-- StageProgressTest.cpp - tests for kevin/Rollout/StageProgress.h ---===//
#include "kevin/Rollout/StageProgress.h"

#include <gtest/gtest.h>

#include <sstream>

using namespace kevin;

namespace {

/// Stages that note what the heartbeat says while each runs.
class NotingStages : public StageRunner {
public:
  NotingStages(size_t DeviceStages, const Progress &Shown)
      : DeviceStages(DeviceStages), Shown(Shown) {}
  Expected<Json> runBuildStages(const Json &Record) const override {
    return note(Record);
  }
  bool buildPassed(const Json &) const override { return true; }
  size_t deviceStageCount() const override { return DeviceStages; }
  Expected<Json> runDeviceStage(size_t, const std::string &,
                                const Json &Record) const override {
    return note(Record);
  }
  bool devicePassed(size_t, const Json &) const override { return true; }
  Expected<Json> runFinalStages(const Json &Record) const override {
    return note(Record);
  }
  mutable std::vector<std::string> Beats;

private:
  Json note(const Json &Record) const {
    std::string Beat = Shown.heartbeat();
    Beats.push_back(Beat.substr(Beat.find(": ") + 2));
    return Record;
  }
  size_t DeviceStages;
  const Progress &Shown;
};

ProgressOptions silent() {
  ProgressOptions O;
  O.Style = ProgressStyle::Off;
  O.HeartbeatSeconds = 0;
  return O;
}

} // namespace

TEST(StageProgressTest, NamesEachStageOfTheRecord) {
  Progress Shown("eval", 1, silent());
  NotingStages Inner(3, Shown);
  StageProgress Tracked(Inner, Shown);
  Json Record = {{"id", "level1/19_ReLU#3"}};
  ASSERT_TRUE(Tracked.runBuildStages(Record));
  for (size_t Stage = 0; Stage < 3; ++Stage)
    ASSERT_TRUE(Tracked.runDeviceStage(Stage, "cpu", Record));
  ASSERT_TRUE(Tracked.runFinalStages(Record));
  EXPECT_EQ(Inner.Beats,
            (std::vector<std::string>{"level1/19_ReLU#3 (check/build, 0 s)",
                                      "level1/19_ReLU#3 (run, 0 s)",
                                      "level1/19_ReLU#3 (bench, 0 s)",
                                      "level1/19_ReLU#3 (device stage 3, 0 s)",
                                      "level1/19_ReLU#3 (reward, 0 s)"}));
  EXPECT_EQ(Tracked.deviceStageCount(), 3u);
}

TEST(StageProgressTest, AWholeRemoteEvaluationIsOneStage) {
  Progress Shown("eval", 1, silent());
  NotingStages Inner(0, Shown);
  StageProgress Tracked(Inner, Shown);
  ASSERT_TRUE(Tracked.runBuildStages(Json{{"task_id", "level1/19_ReLU"}}));
  EXPECT_EQ(Inner.Beats,
            std::vector<std::string>{"level1/19_ReLU (evaluate, 0 s)"});
}
