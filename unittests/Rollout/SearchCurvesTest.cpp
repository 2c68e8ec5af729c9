//===-- SearchCurvesTest.cpp - tests for kevin/Rollout/SearchCurves.h -----===//
#include "kevin/Rollout/SearchCurves.h"

#include <gtest/gtest.h>

using namespace kevin;

namespace {

SearchKernel kernel(const std::string &Label, const std::string &Task,
                    int Kernel, bool Correct, double Speedup) {
  SearchKernel K;
  K.Label = Label;
  K.Source = "run/search.jsonl";
  K.TaskId = Task;
  K.Kernel = Kernel;
  K.Budget = 3;
  K.Correct = Correct;
  K.Speedup = Speedup;
  return K;
}

TEST(SearchCurvesTest, BestAndPassAgainstKernelsSpent) {
  // Logged out of order: curves follow search.kernel, not the log's order.
  std::vector<SearchCurve> Curves = computeSearchCurves(
      {kernel("serial 1x3", "a", 3, true, 4.0),
       kernel("serial 1x3", "a", 1, false, 0),
       kernel("serial 1x3", "a", 2, true, 1.0),
       kernel("serial 1x3", "b", 1, true, 2.0),
       kernel("serial 1x3", "b", 2, false, 0),
       kernel("parallel 3x1", "a", 1, true, 0.5)});
  ASSERT_EQ(Curves.size(), 2u);
  const SearchCurve &S = Curves[0];
  EXPECT_EQ(S.Label, "serial 1x3");
  ASSERT_EQ(S.Points.size(), 3u);
  EXPECT_DOUBLE_EQ(S.Points[0].BestSpeedup, 1.0); // (0 + 2) / 2
  EXPECT_DOUBLE_EQ(S.Points[0].PassRate, 0.5);
  EXPECT_DOUBLE_EQ(S.Points[1].BestSpeedup, 1.5); // (1 + 2) / 2
  EXPECT_DOUBLE_EQ(S.Points[1].PassRate, 1.0);
  // Task b stopped at 2 kernels: it keeps its last value.
  EXPECT_DOUBLE_EQ(S.Points[2].BestSpeedup, 3.0); // (4 + 2) / 2
  EXPECT_EQ(S.FinalBest, (std::vector<double>{4.0, 2.0}));
  EXPECT_EQ(Curves[1].Label, "parallel 3x1");
  EXPECT_DOUBLE_EQ(Curves[1].Points[2].BestSpeedup, 0.5);
}

TEST(SearchCurvesTest, BootstrapIntervalOverTasks) {
  // One value: no spread. Two: the interval runs from one to the other.
  Interval One = bootstrapMeanInterval({1.5}, 200, 7);
  EXPECT_DOUBLE_EQ(One.Low, 1.5);
  EXPECT_DOUBLE_EQ(One.High, 1.5);
  Interval Two = bootstrapMeanInterval({1.0, 3.0}, 1000, 0);
  EXPECT_DOUBLE_EQ(Two.Low, 1.0);
  EXPECT_DOUBLE_EQ(Two.High, 3.0);
  // Many: inside the range, around the mean, the same for the same seed.
  std::vector<double> Values;
  for (int I = 0; I < 50; ++I)
    Values.push_back(I % 10);
  Interval A = bootstrapMeanInterval(Values, 1000, 3);
  Interval B = bootstrapMeanInterval(Values, 1000, 3);
  EXPECT_EQ(A.Low, B.Low);
  EXPECT_EQ(A.High, B.High);
  EXPECT_LT(A.Low, 4.5);
  EXPECT_GT(A.High, 4.5);
  EXPECT_GT(A.Low, 3.0);
  EXPECT_LT(A.High, 6.0);
}

TEST(SearchCurvesTest, TableRowsCarryTheIntervals) {
  std::vector<SearchCurve> Curves = computeSearchCurves(
      {kernel("serial 1x3", "a", 1, true, 1.0),
       kernel("serial 1x3", "b", 1, false, 0)});
  std::string Table = formatBudgetTable(Curves, TableOptions());
  EXPECT_NE(Table.find("| serial 1x3 | 3 | 0.50x [0.00x, 1.00x] | 50% [0%, "
                       "100%] | 2 |"),
            std::string::npos)
      << Table;
}

} // namespace
