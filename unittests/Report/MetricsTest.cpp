//===-- MetricsTest.cpp - tests for kevin/Report/Metrics.h ----------------===//
#include "kevin/Report/Metrics.h"
#include "kevin/Report/Format.h"

#include <gtest/gtest.h>

using namespace kevin;

namespace {

double binomial(double N, double K) {
  double R = 1;
  for (double I = 0; I < K; ++I)
    R = R * (N - I) / (I + 1);
  return R;
}

KernelSample kernel(const char *Task, int64_t Trajectory, int64_t Turn,
                    bool Correct, std::optional<double> Speedup) {
  KernelSample K;
  K.TaskId = Task;
  K.Trajectory = Trajectory;
  K.Turn = Turn;
  K.Correct = Correct;
  K.Speedup = Speedup;
  K.Failure = Correct ? "" : "compare/mismatch";
  return K;
}

} // namespace

TEST(MetricsTest, PassAtKIsTheUnbiasedEstimator) {
  for (size_t N : {1u, 5u, 16u})
    for (size_t C = 0; C <= N; ++C)
      for (size_t K = 1; K <= N; ++K)
        EXPECT_NEAR(passAtK(N, C, K), 1 - binomial(N - C, K) / binomial(N, K),
                    1e-12)
            << N << " " << C << " " << K;
  EXPECT_EQ(passAtK(10, 0, 3), 0.0);
  EXPECT_EQ(passAtK(10, 10, 1), 1.0);
  EXPECT_DOUBLE_EQ(passAtK(4, 1, 1), 0.25);
}

TEST(MetricsTest, NotOkayPrefix) {
  EXPECT_TRUE(startsWithPrefix("Okay, so", "Okay,"));
  EXPECT_TRUE(startsWithPrefix("  <think>\n Okay, so", "Okay,"));
  EXPECT_FALSE(startsWithPrefix("okay, so", "Okay,"));
  EXPECT_FALSE(startsWithPrefix("Okay so", "Okay,"));
  EXPECT_FALSE(startsWithPrefix("", "Okay,"));
}

TEST(MetricsTest, RepetitionScore) {
  EXPECT_EQ(repetitionScore(""), 0.0);
  EXPECT_EQ(repetitionScore("one two three four five six"), 0.0);
  // 9 words, 6 grams: the last one repeats the first.
  EXPECT_DOUBLE_EQ(repetitionScore("a b c d x a b c d"), 1.0 / 6);
  EXPECT_GT(repetitionScore("so la la la la la la la la la la"), 0.5);
}

TEST(MetricsTest, KevinsTrajectoryDefinitions) {
  // Task a: trajectory 0 correct at turn 2 (1.5x) and turn 3 (0.5x): its
  // performance is its fastest correct kernel, 1.5. Trajectory 1 never
  // correct: performance 0.
  std::vector<KernelSample> Samples = {
      kernel("a", 0, 1, false, std::nullopt), kernel("a", 0, 2, true, 1.5),
      kernel("a", 0, 3, true, 0.5),           kernel("a", 1, 1, false, {}),
      kernel("a", 1, 2, false, {}),           kernel("a", 1, 3, false, {})};
  ReportOptions Opts;
  Opts.FastP = {0, 1, 2};
  Opts.PassK = {1, 2, 3};
  RunReport R = computeReport(Samples, Opts);
  ASSERT_EQ(R.Tasks.size(), 1u);
  const TaskMetrics &A = R.Tasks[0];
  EXPECT_EQ(A.Trajectories, 2u);
  EXPECT_EQ(A.BestCorrect, 1.0);
  EXPECT_EQ(A.AvgCorrect, 0.5);
  EXPECT_EQ(A.BestSpeedup, 1.5);
  EXPECT_EQ(A.AvgSpeedup, 0.75);
  EXPECT_EQ(A.BestFast, (std::vector<double>{1, 1, 0}));
  EXPECT_EQ(A.AvgFast, (std::vector<double>{0.5, 0.5, 0}));
  EXPECT_DOUBLE_EQ(*A.PassAtK[0], 0.5);
  EXPECT_DOUBLE_EQ(*A.PassAtK[1], 1.0);
  EXPECT_FALSE(A.PassAtK[2]);
  ASSERT_EQ(R.Turns.size(), 3u);
  EXPECT_EQ(R.Turns[0].CorrectRate, 0.0);
  EXPECT_EQ(R.Turns[1].CorrectSoFar, 0.5);
  EXPECT_EQ(R.Turns[1].MeanBestSpeedup, 0.75);
  EXPECT_EQ(R.Turns[2].MeanBestSpeedup, 0.75);
  EXPECT_EQ(R.Failures.at("compare/mismatch"), 4u);
  EXPECT_EQ(R.CorrectSpeedups, std::vector<double>{1.5});
}

TEST(MetricsTest, EmptyRunFormats) {
  RunReport R = computeReport({}, ReportOptions());
  EXPECT_EQ(R.Overall.Trajectories, 0u);
  EXPECT_NE(formatReportText(R, ReportOptions()).find("0 records"),
            std::string::npos);
  RunInfo Info;
  Info.Name = "x";
  EXPECT_NE(formatReportHtml(R, {}, ReportOptions(), Info).find("</html>"),
            std::string::npos);
  EXPECT_EQ(reportToJson(R, ReportOptions())["records"], 0);
}

TEST(MetricsTest, HtmlEscapesTaskNames) {
  std::vector<KernelSample> Samples = {kernel("<b>&", 0, 1, true, 1.0)};
  RunInfo Info;
  Info.Name = "run";
  std::string Html = formatReportHtml(computeReport(Samples, ReportOptions()),
                                      Samples, ReportOptions(), Info);
  EXPECT_NE(Html.find("&lt;b&gt;&amp;"), std::string::npos);
  EXPECT_EQ(Html.find("<b>&"), std::string::npos);
}
