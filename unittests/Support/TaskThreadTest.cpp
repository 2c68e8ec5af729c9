//===-- TaskThreadTest.cpp - tests for kevin/Support/TaskThread.h ---------===//
#include "kevin/Support/TaskThread.h"
#include "kevin/Support/Subprocess.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

using namespace kevin;

namespace {

/// The calling thread's nice value.
int threadNice() {
  return ::getpriority(PRIO_PROCESS, static_cast<id_t>(::syscall(SYS_gettid)));
}

TEST(TaskThreadTest, RunsAtItsMakersNiceValue) {
  TaskThread Starter; // made here, at the test's nice value
  int Base = threadNice();
  int Caller = Base, InTask = Base + 1;
  std::thread Niced([&] {
    niceThisThread(5);
    Caller = threadNice();
    Starter.run([&] { InTask = threadNice(); });
  });
  Niced.join();
  if (Base < 19) {
    EXPECT_GT(Caller, Base);
  }
  EXPECT_EQ(InTask, Base); // not the niced caller's
}

TEST(TaskThreadTest, ATaskThrowsToItsCallerAndTheThreadGoesOn) {
  TaskThread Starter;
  EXPECT_THROW(Starter.run([] { throw std::runtime_error("no zygote"); }),
               std::runtime_error);
  bool Ran = false;
  Starter.run([&] { Ran = true; });
  EXPECT_TRUE(Ran);
}

} // namespace
