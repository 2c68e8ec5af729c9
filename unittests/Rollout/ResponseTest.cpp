//===-- ResponseTest.cpp - tests for kevin/Task/ModelResponse.h ----------===//
//
// Kept with the rollout tests: kevinModelResponse builds wherever kevinRollout
// does, and the rollout loop is the parser's oldest user.
//
//===----------------------------------------------------------------------===//
#include "kevin/Task/ModelResponse.h"

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

TEST(ResponseTest, TildeFencesAndTagCase) {
  ParsedResponse R = parseResponse("~~~Python\nw = 4\n~~~\n");
  ASSERT_TRUE(R.HasCode);
  EXPECT_EQ(R.Code, "w = 4\n");
  // A backtick fence does not close a tilde block.
  EXPECT_FALSE(parseResponse("~~~python\nv = 5\n```\n").HasCode);
}

TEST(ResponseTest, EmptyFinalBlockIsAFormatFailure) {
  ParsedResponse R = parseResponse("```python\nx = 1\n```\n```python\n\n```\n");
  EXPECT_FALSE(R.HasCode);
  EXPECT_EQ(R.Problem, "the last python code block is empty");
}

TEST(ResponseTest, FillCodeFromResponse) {
  Json Record{{"id", "a"}, {"response", "Here:\n```python\nx = 1\n```\n"}};
  EXPECT_EQ(fillCodeFromResponse(Record), "");
  EXPECT_EQ(Record["code"], "x = 1\n");
  Json NoCode{{"response", "I cannot do this."}};
  EXPECT_EQ(fillCodeFromResponse(NoCode), "no fenced python code block");
  EXPECT_FALSE(NoCode.contains("code"));
  // A record that already names its candidate keeps it.
  Json WithPath{{"candidate_path", "c.py"}, {"response", "no code"}};
  EXPECT_EQ(fillCodeFromResponse(WithPath), "");
  EXPECT_FALSE(WithPath.contains("code"));
}
