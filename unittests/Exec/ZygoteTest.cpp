//===-- ZygoteTest.cpp - tests for kevin/Exec/Zygote.h --------------------===//
//
// Judgements through a warm zygote read as they read with a fresh
// kevin-worker per worker: the same verdict, the same isolation, crashes and
// timeouts typed as such, the zygote unharmed by a candidate's crash.
//
//===----------------------------------------------------------------------===//
#include "kevin/Exec/Zygote.h"
#include "kevin/Exec/Judge.h"
#include "kevin/Support/CacheDir.h"
#include "kevin/Support/Clock.h"
#include "kevin/Support/Version.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <thread>

using namespace kevin;

namespace {

const std::string ReluTask =
    std::string(KEVIN_SOURCE_DIR) + "/share/kevin/tasks/level1/19_ReLU.py";
const std::string ReluSolution = std::string(KEVIN_SOURCE_DIR) +
                                 "/share/kevin/solutions/cpu/level1/19_ReLU.py";

/// A candidate for 19_ReLU whose forward runs Body (Python, indented).
Candidate reluCandidate(const std::string &Name, const std::string &Body) {
  Candidate C;
  C.TaskPath = ReluTask;
  C.DisplayName = Name;
  C.Code = "import os, time\nimport torch\nimport torch.nn as nn\n\n"
           "class ModelNew(nn.Module):\n"
           "    def forward(self, x):\n" +
           Body + "\n";
  return C;
}

class ZygoteTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    Expected<std::unique_ptr<Zygote>> Started =
        Zygote::start(KEVIN_WORKER_PATH, defaultCacheDir());
    ASSERT_TRUE(static_cast<bool>(Started)) << Started.error().message();
    Warm = std::move(*Started);
  }
  static void TearDownTestSuite() { Warm.reset(); }

  static JudgeOptions options(bool ThroughZygote) {
    JudgeOptions O;
    O.WorkerPath = KEVIN_WORKER_PATH;
    O.Device = "cpu";
    O.CacheDir = defaultCacheDir();
    if (ThroughZygote)
      O.Launcher = Warm->launcher();
    return O;
  }

  /// Judges C; the verdict, and the wall time in Seconds.
  static Verdict judge(const Candidate &C, const JudgeOptions &O,
                       double *Seconds = nullptr) {
    auto Start = SteadyClock::now();
    Expected<Verdict> V = judgeCandidate(C, O);
    if (Seconds)
      *Seconds = secondsSince(Start);
    EXPECT_TRUE(static_cast<bool>(V)) << V.error().message();
    return V ? *V : Verdict();
  }

  static std::unique_ptr<Zygote> Warm;
};

std::unique_ptr<Zygote> ZygoteTest::Warm;

TEST_F(ZygoteTest, JudgesAsAFreshWorkerDoes) {
  Candidate C;
  C.TaskPath = ReluTask;
  C.CandidatePath = ReluSolution;
  // The first judgement fills the build cache for both measured ones.
  judge(C, options(false));
  double ForkSeconds = 0, ZygoteSeconds = 0;
  Verdict Fresh = judge(C, options(false), &ForkSeconds);
  Verdict Forked = judge(C, options(true), &ZygoteSeconds);
  std::printf("[ timing   ] one judgement: %.2f s with a fresh kevin-worker "
              "each, %.2f s through the zygote\n",
              ForkSeconds, ZygoteSeconds);
  EXPECT_TRUE(Fresh.Correct) << Fresh.Run.dump();
  EXPECT_TRUE(Forked.Correct) << Forked.Run.dump();
  for (const char *Field :
       {"outcome", "network_isolated", "processes_isolated"})
    EXPECT_EQ(Fresh.Run.value(Field, Json()), Forked.Run.value(Field, Json()))
        << Field;
  EXPECT_TRUE(Warm->alive());
}

TEST_F(ZygoteTest, ACrashIsTheCandidatesAndTheZygoteGoesOn) {
  Verdict Aborted =
      judge(reluCandidate("aborts.py", "        os.abort()"), options(true));
  EXPECT_FALSE(Aborted.Correct);
  EXPECT_EQ(Aborted.Run.value("outcome", ""), "crash") << Aborted.Run.dump();
  EXPECT_NE(Aborted.Run.value("message", "").find("signal 6"),
            std::string::npos)
      << Aborted.Run.dump();
  EXPECT_TRUE(Warm->alive());
  Verdict Next =
      judge(reluCandidate("relu.py", "        return x.relu()"), options(true));
  EXPECT_TRUE(Next.Correct) << Next.Run.dump();
}

TEST_F(ZygoteTest, AWorkerKilledAtItsLimitTimesOut) {
  JudgeOptions O = options(true);
  O.RunTimeoutSeconds = 5;
  Verdict Slept =
      judge(reluCandidate("sleeps.py", "        time.sleep(1000)"), O);
  EXPECT_EQ(Slept.Run.value("outcome", ""), "timeout") << Slept.Run.dump();
  EXPECT_TRUE(Warm->alive());
}

TEST_F(ZygoteTest, RunsOnlyItsWorkerAndPassesTheExitStatus) {
  SubprocessOptions Help;
  Help.Argv = {KEVIN_WORKER_PATH, "--help"};
  Help.Launcher = Warm->launcher();
  Expected<SubprocessResult> R = runSubprocess(Help);
  ASSERT_TRUE(static_cast<bool>(R)) << R.error().message();
  EXPECT_TRUE(R->succeeded()) << R->describe();
  EXPECT_NE(R->Stdout.find("Usage: kevin-worker"), std::string::npos);

  SubprocessOptions Other;
  Other.Argv = {"/bin/true"};
  Other.Launcher = Warm->launcher();
  EXPECT_FALSE(static_cast<bool>(runSubprocess(Other)));
}

TEST_F(ZygoteTest, ManyThreadsLaunchAtOnce) {
  std::vector<std::thread> Threads;
  std::vector<int> Exits(8, -1);
  for (size_t I = 0; I < Exits.size(); ++I)
    Threads.emplace_back([&Exits, I] {
      SubprocessOptions Help;
      Help.Argv = {KEVIN_WORKER_PATH, "--help"};
      Help.Launcher = Warm->launcher();
      if (Expected<SubprocessResult> R = runSubprocess(Help))
        Exits[I] = R->ExitCode;
    });
  for (std::thread &T : Threads)
    T.join();
  EXPECT_EQ(Exits, std::vector<int>(Exits.size(), 0));
}

TEST(ZygoteLifetimeTest, ALauncherOutlivingItsZygoteFails) {
  Expected<std::unique_ptr<Zygote>> Started =
      Zygote::start(KEVIN_WORKER_PATH, defaultCacheDir());
  ASSERT_TRUE(static_cast<bool>(Started)) << Started.error().message();
  SubprocessOptions Help;
  Help.Argv = {KEVIN_WORKER_PATH, "--help"};
  Help.Launcher = (*Started)->launcher();
  Started->reset();
  Expected<SubprocessResult> R = runSubprocess(Help);
  ASSERT_FALSE(static_cast<bool>(R));
  EXPECT_NE(R.error().message().find("zygote"), std::string::npos);
}

} // namespace
