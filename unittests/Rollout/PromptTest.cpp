//===-- PromptTest.cpp - tests for kevin/Rollout/Prompt.h ----------------===//
#include "kevin/Rollout/Prompt.h"
#include "kevin/Support/Version.h"

#include <gtest/gtest.h>

using namespace kevin;

namespace {
PromptTemplates tinyTemplates() {
  PromptTemplates T;
  T.Instructions = "REF[{reference}] for {target}";
  T.HistoryHeader = "HISTORY";
  T.Attempt = "A{turn}:{code}|{summary}|{feedback}";
  T.Closing = "END";
  T.Target = "cpu";
  T.OneShot = "ONESHOT";
  T.Feedback = {{"format", "F:{problem}"},     {"check", "C:{findings}"},
                {"build", "B:{message}"},      {"runtime", "R:{outcome}:{message}"},
                {"incorrect", "I:{message}"},  {"correct", "OK:{speedup}"},
                {"correct_untimed", "OK"},     {"no_summary", "none"}};
  return T;
}
} // namespace

TEST(PromptTest, FillTemplateKeepsUnknownBraces) {
  EXPECT_EQ(fillTemplate("a {x} {y} {", {{"x", "1"}}), "a 1 {y} {");
  EXPECT_EQ(fillTemplate("{x}{x}", {{"x", "{x}"}}), "{x}{x}");
}

TEST(PromptTest, FirstTurnHasOneShotLaterTurnsHistory) {
  PromptTemplates T = tinyTemplates();
  BuiltPrompt First = buildPrompt(T, "model", {}, 0);
  ASSERT_EQ(First.Messages.size(), 1u);
  EXPECT_EQ(First.Messages[0].Content, "REF[model] for cpu\n\nONESHOT");
  BuiltPrompt Later =
      buildPrompt(T, "model", {{1, "c1", "", "f1"}, {2, "c2", "s2", "f2"}}, 0);
  EXPECT_EQ(Later.Messages[0].Content,
            "REF[model] for cpu\n\nHISTORY\nA1:c1|none|f1\nA2:c2|s2|f2\n\nEND");
  EXPECT_EQ(Later.DroppedAttempts, 0);
}

TEST(PromptTest, BudgetDropsOldestAttemptsFirst) {
  PromptTemplates T = tinyTemplates();
  std::vector<Attempt> History = {{1, std::string(400, 'a'), "", "f"},
                                  {2, std::string(400, 'b'), "", "f"},
                                  {3, "short", "", "f"}};
  BuiltPrompt P = buildPrompt(T, "m", History, 100);
  EXPECT_EQ(P.DroppedAttempts, 2);
  EXPECT_EQ(P.Messages[0].Content.find("A1:"), std::string::npos);
  EXPECT_EQ(P.Messages[0].Content.find("A2:"), std::string::npos);
  EXPECT_NE(P.Messages[0].Content.find("A3:short"), std::string::npos);
  EXPECT_LE(P.EstimatedTokens, 100u);
  // The latest attempt is kept even when it alone is over budget.
  BuiltPrompt Tight = buildPrompt(T, "m", History, 1);
  EXPECT_EQ(Tight.DroppedAttempts, 2);
}

TEST(PromptTest, FeedbackFollowsTheFirstFailingStage) {
  PromptTemplates T = tinyTemplates();
  EXPECT_EQ(feedbackFor(T, Json{{"parse", {{"ok", false}, {"problem", "no code"}}}}),
            "F:no code");
  Json Check = {{"check",
                 {{"ok", false},
                  {"findings",
                   {{{"rule", "r1"}, {"message", "m1"}, {"line", 3}},
                    {{"rule", "w"}, {"severity", "warning"}, {"message", "x"}}}}}}};
  EXPECT_EQ(feedbackFor(T, Check), "C:- line 3: m1 [r1]");
  EXPECT_EQ(feedbackFor(T, Json{{"check", {{"ok", true}}},
                                {"run", {{"correct", false}, {"stage", "build"},
                                         {"message", "e"}}}}),
            "B:e");
  EXPECT_EQ(feedbackFor(T, Json{{"run", {{"correct", false}, {"stage", "run"},
                                         {"outcome", "crash"}, {"message", "segv"}}}}),
            "R:crash:segv");
  EXPECT_EQ(feedbackFor(T, Json{{"run", {{"correct", false}, {"stage", "compare"},
                                         {"message", "max abs 2"}}}}),
            "I:max abs 2");
  EXPECT_EQ(feedbackFor(T, Json{{"run", {{"correct", true}}},
                                {"bench", {{"speedup", 1.234}}}}),
            "OK:1.23");
  EXPECT_EQ(feedbackFor(T, Json{{"run", {{"correct", true}}}}), "OK");
}

TEST(PromptTest, BundledTemplatesLoadForBothDevices) {
  std::string Path = std::string(KEVIN_SOURCE_DIR) + "/share/kevin/prompts/kevin.toml";
  auto Cpu = loadPromptTemplates(Path, "cpu");
  ASSERT_TRUE(Cpu) << Cpu.error().message();
  EXPECT_EQ(Cpu->Language, "C++");
  auto Cuda = loadPromptTemplates(Path, "cuda:1");
  ASSERT_TRUE(Cuda) << Cuda.error().message();
  EXPECT_EQ(Cuda->Language, "CUDA");
  EXPECT_NE(Cuda->Instructions.find("{reference}"), std::string::npos);
  auto Missing = loadPromptTemplates(Path, "tpu");
  ASSERT_FALSE(Missing);
  EXPECT_EQ(Missing.error().message(), "missing template 'device.tpu.target'");
}
