//===-- CheckPolicyTest.cpp - tests for check policies and presets --------===//
//
// Presets know every rule of the catalog, with the setting Rules.def gives;
// list matching supports prefixes.
//
//===----------------------------------------------------------------------===//
#include "kevin/Check/CheckPolicy.h"
#include "kevin/Check/Finding.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>

using namespace kevin;

namespace {

/// A rule's setting under a policy, spelled as in Rules.def.
std::string settingOf(const CheckPolicy &P, const std::string &Rule) {
  if (!P.enabled(Rule))
    return "Off";
  return P.severity(Rule) == Severity::Warning ? "Warning" : "Error";
}

} // namespace

TEST(CheckPolicyTest, StrictEnablesEveryRule) {
  Expected<CheckPolicy> P = CheckPolicy::preset("strict");
  ASSERT_TRUE(bool(P));
  for (const RuleInfo &R : ruleCatalog()) {
    EXPECT_TRUE(P->enabled(R.Id)) << R.Id;
    EXPECT_EQ(P->severity(R.Id), Severity::Error) << R.Id;
  }
}

TEST(CheckPolicyTest, KevinPresetIsThePapersRules) {
  Expected<CheckPolicy> P = CheckPolicy::preset("kevin");
  ASSERT_TRUE(bool(P));
  EXPECT_TRUE(P->enabled("kevin-py-try-except"));
  EXPECT_TRUE(P->enabled("kevin-py-forward-compute"));
  EXPECT_TRUE(P->enabled("kevin-cu-no-kernel"));
  EXPECT_FALSE(P->enabled("kevin-py-import"));
}

TEST(CheckPolicyTest, EveryPresetLoads) {
  for (const std::string &Name : CheckPolicy::presetNames()) {
    Expected<CheckPolicy> P = CheckPolicy::preset(Name);
    ASSERT_TRUE(bool(P)) << Name;
  }
  EXPECT_FALSE(bool(CheckPolicy::preset("lenient")));
}

TEST(CheckPolicyTest, BuiltInPresetsAreTheColumnsOfRulesDef) {
  std::vector<std::string> Names = CheckPolicy::presetNames();
  std::sort(Names.begin(), Names.end());
  EXPECT_EQ(Names, (std::vector<std::string>{"cpu", "kevin", "strict"}));
}

// Every rule x every built-in preset: the preset sets the rule, as the rule's
// row in Rules.def says (nothing is off because a preset forgot it).
TEST(CheckPolicyTest, EveryPresetSetsEveryRuleAsRulesDefSays) {
  struct Row {
    const char *Id;
    std::map<std::string, std::string> Settings;
  };
  const std::vector<Row> Rows = {
#define RULE(Id, Kind, CatalogId, Summary, Hint, Cpu, Kevin, Strict)           \
  {Id, {{"cpu", #Cpu}, {"kevin", #Kevin}, {"strict", #Strict}}},
#include "Rules.def"
  };
  ASSERT_EQ(Rows.size(), ruleCatalog().size());
  for (const char *Name : {"cpu", "kevin", "strict"}) {
    Expected<CheckPolicy> P = CheckPolicy::preset(Name);
    ASSERT_TRUE(bool(P)) << Name;
    for (const Row &R : Rows)
      EXPECT_EQ(settingOf(*P, R.Id), R.Settings.at(Name))
          << R.Id << " in preset " << Name;
  }
}

TEST(CheckPolicyTest, ListMatchingWithPrefixes) {
  Expected<CheckPolicy> P = CheckPolicy::preset("strict");
  ASSERT_TRUE(bool(P));
  EXPECT_TRUE(P->matches("imports", "typing.Optional"));
  EXPECT_TRUE(P->matches("cuda_flags", "-arch=sm_90a"));
  EXPECT_FALSE(P->matches("cuda_flags", "--default-stream=per-thread"));
  EXPECT_FALSE(P->matches("imports", "os"));
}
