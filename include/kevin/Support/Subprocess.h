//===-- kevin/Support/Subprocess.h - run a child process --------*- C++ -*-===//
//
// Runs a program with an explicit argv, environment and working directory in
// its own process group, with a wall-clock timeout after which the whole
// group is killed, bounded capture of stdout and stderr, and a typed account
// of how it ended (exit code, signal, timeout). Candidate code runs under
// this, so nothing it does (forking, closing pipes, ignoring SIGTERM,
// printing gigabytes) can hang or exhaust the caller.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_SUPPORT_SUBPROCESS_H
#define KEVIN_SUPPORT_SUBPROCESS_H

#include "kevin/Support/Error.h"

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace kevin {

struct SubprocessOptions;

/// A child that another process started on our behalf (kevin-worker's
/// zygote forks workers on request, kevin/Exec/Zygote.h): its pid, which
/// leads a process group of its own, and a descriptor from which its wait
/// status (an int, as waitpid reports it) can be read once it has ended.
/// The descriptor is the caller's to close.
struct LaunchedChild {
  int Pid = -1;
  int StatusFd = -1;
};

/// Starts the child of Options with the given descriptors as its stdin,
/// stdout and stderr, in place of fork and exec.
using ChildLauncher = std::function<Expected<LaunchedChild>(
    const SubprocessOptions &Options, int StdinFd, int StdoutFd,
    int StderrFd)>;

struct SubprocessOptions {
  /// Argv[0] is the program: a path, or a name looked up on PATH.
  std::vector<std::string> Argv;
  /// The complete environment as NAME=VALUE; std::nullopt inherits ours.
  std::optional<std::vector<std::string>> Environment;
  /// Working directory; empty keeps ours.
  std::string WorkingDirectory;
  /// Bytes written to the child's stdin, which is then closed.
  std::string Stdin;
  /// For a child started ahead of part of its input (a worker that imports
  /// torch while the device is busy or its task is still being made): the
  /// pieces written after Stdin, in order. Each is polled about every 10 ms
  /// until it returns its bytes; stdin closes after the last.
  std::vector<std::function<std::optional<std::string>()>> StdinLater;
  /// Polled about every 10 ms while the child runs; true kills its process
  /// group and the result reads as timed out (limits with several phases,
  /// or a caller that no longer needs the child).
  std::function<bool()> StopWhen;
  /// Wall-clock limit in seconds; 0 means none.
  double TimeoutSeconds = 0;
  /// At most this many bytes of each stream are kept; the rest is read and
  /// dropped so the child never blocks on a full pipe.
  size_t MaxCaptureBytes = 1 << 20;
  /// Added to the child's nice value (0: ours): work that should yield the
  /// cores to others, such as compiles ahead of the device.
  int Niceness = 0;
  /// Starts the child in place of fork and exec when set (a warm zygote);
  /// everything else above applies the same.
  ChildLauncher Launcher;
};

struct SubprocessResult {
  int ExitCode = -1; ///< The exit status when the child exited, else -1.
  int Signal = 0;    ///< The signal that ended it, else 0.
  bool TimedOut = false;
  std::string Stdout;
  std::string Stderr;
  bool StdoutTruncated = false;
  bool StderrTruncated = false;
  double WallSeconds = 0;

  /// True when it exited with status 0 in time.
  bool succeeded() const { return !TimedOut && Signal == 0 && ExitCode == 0; }
  /// "exited with status 3", "killed by signal 11 (Segmentation fault)",
  /// "timed out after 2.0 s".
  std::string describe() const;
};

/// Runs the child to completion (or timeout). An Error means it could not be
/// started (no such program, bad working directory); a child that crashes or
/// times out is a successful call whose result says so.
Expected<SubprocessResult> runSubprocess(const SubprocessOptions &Options);

/// The current environment as NAME=VALUE strings.
std::vector<std::string> currentEnvironment();

/// Raises the calling thread's nice value to at least Niceness above the
/// process's (its main thread's), as SubprocessOptions::Niceness does for a
/// child. Linux keeps one per thread; it can be raised, never lowered back,
/// without privilege. Best effort: a thread left at its priority still works.
void niceThisThread(int Niceness);

} // namespace kevin

#endif // KEVIN_SUPPORT_SUBPROCESS_H
