//===-- EvalBatchTest.cpp - tests for kevin/Rollout/EvalBatch.h -----------===//
#include "kevin/Rollout/EvalBatch.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <sys/resource.h>
#include <sys/stat.h>
#include <thread>

using namespace kevin;

namespace {

std::vector<std::string> readLines(const std::string &Path) {
  std::ifstream In(Path);
  std::vector<std::string> Lines;
  for (std::string Line; std::getline(In, Line);)
    Lines.push_back(Line);
  return Lines;
}

/// kevin eval's options on the CPU device with the fake tools in Dir.
EvalOptions fakeOptions(const std::string &Dir, int BuildJobs,
                        int DeviceJobs) {
  EvalOptions Options;
  Options.Scheduling.Devices = {"cpu"};
  Options.Scheduling.BuildJobs = BuildJobs;
  Options.Scheduling.DeviceJobs = DeviceJobs;
  Options.ResultsPath = Dir + "/results.jsonl";
  Options.ShowProgress = false;
  return Options;
}

/// kevin eval's stages with the fake tools: the build stage (at nice 10,
/// as kevin eval runs it), then the device stages named in DeviceTools.
ToolStages fakeStages(const StagePipeline &Pipeline,
                      const std::vector<std::string> &DeviceTools) {
  StageSpec Build = makeStage("run", {"--build-only"});
  Build.Niceness = 10;
  std::vector<StageSpec> Device;
  for (const std::string &Tool : DeviceTools)
    Device.push_back(makeStage(Tool, {"--device", "{device}"}));
  return ToolStages(Pipeline, {Build}, Device, {});
}

/// Candidates c0, c1, ...
std::vector<Json> fakeCandidates(int Count) {
  std::vector<Json> Candidates;
  for (int I = 0; I < Count; ++I)
    Candidates.push_back(
        Json{{"schema_version", 1}, {"id", "c" + std::to_string(I)}});
  return Candidates;
}

} // namespace

// Six candidates, a pool of five builders, one device taking two at once: the
// first two builds run alone until one ends, then the rest of the pool opens;
// every build runs at nice 10 above ours. A fake kevin-run logs each build's
// start (with its nice value) and end, and passes the record on.
TEST(EvalBatchTest, PoolStartsWithTheDeviceSlotsAndYieldsTheCores) {
  char Template[] = "/tmp/kevin-eval-test.XXXXXX";
  ASSERT_NE(::mkdtemp(Template), nullptr);
  std::string Dir = Template, Log = Dir + "/log";
  {
    std::ofstream Tool(Dir + "/kevin-run");
    Tool << "#!/bin/sh\nread line\n"
         << "case \" $* \" in *' --build-only '*)\n"
         << "  echo \"build-start $(nice)\" >> " << Log << "\n"
         << "  sleep 0.5\n"
         << "  echo build-end >> " << Log << "\n"
         << "  echo \"${line%\\}},\\\"build\\\":{\\\"ok\\\":true}}\" ;;\n"
         << "*) echo \"$line\" ;;\nesac\n";
  }
  ::chmod((Dir + "/kevin-run").c_str(), 0755);
  StagePipeline Pipeline(Dir, 30);
  EvalOptions Options = fakeOptions(Dir, 5, 2);

  auto Summary =
      runEval(fakeCandidates(6), Options, fakeStages(Pipeline, {"run"}));
  ASSERT_TRUE(Summary) << Summary.error().message();
  EXPECT_EQ(Summary->Evaluated, 6);
  EXPECT_EQ(readLines(Options.ResultsPath).size(), 6u);

  std::vector<std::string> Lines = readLines(Log);
  ASSERT_EQ(Lines.size(), 12u);
  auto FirstEnd = std::find(Lines.begin(), Lines.end(), "build-end");
  EXPECT_LE(std::count_if(Lines.begin(), FirstEnd,
                          [](const std::string &L) {
                            return L.rfind("build-start", 0) == 0;
                          }),
            2);
  int Ours = ::getpriority(PRIO_PROCESS, 0);
  std::string Started =
      "build-start " + std::to_string(std::min(19, Ours + 10));
  for (const std::string &Line : Lines)
    EXPECT_TRUE(Line == "build-end" || Line == Started) << Line;
  std::system(("rm -rf " + Dir).c_str());
}

// One device taking one candidate at a time: correctness runs go first and
// a record waits for its timing until no run is queued or two records wait
// (twice the device's jobs); then timing has its turn, and no run starts
// until every waiting record is timed; a candidate that fails its run is
// never timed.
// Fake kevin-run and kevin-bench log what they did.
TEST(EvalBatchTest, RunsGoBeforeTimingUpToABacklog) {
  char Template[] = "/tmp/kevin-eval-test.XXXXXX";
  ASSERT_NE(::mkdtemp(Template), nullptr);
  std::string Dir = Template, Log = Dir + "/log";
  auto Id = std::string("$(echo \"$line\" | sed 's/.*\"id\":\"\\([^\"]*\\)\".*/\\1/')");
  {
    std::ofstream Tool(Dir + "/kevin-run");
    Tool << "#!/bin/sh\nread line\nid=" << Id << "\n"
         << "case \" $* \" in *' --build-only '*)\n"
         << "  touch " << Dir << "/built-$id\n"
         << "  echo \"${line%\\}},\\\"build\\\":{\\\"ok\\\":true}}\" ;;\n"
         // Every candidate is built before the first run ends.
         << "*) i=0; while [ \"$(ls " << Dir << " | grep -c built-)\" -lt 5 ] && "
         << "[ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done\n"
         << "  sleep 0.2; echo \"run $id\" >> " << Log << "\n"
         << "  ok=true; [ \"$id\" = c4 ] && ok=false\n"
         << "  echo \"${line%\\}},\\\"run\\\":{\\\"correct\\\":$ok}}\" ;;\n"
         << "esac\n";
  }
  {
    std::ofstream Tool(Dir + "/kevin-bench");
    Tool << "#!/bin/sh\nread line\nid=" << Id << "\n"
         << "sleep 0.2; echo \"bench $id\" >> " << Log << "\n"
         << "echo \"$line\"\n";
  }
  ::chmod((Dir + "/kevin-run").c_str(), 0755);
  ::chmod((Dir + "/kevin-bench").c_str(), 0755);
  StagePipeline Pipeline(Dir, 30);
  EvalOptions Options = fakeOptions(Dir, 1, 1);

  auto Summary = runEval(fakeCandidates(5), Options,
                         fakeStages(Pipeline, {"run", "bench"}));
  ASSERT_TRUE(Summary) << Summary.error().message();
  EXPECT_EQ(Summary->Evaluated, 5);
  EXPECT_EQ(readLines(Options.ResultsPath).size(), 5u);
  std::vector<std::string> Want = {"run c0",   "run c1",   "bench c0",
                                   "bench c1", "run c2",   "run c3",
                                   "bench c2", "bench c3", "run c4"};
  EXPECT_EQ(readLines(Log), Want);
  std::system(("rm -rf " + Dir).c_str());
}

TEST(EvalBatchTest, DeviceJobsFollowTheCoresOnCudaAndStayOneOnTheCpu) {
  EXPECT_EQ(defaultDeviceJobs("cpu"), 1);
  unsigned Cores = std::thread::hardware_concurrency();
  int Expected = static_cast<int>(std::clamp(Cores, 4u, 16u));
  EXPECT_EQ(defaultDeviceJobs("cuda"), Expected);
  EXPECT_EQ(defaultDeviceJobs("cuda:1"), Expected);
  EXPECT_GE(defaultDeviceJobs("cuda:0"), 4);
  EXPECT_LE(defaultDeviceJobs("cuda:0"), 16);
}
