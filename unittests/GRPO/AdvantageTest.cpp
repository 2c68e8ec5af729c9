//===-- AdvantageTest.cpp - tests for kevin/GRPO/Advantage.h --------------===//
#include "kevin/GRPO/Advantage.h"
#include "kevin/GRPO/GRPO.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace kevin;

namespace {

std::vector<double> advantages(const std::vector<double> &R, StdMode Std,
                               Baseline Base, double Eps, GroupStats &Stats) {
  AdvantageOptions Opts;
  Opts.Std = Std;
  Opts.Base = Base;
  Opts.Eps = Eps;
  return groupAdvantages(R, Opts, Stats);
}

} // namespace

TEST(AdvantageTest, PopulationAndSampleStd) {
  // R = 1, 2, 3, 4: mean 2.5, squared deviations 5.
  std::vector<double> R = {1, 2, 3, 4};
  GroupStats Stats;
  auto Pop = advantages(R, StdMode::Population, Baseline::Mean, 0, Stats);
  EXPECT_DOUBLE_EQ(Stats.Mean, 2.5);
  EXPECT_DOUBLE_EQ(Stats.Std, std::sqrt(5.0 / 4));
  EXPECT_DOUBLE_EQ(Pop[0], -1.5 / std::sqrt(1.25));
  auto Sample = advantages(R, StdMode::Sample, Baseline::Mean, 0, Stats);
  EXPECT_DOUBLE_EQ(Stats.Std, std::sqrt(5.0 / 3));
  EXPECT_DOUBLE_EQ(Sample[3], 1.5 / std::sqrt(5.0 / 3));
  auto WithEps = advantages(R, StdMode::Population, Baseline::Mean, 0.5, Stats);
  EXPECT_DOUBLE_EQ(WithEps[0], -1.5 / (std::sqrt(1.25) + 0.5));
  // Normalised advantages have mean 0.
  EXPECT_NEAR(Pop[0] + Pop[1] + Pop[2] + Pop[3], 0.0, 1e-12);
}

TEST(AdvantageTest, DrGrpoAndLeaveOneOut) {
  std::vector<double> R = {1, 2, 3, 4};
  GroupStats Stats;
  auto Dr = advantages(R, StdMode::None, Baseline::Mean, 1e-6, Stats);
  EXPECT_EQ(Dr, (std::vector<double>{-1.5, -0.5, 0.5, 1.5}));
  auto Rloo = advantages(R, StdMode::None, Baseline::LeaveOneOut, 0, Stats);
  // 1 - (2+3+4)/3 = -2, 2 - 8/3, 3 - 7/3, 4 - 2 = 2.
  EXPECT_DOUBLE_EQ(Rloo[0], -2.0);
  EXPECT_DOUBLE_EQ(Rloo[1], 2 - 8.0 / 3);
  EXPECT_DOUBLE_EQ(Rloo[3], 2.0);
  EXPECT_DOUBLE_EQ(baselineOf(R, Stats, 0, Baseline::LeaveOneOut), 3.0);
}

TEST(AdvantageTest, ZeroVarianceAndSingleSampleGroups) {
  GroupStats Stats;
  for (StdMode Std : {StdMode::Population, StdMode::Sample, StdMode::None})
    for (Baseline Base : {Baseline::Mean, Baseline::LeaveOneOut}) {
      EXPECT_EQ(advantages({0, 0, 0}, Std, Base, 0, Stats),
                (std::vector<double>{0, 0, 0}));
      EXPECT_TRUE(Stats.ZeroVariance);
      EXPECT_EQ(advantages({7}, Std, Base, 0, Stats), std::vector<double>{0});
      EXPECT_TRUE(Stats.ZeroVariance);
      EXPECT_EQ(Stats.Size, 1u);
    }
  EXPECT_TRUE(
      advantages({}, StdMode::Sample, Baseline::Mean, 0, Stats).empty());
}

TEST(AdvantageTest, TrainingRowNamesItsNormalisation) {
  GrpoOptions Opts;
  Opts.Advantage.Std = StdMode::Sample;
  SampleAdvantage Sample;
  Sample.Group = "t";
  Sample.Advantage = 0.5;
  Sample.Stats.Size = 4;
  Json Row = trainingRow(
      Json::parse(R"({"task_id":"t","prompt":[],"response":"r",)"
                  R"("reward":{"score":1.3,"return":1.8,"correct":true}})"),
      Sample, Opts);
  EXPECT_EQ(Row["uid"], "t");
  EXPECT_EQ(Row["turn_idx"], 1);
  EXPECT_EQ(Row["return_R"], 1.8);
  EXPECT_EQ(Row["advantage_A"], 0.5);
  EXPECT_EQ(Row["norm"]["std"], "sample");
  EXPECT_EQ(Row["norm"]["baseline"], "mean");
  EXPECT_EQ(Row["traj_idx"], nullptr);
  EXPECT_FALSE(Row.contains("completion_token_ids"));
}
