//===-- StagePipelineTest.cpp - tests for kevin/Rollout/StagePipeline.h ---===//
#include "kevin/Rollout/StagePipeline.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <thread>

using namespace kevin;

TEST(StagePipelineTest, StandardStagesGate) {
  EXPECT_EQ(makeStage("check").PassField, "check.ok");
  EXPECT_EQ(makeStage("run", {"--build-only"}).PassField, "build.ok");
  EXPECT_EQ(makeStage("run", {"--device", "cpu"}).PassField, "run.correct");
  EXPECT_EQ(makeStage("bench").PassField, "");
}

// Two records evaluated at once: their bench stages overlap (kevin-bench's
// device lock, not the evaluator, keeps timing loops apart). A fake
// kevin-bench logs its start, waits up to 10 s for the other's, then ends.
TEST(StagePipelineTest, StagesOfOneDeviceOverlap) {
  char Template[] = "/tmp/kevin-evaluator-test.XXXXXX";
  ASSERT_NE(::mkdtemp(Template), nullptr);
  std::string Dir = Template, Log = Dir + "/log";
  {
    std::ofstream Tool(Dir + "/kevin-bench");
    Tool << "#!/bin/sh\necho start >> " << Log << "\ni=0\n"
         << "while [ \"$(grep -c start " << Log << ")\" -lt 2 ] && "
         << "[ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done\n"
         << "echo end >> " << Log << "\ncat\n";
  }
  ::chmod((Dir + "/kevin-bench").c_str(), 0755);
  StagePipeline Pipeline(Dir, 30);
  std::vector<StageSpec> Stages = {makeStage("bench", {"--device", "cpu"})};
  Json Record = Json::parse(R"({"schema_version":1,"id":"a"})");
  auto Evaluate = [&] { ASSERT_TRUE(Pipeline.runStages(Stages, Record)); };
  std::thread First(Evaluate), Second(Evaluate);
  First.join();
  Second.join();
  std::ifstream In(Log);
  std::stringstream Lines;
  Lines << In.rdbuf();
  EXPECT_EQ(Lines.str(), "start\nstart\nend\nend\n");
  std::system(("rm -rf " + Dir).c_str());
}
