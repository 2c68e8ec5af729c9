//===-- PolicyTest.cpp - tests for check policies and presets -------------===//
//
// Presets know every rule of the catalog; list matching supports prefixes.
//
//===----------------------------------------------------------------------===//
#include "kevin/Check/Finding.h"
#include "kevin/Check/Policy.h"

#include <gtest/gtest.h>

using namespace kevin;

TEST(PolicyTest, StrictEnablesEveryRule) {
  Expected<Policy> P = Policy::preset("strict");
  ASSERT_TRUE(bool(P));
  for (const RuleInfo &R : ruleCatalog()) {
    EXPECT_TRUE(P->enabled(R.Id)) << R.Id;
    EXPECT_EQ(P->severity(R.Id), Severity::Error) << R.Id;
  }
}

TEST(PolicyTest, KevinPresetIsThePapersRules) {
  Expected<Policy> P = Policy::preset("kevin");
  ASSERT_TRUE(bool(P));
  EXPECT_TRUE(P->enabled("kevin-py-try-except"));
  EXPECT_TRUE(P->enabled("kevin-py-forward-compute"));
  EXPECT_TRUE(P->enabled("kevin-cu-no-kernel"));
  EXPECT_FALSE(P->enabled("kevin-py-import"));
}

TEST(PolicyTest, EveryPresetLoads) {
  for (const std::string &Name : Policy::presetNames()) {
    Expected<Policy> P = Policy::preset(Name);
    ASSERT_TRUE(bool(P)) << Name;
  }
  EXPECT_FALSE(bool(Policy::preset("lenient")));
}

TEST(PolicyTest, ListMatchingWithPrefixes) {
  Expected<Policy> P = Policy::preset("strict");
  ASSERT_TRUE(bool(P));
  EXPECT_TRUE(P->matches("imports", "typing.Optional"));
  EXPECT_TRUE(P->matches("cuda_flags", "-arch=sm_90a"));
  EXPECT_FALSE(P->matches("cuda_flags", "--default-stream=per-thread"));
  EXPECT_FALSE(P->matches("imports", "os"));
}
