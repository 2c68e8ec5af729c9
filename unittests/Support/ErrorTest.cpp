//===-- ErrorTest.cpp - tests for kevin/Support/Error.h ------------------===//
#include "kevin/Support/Error.h"

#include <gtest/gtest.h>

using namespace kevin;

TEST(ErrorTest, DefaultIsSuccess) {
  Error E;
  EXPECT_FALSE(E);
  EXPECT_FALSE(Error::success());
  EXPECT_TRUE(Error::make("boom"));
}

TEST(ErrorTest, FormatsPositionsLikeACompiler) {
  EXPECT_EQ(formatDiagnostic({"sol.py", 41, 9}, Severity::Error, "bad"),
            "sol.py:41:9: error: bad");
  EXPECT_EQ(formatDiagnostic({"sol.py", 41, 0}, Severity::Warning, "meh"),
            "sol.py:41: warning: meh");
  EXPECT_EQ(formatDiagnostic({}, Severity::Note, "hi"), "note: hi");
}

TEST(ErrorTest, WithContextKeepsLocation) {
  Error E = Error::at({"a.toml", 3, 4}, "bad value");
  Error C = E.withContext("policy");
  EXPECT_EQ(C.message(), "policy: bad value");
  EXPECT_EQ(C.location().Line, 3u);
  EXPECT_FALSE(Error::success().withContext("x"));
}

TEST(ErrorTest, ExpectedHoldsValueOrError) {
  Expected<int> Good(42);
  ASSERT_TRUE(Good);
  EXPECT_EQ(*Good, 42);
  Expected<int> Bad(Error::inFile("f", "nope"));
  ASSERT_FALSE(Bad);
  EXPECT_EQ(Bad.error().message(), "nope");
  EXPECT_EQ(Bad.error().location().File, "f");
}

TEST(ErrorTest, ToolContextPrintsAndRemembers) {
  ToolContext Tool("/usr/bin/kevin-run");
  EXPECT_EQ(Tool.toolName(), "kevin-run");
  EXPECT_FALSE(Tool.hadError());
  testing::internal::CaptureStderr();
  Tool.error(Error::inFile("cand.py", "no such file or directory"));
  Tool.error(Error::at({"cand.py", 2, 5}, "bad thing [rule]"));
  std::string Out = testing::internal::GetCapturedStderr();
  EXPECT_TRUE(Tool.hadError());
  EXPECT_EQ(Out, "kevin-run: error: 'cand.py': no such file or directory\n"
                 "cand.py:2:5: error: bad thing [rule]\n");
}

TEST(ErrorTest, KindDefaultsToOtherAndSurvivesContext) {
  EXPECT_EQ(Error::success().kind(), ErrorKind::Other);
  EXPECT_EQ(Error::make("boom").kind(), ErrorKind::Other);
  EXPECT_EQ(Error::make("bad", ErrorKind::InvalidInput).kind(),
            ErrorKind::InvalidInput);
  EXPECT_EQ(Error::at({"a.py", 1, 2}, "oops", ErrorKind::Internal).kind(),
            ErrorKind::Internal);
  Error E = Error::inFile("f", "cannot open file", ErrorKind::FileAccess);
  EXPECT_EQ(E.kind(), ErrorKind::FileAccess);
  Error C = E.withContext("task");
  EXPECT_EQ(C.kind(), ErrorKind::FileAccess);
  EXPECT_EQ(C.message(), "task: cannot open file");
  EXPECT_EQ(C.location().File, "f");
}
