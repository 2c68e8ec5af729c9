//===-- ProgressTest.cpp - tests for kevin/Support/Progress.h ------------===//
#include "kevin/Support/Progress.h"

#include <gtest/gtest.h>

#include <sstream>

using namespace kevin;

TEST(ProgressTest, DisabledPrintsNothing) {
  std::ostringstream Out;
  {
    Progress P("eval", 3, Out, /*Enabled=*/false);
    P.advance();
    P.advance(2, "task");
    EXPECT_EQ(P.done(), 3u);
  }
  EXPECT_EQ(Out.str(), "");
}

TEST(ProgressTest, EnabledDrawsAndEndsTheLine) {
  std::ostringstream Out;
  Progress P("eval", 4, Out, /*Enabled=*/true);
  P.advance(4, "level1/19_ReLU");
  P.finish();
  P.finish();
  std::string Text = Out.str();
  EXPECT_NE(Text.find("eval [========================] 4/4"), std::string::npos);
  EXPECT_EQ(Text.back(), '\n');
  EXPECT_EQ(Text.find('\n'), Text.size() - 1) << "finish ends the line once";
}

TEST(ProgressTest, RenderShowsCountsAndNote) {
  std::ostringstream Out;
  Progress P("build", 10, Out, /*Enabled=*/false);
  P.advance(5, "sample_3");
  std::string Line = P.render();
  EXPECT_NE(Line.find("build [============>           ] 5/10"),
            std::string::npos)
      << Line;
  EXPECT_NE(Line.find("eta"), std::string::npos);
  EXPECT_NE(Line.find("sample_3"), std::string::npos);
}
