//===-- SubprocessTest.cpp - tests for kevin/Support/Subprocess.h --------===//
#include "kevin/Support/Subprocess.h"

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <sys/wait.h>
#include <unistd.h>

using namespace kevin;

namespace {
SubprocessResult runShell(const std::string &Script, double Timeout = 10,
                          size_t Capture = 1 << 20) {
  SubprocessOptions Options;
  Options.Argv = {"/bin/sh", "-c", Script};
  Options.TimeoutSeconds = Timeout;
  Options.MaxCaptureBytes = Capture;
  auto Result = runSubprocess(Options);
  EXPECT_TRUE(Result) << (Result ? "" : Result.error().message());
  return Result ? *Result : SubprocessResult();
}
} // namespace

TEST(SubprocessTest, CapturesOutputAndStatus) {
  SubprocessResult R = runShell("echo out; echo err >&2; exit 3");
  EXPECT_EQ(R.ExitCode, 3);
  EXPECT_EQ(R.Signal, 0);
  EXPECT_FALSE(R.TimedOut);
  EXPECT_EQ(R.Stdout, "out\n");
  EXPECT_EQ(R.Stderr, "err\n");
  EXPECT_FALSE(R.succeeded());
  EXPECT_EQ(R.describe(), "exited with status 3");
}

TEST(SubprocessTest, ReportsSignals) {
  SubprocessResult R = runShell("kill -SEGV $$");
  EXPECT_EQ(R.Signal, SIGSEGV);
  EXPECT_EQ(R.ExitCode, -1);
  EXPECT_NE(R.describe().find("signal 11"), std::string::npos);
}

TEST(SubprocessTest, TimeoutKillsTheWholeGroup) {
  // The grandchild would keep the pipes open for 30 s if it survived.
  SubprocessResult R = runShell("sleep 30 & sleep 30; echo never", 0.5);
  EXPECT_TRUE(R.TimedOut);
  EXPECT_LT(R.WallSeconds, 5.0);
  EXPECT_EQ(R.Stdout, "");
  EXPECT_NE(R.describe().find("timed out"), std::string::npos);
}

TEST(SubprocessTest, BackgroundStragglersDoNotHangACleanExit) {
  SubprocessResult R = runShell("sleep 30 & echo done", 20);
  EXPECT_EQ(R.ExitCode, 0);
  EXPECT_EQ(R.Stdout, "done\n");
  EXPECT_LT(R.WallSeconds, 5.0);
}

TEST(SubprocessTest, CaptureIsBounded) {
  SubprocessResult R = runShell("head -c 1000000 /dev/zero", 20, 1000);
  EXPECT_EQ(R.ExitCode, 0);
  EXPECT_EQ(R.Stdout.size(), 1000u);
  EXPECT_TRUE(R.StdoutTruncated);
  EXPECT_FALSE(R.StderrTruncated);
}

TEST(SubprocessTest, EnvironmentCwdAndStdin) {
  SubprocessOptions Options;
  Options.Argv = {"/bin/sh", "-c", "echo \"$KEVIN_X\"; pwd; cat"};
  Options.Environment = std::vector<std::string>{"KEVIN_X=scrubbed"};
  Options.WorkingDirectory = "/tmp";
  Options.Stdin = "from stdin";
  auto R = runSubprocess(Options);
  ASSERT_TRUE(R);
  EXPECT_EQ(R->Stdout, "scrubbed\n/tmp\nfrom stdin");
}

TEST(SubprocessTest, LargeStdinToAChildThatStopsReading) {
  SubprocessOptions Options;
  Options.Argv = {"/bin/sh", "-c", "head -c 10 >/dev/null; echo ok"};
  Options.Stdin = std::string(4 << 20, 'x');
  Options.TimeoutSeconds = 10;
  auto R = runSubprocess(Options);
  ASSERT_TRUE(R);
  EXPECT_EQ(R->Stdout, "ok\n");
  EXPECT_FALSE(R->TimedOut);
}

TEST(SubprocessTest, StdinCanArriveAfterTheChildStarted) {
  SubprocessOptions Options;
  Options.Argv = {"/bin/sh", "-c", "echo started >&2; cat"};
  Options.Stdin = "at once, ";
  auto Start = std::chrono::steady_clock::now();
  auto After = [&](int Milliseconds, const char *Text) {
    return [&Start, Milliseconds, Text]() -> std::optional<std::string> {
      if (std::chrono::steady_clock::now() - Start <
          std::chrono::milliseconds(Milliseconds))
        return std::nullopt;
      return std::string(Text);
    };
  };
  // The second piece is ready first, and still comes second.
  Options.StdinLater = {After(200, "late secrets, "), After(100, "later")};
  Options.TimeoutSeconds = 10;
  auto R = runSubprocess(Options);
  ASSERT_TRUE(R);
  EXPECT_EQ(R->Stderr, "started\n");
  EXPECT_EQ(R->Stdout, "at once, late secrets, later");
  EXPECT_GE(R->WallSeconds, 0.2);
}

TEST(SubprocessTest, StopWhenEndsTheChildEarly) {
  SubprocessOptions Options;
  Options.Argv = {"/bin/sh", "-c", "sleep 20"};
  Options.TimeoutSeconds = 30;
  int Polls = 0;
  Options.StopWhen = [&] { return ++Polls > 5; };
  auto R = runSubprocess(Options);
  ASSERT_TRUE(R);
  EXPECT_TRUE(R->TimedOut);
  EXPECT_LT(R->WallSeconds, 5);
}

/// True while Pid exists and is not a zombie.
static bool alive(pid_t Pid) {
  std::ifstream Stat("/proc/" + std::to_string(Pid) + "/stat");
  std::string Text((std::istreambuf_iterator<char>(Stat)), {});
  size_t Paren = Text.rfind(')');
  return Paren != std::string::npos && Paren + 2 < Text.size() &&
         Text[Paren + 2] != 'Z';
}

TEST(SubprocessTest, ChildrenDieWithTheirParent) {
  char Dir[] = "/tmp/kevin-subprocess-XXXXXX";
  ASSERT_NE(::mkdtemp(Dir), nullptr);
  std::string PidFile = std::string(Dir) + "/pid";
  pid_t Tool = ::fork();
  ASSERT_GE(Tool, 0);
  if (Tool == 0) { // a tool that is killed while its child runs
    SubprocessOptions Options;
    Options.Argv = {"/bin/sh", "-c",
                    "echo $$ > " + PidFile + "; exec sleep 30"};
    (void)runSubprocess(Options);
    ::_exit(0);
  }
  pid_t Child = 0;
  for (int I = 0; I < 500 && !Child; ++I) {
    std::ifstream In(PidFile);
    In >> Child;
    if (!Child)
      ::usleep(10000);
  }
  ASSERT_GT(Child, 0);
  ::kill(Tool, SIGKILL);
  ::waitpid(Tool, nullptr, 0);
  bool Gone = false;
  for (int I = 0; I < 500 && !Gone; ++I) {
    Gone = !alive(Child);
    if (!Gone)
      ::usleep(10000);
  }
  EXPECT_TRUE(Gone);
  if (!Gone)
    ::kill(Child, SIGKILL);
  std::remove(PidFile.c_str());
  ::rmdir(Dir);
}

TEST(SubprocessTest, MissingProgramIsAnError) {
  SubprocessOptions Options;
  Options.Argv = {"/nonexistent/kevin-tool"};
  auto R = runSubprocess(Options);
  ASSERT_FALSE(R);
  EXPECT_NE(R.error().message().find("cannot execute"), std::string::npos);
  Options.Argv = {"/bin/true"};
  Options.WorkingDirectory = "/nonexistent/dir";
  R = runSubprocess(Options);
  ASSERT_FALSE(R);
  EXPECT_NE(R.error().message().find("working directory"), std::string::npos);
}
