//===-- CompareTest.cpp - tests for kevin/Exec (comparison, outcomes) -----===//
#include "kevin/Exec/Compare.h"
#include "kevin/Exec/Judge.h"
#include "kevin/Exec/Outcome.h"

#include <ATen/ATen.h>
#include <gtest/gtest.h>

#include <cmath>

using namespace kevin;

namespace {
ToleranceTable defaults() { return ToleranceTable(); }
} // namespace

TEST(CompareTest, WithinToleranceIsOk) {
  at::Tensor R = at::randn({8, 8});
  TrialComparison C = compareTrial({R}, {R + 1e-3}, defaults(), false);
  EXPECT_EQ(C.Result, Outcome::Ok);
  EXPECT_NEAR(C.MaxAbsError, 1e-3, 1e-6);
}

TEST(CompareTest, OutsideToleranceIsAMismatch) {
  at::Tensor R = at::ones({4});
  at::Tensor C = R.clone();
  C[2] = 1.5;
  TrialComparison T = compareTrial({R}, {C}, defaults(), false);
  EXPECT_EQ(T.Result, Outcome::Mismatch);
  EXPECT_NEAR(T.MaxAbsError, 0.5, 1e-9);
  EXPECT_NE(T.Message.find("1 of 4 elements"), std::string::npos);
}

TEST(CompareTest, ShapeAndDtypeAreExact) {
  at::Tensor R = at::zeros({2, 3});
  EXPECT_EQ(compareTrial({R}, {at::zeros({3, 2})}, defaults(), false).Result,
            Outcome::ShapeMismatch);
  // Broadcastable is not equal.
  EXPECT_EQ(compareTrial({R}, {at::zeros({1, 3})}, defaults(), false).Result,
            Outcome::ShapeMismatch);
  TrialComparison D =
      compareTrial({R}, {at::zeros({2, 3}, at::kDouble)}, defaults(), false);
  EXPECT_EQ(D.Result, Outcome::DtypeMismatch);
  EXPECT_EQ(D.Message, "dtype float64, expected float32");
}

TEST(CompareTest, NanRules) {
  at::Tensor R = at::zeros({3});
  at::Tensor C = R.clone();
  C[1] = NAN;
  EXPECT_EQ(compareTrial({R}, {C}, defaults(), false).Result, Outcome::Nan);
  // NaN where the reference has NaN is fine; a number there is not.
  at::Tensor RN = R.clone();
  RN[1] = NAN;
  EXPECT_EQ(compareTrial({RN}, {C}, defaults(), false).Result, Outcome::Ok);
  EXPECT_EQ(compareTrial({RN}, {R}, defaults(), false).Result,
            Outcome::Mismatch);
}

TEST(CompareTest, ErrorNormsAreTheL2NormOfTheDifference) {
  at::Tensor R = at::zeros({4});
  at::Tensor C = R.clone();
  C[0] = 3e-3;
  C[3] = -4e-3;
  TrialComparison T = compareTrial({R}, {C}, defaults(), false);
  EXPECT_EQ(T.Result, Outcome::Ok);
  ASSERT_EQ(T.ErrorNorms.size(), 1u);
  EXPECT_NEAR(T.ErrorNorms[0], 5e-3, 1e-9);
  // NaN where the reference has NaN too does not count.
  at::Tensor RN = R.clone(), CN = C.clone();
  RN[1] = CN[1] = NAN;
  EXPECT_NEAR(compareTrial({RN}, {CN}, defaults(), false).ErrorNorms[0], 5e-3,
              1e-9);
}

TEST(CompareTest, PrecisionBudget) {
  PrecisionBudget Budget; // 100 x the reference's own error + 1e-5 of the norm
  // An honest kernel: a few times the float32 reference's error.
  EXPECT_EQ(precisionExcess(3e-7, 1e-7, 1.0, Budget), "");
  // Exact references (ReLU) leave only the floor.
  EXPECT_EQ(precisionExcess(0.9e-5, 0, 1.0, Budget), "");
  std::string Over = precisionExcess(2e-3, 1e-7, 1.0, Budget);
  EXPECT_NE(Over.find("at least 0.002"), std::string::npos) << Over;
  EXPECT_NE(Over.find("[KEVIN-RT-023]"), std::string::npos);
  // The bound is a lower one: |c - r64| >= |c - r| - |r - r64|.
  EXPECT_EQ(precisionExcess(1.02e-5 + 1e-8, 1e-8, 1.0, Budget), "");
  EXPECT_NE(precisionExcess(1.2e-5, 1e-8, 1.0, Budget), "");
  // Relative to the output's norm.
  EXPECT_EQ(precisionExcess(5e-4, 0, 100.0, Budget), "");
  // Off, or nothing to judge by.
  EXPECT_EQ(precisionExcess(1.0, 0, 1.0, PrecisionBudget{0, 1e-5}), "");
  EXPECT_EQ(precisionExcess(1.0, 0, 0.0, Budget), "");
  EXPECT_EQ(precisionExcess(NAN, 0, 1.0, Budget), "");
}

TEST(CompareTest, PerDtypeTolerances) {
  ToleranceTable T;
  EXPECT_FALSE(T.addSpec("float16=0.5,0.1"));
  EXPECT_TRUE(T.addSpec("float16"));
  EXPECT_TRUE(T.addSpec("float16=x,1"));
  EXPECT_DOUBLE_EQ(T.forDtype("float16").Atol, 0.5);
  EXPECT_DOUBLE_EQ(T.forDtype("float32").Atol, 1e-2);
  at::Tensor R = at::ones({2}, at::kHalf);
  EXPECT_EQ(compareTrial({R}, {R * 1.25}, T, false).Result, Outcome::Ok);
  EXPECT_EQ(compareTrial({R}, {R * 1.25}, defaults(), false).Result,
            Outcome::Mismatch);
}

TEST(CompareTest, TrivialOutputsOnDegenerateTasks) {
  // Every value far below atol: zeros would pass.
  at::Tensor Tiny = at::rand({64}) * 1e-4;
  EXPECT_TRUE(trivialOutputWouldPass({{Tiny}}, defaults()));
  EXPECT_FALSE(trivialOutputWouldPass({{at::randn({64})}}, defaults()));
  // A reference with a non-finite value anywhere is never trivial (the scan
  // runs in chunks: the Inf lies past the first ones).
  at::Tensor TinyInf = at::rand({1 << 18}) * 1e-4;
  EXPECT_TRUE(trivialOutputWouldPass({{TinyInf}}, defaults()));
  TinyInf[(1 << 18) - 3] = INFINITY;
  EXPECT_FALSE(trivialOutputWouldPass({{TinyInf}}, defaults()));
  EXPECT_FALSE(trivialOutputWouldPass({{TinyInf.to(at::kDouble)}}, defaults()));
  // Scale-aware comparison rejects zeros and a half-size answer there.
  EXPECT_EQ(compareTrial({Tiny}, {at::zeros({64})}, defaults(), false).Result,
            Outcome::Ok);
  EXPECT_EQ(compareTrial({Tiny}, {at::zeros({64})}, defaults(), true).Result,
            Outcome::Mismatch);
  EXPECT_EQ(compareTrial({Tiny}, {Tiny * 0.5}, defaults(), true).Result,
            Outcome::Mismatch);
  EXPECT_EQ(compareTrial({Tiny}, {Tiny * 1.001}, defaults(), true).Result,
            Outcome::Ok);
}

TEST(CompareTest, SameBits) {
  at::Tensor A = at::randn({5});
  EXPECT_TRUE(sameBits({A}, {A.clone()}));
  EXPECT_FALSE(sameBits({A}, {A + 1e-7}));
  EXPECT_FALSE(sameBits({A}, {A.to(at::kDouble)}));
  EXPECT_FALSE(sameBits({A}, {}));
  at::Tensor N = at::full({2}, NAN);
  EXPECT_TRUE(sameBits({N}, {N.clone()}));
}

TEST(OutcomeTest, NamesRoundTrip) {
  for (Outcome O :
       {Outcome::Ok, Outcome::BuildError, Outcome::NotInputSensitive,
        Outcome::OutputAliasesInput, Outcome::DegenerateTask})
    EXPECT_EQ(parseOutcome(outcomeName(O)), O);
  EXPECT_STREQ(outcomeName(Outcome::InputMutated), "input-mutated");
  EXPECT_FALSE(parseOutcome("passed"));
  EXPECT_EQ(parseStage("compare"), Stage::Compare);
  EXPECT_STREQ(stageName(Stage::Build), "build");
}

TEST(JudgeTest, TrialSeedsAreStableAndDistinct) {
  EXPECT_EQ(trialSeed(7, 0), trialSeed(7, 0));
  EXPECT_NE(trialSeed(7, 0), trialSeed(7, 1));
  EXPECT_NE(trialSeed(7, 0), trialSeed(8, 0));
  EXPECT_LT(trialSeed(7, 3), 1ULL << 63);
}
