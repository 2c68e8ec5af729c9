//===-- RewardTest.cpp - tests for kevin/Reward/Reward.h ------------------===//
#include "kevin/Reward/Reward.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <unistd.h>

using namespace kevin;

namespace {

Record record(const char *Text) {
  Record R;
  R.Value = Json::parse(Text);
  R.Origin = {"in.jsonl", 3, 0};
  return R;
}

/// Runs rewardRecords over Input; returns what it wrote.
std::string reward(const std::string &Input, const RewardOptions &Opts,
                   Error &Err) {
  std::string Path =
      testing::TempDir() + "/reward." + std::to_string(::getpid());
  FILE *File = std::fopen(Path.c_str(), "w+");
  {
    LineWriter Out(fileno(File), Path, false);
    std::istringstream In(Input);
    Err = rewardRecords(In, "in.jsonl", Out, Opts);
  }
  std::fclose(File);
  std::ifstream Written(Path);
  std::stringstream Text;
  Text << Written.rdbuf();
  std::remove(Path.c_str());
  return Text.str();
}

} // namespace

TEST(RewardTest, TurnKeys) {
  auto None = readTurnKey(record(R"({"task_id":"t"})"));
  ASSERT_TRUE(None);
  EXPECT_FALSE(*None);
  auto Key =
      readTurnKey(record(R"({"task_id":"t","trajectory_id":3,"turn":2})"));
  ASSERT_TRUE(Key);
  ASSERT_TRUE(*Key);
  EXPECT_EQ((*Key)->TaskId, "t");
  EXPECT_EQ((*Key)->Trajectory, 3);
  EXPECT_EQ((*Key)->Turn, 2);
  auto NoTask = readTurnKey(record(R"({"trajectory":0,"turn":1})"));
  ASSERT_FALSE(NoTask);
  EXPECT_NE(NoTask.error().message().find("'task_id'"), std::string::npos);
  auto Negative =
      readTurnKey(record(R"({"task_id":"t","trajectory":-1,"turn":1})"));
  ASSERT_FALSE(Negative);
}

TEST(RewardTest, OptionsAreValidated) {
  RewardOptions Opts;
  EXPECT_FALSE(validateRewardOptions(Opts));
  Opts.Gamma = -0.1;
  EXPECT_TRUE(validateRewardOptions(Opts));
  Opts.Gamma = 0.4;
  Opts.Score.SpeedupCap = 0;
  EXPECT_TRUE(validateRewardOptions(Opts));
}

TEST(RewardTest, RoundsForOutput) {
  EXPECT_EQ(roundForOutput(0.1 + 0.2), 0.3);
  EXPECT_EQ(roundForOutput(1.3 + 0.4 * 0.3), 1.42);
  EXPECT_EQ(roundForOutput(2.0), 2.0);
}

TEST(RewardTest, SingleTurnRecordsStreamAndMultiTurnWaitForTheirTrajectory) {
  Error Err;
  std::string Out = reward(
      "{\"id\":\"s\",\"run\":{\"correct\":true},\"bench\":{\"speedup\":1}}\n"
      "{\"task_id\":\"t\",\"trajectory\":0,\"turn\":2,\"run\":{\"correct\":"
      "true},\"bench\":{\"speedup\":1}}\n"
      "{\"task_id\":\"t\",\"trajectory\":0,\"turn\":1,\"run\":{\"correct\":"
      "false}}\n",
      RewardOptions(), Err);
  ASSERT_FALSE(Err) << Err.message();
  std::istringstream Lines(Out);
  std::string Line;
  std::vector<Json> Records;
  while (std::getline(Lines, Line))
    Records.push_back(Json::parse(Line));
  ASSERT_EQ(Records.size(), 3u);
  EXPECT_EQ(Records[0]["reward"]["return"], 1.3);
  EXPECT_EQ(Records[1]["turn"], 2);
  EXPECT_EQ(Records[1]["reward"]["return"], 1.3);
  EXPECT_EQ(Records[2]["reward"]["return"], 0.52);
  EXPECT_EQ(Records[2]["reward"]["trajectory"]["first_correct_turn"], 2);
}

TEST(RewardTest, AMissingTurnWritesNothingHeld) {
  Error Err;
  std::string Out = reward(
      "{\"id\":\"s\",\"run\":{\"correct\":false}}\n"
      "{\"task_id\":\"t\",\"trajectory\":0,\"turn\":2,\"run\":{\"correct\":"
      "true}}\n",
      RewardOptions(), Err);
  ASSERT_TRUE(Err);
  EXPECT_EQ(Err.message(),
            "task 't' trajectory 0 has no turn 1 (its turns go up to 2)");
  EXPECT_EQ(Err.location().Line, 2u);
  EXPECT_EQ(std::count(Out.begin(), Out.end(), '\n'), 1);
}
