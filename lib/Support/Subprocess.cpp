//===-- Subprocess.cpp - run a child process -----------------------------===//
//
// fork/exec with a process group, a poll loop over the child's pipes, a
// deadline, and a group-wide SIGKILL on timeout and after the child exits
// (so grandchildren cannot outlive it holding our pipes). A child started by
// SubprocessOptions::Launcher is watched the same way, its wait status read
// from the descriptor the launcher returned instead of from waitpid.
//
//===----------------------------------------------------------------------===//
#include "kevin/Support/Subprocess.h"
#include "kevin/Support/Clock.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace kevin {

namespace {

/// A pipe whose ends are closed on destruction.
struct Pipe {
  int Fds[2] = {-1, -1};
  bool open() { return ::pipe2(Fds, O_CLOEXEC) == 0; }
  void closeEnd(int I) {
    if (Fds[I] >= 0)
      ::close(Fds[I]);
    Fds[I] = -1;
  }
  ~Pipe() {
    closeEnd(0);
    closeEnd(1);
  }
};

/// Appends up to the capture limit, counting what is dropped.
void capture(std::string &Into, bool &Truncated, const char *Data, size_t N,
             size_t Limit) {
  size_t Room = Into.size() < Limit ? Limit - Into.size() : 0;
  Into.append(Data, std::min(Room, N));
  if (N > Room)
    Truncated = true;
}

std::vector<char *> toCStrings(std::vector<std::string> &Strings) {
  std::vector<char *> Pointers;
  for (std::string &S : Strings)
    Pointers.push_back(S.data());
  Pointers.push_back(nullptr);
  return Pointers;
}

/// In the child: set up and exec; on failure report errno through ErrorFd.
[[noreturn]] void execChild(const SubprocessOptions &Options, pid_t Parent,
                            int StdinFd, int StdoutFd, int StderrFd,
                            int ErrorFd, std::vector<char *> &Argv,
                            std::vector<char *> *Env) {
  ::setpgid(0, 0);
  // The child dies with its parent: a killed tool leaves no worker behind
  // (its own process group would not get the tool's signal).
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != Parent)
    ::_exit(127);
  // Restore default signal handling; the parent may ignore SIGPIPE.
  for (int Sig : {SIGPIPE, SIGINT, SIGTERM, SIGCHLD})
    ::signal(Sig, SIG_DFL);
  sigset_t Empty;
  sigemptyset(&Empty);
  ::sigprocmask(SIG_SETMASK, &Empty, nullptr);
  // Best effort: a child left at our priority still runs correctly.
  if (Options.Niceness != 0) {
    int Ignored = ::nice(Options.Niceness);
    (void)Ignored;
  }
  ::dup2(StdinFd, 0);
  ::dup2(StdoutFd, 1);
  ::dup2(StderrFd, 2);
  int Stage = 0;
  if (!Options.WorkingDirectory.empty() &&
      ::chdir(Options.WorkingDirectory.c_str()) != 0) {
    Stage = 1;
  } else if (Env) {
    ::execvpe(Argv[0], Argv.data(), Env->data());
  } else {
    ::execvp(Argv[0], Argv.data());
  }
  int Report[2] = {Stage, errno};
  ssize_t Ignored = ::write(ErrorFd, Report, sizeof(Report));
  (void)Ignored;
  ::_exit(127);
}

/// The four pipes between us and a child: its stdin, stdout and stderr, and
/// the report of a failed exec.
struct ChildPipes {
  Pipe In, Out, Err, ExecError;
  bool open() {
    return In.open() && Out.open() && Err.open() && ExecError.open();
  }
  /// Closes the ends the child holds, once it has them.
  void closeChildEnds() {
    In.closeEnd(0);
    Out.closeEnd(1);
    Err.closeEnd(1);
    ExecError.closeEnd(1);
  }
};

/// A child that was forked and has exec'ed, or that a launcher started.
struct StartedChild {
  pid_t Pid;
  SteadyClock::time_point Start;
  /// Where a launched child's wait status comes from; -1 for our own child.
  int StatusFd = -1;
};

/// Forks and execs the child of Options on Pipes. An Error when the fork, the
/// working directory or the exec failed (the failed child is reaped).
Expected<StartedChild> startChild(const SubprocessOptions &Options,
                                  ChildPipes &Pipes) {
  const std::string &Program = Options.Argv.front();
  std::vector<std::string> ArgvStrings = Options.Argv;
  std::vector<char *> Argv = toCStrings(ArgvStrings);
  std::vector<std::string> EnvStrings;
  std::vector<char *> Env;
  if (Options.Environment) {
    EnvStrings = *Options.Environment;
    Env = toCStrings(EnvStrings);
  }

  auto Start = SteadyClock::now();
  pid_t Self = ::getpid();
  pid_t Pid = ::fork();
  if (Pid < 0)
    return Error::inFile(Program,
                         std::string("cannot fork: ") + std::strerror(errno));
  if (Pid == 0)
    execChild(Options, Self, Pipes.In.Fds[0], Pipes.Out.Fds[1],
              Pipes.Err.Fds[1], Pipes.ExecError.Fds[1], Argv,
              Options.Environment ? &Env : nullptr);

  // Also set the group from the parent, so a kill right away cannot miss.
  ::setpgid(Pid, Pid);
  Pipes.closeChildEnds();

  int Report[2] = {0, 0};
  ssize_t Got;
  do
    Got = ::read(Pipes.ExecError.Fds[0], Report, sizeof(Report));
  while (Got < 0 && errno == EINTR);
  if (Got == static_cast<ssize_t>(sizeof(Report))) {
    int Status;
    ::waitpid(Pid, &Status, 0);
    if (Report[0] == 1)
      return Error::inFile(Options.WorkingDirectory,
                           std::string("cannot enter working directory: ") +
                               std::strerror(Report[1]));
    return Error::inFile(Program, std::string("cannot execute: ") +
                                      std::strerror(Report[1]));
  }
  return StartedChild{Pid, Start};
}

/// Starts the child of Options through its launcher on Pipes.
Expected<StartedChild> launchChild(const SubprocessOptions &Options,
                                   ChildPipes &Pipes) {
  auto Start = SteadyClock::now();
  Expected<LaunchedChild> Child = Options.Launcher(
      Options, Pipes.In.Fds[0], Pipes.Out.Fds[1], Pipes.Err.Fds[1]);
  Pipes.closeChildEnds();
  if (!Child)
    return Child.error();
  return StartedChild{Child->Pid, Start, Child->StatusFd};
}

/// The parent's side of a started child: feeds its stdin, captures its
/// output and ends it at the deadline, until it has exited and its output
/// is drained.
class ChildMonitor {
public:
  ChildMonitor(const SubprocessOptions &Options, ChildPipes &Pipes,
               StartedChild Child)
      : Options(Options), In(Pipes.In), Out(Pipes.Out), Err(Pipes.Err),
        Pid(Child.Pid), StatusFd(Child.StatusFd), Start(Child.Start),
        Deadline(Start +
                 std::chrono::duration_cast<SteadyClock::duration>(
                     std::chrono::duration<double>(Options.TimeoutSeconds))),
        StdinBytes(Options.Stdin), StdinKnown(Options.StdinLater.empty()) {}

  SubprocessResult run();

private:
  void prepareStdin();
  /// One turn of the loop; false to stop it.
  bool step();
  void reapIfExited();
  /// Takes the child's wait status into Status once it has ended (waiting
  /// for that when Block); true when it has.
  bool collectStatus(bool Block);
  /// collectStatus for a launched child: reads its status from StatusFd; a
  /// descriptor closed without one reads as killed by SIGKILL.
  bool readLaunchedStatus(bool Block);
  /// Appends the pieces of StdinLater that are ready, in order.
  void takeStdinPieces();
  /// Kills the group at the deadline or when StopWhen says so.
  void stopIfDue(SteadyClock::time_point Now);
  /// Polls the pipes once and serves those that are ready; false when poll
  /// failed.
  bool pollPipes(SteadyClock::time_point Now);
  void writeStdin(const struct pollfd &Ready);
  void readOutput(int Fd);
  /// Reaps the child if it has not exited, and fills in how it ended.
  void finish();

  const SubprocessOptions &Options;
  Pipe &In, &Out, &Err;
  pid_t Pid;
  int StatusFd;
  unsigned char StatusBytes[sizeof(int)];
  size_t StatusRead = 0;
  SteadyClock::time_point Start, Deadline;
  SubprocessResult Result;
  std::string StdinBytes;
  size_t PiecesWritten = 0; // of StdinLater
  bool StdinKnown;
  size_t StdinWritten = 0;
  bool Watched = false;
  bool Exited = false;
  int Status = 0;
  SteadyClock::time_point DrainDeadline;
  char Buffer[65536];
};

SubprocessResult ChildMonitor::run() {
  prepareStdin();
  while (Out.Fds[0] >= 0 || Err.Fds[0] >= 0 || !Exited)
    if (!step())
      break;
  finish();
  return std::move(Result);
}

void ChildMonitor::prepareStdin() {
  // A child that exits without reading its stdin must not kill us by SIGPIPE.
  if (!StdinBytes.empty() || !StdinKnown)
    ::signal(SIGPIPE, SIG_IGN);
  if (StdinBytes.empty() && StdinKnown)
    In.closeEnd(1);
  else
    ::fcntl(In.Fds[1], F_SETFL, O_NONBLOCK);
  Watched = Options.StopWhen || !StdinKnown;
}

bool ChildMonitor::step() {
  reapIfExited();
  takeStdinPieces();
  if (In.Fds[1] >= 0 && StdinKnown && StdinWritten == StdinBytes.size())
    In.closeEnd(1);
  auto Now = SteadyClock::now();
  stopIfDue(Now);
  if (Exited && Now >= DrainDeadline)
    return false;
  return pollPipes(Now);
}

void ChildMonitor::reapIfExited() {
  if (Exited)
    return;
  if (collectStatus(false)) {
    Exited = true;
    // Take any stragglers in the group with it, then drain briefly.
    ::kill(-Pid, SIGKILL);
    DrainDeadline = SteadyClock::now() + std::chrono::seconds(1);
  }
}

bool ChildMonitor::collectStatus(bool Block) {
  if (StatusFd >= 0)
    return readLaunchedStatus(Block);
  return ::waitpid(Pid, &Status, Block ? 0 : WNOHANG) == Pid;
}

bool ChildMonitor::readLaunchedStatus(bool Block) {
  while (true) {
    struct pollfd Ready = {StatusFd, POLLIN, 0};
    int Polled = ::poll(&Ready, 1, Block ? -1 : 0);
    if (Polled < 0 && errno == EINTR) {
      if (!Block)
        return false;
      continue;
    }
    if (Polled == 0)
      return false;
    ssize_t N = Polled < 0 ? -1
                           : ::read(StatusFd, StatusBytes + StatusRead,
                                    sizeof(StatusBytes) - StatusRead);
    if (N < 0 && (errno == EINTR || errno == EAGAIN))
      continue;
    if (N <= 0) {
      Status = W_EXITCODE(0, SIGKILL);
      return true;
    }
    StatusRead += static_cast<size_t>(N);
    if (StatusRead == sizeof(StatusBytes)) {
      std::memcpy(&Status, StatusBytes, sizeof(Status));
      return true;
    }
  }
}

void ChildMonitor::takeStdinPieces() {
  while (!StdinKnown) {
    std::optional<std::string> Piece = Options.StdinLater[PiecesWritten]();
    if (!Piece)
      break;
    StdinBytes += *Piece;
    StdinKnown = ++PiecesWritten == Options.StdinLater.size();
  }
}

void ChildMonitor::stopIfDue(SteadyClock::time_point Now) {
  if (!Exited && !Result.TimedOut &&
      ((Options.TimeoutSeconds > 0 && Now >= Deadline) ||
       (Options.StopWhen && Options.StopWhen()))) {
    Result.TimedOut = true;
    ::kill(-Pid, SIGKILL);
  }
}

bool ChildMonitor::pollPipes(SteadyClock::time_point Now) {
  struct pollfd Fds[3];
  int Count = 0;
  for (int Fd : {Out.Fds[0], Err.Fds[0]})
    if (Fd >= 0)
      Fds[Count++] = {Fd, POLLIN, 0};
  if (In.Fds[1] >= 0 && StdinWritten < StdinBytes.size())
    Fds[Count++] = {In.Fds[1], POLLOUT, 0};
  // Wake at least every 50 ms to notice the child's exit and the deadline,
  // every 10 ms when callbacks are waiting.
  int Wait = Watched && !Exited ? 10 : 50;
  if (!Exited && Options.TimeoutSeconds > 0 && !Result.TimedOut) {
    auto Left =
        std::chrono::duration_cast<std::chrono::milliseconds>(Deadline - Now)
            .count();
    Wait = static_cast<int>(
        std::max<long long>(0, std::min<long long>(Left, Wait)));
  }
  int Ready = ::poll(Fds, Count, Wait);
  if (Ready < 0 && errno != EINTR)
    return false;
  for (int I = 0; I < Count && Ready > 0; ++I) {
    if (!Fds[I].revents)
      continue;
    if (Fds[I].fd == In.Fds[1])
      writeStdin(Fds[I]);
    else
      readOutput(Fds[I].fd);
  }
  return true;
}

void ChildMonitor::writeStdin(const struct pollfd &Ready) {
  ssize_t N = ::write(Ready.fd, StdinBytes.data() + StdinWritten,
                      StdinBytes.size() - StdinWritten);
  if (N > 0)
    StdinWritten += static_cast<size_t>(N);
  if ((N < 0 && errno != EAGAIN && errno != EINTR) ||
      (Ready.revents & (POLLERR | POLLHUP)))
    In.closeEnd(1);
}

void ChildMonitor::readOutput(int Fd) {
  ssize_t N = ::read(Fd, Buffer, sizeof(Buffer));
  if (N > 0) {
    if (Fd == Out.Fds[0])
      capture(Result.Stdout, Result.StdoutTruncated, Buffer,
              static_cast<size_t>(N), Options.MaxCaptureBytes);
    else
      capture(Result.Stderr, Result.StderrTruncated, Buffer,
              static_cast<size_t>(N), Options.MaxCaptureBytes);
  } else if (N == 0 || (errno != EINTR && errno != EAGAIN)) {
    (Fd == Out.Fds[0] ? Out : Err).closeEnd(0);
  }
}

void ChildMonitor::finish() {
  if (!Exited) {
    ::kill(-Pid, SIGKILL);
    collectStatus(true);
  }
  if (StatusFd >= 0)
    ::close(StatusFd);
  Result.WallSeconds = secondsSince(Start);
  if (WIFEXITED(Status) && !Result.TimedOut)
    Result.ExitCode = WEXITSTATUS(Status);
  else if (WIFSIGNALED(Status) && !Result.TimedOut)
    Result.Signal = WTERMSIG(Status);
}

} // namespace

std::string SubprocessResult::describe() const {
  char Buffer[128];
  if (TimedOut) {
    std::snprintf(Buffer, sizeof(Buffer), "timed out after %.1f s",
                  WallSeconds);
    return Buffer;
  }
  if (Signal) {
    const char *Name = ::strsignal(Signal);
    return "killed by signal " + std::to_string(Signal) + " (" +
           (Name ? Name : "unknown") + ")";
  }
  return "exited with status " + std::to_string(ExitCode);
}

std::vector<std::string> currentEnvironment() {
  std::vector<std::string> Env;
  for (char **E = environ; E && *E; ++E)
    Env.emplace_back(*E);
  return Env;
}

void niceThisThread(int Niceness) {
  // PRIO_PROCESS with a thread id names that one thread on Linux.
  auto Self = static_cast<id_t>(::syscall(SYS_gettid));
  errno = 0;
  int Base = ::getpriority(PRIO_PROCESS, static_cast<id_t>(::getpid()));
  int Now = ::getpriority(PRIO_PROCESS, Self);
  int Wanted = std::min(Base + Niceness, 19);
  if (errno == 0 && Now < Wanted)
    ::setpriority(PRIO_PROCESS, Self, Wanted);
}

Expected<SubprocessResult> runSubprocess(const SubprocessOptions &Options) {
  if (Options.Argv.empty())
    return Error::make("no program to run");
  ChildPipes Pipes;
  if (!Pipes.open())
    return Error::inFile(Options.Argv.front(),
                         std::string("cannot create pipes: ") +
                             std::strerror(errno));
  Expected<StartedChild> Child = Options.Launcher ? launchChild(Options, Pipes)
                                                  : startChild(Options, Pipes);
  if (!Child)
    return Child.error();
  return ChildMonitor(Options, Pipes, *Child).run();
}

} // namespace kevin
