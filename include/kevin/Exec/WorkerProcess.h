//===-- kevin/Exec/WorkerProcess.h - running worker processes ---*- C++ -*-===//
//
// The trusted side's tools for starting kevin-worker processes and reading
// how they ended, shared by kevin-run's judge and kevin-bench: private
// temporary directories, secrets from /dev/urandom, the scrubbed worker
// environment, and the classification of a finished worker (timeout, signal,
// early exit, unattested or attested result) from its exit status, its
// progress file and its result.json.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_EXEC_WORKERPROCESS_H
#define KEVIN_EXEC_WORKERPROCESS_H

#include "kevin/Exec/Outcome.h"
#include "kevin/Support/Error.h"
#include "kevin/Support/Record.h"
#include "kevin/Support/Subprocess.h"

#include <chrono>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace kevin {

/// Bytes random hex digits' worth of /dev/urandom (2 * Bytes characters).
Expected<std::string> randomHex(size_t Bytes);

/// What TempDir::sweepAbandoned removed.
struct SweptDirs {
  size_t Removed = 0;
  uintmax_t Bytes = 0;
};

/// "removed N work directories (M MiB) that ended processes left in DIR",
/// or "" when none were.
std::string sweptMessage(const SweptDirs &Swept);

/// A private (0700) temporary directory, removed on destruction unless
/// keep() was called. Every one lives in sharedParent(), which candidate
/// workers see covered (isolateWorker in lib/Exec/Worker.cpp): no candidate
/// sees another evaluation's directory. Its maker holds an flock on it for
/// its life (and marks it so, where the file system has flock), so one that
/// a killed process left behind can be told from one in use.
class TempDir {
public:
  static Expected<TempDir> create(const char *Prefix = "kevin-run");
  /// Removes the directories in sharedParent() that are marked locked and
  /// that no process holds, older than MinAgeSeconds (one made this instant
  /// is not locked yet), except those kept on purpose (keep()). Directories
  /// of a kevin that takes no locks (an older release, a file system without
  /// flock) are never marked, so never removed. A kevin killed with SIGKILL,
  /// or by a time limit, leaves its work directories (gigabytes of input
  /// sets at gpu sizes) behind; kevin serve and kevin eval sweep them as
  /// they start.
  static SweptDirs sweepAbandoned(double MinAgeSeconds = 60);
  /// base()/kevin-<uid>, 0700, made on demand and removed by the last
  /// TempDir in it.
  static std::string sharedParent();
  /// $TMPDIR, else /tmp, made absolute: where kevin's work disk is.
  static std::string base();
  TempDir(TempDir &&Other) noexcept;
  TempDir &operator=(TempDir &&) = delete;
  ~TempDir();
  const std::string &path() const { return Path; }
  /// Not removed on destruction, and never swept: marked kept at once, so a
  /// killed run's kept directories stay too.
  void keep();

private:
  TempDir(std::string P, int LockFd) : Path(std::move(P)), LockFd(LockFd) {}
  std::string Path;
  /// The directory, open and flock'ed while this object lives (-1 where the
  /// file system has no flock).
  int LockFd = -1;
  bool Kept = false;
};

/// The part of a worker's stdin that is made after the worker started (it
/// imports torch meanwhile), shared between the thread that makes it and
/// the subprocess loop (SubprocessOptions::StdinLater and StopWhen).
/// Abandoning closes the worker's stdin and asks the loop to stop it.
class DeferredInput {
public:
  using Clock = std::chrono::steady_clock;
  void send(std::string Bytes);
  void abandon();
  /// For StdinLater: the bytes once sent (empty once abandoned).
  std::optional<std::string> poll();
  bool abandoned();
  /// When send was called; std::nullopt before.
  std::optional<Clock::time_point> sentAt();
  /// Abandoned, or sent more than LimitSeconds ago (a worker's limit that
  /// counts from its input).
  bool overdue(double LimitSeconds);

private:
  std::mutex Guard;
  std::optional<std::string> Bytes;
  std::optional<Clock::time_point> SentAt;
  bool Abandoned = false;
};

/// Text cut to Limit bytes, marked when cut.
std::string truncated(const std::string &Text, size_t Limit);

/// The last Limit bytes of a worker's stderr, on line boundaries.
std::string stderrTail(const std::string &Stderr, size_t Limit);

/// The candidate worker's arguments that cover TempDir::sharedParent() (every
/// evaluation's directory) and, where the OS permits, the machine's shared
/// directories (/tmp, /var/tmp, /dev/shm, /run), but for its own directory,
/// the candidate file, the build cache and what the worker loads from there
/// (torch's environment, CUDA, LD_LIBRARY_PATH, the driver).
std::vector<std::string> coverArguments(const std::string &WorkDir,
                                        const std::string &CandidatePath,
                                        const std::string &CacheDir);

/// Makes this process non-dumpable for the rest of its life: a candidate's
/// process (in a user namespace of its own, see the candidate workers) can
/// then neither trace it nor read its memory, its open files or its working
/// directory through /proc. For every process that holds reference outputs.
void guardFromCandidates();

/// The environment of worker processes: nothing from the caller but what
/// running torch needs.
std::vector<std::string> workerEnvironment(const std::string &Home,
                                           const std::string &CacheDir);

/// How a candidate worker process ended, as a verdict.
struct WorkerVerdict {
  bool HaveResult = false;
  Json Result;
  Stage StageReached = Stage::Format;
  Outcome Result_ = Outcome::Ok;
  std::string Message;
};

/// Classifies a finished candidate worker whose work directory is Dir and
/// whose result must carry Nonce; Limit is its timeout in seconds.
WorkerVerdict classifyWorker(const SubprocessResult &R, const std::string &Dir,
                             const std::string &Nonce, double Limit,
                             size_t MaxMessage);

/// A hard link, or a copy across file systems.
Error linkOrCopy(const std::string &From, const std::string &To);

/// A copy of its own (a file that several candidates get must not share
/// their inode). A full or failing disk (ENOSPC, EDQUOT, EIO) is an
/// ErrorKind::Internal error: the machine's failure, not the candidate's.
Error copyFile(const std::string &From, const std::string &To);

} // namespace kevin

#endif // KEVIN_EXEC_WORKERPROCESS_H
