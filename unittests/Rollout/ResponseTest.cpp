//===-- ResponseTest.cpp - tests for kevin/Rollout/Response.h ------------===//
#include "kevin/Rollout/Response.h"

#include <gtest/gtest.h>

using namespace kevin;

TEST(ResponseTest, ThinkCodeAndSummary) {
  ParsedResponse R = parseResponse("<think>\nplan it\n</think>\n\nHere:\n\n"
                                   "```python\nx = 1\n```\n\nMade it faster.\n");
  ASSERT_TRUE(R.HasCode);
  EXPECT_EQ(R.Reasoning, "plan it");
  EXPECT_EQ(R.Code, "x = 1\n");
  EXPECT_EQ(R.Summary, "Made it faster.");
  EXPECT_EQ(R.CodeLine, 8u);
}

TEST(ResponseTest, MissingOpeningThinkTag) {
  // Chat templates often put <think> in the prompt, so only </think> shows.
  ParsedResponse R = parseResponse("secret plan\n</think>\n```py\ny = 2\n```");
  ASSERT_TRUE(R.HasCode);
  EXPECT_EQ(R.Reasoning, "secret plan");
  EXPECT_EQ(R.Code, "y = 2\n");
  EXPECT_EQ(R.Summary, "");
}

TEST(ResponseTest, TakesTheFinalPythonBlock) {
  ParsedResponse R = parseResponse("```python\nold\n```\ntext\n```cpp\nint x;\n```\n"
                                   "```python\nnew\n```\nsummary");
  ASSERT_TRUE(R.HasCode);
  EXPECT_EQ(R.Code, "new\n");
  EXPECT_EQ(R.Summary, "summary");
}

TEST(ResponseTest, CodeBlocksInsideThinkingAreIgnored) {
  ParsedResponse R = parseResponse(
      "<think>```python\ndraft\n```</think>\nNo code in the answer.");
  EXPECT_FALSE(R.HasCode);
  EXPECT_EQ(R.Problem, "no fenced python code block");
}

TEST(ResponseTest, LongerFencesNestShorterOnes) {
  ParsedResponse R =
      parseResponse("````python\ns = '''\n```\n'''\n````\nafter");
  ASSERT_TRUE(R.HasCode);
  EXPECT_EQ(R.Code, "s = '''\n```\n'''\n");
  EXPECT_EQ(R.Summary, "after");
}

TEST(ResponseTest, UnlabelledBlockWhenNoPythonBlock) {
  ParsedResponse R = parseResponse("```\nz = 3\n```");
  ASSERT_TRUE(R.HasCode);
  EXPECT_EQ(R.Code, "z = 3\n");
}

TEST(ResponseTest, TruncatedResponses) {
  ParsedResponse Open = parseResponse("```python\nx = 1\n");
  EXPECT_FALSE(Open.HasCode);
  EXPECT_NE(Open.Problem.find("not closed"), std::string::npos);
  ParsedResponse Thinking = parseResponse("<think>still going");
  EXPECT_FALSE(Thinking.HasCode);
  EXPECT_NE(Thinking.Problem.find("inside <think>"), std::string::npos);
  EXPECT_FALSE(parseResponse("").HasCode);
}
