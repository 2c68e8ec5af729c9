//===-- kevin/Support/DiskRoom.h - room on a file system, reserved -*- C++ -*-===//
//
// A gpu-sized candidate's work directory holds gigabytes: the input sets
// copied for it and the outputs its worker writes. Judged sixteen at a time,
// such candidates can fill the disk, and a full disk fails candidates that
// did nothing wrong. A DiskRoom admits such work while its file system has
// room for it beside what was admitted before and is not let go yet: each
// judgement reserves the bytes it will write, and waits while others hold
// the room it needs. It never refuses: with nothing else reserved, or once
// the wait is over, the work goes ahead and meets what it meets (a full disk
// met in kevin's own copies is then kevin's error). Reservations are counted in
// this process only (kevin serve, kevin eval's engine); bytes already
// written under a reservation are counted twice until it ends, which errs
// towards waiting.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_SUPPORT_DISKROOM_H
#define KEVIN_SUPPORT_DISKROOM_H

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>

namespace kevin {

class DiskRoom {
public:
  /// The bytes the file system has free now; nullopt when unknown.
  using FreeBytes = std::function<std::optional<uintmax_t>()>;

  explicit DiskRoom(FreeBytes Probe);
  DiskRoom(const DiskRoom &) = delete;
  DiskRoom &operator=(const DiskRoom &) = delete;

  /// The room of the file system that holds Dir, shared by everyone in this
  /// process who asks for a directory there.
  static DiskRoom &of(const std::string &Dir);

  /// Bytes held until it is destroyed (or moved from).
  class Reservation {
  public:
    Reservation() = default;
    Reservation(Reservation &&Other) noexcept;
    Reservation &operator=(Reservation &&Other) noexcept;
    ~Reservation();

  private:
    friend class DiskRoom;
    Reservation(DiskRoom *Room, uintmax_t Bytes) : Room(Room), Bytes(Bytes) {}
    DiskRoom *Room = nullptr;
    uintmax_t Bytes = 0;
  };

  /// How long a candidate's work waits for room before it goes ahead.
  static constexpr double DefaultWaitSeconds = 600;

  /// Holds Bytes once they fit in the free space beside the other
  /// reservations, or at once when nothing else is reserved or the free
  /// space is unknown, or after MaxWaitSeconds of waiting.
  Reservation reserve(uintmax_t Bytes,
                      double MaxWaitSeconds = DefaultWaitSeconds);

  /// Bytes reserved now.
  uintmax_t reserved() const;

private:
  void release(uintmax_t Bytes);
  FreeBytes Probe;
  mutable std::mutex Lock;
  std::condition_variable Released;
  uintmax_t Reserved = 0;
};

} // namespace kevin

#endif // KEVIN_SUPPORT_DISKROOM_H
