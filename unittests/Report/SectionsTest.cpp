//===-- SectionsTest.cpp - tests of the report's RL signal, levels, n/a ---===//
//
// The zero-variance share, the derived returns and advantages, per-level
// means, "n/a" for runs that were never timed, two-run deltas, and run
// names that are never absolute paths.
//
//===----------------------------------------------------------------------===//
#include "kevin/Report/Compare.h"
#include "kevin/Report/Format.h"
#include "kevin/Report/Metrics.h"
#include "kevin/Report/RunInfo.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

using namespace kevin;

namespace {

KernelSample kernel(const char *Task, int64_t Trajectory, int64_t Turn,
                    double Score, std::optional<double> Speedup = {}) {
  KernelSample K;
  K.TaskId = Task;
  K.Trajectory = Trajectory;
  K.Turn = Turn;
  K.Score = Score;
  K.Correct = Score > 0;
  K.Speedup = Speedup;
  K.Timed = Speedup.has_value();
  K.Failure = K.Correct ? "" : "compare/mismatch";
  return K;
}

} // namespace

TEST(SectionsTest, ReturnsAndAdvantagesAsTheToolsDefaults) {
  // One trajectory of three turns, S = 0, 0, 1: R = 0.16, 0.4, 1 (gamma
  // 0.4, sum). A second trajectory of one turn with S = 0.
  std::vector<KernelSample> Samples = {
      kernel("a", 0, 1, 0), kernel("a", 0, 3, 1), kernel("a", 0, 2, 0),
      kernel("a", 1, 1, 0)};
  deriveSignals(Samples);
  EXPECT_DOUBLE_EQ(*Samples[0].Return, 0.16);
  EXPECT_DOUBLE_EQ(*Samples[1].Return, 1.0);
  EXPECT_DOUBLE_EQ(*Samples[2].Return, 0.4);
  EXPECT_DOUBLE_EQ(*Samples[3].Return, 0.0);
  // A over the task's four returns: mean 0.39, advantages sum to 0 and the
  // largest return has the largest advantage.
  double Sum = 0;
  for (const KernelSample &K : Samples)
    Sum += *K.Advantage;
  EXPECT_NEAR(Sum, 0.0, 1e-9);
  EXPECT_GT(*Samples[1].Advantage, *Samples[2].Advantage);
  EXPECT_LT(*Samples[3].Advantage, 0.0);
}

TEST(SectionsTest, RecordedReturnsAndAdvantagesWin) {
  std::vector<KernelSample> Samples = {kernel("a", 0, 1, 1),
                                       kernel("a", 1, 1, 0)};
  Samples[0].Return = 5;
  Samples[0].Advantage = 0.25;
  deriveSignals(Samples);
  EXPECT_EQ(*Samples[0].Return, 5.0);
  EXPECT_EQ(*Samples[0].Advantage, 0.25);
  EXPECT_EQ(*Samples[1].Return, 0.0);
}

TEST(SectionsTest, ZeroVarianceShareCountsGroupsWithEqualReturns) {
  // Task a's returns differ; b's are all 0; c has a single sample; d's
  // grpo groups split it into one group that varies and one that does not.
  std::vector<KernelSample> Samples = {
      kernel("a", 0, 1, 1), kernel("a", 1, 1, 0), kernel("b", 0, 1, 0),
      kernel("b", 1, 1, 0), kernel("c", 0, 1, 2), kernel("d", 0, 1, 1),
      kernel("d", 1, 1, 0), kernel("d", 2, 1, 3), kernel("d", 3, 1, 3)};
  Samples[5].Group = Samples[6].Group = "d@turn1";
  Samples[7].Group = Samples[8].Group = "d@turn2";
  deriveSignals(Samples);
  RunReport R = computeReport(Samples, ReportOptions());
  EXPECT_EQ(R.Signal.Groups, 5u);
  EXPECT_EQ(R.Signal.ZeroVarianceGroups, 3u); // b, c, d@turn2
  EXPECT_DOUBLE_EQ(R.Signal.zeroVarianceShare(), 0.6);
  EXPECT_EQ(R.Signal.Scores.size(), 9u);
  EXPECT_EQ(R.Signal.Advantages[2], 0.0); // a zero-variance group
  EXPECT_EQ(RLSignal().zeroVarianceShare(), 0.0);
}

TEST(SectionsTest, PerLevelIsTheMeanOverTheLevelsTasks) {
  std::vector<KernelSample> Samples = {
      kernel("level1/1_A", 0, 1, 1.3, 1.0), kernel("level1/2_B", 0, 1, 0),
      kernel("level2/3_C", 0, 1, 2.3, 2.0), kernel("level2/3_C", 1, 1, 0),
      kernel("plain", 0, 1, 0)};
  EXPECT_EQ(taskLevel("level1/1_A"), "level1");
  EXPECT_EQ(taskLevel("plain"), "(none)");
  RunReport R = computeReport(Samples, ReportOptions());
  ASSERT_EQ(R.Levels.size(), 3u);
  EXPECT_EQ(R.Levels[0].TaskId, "level1");
  EXPECT_EQ(R.Levels[0].Trajectories, 2u);
  EXPECT_DOUBLE_EQ(R.Levels[0].AvgCorrect, 0.5); // (1 + 0) / 2 tasks
  EXPECT_DOUBLE_EQ(R.Levels[0].AvgSpeedup, 0.5);
  EXPECT_EQ(R.Levels[1].TaskId, "level2");
  EXPECT_DOUBLE_EQ(R.Levels[1].BestSpeedup, 2.0);
  EXPECT_DOUBLE_EQ(R.Levels[1].AvgSpeedup, 1.0); // one task, 2 and 0
  EXPECT_EQ(R.Levels[2].TaskId, "(none)");
  // The overall figures stay the mean over the four tasks, not the levels.
  EXPECT_DOUBLE_EQ(R.Overall.AvgCorrect, (1 + 0 + 0.5 + 0) / 4.0);
}

TEST(SectionsTest, UntimedRunsShowNotApplicable) {
  // Correct kernels without a bench section (kevin eval --no-bench).
  std::vector<KernelSample> Samples = {kernel("level1/a", 0, 1, 0.3),
                                       kernel("level1/a", 1, 1, 0)};
  RunReport R = computeReport(Samples, ReportOptions());
  EXPECT_FALSE(R.Timed);
  std::string Text = formatReportText(R, ReportOptions());
  EXPECT_NE(Text.find("speedup                       n/a      n/a"),
            std::string::npos)
      << Text;
  EXPECT_EQ(Text.find("0.00x"), std::string::npos) << Text;
  EXPECT_EQ(Text.find("fast_0                     100.0%"), std::string::npos);
  Json J = reportToJson(R, ReportOptions());
  EXPECT_TRUE(J["overall"]["speedup"]["best"].is_null());
  EXPECT_TRUE(J["overall"]["fast_p"]["0"]["avg"].is_null());
  EXPECT_EQ(J["overall"]["correct"]["avg"], 0.5);
  RunInfo Info;
  Info.Name = "r";
  std::string Markdown = formatReportMarkdown(R, ReportOptions(), Info);
  EXPECT_NE(Markdown.find("| speedup | n/a | n/a |"), std::string::npos)
      << Markdown;
  // One timed record makes the run timed.
  Samples.push_back(kernel("level1/b", 0, 1, 1.3, 1.0));
  EXPECT_TRUE(computeReport(Samples, ReportOptions()).Timed);
}

TEST(SectionsTest, TwoRunDeltas) {
  ReportOptions Opts;
  Opts.FastP = {1};
  Opts.PassK = {1, 4};
  // A: t correct at 1.0x in one of two trajectories; u never correct.
  // B: t correct at 2.0x in both; u absent; v new.
  RunReport A = computeReport(
      {kernel("t", 0, 1, 1.3, 1.0), kernel("t", 1, 1, 0), kernel("u", 0, 1, 0)},
      Opts);
  RunReport B =
      computeReport({kernel("t", 0, 1, 2.3, 2.0), kernel("t", 1, 1, 2.3, 2.0),
                     kernel("v", 0, 1, 0)},
                    Opts);
  RunComparison C = compareRuns(A, B, Opts);
  auto Find = [](const std::vector<MetricPair> &Pairs,
                 const std::string &Name) {
    for (const MetricPair &P : Pairs)
      if (P.Name == Name)
        return P;
    ADD_FAILURE() << "no metric " << Name;
    return MetricPair();
  };
  MetricPair Avg = Find(C.Overall, "correct avg@k");
  EXPECT_DOUBLE_EQ(*Avg.A, 0.25); // (0.5 + 0) / 2
  EXPECT_DOUBLE_EQ(*Avg.B, 0.5);  // (1 + 0) / 2
  EXPECT_DOUBLE_EQ(*Avg.delta(), 0.25);
  EXPECT_DOUBLE_EQ(*Find(C.Overall, "speedup best@k").delta(), 0.5);
  EXPECT_DOUBLE_EQ(*Find(C.Overall, "fast_1 avg@k").delta(), 0.25);
  // pass@4: no task of either run has 4 trajectories, so no row.
  for (const MetricPair &P : C.Overall)
    EXPECT_NE(P.Name, "pass@4");
  ASSERT_EQ(C.Tasks.size(), 3u);
  EXPECT_EQ(C.Tasks[0].TaskId, "t");
  EXPECT_DOUBLE_EQ(*Find(C.Tasks[0].Metrics, "speedup avg@k").delta(), 1.5);
  EXPECT_EQ(C.Tasks[1].TaskId, "u");
  EXPECT_FALSE(C.Tasks[1].Metrics[0].B);
  EXPECT_FALSE(C.Tasks[1].Metrics[0].delta());
  EXPECT_EQ(C.Tasks[2].TaskId, "v");
  EXPECT_FALSE(C.Tasks[2].Metrics[0].A);
  // A run that was never timed has no speedup, so no speedup delta.
  RunReport Untimed = computeReport({kernel("t", 0, 1, 0.3)}, Opts);
  RunComparison D = compareRuns(Untimed, B, Opts);
  EXPECT_FALSE(Find(D.Overall, "speedup avg@k").A);
  EXPECT_FALSE(Find(D.Overall, "speedup avg@k").delta());
  EXPECT_TRUE(Find(D.Overall, "correct avg@k").delta());
}

TEST(SectionsTest, RunNamesAreNeverAbsolutePaths) {
  namespace stdfs = std::filesystem;
  stdfs::path Dir = stdfs::temp_directory_path() /
                    ("kevin-report-test-" + std::to_string(::getpid()));
  stdfs::create_directories(Dir / "run7");
  std::ofstream(Dir / "run7" / "scored.jsonl") << "";
  std::ofstream(Dir / "run7" / "run.json")
      << R"({"policy": "replay:x.jsonl", "model": "ckpt-100", "trajectories": 4,
            "turns": 2, "device": "cuda:0", "tasks": ["level1/a"]})";
  std::ofstream(Dir / "loose.jsonl") << "";

  auto Run = locateRun((Dir / "run7").string() + "/");
  ASSERT_TRUE(Run) << Run.error().message();
  EXPECT_EQ(Run->Name, "run7");
  EXPECT_EQ(Run->RecordPath, (Dir / "run7" / "scored.jsonl").string());
  auto Setting = [&](const RunInfo &Info, const std::string &Label) {
    for (const auto &[Key, Value] : Info.Settings)
      if (Key == Label)
        return Value;
    return std::string("(missing)");
  };
  EXPECT_EQ(Setting(*Run, "model"), "ckpt-100");
  EXPECT_EQ(Setting(*Run, "m (trajectories per task)"), "4");
  EXPECT_EQ(Setting(*Run, "device"), "cuda:0");
  auto Beside = locateRun((Dir / "run7" / "scored.jsonl").string());
  ASSERT_TRUE(Beside);
  EXPECT_EQ(Beside->Name, "run7");
  auto Loose = locateRun((Dir / "loose.jsonl").string());
  ASSERT_TRUE(Loose);
  EXPECT_EQ(Loose->Name, "loose.jsonl");
  describeRun(*Loose, {kernel("level1/a", 0, 2, 0)});
  EXPECT_EQ(Setting(*Loose, "n (turns per trajectory)"), "up to 2");
  EXPECT_FALSE(locateRun(Dir.string())); // no records in it
  stdfs::remove_all(Dir);
}
