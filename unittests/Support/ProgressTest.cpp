//===-- ProgressTest.cpp - tests for kevin/Support/Progress.h ------------===//
#include "kevin/Support/Progress.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <sstream>
#include <thread>

using namespace kevin;

namespace {

ProgressOptions into(std::ostream &Out, ProgressStyle Style,
                     double HeartbeatSeconds = 0) {
  ProgressOptions O;
  O.Style = Style;
  O.Out = &Out;
  O.HeartbeatSeconds = HeartbeatSeconds;
  return O;
}

} // namespace

TEST(ProgressTest, OffPrintsNothing) {
  std::ostringstream Out;
  {
    Progress P("eval", 3, into(Out, ProgressStyle::Off, 0.01));
    P.started("a", "run");
    P.finished("a", "correct n/a");
    P.finished("b", "mismatch");
    EXPECT_EQ(P.done(), 2u);
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_EQ(Out.str(), "");
}

TEST(ProgressTest, BarDrawsAndEndsTheLine) {
  std::ostringstream Out;
  Progress P("eval", 4, into(Out, ProgressStyle::Bar));
  for (const char *Id : {"a", "b", "c", "level1/19_ReLU"})
    P.finished(Id, "correct n/a");
  P.finish();
  P.finish();
  std::string Text = Out.str();
  EXPECT_NE(Text.find("eval [========================] 4/4"),
            std::string::npos);
  EXPECT_EQ(Text.back(), '\n');
  EXPECT_EQ(Text.find('\n'), Text.size() - 1) << "finish ends the line once";
}

TEST(ProgressTest, BarRenderShowsCountsAndTheLastItem) {
  std::ostringstream Out;
  Progress P("build", 10, into(Out, ProgressStyle::Off));
  for (int I = 0; I < 5; ++I)
    P.finished("sample_" + std::to_string(I), "");
  std::string Line = P.render();
  EXPECT_NE(Line.find("build [============>           ] 5/10"),
            std::string::npos)
      << Line;
  EXPECT_NE(Line.find("eta"), std::string::npos);
  EXPECT_NE(Line.find("sample_4"), std::string::npos);
}

TEST(ProgressTest, LinesGiveOneLinePerFinishedItem) {
  std::ostringstream Out;
  Progress P("eval", 3, into(Out, ProgressStyle::Lines));
  P.started("level1/19_ReLU#3", "run");
  P.finished("level1/19_ReLU#3", "correct 1.82x (run 4.1 s, bench 2.3 s)");
  P.finished("level1/19_ReLU#4", "build-error");
  P.finish();
  EXPECT_EQ(Out.str(), "[1/3] level1/19_ReLU#3 correct 1.82x (run 4.1 s, "
                       "bench 2.3 s)\n[2/3] level1/19_ReLU#4 build-error\n");
}

TEST(ProgressTest, OpenEndedLinesCountWithoutATotal) {
  std::ostringstream Out;
  ProgressOptions O = into(Out, ProgressStyle::Lines);
  O.LinePrefix = "kevin-serve: ";
  Progress P("kevin-serve", 0, O);
  P.finished("get_reward#0", "no-code");
  EXPECT_EQ(Out.str(), "kevin-serve: [1] get_reward#0 no-code\n");
}

TEST(ProgressTest, HeartbeatNamesWhatRunsLongestFirst) {
  std::ostringstream Out;
  Progress P("eval", 480, into(Out, ProgressStyle::Lines));
  EXPECT_EQ(P.heartbeat(), "") << "nothing runs";
  P.started("level1/19_ReLU#4", "check/build");
  P.started("level1/20_LeakyReLU#0", "check/build");
  P.started("level1/19_ReLU#4", "run");
  EXPECT_EQ(P.heartbeat(), "[0/480] still running: level1/20_LeakyReLU#0 "
                           "(check/build, 0 s), level1/19_ReLU#4 (run, 0 s)");
  for (int I = 0; I < 4; ++I)
    P.started("t" + std::to_string(I), "run");
  EXPECT_NE(P.heartbeat().find(", t1 (run, 0 s) and 2 more"), std::string::npos)
      << P.heartbeat();
  P.finished("level1/19_ReLU#4", "correct n/a");
  EXPECT_EQ(P.heartbeat().find("19_ReLU"), std::string::npos)
      << "a finished item is no longer running";
}

TEST(ProgressTest, HeartbeatLinesComeOnlyWhileNothingFinishes) {
  std::ostringstream Out;
  Progress P("eval", 2, into(Out, ProgressStyle::Lines, 0.05));
  std::this_thread::sleep_for(std::chrono::milliseconds(120));
  EXPECT_EQ(Out.str(), "") << "no heartbeat while nothing runs";
  auto Start = SteadyClock::now();
  P.started("slow", "bench");
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  P.finished("slow", "correct n/a");
  double Ran = secondsSince(Start);
  P.finish();
  std::string Text = Out.str();
  EXPECT_EQ(Text.rfind("[0/2] still running: slow (bench, ", 0), 0u) << Text;
  size_t Beats = 0;
  for (size_t At = Text.find("still running"); At != std::string::npos;
       At = Text.find("still running", At + 1))
    ++Beats;
  EXPECT_GE(Beats, 2u) << Text;
  EXPECT_LE(Beats, static_cast<size_t>(Ran / 0.05) + 1) << Text;
  EXPECT_NE(Text.find("[1/2] slow correct n/a\n"), std::string::npos);
}

TEST(ProgressTest, HeartbeatSecondsComeFromTheEnvironment) {
  ::setenv("KEVIN_HEARTBEAT_SECONDS", "0.5", 1);
  EXPECT_EQ(heartbeatSeconds(), 0.5);
  EXPECT_EQ(ProgressOptions().HeartbeatSeconds, 0.5);
  for (const char *Bad : {"", "soon", "0", "-3", "5s"}) {
    ::setenv("KEVIN_HEARTBEAT_SECONDS", Bad, 1);
    EXPECT_EQ(heartbeatSeconds(), 30) << Bad;
  }
  ::unsetenv("KEVIN_HEARTBEAT_SECONDS");
  EXPECT_EQ(heartbeatSeconds(), 30);
}

TEST(ProgressTest, QuietIsOff) {
  EXPECT_EQ(progressStyleFor(true), ProgressStyle::Off);
  EXPECT_NE(progressStyleFor(false), ProgressStyle::Off);
  EXPECT_EQ(stderrProgress(true).Style, ProgressStyle::Off);
}

TEST(FinishedSummaryTest, CorrectWithSpeedupAndStageSeconds) {
  Json R = Json::parse(R"({"id": "level1/19_ReLU#3",
      "build_ahead": {"ok": true, "seconds": 3.04},
      "build": {"ok": true, "seconds": 0.01},
      "run": {"correct": true, "outcome": "ok", "seconds": {"total": 4.12}},
      "bench": {"ok": true, "speedup": 1.8249, "seconds": {"total": 2.3}}})");
  EXPECT_EQ(finishedSummary(R),
            "correct 1.82x (build 3.0 s, run 4.1 s, bench 2.3 s)");
}

TEST(FinishedSummaryTest, NotTimedIsNA) {
  Json R = Json::parse(
      R"({"run": {"correct": true, "outcome": "ok", "seconds": {"total": 1}}})");
  EXPECT_EQ(finishedSummary(R), "correct n/a (run 1.0 s)");
  R["bench"] =
      Json::parse(R"({"ok": false, "outcome": "timeout", "speedup": null})");
  EXPECT_EQ(finishedSummary(R), "correct n/a, bench timeout (run 1.0 s)");
  R["bench"]["outcome"] = "skipped";
  EXPECT_EQ(finishedSummary(R), "correct n/a (run 1.0 s)");
}

TEST(FinishedSummaryTest, NotCorrectShowsTheOutcome) {
  Json Mismatch = Json::parse(R"({"build": {"ok": true, "seconds": 2.0},
      "run": {"correct": false, "outcome": "mismatch"}})");
  EXPECT_EQ(finishedSummary(Mismatch), "mismatch (build 2.0 s)");
  Json Unbuilt = Json::parse(
      R"({"build": {"ok": false, "outcome": "build-error", "seconds": 9.96}})");
  EXPECT_EQ(finishedSummary(Unbuilt), "build-error (build 10.0 s)");
  EXPECT_EQ(finishedSummary(Json::parse(R"({"check": {"ok": false}})")),
            "check-failed");
  EXPECT_EQ(finishedSummary(Json::parse(R"({"parse": {"ok": false}})")),
            "format-error");
  EXPECT_EQ(finishedSummary(Json::parse(
                R"({"run": {"correct": false, "outcome": "skipped-check"}})")),
            "skipped-check");
  EXPECT_EQ(finishedSummary(Json::parse(R"({"build": {"ok": true}})")),
            "built");
  EXPECT_EQ(
      finishedSummary(Json::parse(R"({"bench": {"outcome": "input-error"}})")),
      "input-error");
  EXPECT_EQ(finishedSummary(Json::object()), "unknown");
  EXPECT_EQ(finishedSummary(Json::object(), "no-code"), "no-code");
}

TEST(FinishedSummaryTest, RecordNames) {
  EXPECT_EQ(progressName(Json::parse(R"({"id": "a#1", "task_id": "t"})")),
            "a#1");
  EXPECT_EQ(progressName(
                Json::parse(R"({"candidate_path": "c.py", "task_id": "t"})")),
            "c.py");
  EXPECT_EQ(progressName(Json::parse(R"({"task_id": "t"})")), "t");
  EXPECT_EQ(progressName(Json::object(), 7), "record 7");
  EXPECT_EQ(progressName(Json::object()), "");
}
