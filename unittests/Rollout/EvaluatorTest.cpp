//===-- EvaluatorTest.cpp - tests for kevin/Rollout/Evaluator.h -----------===//
#include "kevin/Rollout/Evaluator.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <thread>

using namespace kevin;

TEST(EvaluatorTest, StandardStagesGateAndBenchIsExclusive) {
  EXPECT_EQ(makeStage("check").PassField, "check.ok");
  EXPECT_EQ(makeStage("run", {"--build-only"}).PassField, "build.ok");
  EXPECT_EQ(makeStage("run", {"--device", "cpu"}).PassField, "run.correct");
  EXPECT_EQ(makeStage("bench").PassField, "");
  EXPECT_TRUE(makeStage("bench", {"--device", "cuda:0"}).Exclusive);
  EXPECT_FALSE(makeStage("run", {"--device", "cuda:0"}).Exclusive);
}

// Two records evaluated at once: the bench stage of one never overlaps the
// other's (a fake kevin-bench logs when it starts and ends).
TEST(EvaluatorTest, ExclusiveStagesOfOneDeviceRunOneAtATime) {
  char Template[] = "/tmp/kevin-evaluator-test.XXXXXX";
  ASSERT_NE(::mkdtemp(Template), nullptr);
  std::string Dir = Template, Log = Dir + "/log";
  {
    std::ofstream Tool(Dir + "/kevin-bench");
    Tool << "#!/bin/sh\necho start >> " << Log << "\nsleep 0.3\necho end >> "
         << Log << "\ncat\n";
  }
  ::chmod((Dir + "/kevin-bench").c_str(), 0755);
  PipelineEvaluator Evaluator(Dir, 30);
  std::vector<StageSpec> Stages = {makeStage("bench", {"--device", "cpu"})};
  Json Record = Json::parse(R"({"schema_version":1,"id":"a"})");
  auto Evaluate = [&] { ASSERT_TRUE(Evaluator.runStages(Stages, Record)); };
  std::thread First(Evaluate), Second(Evaluate);
  First.join();
  Second.join();
  std::ifstream In(Log);
  std::stringstream Lines;
  Lines << In.rdbuf();
  EXPECT_EQ(Lines.str(), "start\nend\nstart\nend\n");
  std::system(("rm -rf " + Dir).c_str());
}
