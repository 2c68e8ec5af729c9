//===-- PolicyTest.cpp - tests for kevin/Rollout/Policy.h ----------------===//
#include "kevin/Rollout/Policy.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <unistd.h>

using namespace kevin;

TEST(PolicyTest, EndpointFromBaseUrl) {
  OpenAIOptions O;
  O.BaseUrl = "http://h:8000";
  EXPECT_EQ(OpenAIPolicy(O).endpoint(), "http://h:8000/v1/chat/completions");
  O.BaseUrl = "http://h:8000/v1/";
  EXPECT_EQ(OpenAIPolicy(O).endpoint(), "http://h:8000/v1/chat/completions");
  O.BaseUrl = "http://h/x/chat/completions";
  EXPECT_EQ(OpenAIPolicy(O).endpoint(), "http://h/x/chat/completions");
}

TEST(PolicyTest, RequestBody) {
  CompletionRequest R;
  R.Messages = {{"user", "hi"}};
  R.N = 4;
  R.Model = "qwq";
  R.Logprobs = true;
  Json Body = makeChatRequestBody(R);
  EXPECT_EQ(Body["model"], "qwq");
  EXPECT_EQ(Body["n"], 4);
  EXPECT_EQ(Body["messages"][0]["content"], "hi");
  EXPECT_EQ(Body["logprobs"], true);
  EXPECT_EQ(Body["return_token_ids"], true);
  EXPECT_FALSE(makeChatRequestBody(CompletionRequest()).contains("logprobs"));
}

TEST(PolicyTest, ParsesChoicesReasoningTokensAndUsage) {
  auto R = parseChatResponse(R"({"choices":[
      {"message":{"content":"a","reasoning_content":"why"},"finish_reason":"stop",
       "token_ids":[5,6],"logprobs":{"content":[{"token":"a","logprob":-0.5}]}},
      {"message":{"content":null},"finish_reason":"length"}],
      "usage":{"prompt_tokens":3}})");
  ASSERT_TRUE(R) << R.error().message();
  ASSERT_EQ(R->Choices.size(), 2u);
  EXPECT_EQ(R->Choices[0].Text, "<think>\nwhy\n</think>\na");
  EXPECT_EQ(R->Choices[0].TokenIds, (std::vector<int64_t>{5, 6}));
  EXPECT_EQ(R->Choices[0].Logprobs, (std::vector<double>{-0.5}));
  EXPECT_EQ(R->Choices[1].Text, "");
  EXPECT_EQ(R->Choices[1].FinishReason, "length");
  EXPECT_EQ(R->Usage["prompt_tokens"], 3);
}

TEST(PolicyTest, MalformedRepliesAreErrors) {
  EXPECT_FALSE(parseChatResponse("not json"));
  EXPECT_FALSE(parseChatResponse("{}"));
  EXPECT_FALSE(parseChatResponse(R"({"choices":[]})"));
  EXPECT_FALSE(parseChatResponse(R"({"choices":[{"text":"x"}]})"));
}

TEST(PolicyTest, ReplayServesByTaskTrajectoryTurn) {
  std::string Path = testing::TempDir() + "/replay." + std::to_string(::getpid());
  {
    std::ofstream Out(Path);
    Out << R"({"task":"t","trajectory":0,"turn":1,"response":"r01"})" << "\n"
        << R"({"task":"t","trajectory":2,"turn":1,"response":"r21"})" << "\n";
  }
  auto P = ReplayPolicy::open(Path);
  ASSERT_TRUE(P);
  CompletionRequest R;
  R.TaskId = "t";
  R.N = 2;
  R.Trajectories = {0, 2};
  auto Got = (*P)->complete(R);
  ASSERT_TRUE(Got);
  EXPECT_EQ(Got->Choices[0].Text, "r01");
  EXPECT_EQ(Got->Choices[1].Text, "r21");
  R.N = 1;
  R.Trajectories = {1};
  auto Missing = (*P)->complete(R);
  ASSERT_FALSE(Missing);
  EXPECT_EQ(Missing.error().message(),
            "no recorded response for task 't' trajectory 1 turn 1");
  {
    std::ofstream Out(Path, std::ios::app);
    Out << R"({"task":"t","trajectory":0,"turn":1,"response":"again"})" << "\n";
  }
  auto Dup = ReplayPolicy::open(Path);
  ASSERT_FALSE(Dup);
  EXPECT_EQ(Dup.error().location().Line, 3u);
  std::remove(Path.c_str());
}

TEST(PolicyTest, PolicySpecs) {
  EXPECT_FALSE(makePolicy("nonsense", OpenAIOptions()));
  EXPECT_FALSE(makePolicy("openai:", OpenAIOptions()));
  auto P = makePolicy("openai:http://x", OpenAIOptions());
  ASSERT_TRUE(P);
  EXPECT_EQ((*P)->describe(), "openai:http://x");
}
