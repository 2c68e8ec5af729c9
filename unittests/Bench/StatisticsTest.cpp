//===-- StatisticsTest.cpp - tests for kevin/Bench/Statistics.h ----------===//
#include "kevin/Bench/Statistics.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

using namespace kevin;

TEST(StatisticsTest, SummaryOfKnownSamples) {
  TimingSummary S = summarize({4, 1, 3, 2});
  EXPECT_EQ(S.Trials, 4u);
  EXPECT_DOUBLE_EQ(S.Median, 2.5);
  EXPECT_DOUBLE_EQ(S.Mean, 2.5);
  EXPECT_DOUBLE_EQ(S.Min, 1);
  EXPECT_DOUBLE_EQ(S.Max, 4);
  EXPECT_NEAR(S.Std, std::sqrt(5.0 / 3.0), 1e-12);
  EXPECT_EQ(summarize({}).Trials, 0u);
  EXPECT_DOUBLE_EQ(summarize({7}).MedianRelativeStandardError, 1.0);
}

TEST(StatisticsTest, MedianErrorShrinksWithMoreTrials) {
  std::mt19937_64 Rng(7);
  std::normal_distribution<double> Noise(1.0, 0.05);
  std::vector<double> Small, Large;
  for (int I = 0; I < 20; ++I)
    Small.push_back(Noise(Rng));
  for (int I = 0; I < 2000; ++I)
    Large.push_back(Noise(Rng));
  double SmallRse = summarize(Small).MedianRelativeStandardError;
  double LargeRse = summarize(Large).MedianRelativeStandardError;
  EXPECT_LT(LargeRse, SmallRse);
  // Asymptotically SE(median) = 1.2533 * sigma / sqrt(n) for normal data.
  EXPECT_NEAR(LargeRse, 1.2533 * 0.05 / std::sqrt(2000.0), 0.0008);
  // Constant samples have no error at all.
  EXPECT_DOUBLE_EQ(summarize(std::vector<double>(10, 3.0)).MedianRelativeStandardError, 0);
}

TEST(StatisticsTest, SpeedupIsRatioOfMediansWithInterval) {
  std::vector<double> Ref, Cand;
  std::mt19937_64 Rng(3);
  std::normal_distribution<double> R(2.0, 0.02), C(1.0, 0.01);
  for (int I = 0; I < 200; ++I) {
    Ref.push_back(R(Rng));
    Cand.push_back(C(Rng));
  }
  SpeedupEstimate E = estimateSpeedup(Ref, Cand);
  EXPECT_NEAR(E.Speedup, 2.0, 0.01);
  EXPECT_LE(E.Low, E.Speedup);
  EXPECT_GE(E.High, E.Speedup);
  EXPECT_LT(E.High - E.Low, 0.05);
  SpeedupEstimate Again = estimateSpeedup(Ref, Cand);
  EXPECT_DOUBLE_EQ(E.Low, Again.Low) << "fixed seed, same interval";
  EXPECT_DOUBLE_EQ(estimateSpeedup({}, {1}).Speedup, 0);
}

TEST(StatisticsTest, StoppingRule) {
  StoppingRule Rule;
  Rule.MinTrials = 5;
  Rule.MaxTrials = 50;
  Rule.TargetRse = 0.01;
  Rule.BudgetSeconds = 1;
  EXPECT_FALSE(Rule.shouldStop({1, 1, 1}, 0));          // too few
  EXPECT_FALSE(Rule.shouldStop({1, 2, 3}, 5));          // too few, even late
  EXPECT_TRUE(Rule.shouldStop({1, 1, 1, 1, 1}, 0));     // precise enough
  EXPECT_FALSE(Rule.shouldStop({1, 2, 3, 4, 5, 6}, 0)); // too noisy
  EXPECT_TRUE(Rule.shouldStop({1, 2, 3, 4, 5, 6}, 2));  // out of time
  EXPECT_TRUE(Rule.shouldStop(std::vector<double>(50, 1), 0));
}

TEST(StatisticsTest, ExcessBeyondOverheadIsAnEscape) {
  std::vector<double> Timed(10, 0.100); // ms
  // A synchronize that costs its calibrated 0.01 ms is no escape.
  EXPECT_FALSE(medianExcessExceeds(Timed, std::vector<double>(10, 0.110),
                                   0.010, 0.5, 0.02));
  // Work the timed clock missed: 1 ms more.
  EXPECT_TRUE(medianExcessExceeds(Timed, std::vector<double>(10, 1.110),
                                  0.010, 0.5, 0.02));
  // Tiny kernels: a few microseconds over is under the slack.
  EXPECT_FALSE(medianExcessExceeds(std::vector<double>(10, 0.005),
                                   std::vector<double>(10, 0.020), 0.0, 0.5,
                                   0.02));
  EXPECT_FALSE(medianExcessExceeds({}, {}, 0, 0.5, 0.02));
}

TEST(StatisticsTest, EscapeCheckCountsTheCoverRunningLong) {
  // A side-stream kernel of 0.25 ms launched during the 1 ms launch cover
  // ends before Start: the events and the synchronize see nothing, the
  // cover took 0.25 ms longer than its baseline.
  std::vector<double> Ms(9, 0.003), Synced(9, 0.013), Cover(9, 1.25);
  EscapeCheck Hidden = checkEscape(Ms, Synced, Cover, 0.010, 1.0);
  EXPECT_TRUE(Hidden.Escaped);
  EXPECT_NEAR(Hidden.CoverExcessMs, 0.22, 1e-9); // beyond the 3% allowed
  EXPECT_NEAR(Hidden.Ms[0], 0.223, 1e-9); // the synchronized time
  // Without the cover's times the same samples pass: the hole it closes.
  EXPECT_FALSE(checkEscape(Ms, Synced, {}, 0.010, 1.0).Escaped);
  // An honest kernel: the cover at its baseline, give or take jitter that
  // the median absorbs; a cover shorter than the baseline adds nothing.
  std::vector<double> Honest(9, 0.400), HonestSynced(9, 0.410);
  std::vector<double> Jitter = {1.0, 0.99, 1.01, 1.3, 1.0, 0.98, 1.0, 1.02,
                                0.97};
  EscapeCheck Clean = checkEscape(Honest, HonestSynced, Jitter, 0.010, 1.0);
  EXPECT_FALSE(Clean.Escaped);
  EXPECT_EQ(Clean.Ms, Honest);
  EXPECT_NEAR(Clean.CoverExcessMs, 0.0, 1e-9);
  // Escaped work after Start, as before: the synchronize sees it.
  EscapeCheck Late =
      checkEscape(Honest, std::vector<double>(9, 1.410), Jitter, 0.010, 1.0);
  EXPECT_TRUE(Late.Escaped);
  EXPECT_NEAR(Late.Ms[0], 1.400, 1e-9);
  // A tiny honest kernel, the cover 2.5% long on every call: within the
  // allowance, where the bare excess (0.025 ms) would exceed the 20 us slack.
  EscapeCheck Tiny = checkEscape(std::vector<double>(9, 0.005),
                                 std::vector<double>(9, 0.015),
                                 std::vector<double>(9, 1.025), 0.010, 1.0);
  EXPECT_FALSE(Tiny.Escaped);
  EXPECT_NEAR(Tiny.CoverExcessMs, 0.0, 1e-9);
  // Cover times of another size: only the cover's part is skipped.
  EXPECT_FALSE(checkEscape(Ms, Synced, {1.25}, 0.010, 1.0).Escaped);
  EXPECT_TRUE(checkEscape(Ms, std::vector<double>(9, 1.0), {1.25}, 0.010, 1.0)
                  .Escaped);
  // Malformed samples (sizes that disagree) are left as they are.
  EXPECT_FALSE(checkEscape(Ms, {0.5}, Cover, 0.0, 0.0).Escaped);
}

TEST(StatisticsTest, TimingRoundsSettleOnTwoThatAgree) {
  TimingRounds Rounds; // up to 3, within 1%
  EXPECT_FALSE(Rounds.settled({}));
  EXPECT_FALSE(Rounds.settled({0.398}));         // one round proves nothing
  EXPECT_TRUE(Rounds.settled({0.372, 0.3735}));  // two agree
  EXPECT_FALSE(Rounds.settled({0.398, 0.372}));  // a slow mode, then not
  EXPECT_TRUE(Rounds.settled({0.398, 0.372, 0.3718})); // the third agrees
  EXPECT_TRUE(Rounds.settled({0.398, 0.372, 0.385}));  // out of rounds
  // The kept round is the fastest: the slow mode is the placement's.
  EXPECT_EQ(Rounds.keep({0.398, 0.372, 0.3718}), 2u);
  EXPECT_EQ(Rounds.keep({0.372, 0.398}), 0u);
  TimingRounds One;
  One.MaxRounds = 1;
  EXPECT_TRUE(One.settled({0.398}));
}

TEST(StatisticsTest, TimingRoundsKeepingTheMedianSettleOnThreeThatAgree) {
  TimingRounds Rounds;
  Rounds.MaxRounds = 5;
  Rounds.KeepMedian = true;
  EXPECT_FALSE(Rounds.settled({2.686, 2.687})); // two agreeing are too few
  EXPECT_TRUE(Rounds.settled({2.686, 2.687, 2.700}));  // three within 1%
  EXPECT_FALSE(Rounds.settled({2.686, 2.687, 2.750})); // the third is off
  // A continuous placement effect (one H200 process's cuBLAS rounds) runs
  // to MaxRounds.
  EXPECT_FALSE(Rounds.settled({2.750, 2.686, 2.712, 2.733}));
  EXPECT_TRUE(Rounds.settled({2.750, 2.686, 2.712, 2.733, 2.714}));
  EXPECT_EQ(Rounds.keep({2.750, 2.686, 2.712, 2.733, 2.714}), 4u); // 2.714
  EXPECT_EQ(Rounds.keep({2.733, 2.714}), 1u); // the lower middle
}
