//===-- RulesDefTest.cpp - tests for the rule table Rules.def -------------===//
//
// The catalog, the rule classes and the factories all come from Rules.def:
// every rule class reports the id of its row, in the row's order and kind.
//
//===----------------------------------------------------------------------===//
#include "kevin/Check/CudaRule.h"
#include "kevin/Check/Finding.h"
#include "kevin/Check/PythonRule.h"

#include <gtest/gtest.h>

#include <set>

using namespace kevin;

TEST(RulesDefTest, PythonRuleClassesAreThePythonRows) {
  const std::vector<std::string> Rows = {
#define PYTHON_RULE(Id, Factory, CatalogId, Summary, Hint, Cpu, Kevin, Strict) \
  Id,
#include "Rules.def"
  };
  std::vector<std::string> Ids;
  for (const auto &Rule : createPythonRules())
    Ids.push_back(Rule->id());
  EXPECT_EQ(Ids, Rows);
}

TEST(RulesDefTest, CudaRuleClassesAreTheCudaRows) {
  const std::vector<std::string> Rows = {
#define CUDA_RULE(Id, Factory, CatalogId, Summary, Hint, Cpu, Kevin, Strict)   \
  Id,
#include "Rules.def"
  };
  std::vector<std::string> Ids;
  for (const auto &Rule : createCudaRules())
    Ids.push_back(Rule->id());
  EXPECT_EQ(Ids, Rows);
}

TEST(RulesDefTest, CatalogIdsAreUniqueAndNamedByKind) {
  std::set<std::string> Seen;
  for (const RuleInfo &R : ruleCatalog()) {
    EXPECT_TRUE(Seen.insert(R.Id).second) << R.Id << " is listed twice";
    std::string Prefix = R.Kind == RuleKind::Cuda ? "kevin-cu-" : "kevin-py-";
    EXPECT_EQ(std::string(R.Id).rfind(Prefix, 0), 0u) << R.Id;
    std::string Catalog = R.Kind == RuleKind::Cuda ? "KEVIN-CU-" : "KEVIN-PY-";
    EXPECT_EQ(std::string(R.CatalogId).rfind(Catalog, 0), 0u) << R.Id;
  }
}
