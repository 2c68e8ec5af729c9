//===-- FileSystem.cpp - reading and writing files ------------------------===//
//
// See kevin/Support/FileSystem.h.
//
//===----------------------------------------------------------------------===//
#include "kevin/Support/FileSystem.h"

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <mutex>
#include <random>
#include <sys/stat.h>
#include <unistd.h>

namespace kevin {
namespace fs {

namespace {
/// How reading a whole file failed.
enum class ReadFailure { None, Open, Read };
} // namespace

/// Reads all of Path into Text; on failure errno tells why.
static ReadFailure readWhole(const std::string &Path, std::string &Text) {
  int Fd = ::open(Path.c_str(), O_RDONLY | O_CLOEXEC);
  if (Fd < 0)
    return ReadFailure::Open;
  struct stat St;
  if (::fstat(Fd, &St) == 0 && S_ISREG(St.st_mode))
    Text.reserve(static_cast<size_t>(St.st_size));
  char Buffer[65536];
  while (true) {
    ssize_t N = ::read(Fd, Buffer, sizeof(Buffer));
    if (N < 0 && errno == EINTR)
      continue;
    if (N < 0) {
      int Errno = errno;
      ::close(Fd);
      errno = Errno;
      return ReadFailure::Read;
    }
    if (N == 0)
      break;
    Text.append(Buffer, static_cast<size_t>(N));
  }
  ::close(Fd);
  return ReadFailure::None;
}

Expected<std::string> readFile(const std::string &Path) {
  std::string Text;
  switch (readWhole(Path, Text)) {
  case ReadFailure::None:
    return Text;
  case ReadFailure::Open:
    return Error::inFile(Path, "cannot open file", ErrorKind::FileAccess);
  case ReadFailure::Read:
    break;
  }
  return Error::inFile(Path, "cannot read file", ErrorKind::FileAccess);
}

Expected<std::string> readFileWithSystemMessage(const std::string &Path) {
  std::string Text;
  if (readWhole(Path, Text) != ReadFailure::None)
    return Error::inFile(Path, std::strerror(errno), ErrorKind::FileAccess);
  return Text;
}

std::string readFileOrEmpty(const std::string &Path) {
  Expected<std::string> Text = readFile(Path);
  return Text ? std::move(*Text) : std::string();
}

std::string whyUnreadable(const std::string &Path) {
  struct stat St;
  if (::stat(Path.c_str(), &St) != 0 || ::access(Path.c_str(), R_OK) != 0)
    return std::strerror(errno);
  return S_ISREG(St.st_mode) ? "" : "not a regular file";
}

std::string uniqueTag() {
  static std::mutex Lock;
  static std::random_device Entropy;
  std::lock_guard<std::mutex> Hold(Lock);
  char Text[17];
  std::snprintf(Text, sizeof(Text), "%08x%08x", Entropy(), Entropy());
  return Text;
}

uintmax_t treeBytes(const std::string &Dir) {
  namespace stdfs = std::filesystem;
  std::error_code EC;
  if (stdfs::is_regular_file(Dir, EC))
    return stdfs::file_size(Dir, EC);
  uintmax_t Total = 0;
  for (auto It = stdfs::recursive_directory_iterator(Dir, EC);
       !EC && It != stdfs::recursive_directory_iterator(); It.increment(EC)) {
    std::error_code SizeError;
    if (It->is_regular_file(SizeError)) {
      uintmax_t Bytes = It->file_size(SizeError);
      Total += SizeError ? 0 : Bytes;
    }
  }
  return Total;
}

bool writeAll(int Fd, std::string_view Text) {
  while (!Text.empty()) {
    ssize_t N = ::write(Fd, Text.data(), Text.size());
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return false;
    Text.remove_prefix(static_cast<size_t>(N));
  }
  return true;
}

static Error cannotWrite(const std::string &Path, int Errno) {
  return Error::inFile(
      Path, std::string("cannot write file: ") + std::strerror(Errno),
      ErrorKind::FileAccess);
}

Error writeFileAtomically(const std::string &Path, std::string_view Text) {
  // A name no other writer of Path uses (other processes, other threads,
  // processes of other PID namespaces, which share process ids), created
  // with the usual 0666 & ~umask like any new file.
  std::string Temp = Path + ".tmp." + uniqueTag();
  int Fd = ::open(Temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (Fd < 0)
    return cannotWrite(Path, errno);
  if (!writeAll(Fd, Text)) {
    int Errno = errno;
    ::close(Fd);
    ::unlink(Temp.c_str());
    return cannotWrite(Path, Errno);
  }
  if (::close(Fd) != 0 || ::rename(Temp.c_str(), Path.c_str()) != 0) {
    int Errno = errno;
    ::unlink(Temp.c_str());
    return cannotWrite(Path, Errno);
  }
  return Error::success();
}

std::string selfExecutablePath() {
  char Path[PATH_MAX];
  ssize_t N = ::readlink("/proc/self/exe", Path, sizeof(Path) - 1);
  if (N <= 0)
    return std::string();
  return std::string(Path, static_cast<size_t>(N));
}

std::string selfExecutableDirectory() {
  std::string Self = selfExecutablePath();
  size_t Slash = Self.find_last_of('/');
  if (Slash == std::string::npos)
    return std::string();
  return Self.substr(0, Slash);
}

} // namespace fs
} // namespace kevin
