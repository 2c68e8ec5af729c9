//===-- DiskRoomTest.cpp - reservations of room on a work disk ------------===//
//
// DiskRoom against a file system of known free space: what fits is held at
// once, what does not waits for a release (or for its limit), and nothing
// waits when no one else holds room.
//
//===----------------------------------------------------------------------===//
#include "kevin/Support/DiskRoom.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

using namespace kevin;

namespace {

using Seconds = std::chrono::duration<double>;

DiskRoom::FreeBytes freeBytes(uintmax_t Bytes) {
  return [Bytes] { return std::optional<uintmax_t>(Bytes); };
}

double secondsOf(std::chrono::steady_clock::time_point Since) {
  return Seconds(std::chrono::steady_clock::now() - Since).count();
}

TEST(DiskRoomTest, HoldsWhatFitsBesideTheOthersAndLetsItGo) {
  DiskRoom Room(freeBytes(100));
  {
    DiskRoom::Reservation A = Room.reserve(60, 5);
    DiskRoom::Reservation B = Room.reserve(40, 5);
    EXPECT_EQ(Room.reserved(), 100u);
    DiskRoom::Reservation Moved = std::move(B);
    EXPECT_EQ(Room.reserved(), 100u);
  }
  EXPECT_EQ(Room.reserved(), 0u);
}

TEST(DiskRoomTest, WaitsForARelease) {
  DiskRoom Room(freeBytes(100));
  std::optional<DiskRoom::Reservation> First(Room.reserve(60, 5));
  std::atomic<bool> Held{false};
  double Waited = 0;
  std::thread Second([&] {
    auto Start = std::chrono::steady_clock::now();
    DiskRoom::Reservation R = Room.reserve(60, 30);
    Waited = secondsOf(Start);
    Held = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_FALSE(Held.load());
  First.reset();
  Second.join();
  EXPECT_TRUE(Held.load());
  EXPECT_GE(Waited, 0.25);
  EXPECT_LT(Waited, 10.0);
  EXPECT_EQ(Room.reserved(), 0u);
}

TEST(DiskRoomTest, GoesAheadOnceTheWaitIsOver) {
  DiskRoom Room(freeBytes(100));
  DiskRoom::Reservation First = Room.reserve(60, 5);
  auto Start = std::chrono::steady_clock::now();
  DiskRoom::Reservation Second = Room.reserve(60, 0.3);
  double Waited = secondsOf(Start);
  EXPECT_GE(Waited, 0.25);
  EXPECT_LT(Waited, 5.0);
  EXPECT_EQ(Room.reserved(), 120u);
}

TEST(DiskRoomTest, NeverWaitsWithNothingElseHeldOrTheFreeSpaceUnknown) {
  DiskRoom Small(freeBytes(10));
  auto Start = std::chrono::steady_clock::now();
  DiskRoom::Reservation Alone = Small.reserve(60, 30);
  DiskRoom Unknown([] { return std::optional<uintmax_t>(); });
  DiskRoom::Reservation A = Unknown.reserve(60, 30);
  DiskRoom::Reservation B = Unknown.reserve(60, 30);
  EXPECT_LT(secondsOf(Start), 1.0);
  EXPECT_EQ(Small.reserved(), 60u);
  EXPECT_EQ(Unknown.reserved(), 120u);
}

TEST(DiskRoomTest, SharesOneRoomPerFileSystem) {
  DiskRoom &Tmp = DiskRoom::of(::testing::TempDir());
  EXPECT_EQ(&Tmp, &DiskRoom::of(::testing::TempDir()));
  DiskRoom::Reservation R = Tmp.reserve(1, 5);
  EXPECT_EQ(Tmp.reserved(), 1u);
}

} // namespace
