//===-- CpuAffinityTest.cpp - the CPU a timing loop runs on ---------------===//
//
// CPU lists, the choice of the timing CPU, and a thread held on one CPU and
// given its CPUs back.
//
//===----------------------------------------------------------------------===//
#include "kevin/Support/CpuAffinity.h"

#include <gtest/gtest.h>

#include <utility>

using namespace kevin;

TEST(CpuAffinityTest, CpuListsAreRead) {
  const std::pair<const char *, std::vector<int>> Cases[] = {
      {"0-3,8,10-11\n", {0, 1, 2, 3, 8, 10, 11}},
      {"5", {5}},
      {"3,1,3", {1, 3}},
      {"", {}}};
  for (const auto &[List, Cpus] : Cases) {
    Expected<std::vector<int>> Read = parseCpuList(List);
    ASSERT_TRUE(bool(Read)) << List;
    EXPECT_EQ(*Read, Cpus) << List;
  }
  for (const char *Bad : {"3-1", "a", "1,,2", "-4", "1-", "99999999"}) {
    Expected<std::vector<int>> Read = parseCpuList(Bad);
    ASSERT_FALSE(bool(Read)) << Bad;
    EXPECT_NE(Read.error().message().find(Bad), std::string::npos)
        << Read.error().message();
  }
}

TEST(CpuAffinityTest, TheLastLocalCpuIsTakenOnePerDevice) {
  // Local to the GPU, this process's: 8-15 of 0-15.
  std::vector<int> Allowed = {0, 1, 2, 3, 8, 9, 10, 11, 12, 13, 14, 15};
  std::vector<int> Local = {8, 9, 10, 11, 12, 13, 14, 15, 16, 17};
  EXPECT_EQ(pickTimingCpu(Allowed, Local, 0), 15);
  EXPECT_EQ(pickTimingCpu(Allowed, Local, 1), 14);
  EXPECT_EQ(pickTimingCpu(Allowed, Local, 8), 15); // wraps
  // None of the local CPUs is this process's: its own last one.
  EXPECT_EQ(pickTimingCpu({0, 1, 2}, {8, 9}, 0), 2);
  EXPECT_EQ(pickTimingCpu({0, 1, 2}, {}, 1), 1);
  EXPECT_EQ(pickTimingCpu({}, Local, 0), std::nullopt);
}

TEST(CpuAffinityTest, ChoicesAreReadOrRefused) {
  Expected<std::optional<int>> None = timingCpuOf("none", "", 0);
  ASSERT_TRUE(bool(None));
  EXPECT_EQ(*None, std::nullopt);
  Expected<std::optional<int>> Three = timingCpuOf("3", "", 0);
  ASSERT_TRUE(bool(Three));
  EXPECT_EQ(*Three, 3);
  // No such PCI device: the process's own last CPU.
  Expected<std::optional<int>> Auto = timingCpuOf("auto", "0000:ZZ:00.0", 0);
  ASSERT_TRUE(bool(Auto));
  EXPECT_EQ(*Auto, allowedCpus().back());
  Expected<std::optional<int>> Bad = timingCpuOf("fast", "", 0);
  ASSERT_FALSE(bool(Bad));
  EXPECT_NE(Bad.error().message().find("'fast'"), std::string::npos);
  EXPECT_TRUE(pciLocalCpus("../../etc").empty());
}

TEST(CpuAffinityTest, AThreadIsHeldThenGivenItsCpusBack) {
  std::vector<int> Before = allowedCpus();
  ASSERT_FALSE(Before.empty());
  {
    PinnedThread Pin(Before.back());
    ASSERT_TRUE(Pin.pinned());
    EXPECT_EQ(allowedCpus(), std::vector<int>{Before.back()});
    EXPECT_EQ(sched_getcpu(), Before.back());
  }
  EXPECT_EQ(allowedCpus(), Before);
  // A CPU the machine does not have, and none at all: nothing held.
  PinnedThread Absent(CPU_SETSIZE - 1);
  EXPECT_FALSE(Absent.pinned());
  PinnedThread NoCpu(std::nullopt);
  EXPECT_FALSE(NoCpu.pinned());
  EXPECT_EQ(allowedCpus(), Before);
}
