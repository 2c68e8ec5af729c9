//===-- BoundedCheck.cpp - one check within its limits --------------------===//
//
// The child is forked, not exec'ed: it inherits the started interpreter and
// the loaded task, and a crash, a runaway parse or an exhausted address space
// ends it alone. Its result travels as one JSON object through a pipe; the
// parent reads it until the deadline, then reaps (or kills) the child.
//
//===----------------------------------------------------------------------===//
#include "kevin/Check/BoundedCheck.h"
#include "kevin/Support/Clock.h"
#include "kevin/Support/FileSystem.h"
#include "kevin/Support/Subprocess.h"
#include "kevin/Task/PythonAst.h"

#include "llvm/Support/ErrorHandling.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <new>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <system_error>
#include <unistd.h>

namespace kevin {

namespace {

/// The exit status of a child that ran out of its address space.
constexpr int ChildOutOfMemory = 86;

[[noreturn]] void endOutOfMemory() { ::_exit(ChildOutOfMemory); }

Json resultToJson(const Expected<CheckResult> &R) {
  Json J = Json::object();
  if (!R) {
    const Error &E = R.error();
    J["error"] = {{"message", E.message()},
                  {"file", E.location().File},
                  {"line", E.location().Line},
                  {"column", E.location().Column}};
    return J;
  }
  J["findings"] = Json::array();
  for (const Finding &F : R->Findings)
    J["findings"].push_back(findingToJson(F));
  J["parser"] = R->ParserUsed;
  J["incomplete"] = R->ParseIncomplete;
  return J;
}

Expected<CheckResult> resultFromJson(const Json &J) {
  if (J.contains("error")) {
    const Json &E = J["error"];
    return Error::at(
        {E.value("file", ""), E.value("line", 0u), E.value("column", 0u)},
        E.value("message", ""), ErrorKind::Internal);
  }
  CheckResult R;
  for (const Json &F : J["findings"])
    R.Findings.push_back(findingFromJson(F));
  R.ParserUsed = J.value("parser", "none");
  R.ParseIncomplete = J.value("incomplete", "");
  return R;
}

/// The child: caps its address space, checks, writes the result to Fd and
/// ends without running any exit handler (the parent's buffered output is
/// the parent's to write). Running out of memory anywhere (an allocation in
/// kevin, Clang or the interpreter) ends it with ChildOutOfMemory.
[[noreturn]] void runChild(const std::function<Expected<CheckResult>()> &Check,
                           const CandidateLimits &Limits, int Fd) {
  ::setpgid(0, 0);
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  pythonAfterFork();
  uint64_t MiB = Limits[LimitKind::CheckMemoryMiB];
  struct rlimit Cap;
  Cap.rlim_cur = Cap.rlim_max = MiB >= (uint64_t(1) << 43)
                                    ? RLIM_INFINITY
                                    : static_cast<rlim_t>(MiB << 20);
  ::setrlimit(RLIMIT_AS, &Cap);
  std::set_new_handler(endOutOfMemory);
  llvm::install_bad_alloc_error_handler(
      [](void *, const char *, bool) { endOutOfMemory(); });
  Expected<CheckResult> Result = Error::make("no result");
  try {
    Result = Check();
  } catch (const std::bad_alloc &) {
    endOutOfMemory();
  } catch (const std::system_error &E) {
    // A thread whose stack finds no room under the cap.
    if (E.code() == std::errc::resource_unavailable_try_again ||
        E.code() == std::errc::not_enough_memory)
      endOutOfMemory();
    Result = Error::make(std::string("kevin-check failed: ") + E.what());
  } catch (const std::exception &E) {
    Result = Error::make(std::string("kevin-check failed: ") + E.what());
  }
  std::string Reply =
      resultToJson(Result).dump(-1, ' ', false, Json::error_handler_t::replace);
  ::_exit(fs::writeAll(Fd, Reply) ? 0 : 1);
}

/// Reads the child's reply from Fd until it ends (end of file) or Seconds
/// have passed, then reaps it; a child still there at the deadline is
/// killed with its process group and reads as timed out.
SubprocessResult awaitChild(pid_t Pid, int Fd, double Seconds,
                            std::string &Output) {
  SubprocessResult Ran;
  auto Start = SteadyClock::now();
  auto msLeft = [&] {
    return static_cast<int>(
        std::min((Seconds - secondsSince(Start)) * 1000, 1e9));
  };
  char Buffer[65536];
  while (true) {
    struct pollfd Ready = {Fd, POLLIN, 0};
    int Polled = ::poll(&Ready, 1, std::max(msLeft(), 0));
    if (Polled < 0 && errno == EINTR)
      continue;
    if (Polled <= 0) {
      Ran.TimedOut = true;
      break;
    }
    ssize_t N = ::read(Fd, Buffer, sizeof(Buffer));
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      break;
    Output.append(Buffer, static_cast<size_t>(N));
  }
  // The end of its output is the child's end, moments before it can be
  // reaped; one that lingers is killed at the deadline all the same.
  int Status = 0;
  while (!Ran.TimedOut && ::waitpid(Pid, &Status, WNOHANG) != Pid) {
    if (msLeft() <= 0)
      Ran.TimedOut = true;
    else
      ::usleep(1000);
  }
  ::kill(-Pid, SIGKILL);
  if (Ran.TimedOut)
    ::waitpid(Pid, &Status, 0);
  else if (WIFEXITED(Status))
    Ran.ExitCode = WEXITSTATUS(Status);
  else if (WIFSIGNALED(Status))
    Ran.Signal = WTERMSIG(Status);
  Ran.WallSeconds = secondsSince(Start);
  return Ran;
}

/// A result whose one finding is Kind's limit, at Path:1:1.
CheckResult overLimit(LimitKind Kind, const std::string &Path,
                      const std::string &Message) {
  CheckResult R;
  Error E = limitError(Kind, {Path, 1, 1}, Message);
  R.Findings.push_back(limitFinding(E, limitInfo(Kind), Path));
  return R;
}

} // namespace

Expected<CheckResult>
checkWithinLimits(const std::function<Expected<CheckResult>()> &Check,
                  const CandidateLimits &Limits, const std::string &Path) {
  // Started once here, the interpreter is every child's without a start.
  startPythonParser();
  int Fds[2];
  if (::pipe2(Fds, O_CLOEXEC) != 0)
    return Error::make(std::string("cannot create a pipe: ") +
                           std::strerror(errno),
                       ErrorKind::Internal);
  pid_t Pid = ::fork();
  if (Pid == 0) {
    ::close(Fds[0]);
    runChild(Check, Limits, Fds[1]);
  }
  ::close(Fds[1]);
  if (Pid < 0) {
    ::close(Fds[0]);
    return Error::make(std::string("cannot fork: ") + std::strerror(errno),
                       ErrorKind::Internal);
  }
  ::setpgid(Pid, Pid);
  std::string Output;
  SubprocessResult Ran =
      awaitChild(Pid, Fds[0],
                 static_cast<double>(Limits[LimitKind::CheckSeconds]), Output);
  ::close(Fds[0]);
  if (Ran.TimedOut)
    return overLimit(LimitKind::CheckSeconds, Path,
                     "kevin-check gave up on the candidate after " +
                         std::to_string(Limits[LimitKind::CheckSeconds]) +
                         " s");
  if (Ran.ExitCode == ChildOutOfMemory)
    return overLimit(LimitKind::CheckMemoryMiB, Path,
                     "kevin-check ran out of its " +
                         std::to_string(Limits[LimitKind::CheckMemoryMiB]) +
                         " MiB of address space on the candidate");
  Json Reply = Json::parse(Output, nullptr, false);
  bool Answered =
      Reply.is_object() &&
      ((Reply.contains("findings") && Reply["findings"].is_array()) ||
       (Reply.contains("error") && Reply["error"].is_object()));
  if (!Ran.succeeded() || !Answered)
    return Error::inFile(Path,
                         "kevin-check's check of the candidate " +
                             Ran.describe() + " without a result",
                         ErrorKind::Internal);
  return resultFromJson(Reply);
}

} // namespace kevin
