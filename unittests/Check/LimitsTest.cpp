//===-- LimitsTest.cpp - tests for the limits on one candidate ------------===//
//
// A policy's [limits] set the bounds, and only known keys with positive
// integers do; a limit's error names its id; a check run within the limits
// gives one result whatever it does: its own, a time or memory limit's
// finding, or an Error saying how it crashed.
//
//===----------------------------------------------------------------------===//
#include "kevin/Check/BoundedCheck.h"
#include "kevin/Check/CheckPolicy.h"
#include "kevin/Support/FileSystem.h"

#include <gtest/gtest.h>

#include <csignal>
#include <memory>
#include <unistd.h>
#include <vector>

using namespace kevin;

namespace {

/// A policy file with Text, loaded.
Expected<CheckPolicy> policyWith(const std::string &Text) {
  std::string Path =
      ::testing::TempDir() + "limits-" + fs::uniqueTag() + ".toml";
  EXPECT_FALSE(fs::writeFileAtomically(Path, Text));
  Expected<CheckPolicy> P = CheckPolicy::load(Path);
  ::unlink(Path.c_str());
  return P;
}

CandidateLimits limitsOf(LimitKind Kind, uint64_t Value) {
  CandidateLimits L;
  L.set(Kind, Value);
  return L;
}

/// The one finding's rule of a result, or what it is instead.
std::string onlyRule(const Expected<CheckResult> &R) {
  if (!R)
    return "error: " + R.error().message();
  if (R->Findings.size() != 1)
    return std::to_string(R->Findings.size()) + " findings";
  return R->Findings[0].Rule;
}

} // namespace

TEST(LimitsTest, PresetsHaveTheDefaults) {
  for (const std::string &Name : CheckPolicy::presetNames()) {
    Expected<CheckPolicy> P = CheckPolicy::preset(Name);
    ASSERT_TRUE(bool(P)) << Name;
    for (const LimitInfo &L : limitCatalog())
      EXPECT_EQ(P->limits()[L.Kind], L.Default) << Name << " " << L.Key;
  }
  EXPECT_EQ(limitInfo(LimitKind::CandidateBytes).Default, 1u << 20);
}

TEST(LimitsTest, APolicyRaisesALimit) {
  Expected<CheckPolicy> P = policyWith("preset = \"cpu\"\n[limits]\n"
                                       "candidate_bytes = 4194304\n"
                                       "check_seconds = 7\n");
  ASSERT_TRUE(bool(P)) << P.error().message();
  EXPECT_EQ(P->limits()[LimitKind::CandidateBytes], 4194304u);
  EXPECT_EQ(P->limits()[LimitKind::CheckSeconds], 7u);
  EXPECT_EQ(P->limits()[LimitKind::AstNodes],
            limitInfo(LimitKind::AstNodes).Default);
}

TEST(LimitsTest, BadLimitsAreErrorsAtTheirPosition) {
  Expected<CheckPolicy> Unknown = policyWith("[limits]\nlines = 5\n");
  ASSERT_FALSE(Unknown);
  EXPECT_EQ(Unknown.error().message(), "unknown limit 'lines'");
  EXPECT_EQ(Unknown.error().location().Line, 2u);
  for (const char *Value : {"0", "-1", "\"big\"", "1.5"}) {
    Expected<CheckPolicy> Bad =
        policyWith(std::string("[limits]\nast_nodes = ") + Value + "\n");
    ASSERT_FALSE(Bad) << Value;
    EXPECT_EQ(Bad.error().message(),
              "limit 'ast_nodes' must be a positive integer");
  }
}

TEST(LimitsTest, ALimitErrorNamesItsId) {
  Error Big = checkCandidateSize("big.py", 2000000, CandidateLimits());
  const LimitInfo *L = exceededLimit(Big);
  ASSERT_NE(L, nullptr);
  EXPECT_STREQ(L->Id, "kevin-limit-candidate-size");
  EXPECT_EQ(diagnosticLine(Big),
            "big.py:1:1: error: the candidate is 2000000 bytes, more than the "
            "limit of 1048576 [kevin-limit-candidate-size]");
  EXPECT_EQ(limitMessage(Big),
            "the candidate is 2000000 bytes, more than the limit of 1048576");
  EXPECT_FALSE(checkCandidateSize("ok.py", 1u << 20, CandidateLimits()));
  EXPECT_EQ(
      exceededLimit(Error::at({"a.py", 1, 1}, "python syntax error: "
                                              "x [kevin-limit-ast-nodes]")),
      nullptr);
}

TEST(LimitsTest, AChildsResultComesBack) {
  Finding F;
  F.Rule = "kevin-py-try-except";
  F.CatalogId = "KEVIN-PY-003";
  F.Sev = Severity::Warning;
  F.Loc = {"c.py", 4, 9};
  F.Message = "try statement";
  F.Hint = "remove it";
  Expected<CheckResult> R = checkWithinLimits(
      [&]() -> Expected<CheckResult> {
        CheckResult Mine;
        Mine.Findings.push_back(F);
        Mine.ParserUsed = "lean";
        return Mine;
      },
      CandidateLimits(), "c.py");
  ASSERT_TRUE(bool(R)) << R.error().message();
  ASSERT_EQ(R->Findings.size(), 1u);
  EXPECT_EQ(formatFinding(R->Findings[0]), formatFinding(F));
  EXPECT_EQ(R->Findings[0].CatalogId, "KEVIN-PY-003");
  EXPECT_EQ(R->ParserUsed, "lean");
}

TEST(LimitsTest, ACheckPastItsTimeIsTheTimeLimit) {
  Expected<CheckResult> R = checkWithinLimits(
      []() -> Expected<CheckResult> {
        ::sleep(30);
        return CheckResult();
      },
      limitsOf(LimitKind::CheckSeconds, 1), "slow.py");
  EXPECT_EQ(onlyRule(R), "kevin-limit-check-time");
  ASSERT_TRUE(bool(R));
  EXPECT_EQ(
      formatFinding(R->Findings[0]).substr(0, 71),
      "slow.py:1:1: error: kevin-check gave up on the candidate after 1 s "
      "[kev");
}

TEST(LimitsTest, ACheckOutOfMemoryIsTheMemoryLimit) {
  Expected<CheckResult> R = checkWithinLimits(
      []() -> Expected<CheckResult> {
        // Far more than the cap, in steps, as a runaway parse takes it
        // (address space only: the blocks are never touched).
        std::vector<std::unique_ptr<char[]>> Blocks;
        for (int I = 0; I < 64; ++I)
          Blocks.emplace_back(new char[size_t(256) << 20]);
        return CheckResult();
      },
      limitsOf(LimitKind::CheckMemoryMiB, 2048), "huge.py");
  EXPECT_EQ(onlyRule(R), "kevin-limit-check-memory");
}

TEST(LimitsTest, ACrashIsAnInternalErrorNotALostResult) {
  Expected<CheckResult> R = checkWithinLimits(
      []() -> Expected<CheckResult> {
        std::raise(SIGSEGV);
        return CheckResult();
      },
      CandidateLimits(), "crash.py");
  ASSERT_FALSE(R);
  EXPECT_EQ(R.error().kind(), ErrorKind::Internal);
  EXPECT_NE(R.error().message().find("killed by signal 11"), std::string::npos)
      << R.error().message();
}
