//===-- ScoreTest.cpp - tests for kevin/Reward/Score.h --------------------===//
#include "kevin/Reward/Score.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace kevin;

namespace {

KernelResult correct(std::optional<double> Speedup) {
  KernelResult R;
  R.Correct = true;
  R.Speedup = Speedup;
  return R;
}

Record record(const char *Text) {
  Record R;
  R.Value = Json::parse(Text);
  R.Origin = {"in.jsonl", 7, 0};
  return R;
}

} // namespace

TEST(ScoreTest, KevinsFormula) {
  ScoreOptions Opts;
  EXPECT_DOUBLE_EQ(scoreKernel(correct(2.0), Opts).Score, 2.3);
  KernelResult Wrong;
  Wrong.Speedup = 5.0;
  KernelScore S = scoreKernel(Wrong, Opts);
  EXPECT_EQ(S.Score, 0.0);
  EXPECT_FALSE(S.Correct);
  EXPECT_FALSE(S.Speedup);
}

TEST(ScoreTest, UnusableSpeedupsScoreTheCorrectnessWeightOnly) {
  ScoreOptions Opts;
  for (double Bad : {0.0, -1.0, std::numeric_limits<double>::quiet_NaN(),
                     std::numeric_limits<double>::infinity()}) {
    KernelScore S = scoreKernel(correct(Bad), Opts);
    EXPECT_DOUBLE_EQ(S.Score, 0.3) << Bad;
    ASSERT_EQ(S.Flags.size(), 1u);
    EXPECT_STREQ(S.Flags[0], score_flag::BadSpeedup);
  }
  KernelScore Missing = scoreKernel(correct(std::nullopt), Opts);
  EXPECT_DOUBLE_EQ(Missing.Score, 0.3);
  EXPECT_STREQ(Missing.Flags[0], score_flag::NoSpeedup);
}

TEST(ScoreTest, Options) {
  ScoreOptions Opts;
  Opts.SpeedupCap = 2.0;
  Opts.LogSpeedup = true;
  KernelScore S = scoreKernel(correct(5.0), Opts);
  EXPECT_DOUBLE_EQ(S.Score, 0.3 + std::log1p(2.0));
  EXPECT_EQ(*S.Speedup, 5.0);

  ScoreOptions Penalty;
  Penalty.FlagPenalty = 0.25;
  KernelResult Flagged = correct(1.0);
  Flagged.ReviewFlagCount = 2;
  EXPECT_DOUBLE_EQ(scoreKernel(Flagged, Penalty).Score, 0.8);
  Penalty.FlagPenalty = 10;
  EXPECT_EQ(scoreKernel(Flagged, Penalty).Score, 0.0);

  ScoreOptions Strict;
  Strict.ZeroOnFindings = true;
  KernelResult Warned = correct(1.0);
  Warned.FindingCount = 1;
  EXPECT_EQ(scoreKernel(Warned, Strict).Score, 0.0);
  EXPECT_DOUBLE_EQ(scoreKernel(Warned, ScoreOptions()).Score, 1.3);
}

TEST(ScoreTest, ReadsRecords) {
  auto R = readKernelResult(record(
      R"({"check":{"ok":true,"findings":[{"rule":"r"}]},)"
      R"("run":{"correct":true},"bench":{"speedup":1.5,"flags":["a","b"]}})"));
  ASSERT_TRUE(R);
  EXPECT_TRUE(R->Correct);
  EXPECT_FALSE(R->CheckFailed);
  EXPECT_EQ(R->FindingCount, 1u);
  EXPECT_EQ(*R->Speedup, 1.5);
  EXPECT_EQ(R->ReviewFlagCount, 2u);

  auto Null = readKernelResult(
      record(R"({"run":{"correct":true},"bench":{"speedup":null}})"));
  ASSERT_TRUE(Null);
  EXPECT_FALSE(Null->Speedup);

  // A timing kevin-bench rejected zeroes a correct kernel; a skipped one
  // (the kernel was not correct) says nothing more.
  auto Rejected = readKernelResult(record(
      R"({"run":{"correct":true},"bench":{"ok":false,"outcome":"rejected",)"
      R"("speedup":null,"flags":["stream-escape"]}})"));
  ASSERT_TRUE(Rejected);
  EXPECT_TRUE(Rejected->BenchRejected);
  KernelScore RejectedScore = scoreKernel(*Rejected, ScoreOptions());
  EXPECT_EQ(RejectedScore.Score, 0.0);
  EXPECT_FALSE(RejectedScore.Correct);
  ASSERT_EQ(RejectedScore.Flags.size(), 1u);
  EXPECT_STREQ(RejectedScore.Flags[0], score_flag::BenchRejected);
  auto Skipped = readKernelResult(record(
      R"({"run":{"correct":false},"bench":{"ok":false,"outcome":"skipped"}})"));
  ASSERT_TRUE(Skipped);
  EXPECT_FALSE(Skipped->BenchRejected);

  auto Unrun = readKernelResult(record(R"({"check":{"ok":false}})"));
  ASSERT_TRUE(Unrun);
  EXPECT_TRUE(Unrun->CheckFailed);

  auto Missing = readKernelResult(record(R"({"id":"m","run":{}})"));
  ASSERT_FALSE(Missing);
  EXPECT_EQ(Missing.error().message(),
            "record 'm': missing required field 'run.correct'");
  EXPECT_EQ(Missing.error().location().Line, 7u);

  auto Kind = readKernelResult(record(R"({"run":{"correct":1}})"));
  ASSERT_FALSE(Kind);
  EXPECT_EQ(Kind.error().message(),
            "record at line 7: field 'run.correct' must be a boolean, not "
            "number");
}
