//===-- DeviceLockTest.cpp - tests for kevin/Support/DeviceLock.h ---------===//
#include "kevin/Support/DeviceLock.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

using namespace kevin;

namespace {

/// A fresh lock directory per test. Separate DeviceLock objects have
/// separate open files, so flock treats them as separate holders even in
/// one process.
struct DeviceLockTest : ::testing::Test {
  std::string Dir;
  void SetUp() override {
    char Template[] = "/tmp/kevin-lock-test.XXXXXX";
    ASSERT_NE(::mkdtemp(Template), nullptr);
    Dir = Template;
  }
  void TearDown() override { std::filesystem::remove_all(Dir); }
  DeviceLock open(const std::string &Device = "cuda:0") {
    Expected<DeviceLock> L = DeviceLock::open(Device, Dir + "/locks");
    EXPECT_TRUE(L) << (L ? "" : L.error().message());
    return std::move(*L);
  }
};

bool becomesTrue(const std::atomic<bool> &Flag, int Milliseconds) {
  auto Until = std::chrono::steady_clock::now() +
               std::chrono::milliseconds(Milliseconds);
  while (!Flag && std::chrono::steady_clock::now() < Until)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  return Flag;
}

} // namespace

TEST(DeviceLockNameTest, NamesOneGpuOnce) {
  EXPECT_EQ(deviceLockName("cpu", ""), "cpu");
  EXPECT_EQ(deviceLockName("cuda", ""), "cuda-0");
  EXPECT_EQ(deviceLockName("cuda:0", ""), "cuda-0");
  EXPECT_EQ(deviceLockName("cuda:1", ""), "cuda-1");
  // Under CUDA_VISIBLE_DEVICES=3,1, cuda:1 is the machine's GPU 1.
  EXPECT_EQ(deviceLockName("cuda", "3,1"), "cuda-3");
  EXPECT_EQ(deviceLockName("cuda:1", "3,1"), "cuda-1");
  EXPECT_EQ(deviceLockName("cuda:2", "3,1"), "cuda-2");
  // A name that is not a device is its own lock name.
  EXPECT_EQ(deviceLockName("cudafoo", ""), "cudafoo");
}

TEST_F(DeviceLockTest, SharedHoldersCoexistAndKeepAWriterOut) {
  DeviceLock A = open(), B = open(), W = open();
  ASSERT_FALSE(A.lockShared());
  ASSERT_FALSE(B.lockShared());
  EXPECT_FALSE(W.tryLockExclusive());
  A.unlock();
  EXPECT_FALSE(W.tryLockExclusive());
  B.unlock();
  EXPECT_TRUE(W.tryLockExclusive());
  EXPECT_TRUE(W.tryLockExclusive()); // Held: stays held.
}

TEST_F(DeviceLockTest, OtherDevicesAreIndependent) {
  DeviceLock Gpu0 = open("cuda:0"), Gpu1 = open("cuda:1");
  ASSERT_FALSE(Gpu0.lockShared());
  EXPECT_TRUE(Gpu1.tryLockExclusive());
}

TEST_F(DeviceLockTest, AWaitingWriterGoesBeforeNewReaders) {
  DeviceLock Reader = open(), Writer = open(), Late = open();
  ASSERT_FALSE(Reader.lockShared());
  EXPECT_FALSE(Writer.tryLockExclusive()); // Now waiting at the turnstile.
  std::atomic<bool> LateHolds{false};
  std::thread T([&] {
    EXPECT_FALSE(Late.lockShared());
    LateHolds = true;
  });
  EXPECT_FALSE(becomesTrue(LateHolds, 200)) << "a new reader overtook";
  Reader.unlock();
  EXPECT_TRUE(Writer.tryLockExclusive());
  EXPECT_FALSE(becomesTrue(LateHolds, 200)) << "a reader beside the writer";
  Writer.unlock();
  EXPECT_TRUE(becomesTrue(LateHolds, 5000));
  T.join();
}

TEST_F(DeviceLockTest, AWriterGivesUpItsOwnSharedHold) {
  DeviceLock Bench = open(), Other = open();
  ASSERT_FALSE(Bench.lockShared());
  // Its own shared hold does not keep it out; another writer stays out.
  EXPECT_TRUE(Bench.tryLockExclusive());
  EXPECT_FALSE(Other.tryLockExclusive());
}

TEST_F(DeviceLockTest, ALockDiesWithItsHolder) {
  {
    DeviceLock Gone = open();
    ASSERT_TRUE(Gone.tryLockExclusive());
  }
  DeviceLock Next = open();
  EXPECT_TRUE(Next.tryLockExclusive());
}

TEST_F(DeviceLockTest, ALinkInTheSharedDirectoryIsRefused) {
  // Another user could plant a link to a victim's file in /tmp/kevin-locks.
  std::filesystem::create_directories(Dir + "/locks");
  std::string Victim = Dir + "/victim";
  std::ofstream(Victim) << "data";
  std::filesystem::permissions(Victim, std::filesystem::perms::owner_read |
                                           std::filesystem::perms::owner_write);
  std::filesystem::create_symlink(Victim, Dir + "/locks/cuda-0.lock");
  Expected<DeviceLock> L = DeviceLock::open("cuda:0", Dir + "/locks");
  ASSERT_FALSE(L);
  EXPECT_NE(L.error().message().find("cannot open the device lock"),
            std::string::npos);
  EXPECT_EQ(std::filesystem::status(Victim).permissions() &
                std::filesystem::perms::others_write,
            std::filesystem::perms::none);
}

TEST_F(DeviceLockTest, WaitsAreCountedAndBounded) {
  DeviceLock Holder = open(), Writer = open();
  ASSERT_FALSE(Holder.lockShared());
  EXPECT_FALSE(Writer.lockExclusive(0.2)); // Gives up after its bound.
  EXPECT_GE(Writer.waitedSeconds(), 0.2);
  Holder.unlock();
  double Before = Writer.waitedSeconds();
  EXPECT_TRUE(Writer.lockExclusive(5));
  EXPECT_GE(Writer.waitedSeconds(), Before);
  double Held = Writer.waitedSeconds();
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(Writer.waitedSeconds(), Held); // Holding is not waiting.
}

TEST_F(DeviceLockTest, TryingSharedQueuesBehindAWriterWithoutBlocking) {
  DeviceLock Reader = open(), Writer = open(), Other = open();
  ASSERT_FALSE(Reader.lockShared());
  EXPECT_FALSE(Writer.tryLockExclusive()); // Waits in the turnstile.
  EXPECT_FALSE(Other.tryLockShared());     // So new readers queue.
  Reader.unlock();
  EXPECT_TRUE(Writer.tryLockExclusive());
  EXPECT_FALSE(Other.tryLockShared());
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  Writer.unlock();
  EXPECT_TRUE(Other.tryLockShared());
  EXPECT_TRUE(Other.tryLockShared()); // Held: a no-op.
  EXPECT_GE(Other.waitedSeconds(), 0.05);
  EXPECT_FALSE(Writer.tryLockExclusive()); // A reader holds it.
}

TEST_F(DeviceLockTest, TimeHeldAloneIsCountedAndSharedTimeIsNot) {
  DeviceLock L = open();
  ASSERT_FALSE(L.lockShared());
  std::this_thread::sleep_for(std::chrono::milliseconds(60));
  EXPECT_EQ(L.heldAloneSeconds(), 0.0); // Shared is not alone.
  ASSERT_TRUE(L.lockExclusive(5));
  std::this_thread::sleep_for(std::chrono::milliseconds(60));
  EXPECT_GE(L.heldAloneSeconds(), 0.06); // A hold still going on counts.
  ASSERT_FALSE(L.lockShared());          // Gives up the exclusive hold.
  double AfterFirst = L.heldAloneSeconds();
  std::this_thread::sleep_for(std::chrono::milliseconds(60));
  EXPECT_EQ(L.heldAloneSeconds(), AfterFirst);
  ASSERT_TRUE(L.lockExclusive(5));
  std::this_thread::sleep_for(std::chrono::milliseconds(60));
  L.unlock();
  EXPECT_GE(L.heldAloneSeconds(), AfterFirst + 0.06); // Holds add up.
  EXPECT_LT(L.heldAloneSeconds(), AfterFirst + 5);
}
