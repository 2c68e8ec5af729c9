//===-- kevin/Support/DeviceLock.h - one device, many processes -*- C++ -*-===//
//
// A machine-wide readers-writer lock per device. Processes that run work on a
// device (kevin-run's workers, kevin-bench's set-up) hold it shared; a timed
// section (kevin-bench's timing loops) holds it alone, so that nothing of
// ours runs on the device while it is timed. Two flock(2)ed files per
// device: the lock, and a turnstile that a waiting writer holds so that new
// readers queue behind it instead of starving it. Locks die with their
// process, so a killed tool never leaves a device locked.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_SUPPORT_DEVICELOCK_H
#define KEVIN_SUPPORT_DEVICELOCK_H

#include "kevin/Support/Clock.h"
#include "kevin/Support/Error.h"

#include <optional>
#include <string>

namespace kevin {

/// $KEVIN_LOCK_DIR, else /tmp/kevin-locks.
std::string defaultLockDir();

/// The file name of Device's lock: "cuda" is "cuda:0"; a CUDA index is
/// mapped through CUDA_VISIBLE_DEVICES (Visible) when that lists it, so that
/// processes that see the same GPU under different indices share one lock.
/// "cpu", and a name that is not a device, is its own lock name.
std::string deviceLockName(const std::string &Device,
                           const std::string &Visible);

class DeviceLock {
public:
  /// The lock of Device under Dir (created, world-writable: users of one
  /// machine share its devices).
  static Expected<DeviceLock> open(const std::string &Device,
                                   const std::string &Dir = defaultLockDir());
  DeviceLock(DeviceLock &&Other) noexcept;
  DeviceLock &operator=(DeviceLock &&Other) = delete;
  DeviceLock(const DeviceLock &) = delete;
  DeviceLock &operator=(const DeviceLock &) = delete;
  ~DeviceLock();

  /// Blocks until the device is held shared (behind any waiting writer).
  Error lockShared();
  /// One step, never blocking, towards holding the device shared (behind
  /// any waiting writer); true once held.
  bool tryLockShared();
  /// One step, never blocking, towards holding the device alone; true once
  /// held. The first step gives up a shared hold; from then on new shared
  /// users wait for this one.
  bool tryLockExclusive();
  /// Steps towards holding the device alone until it is held (true) or this
  /// wait has lasted MaxWaitSeconds (false).
  bool lockExclusive(double MaxWaitSeconds);
  /// Back to holding nothing.
  void unlock();

  /// Seconds spent waiting for the device so far: blocked in lockShared,
  /// and from a first tryLockShared or tryLockExclusive step until held (a
  /// wait still going on included).
  double waitedSeconds() const;
  /// Seconds this lock has held the device alone so far (a hold still going
  /// on included): the device time its holder kept from everyone else.
  double heldAloneSeconds() const;

  const std::string &path() const { return Path; }

private:
  DeviceLock(std::string Path, int LockFd, int TurnstileFd)
      : Path(std::move(Path)), LockFd(LockFd), TurnstileFd(TurnstileFd) {}
  enum class Hold { None, Shared, Waiting, Exclusive };
  /// Ends a wait of the try* steps, counting it.
  void endWait();
  /// Ends an exclusive hold's accounting, counting it.
  void endAlone();
  std::string Path;
  int LockFd = -1;
  int TurnstileFd = -1;
  Hold State = Hold::None;
  double WaitedSeconds = 0; ///< finished waits
  std::optional<SteadyClock::time_point> WaitSince; ///< of the try* steps
  double HeldAloneSeconds = 0; ///< finished exclusive holds
  std::optional<SteadyClock::time_point> AloneSince; ///< the current one
};

} // namespace kevin

#endif // KEVIN_SUPPORT_DEVICELOCK_H
