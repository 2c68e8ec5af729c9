//===-- DiskRoom.cpp - room on a file system, reserved --------------------===//
//
// Reservations against the free space statvfs reports, one DiskRoom per
// file system (its device number) for the whole process.
//
//===----------------------------------------------------------------------===//
#include "kevin/Support/DiskRoom.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <utility>

namespace kevin {

DiskRoom::DiskRoom(FreeBytes Probe) : Probe(std::move(Probe)) {}

DiskRoom &DiskRoom::of(const std::string &Dir) {
  static std::mutex RegistryLock;
  static std::map<dev_t, std::unique_ptr<DiskRoom>> Rooms;
  struct stat St {};
  dev_t Device = ::stat(Dir.c_str(), &St) == 0 ? St.st_dev : dev_t(0);
  std::lock_guard<std::mutex> Hold(RegistryLock);
  std::unique_ptr<DiskRoom> &Room = Rooms[Device];
  if (!Room)
    Room = std::make_unique<DiskRoom>(
        [Dir]() -> std::optional<uintmax_t> {
          struct statvfs Fs {};
          if (::statvfs(Dir.c_str(), &Fs) != 0)
            return std::nullopt;
          return uintmax_t(Fs.f_bavail) * Fs.f_frsize;
        });
  return *Room;
}

DiskRoom::Reservation DiskRoom::reserve(uintmax_t Bytes,
                                       double MaxWaitSeconds) {
  auto Deadline = std::chrono::steady_clock::now() +
                  std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                      std::chrono::duration<double>(MaxWaitSeconds));
  std::unique_lock<std::mutex> Hold(Lock);
  while (true) {
    std::optional<uintmax_t> Free = Probe();
    bool Fits = !Free || (*Free > Reserved && *Free - Reserved >= Bytes);
    // With nothing reserved here, no release will make room: go ahead, and
    // let the writes meet what they meet (a full disk is kevin's error).
    if (Fits || Reserved == 0 ||
        std::chrono::steady_clock::now() >= Deadline) {
      Reserved += Bytes;
      return Reservation(this, Bytes);
    }
    // Space also frees without a release here (a cache let go, another
    // process): look again now and then.
    Released.wait_until(
        Hold, std::min(Deadline, std::chrono::steady_clock::now() +
                                     std::chrono::seconds(1)));
  }
}

uintmax_t DiskRoom::reserved() const {
  std::lock_guard<std::mutex> Hold(Lock);
  return Reserved;
}

void DiskRoom::release(uintmax_t Bytes) {
  {
    std::lock_guard<std::mutex> Hold(Lock);
    Reserved -= Bytes;
  }
  Released.notify_all();
}

DiskRoom::Reservation::Reservation(Reservation &&Other) noexcept
    : Room(std::exchange(Other.Room, nullptr)),
      Bytes(std::exchange(Other.Bytes, 0)) {}

DiskRoom::Reservation &
DiskRoom::Reservation::operator=(Reservation &&Other) noexcept {
  if (this != &Other) {
    if (Room)
      Room->release(Bytes);
    Room = std::exchange(Other.Room, nullptr);
    Bytes = std::exchange(Other.Bytes, 0);
  }
  return *this;
}

DiskRoom::Reservation::~Reservation() {
  if (Room)
    Room->release(Bytes);
}

} // namespace kevin
