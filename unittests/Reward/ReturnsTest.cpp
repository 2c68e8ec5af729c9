//===-- ReturnsTest.cpp - tests for kevin/Reward/Returns.h ----------------===//
#include "kevin/Reward/Returns.h"

#include <gtest/gtest.h>

using namespace kevin;

TEST(ReturnsTest, DiscountedSumMatchesTheDefinition) {
  // R_t = sum_{i>=t} gamma^(i-t) S_i, written out for three turns.
  std::vector<double> S = {0.0, 1.0, 2.0};
  auto R = discountedReturns(S, ReturnMode::Sum, 0.4);
  ASSERT_EQ(R.size(), 3u);
  EXPECT_DOUBLE_EQ(R[2], 2.0);
  EXPECT_DOUBLE_EQ(R[1], 1.0 + 0.4 * 2.0);
  EXPECT_DOUBLE_EQ(R[0], 0.0 + 0.4 * 1.0 + 0.16 * 2.0);
}

TEST(ReturnsTest, DiscountedMaxMatchesTheDefinition) {
  std::vector<double> S = {0.5, 0.0, 3.0, 0.1};
  auto R = discountedReturns(S, ReturnMode::Max, 0.8);
  for (size_t T = 0; T < S.size(); ++T) {
    double Expected = 0, Discount = 1;
    for (size_t I = T; I < S.size(); ++I, Discount *= 0.8)
      Expected = std::max(Expected, Discount * S[I]);
    EXPECT_DOUBLE_EQ(R[T], Expected) << "turn " << T + 1;
  }
}

TEST(ReturnsTest, EdgeCases) {
  EXPECT_TRUE(discountedReturns({}, ReturnMode::Sum, 0.4).empty());
  EXPECT_EQ(discountedReturns({1.5}, ReturnMode::Max, 0.4),
            std::vector<double>{1.5});
  // gamma 0: every turn keeps only its own score.
  EXPECT_EQ(discountedReturns({1, 2, 3}, ReturnMode::Sum, 0.0),
            (std::vector<double>{1, 2, 3}));
  EXPECT_STREQ(returnModeName(ReturnMode::Sum), "sum");
  EXPECT_STREQ(returnModeName(ReturnMode::Max), "max");
}
