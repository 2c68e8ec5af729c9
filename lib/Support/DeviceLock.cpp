//===-- DeviceLock.cpp - one device, many processes -----------------------===//
//
// See kevin/Support/DeviceLock.h.
//
//===----------------------------------------------------------------------===//
#include "kevin/Support/DeviceLock.h"
#include "kevin/Support/Device.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sstream>
#include <sys/file.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace kevin {

namespace {

/// flock, retried when a signal interrupts it.
int flockRetrying(int Fd, int Operation) {
  int R;
  do
    R = ::flock(Fd, Operation);
  while (R != 0 && errno == EINTR);
  return R;
}

Expected<int> openLockFile(const std::string &Path) {
  // Never through a link: the directory is shared with other users.
  int Fd = ::open(Path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW,
                  0666);
  struct stat St;
  if (Fd < 0 || ::fstat(Fd, &St) != 0 || !S_ISREG(St.st_mode)) {
    std::string Why = Fd < 0 ? std::strerror(errno) : "not a regular file";
    if (Fd >= 0)
      ::close(Fd);
    return Error::inFile(Path, "cannot open the device lock: " + Why);
  }
  if (St.st_uid == ::geteuid())
    ::fchmod(Fd, 0666); // Whatever the umask: other users share the device.
  return Fd;
}

} // namespace

std::string defaultLockDir() {
  if (const char *Dir = std::getenv("KEVIN_LOCK_DIR"); Dir && *Dir)
    return Dir;
  return "/tmp/kevin-locks";
}

std::string deviceLockName(const std::string &Name,
                           const std::string &Visible) {
  Expected<Device> D = Device::parse(Name);
  if (!D || D->isCpu())
    return Name;
  unsigned Index = D->index().value_or(0);
  std::vector<std::string> Listed;
  std::stringstream In(Visible);
  for (std::string Item; std::getline(In, Item, ',');)
    Listed.push_back(Item);
  if (Index < Listed.size() && !Listed[Index].empty())
    return "cuda-" + Listed[Index];
  return "cuda-" + std::to_string(Index);
}

Expected<DeviceLock> DeviceLock::open(const std::string &Device,
                                      const std::string &Dir) {
  if (::mkdir(Dir.c_str(), 01777) == 0)
    ::chmod(Dir.c_str(), 01777);
  else if (errno != EEXIST)
    return Error::inFile(Dir, std::string("cannot create the lock "
                                          "directory: ") +
                                  std::strerror(errno));
  const char *Visible = std::getenv("CUDA_VISIBLE_DEVICES");
  std::string Path =
      Dir + "/" + deviceLockName(Device, Visible ? Visible : "") + ".lock";
  Expected<int> Lock = openLockFile(Path);
  if (!Lock)
    return Lock.error();
  Expected<int> Turnstile = openLockFile(Path + ".turnstile");
  if (!Turnstile) {
    ::close(*Lock);
    return Turnstile.error();
  }
  return DeviceLock(Path, *Lock, *Turnstile);
}

DeviceLock::DeviceLock(DeviceLock &&Other) noexcept
    : Path(std::move(Other.Path)), LockFd(Other.LockFd),
      TurnstileFd(Other.TurnstileFd), State(Other.State),
      WaitedSeconds(Other.WaitedSeconds), WaitSince(Other.WaitSince),
      HeldAloneSeconds(Other.HeldAloneSeconds), AloneSince(Other.AloneSince) {
  Other.LockFd = Other.TurnstileFd = -1;
  Other.State = Hold::None;
}

DeviceLock::~DeviceLock() {
  // Closing the descriptors drops whatever they hold.
  if (LockFd >= 0)
    ::close(LockFd);
  if (TurnstileFd >= 0)
    ::close(TurnstileFd);
}

Error DeviceLock::lockShared() {
  if (State == Hold::Shared)
    return Error::success();
  unlock();
  auto Start = SteadyClock::now();
  // Through the turnstile: a writer waiting there goes first.
  if (flockRetrying(TurnstileFd, LOCK_EX) != 0 ||
      flockRetrying(TurnstileFd, LOCK_UN) != 0 ||
      flockRetrying(LockFd, LOCK_SH) != 0)
    return Error::inFile(Path, std::string("cannot lock the device: ") +
                                   std::strerror(errno));
  WaitedSeconds += secondsSince(Start);
  State = Hold::Shared;
  return Error::success();
}

bool DeviceLock::tryLockShared() {
  if (State == Hold::Shared)
    return true;
  if (State != Hold::None)
    unlock();
  if (!WaitSince)
    WaitSince = SteadyClock::now();
  // Through the turnstile: a writer waiting there goes first.
  if (flockRetrying(TurnstileFd, LOCK_EX | LOCK_NB) != 0)
    return false;
  flockRetrying(TurnstileFd, LOCK_UN);
  if (flockRetrying(LockFd, LOCK_SH | LOCK_NB) != 0)
    return false;
  State = Hold::Shared;
  endWait();
  return true;
}

bool DeviceLock::tryLockExclusive() {
  if (State == Hold::Exclusive)
    return true;
  if (!WaitSince)
    WaitSince = SteadyClock::now();
  if (State == Hold::Shared) {
    // Converting in place is not atomic in flock(2); give it up explicitly.
    flockRetrying(LockFd, LOCK_UN);
    State = Hold::None;
  }
  if (State == Hold::None) {
    if (flockRetrying(TurnstileFd, LOCK_EX | LOCK_NB) != 0)
      return false;
    State = Hold::Waiting;
  }
  if (flockRetrying(LockFd, LOCK_EX | LOCK_NB) != 0)
    return false;
  flockRetrying(TurnstileFd, LOCK_UN);
  State = Hold::Exclusive;
  AloneSince = SteadyClock::now();
  endWait();
  return true;
}

bool DeviceLock::lockExclusive(double MaxWaitSeconds) {
  while (!tryLockExclusive()) {
    if (secondsSince(*WaitSince) > MaxWaitSeconds)
      return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return true;
}

void DeviceLock::endWait() {
  if (WaitSince)
    WaitedSeconds += secondsSince(*WaitSince);
  WaitSince.reset();
}

void DeviceLock::endAlone() {
  if (AloneSince)
    HeldAloneSeconds += secondsSince(*AloneSince);
  AloneSince.reset();
}

double DeviceLock::heldAloneSeconds() const {
  return HeldAloneSeconds + (AloneSince ? secondsSince(*AloneSince) : 0.0);
}

double DeviceLock::waitedSeconds() const {
  return WaitedSeconds + (WaitSince ? secondsSince(*WaitSince) : 0.0);
}

void DeviceLock::unlock() {
  endWait();
  endAlone();
  if (State == Hold::Waiting)
    flockRetrying(TurnstileFd, LOCK_UN);
  if (State == Hold::Shared || State == Hold::Exclusive)
    flockRetrying(LockFd, LOCK_UN);
  State = Hold::None;
}

} // namespace kevin
