//===-- Sandbox.cpp - the candidate worker's namespaces -------------------===//
//
// isolateWorker: a user namespace without privilege outside it, a network
// namespace, a PID namespace under a small init with a /proc of its own, and
// a mount namespace in which the directories a candidate must not see are
// covered by empty private file systems (the paths it keeps bound back).
// endWorkerProcess ends the worker and, in its own PID namespace, every
// process the candidate left there.
//
//===----------------------------------------------------------------------===//
#include "kevin/Exec/Sandbox.h"
#include "kevin/Exec/Worker.h"
#include "kevin/Support/Error.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <poll.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <utility>

namespace kevin {
namespace worker {

namespace {

void writeProcFile(const char *Path, const std::string &Text) {
  int Fd = ::open(Path, O_WRONLY | O_CLOEXEC);
  if (Fd < 0)
    return;
  ssize_t Ignored = ::write(Fd, Text.data(), Text.size());
  (void)Ignored;
  ::close(Fd);
}

/// Enters a new user namespace, mapping this process's uid and gid to
/// themselves, and with it the namespaces in Flags. From then on the process
/// has no privilege over anything outside: it cannot trace or read the
/// memory of kevin's non-dumpable processes, even when it runs as root.
bool enterUserNamespace(int Flags) {
  uid_t Uid = ::getuid();
  gid_t Gid = ::getgid();
  if (::unshare(CLONE_NEWUSER | Flags) != 0)
    return false;
  writeProcFile("/proc/self/setgroups", "deny");
  writeProcFile("/proc/self/uid_map",
                std::to_string(Uid) + " " + std::to_string(Uid) + " 1");
  writeProcFile("/proc/self/gid_map",
                std::to_string(Gid) + " " + std::to_string(Gid) + " 1");
  return true;
}

//--- Covers of hidden and private directories ---------------------------------

/// True when Path lies strictly below Dir (both absolute and canonical).
bool isBelow(const std::string &Path, const std::string &Dir) {
  return Path.size() > Dir.size() && Path.rfind(Dir, 0) == 0 &&
         (Dir == "/" || Path[Dir.size()] == '/');
}

/// True when Path lies strictly below one of Dirs.
bool isBelowAny(const std::string &Path, const std::vector<std::string> &Dirs) {
  for (const std::string &Dir : Dirs)
    if (isBelow(Path, Dir))
      return true;
  return false;
}

/// Path with every symbolic link resolved; empty when it cannot be.
std::string resolvedPath(const std::string &Path) {
  char Real[PATH_MAX];
  return ::realpath(Path.c_str(), Real) ? Real : "";
}

/// Makes Path's missing parent directories, inside a file system just
/// mounted.
bool makeParents(const std::string &Path) {
  for (size_t Slash = Path.find('/', 1); Slash != std::string::npos;
       Slash = Path.find('/', Slash + 1))
    if (::mkdir(Path.substr(0, Slash).c_str(), 0755) != 0 && errno != EEXIST)
      return false;
  return true;
}

/// Makes Path's missing parent directories and Path itself (a directory, or
/// an empty file when AsFile), inside a file system just mounted.
bool makeMountPoint(const std::string &Path, bool AsFile) {
  if (!makeParents(Path))
    return false;
  if (AsFile) {
    int Fd = ::open(Path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    return Fd >= 0 && ::close(Fd) == 0;
  }
  return ::mkdir(Path.c_str(), 0755) == 0 || errno == EEXIST;
}

/// A kept path without symbolic links, bound back through its descriptor.
struct KeptPath {
  std::string Path;
  int Fd;
  bool IsFile;
  bool Required; ///< below a Hidden directory: the worker needs it
};

/// A kept symbolic link, made again under the cover.
struct KeptLink {
  std::string Path, Target;
};

/// What coverDirectories covers and puts back, all resolved (and the kept
/// paths opened) before the first cover.
struct CoverPlan {
  /// The Hidden directories, canonical, with their own inodes.
  std::vector<std::string> Required;
  std::vector<std::pair<dev_t, ino_t>> RequiredIds;
  /// The Private directories, canonical, outer ones first.
  std::vector<std::string> Optional;
  std::vector<KeptPath> Backs;
  std::vector<KeptLink> Links;
};

/// Resolves Hidden and Private into Plan; false when a Hidden directory does
/// not exist or is the root.
bool planCovers(const std::vector<std::string> &Hidden,
                const std::vector<std::string> &Private, CoverPlan &Plan) {
  for (const std::string &Dir : Hidden) {
    std::string Real = resolvedPath(Dir);
    struct stat St;
    if (Real.empty() || Real == "/" || ::stat(Real.c_str(), &St) != 0)
      return false;
    Plan.Required.push_back(Real);
    Plan.RequiredIds.push_back({St.st_dev, St.st_ino});
  }
  for (const std::string &Dir : Private) {
    std::string Real = resolvedPath(Dir);
    if (!Real.empty() && Real != "/")
      Plan.Optional.push_back(Real);
  }
  std::sort(Plan.Optional.begin(), Plan.Optional.end(),
            [](const std::string &A, const std::string &B) {
              return A.size() < B.size();
            });
  return true;
}

/// Adds Given to the paths Plan puts back, when a cover hides it and it
/// may come back: an absolute path neither equal to nor above a Hidden
/// directory. A symbolic link is remembered as one; any other path is
/// opened now, without following a link.
void planKeptPath(const std::string &Given, CoverPlan &Plan) {
  if (Given.empty() || Given[0] != '/')
    return;
  std::string Path = std::filesystem::path(Given).lexically_normal();
  while (Path.size() > 1 && Path.back() == '/')
    Path.pop_back();
  if (!isBelowAny(Path, Plan.Required) && !isBelowAny(Path, Plan.Optional))
    return; // nothing covers it
  bool Above = false;
  for (const std::string &Dir : Plan.Required)
    Above |= Path == Dir || isBelow(Dir, Path);
  if (Above)
    return; // it would bring a Hidden directory back
  std::string Real = resolvedPath(Path);
  struct stat St;
  if (Real != Path) {
    char Target[PATH_MAX];
    ssize_t N = ::readlink(Path.c_str(), Target, sizeof(Target) - 1);
    if (N > 0 && ::lstat(Path.c_str(), &St) == 0 && S_ISLNK(St.st_mode))
      Plan.Links.push_back({Path, std::string(Target, static_cast<size_t>(N))});
    return;
  }
  // Opened without following a link, and checked to be what was resolved
  // (a directory on the way swapped for a link in between would not be).
  int Fd = ::open(Real.c_str(), O_PATH | O_NOFOLLOW | O_CLOEXEC);
  char Opened[PATH_MAX];
  ssize_t N = Fd < 0
                  ? -1
                  : ::readlink(("/proc/self/fd/" + std::to_string(Fd)).c_str(),
                               Opened, sizeof(Opened) - 1);
  if (Fd >= 0 &&
      (N <= 0 || std::string(Opened, static_cast<size_t>(N)) != Real)) {
    ::close(Fd);
    return;
  }
  if (Fd >= 0 && ::fstat(Fd, &St) == 0)
    Plan.Backs.push_back(
        {Real, Fd, !S_ISDIR(St.st_mode), isBelowAny(Real, Plan.Required)});
  else if (Fd >= 0)
    ::close(Fd);
}

/// The empty private file systems mounted so far.
class Covers {
public:
  /// True when Path is covered (a cover's directory or below one).
  bool isCovered(const std::string &Path) const {
    return std::find(Mounted.begin(), Mounted.end(), Path) != Mounted.end() ||
           isBelowAny(Path, Mounted);
  }
  /// Covers Dir, unless a cover already hides it; false when the OS refuses.
  bool cover(const std::string &Dir) {
    if (isCovered(Dir))
      return true;
    if (::mount("kevin-private", Dir.c_str(), "tmpfs", MS_NOSUID | MS_NODEV,
                "size=256m,mode=755") != 0)
      return false;
    Mounted.push_back(Dir);
    return true;
  }
  /// Takes every cover away again, the last first.
  void undo() {
    for (auto Dir = Mounted.rbegin(); Dir != Mounted.rend(); ++Dir)
      ::umount2(Dir->c_str(), MNT_DETACH);
  }

private:
  std::vector<std::string> Mounted;
};

/// Binds Plan's kept paths back under the covers and makes its links again
/// (closing every descriptor Plan holds); false when one below a Hidden
/// directory could not be bound.
bool putKeptPathsBack(const CoverPlan &Plan, const Covers &Mounted) {
  bool Ok = true;
  for (const KeptPath &B : Plan.Backs) {
    std::string From = "/proc/self/fd/" + std::to_string(B.Fd);
    bool Bound = Mounted.isCovered(B.Path) &&
                 makeMountPoint(B.Path, B.IsFile) &&
                 ::mount(From.c_str(), B.Path.c_str(), nullptr,
                         MS_BIND | MS_REC, nullptr) == 0;
    // What only a Private cover hides may stay hidden: loading it fails
    // later, as it would on a machine without it.
    Ok = Ok && (Bound || !B.Required);
    ::close(B.Fd);
  }
  for (const KeptLink &L : Plan.Links) {
    struct stat St;
    if (Mounted.isCovered(L.Path) && ::lstat(L.Path.c_str(), &St) != 0 &&
        makeParents(L.Path))
      (void)::symlink(L.Target.c_str(), L.Path.c_str());
  }
  return Ok;
}

/// In this process's own mount namespace: covers each of Private that it
/// can, then each of Hidden not inside one of those, with an empty private
/// file system (outer directories first: one inside another is covered with
/// it). Each of Kept under a cover comes back: a path without symbolic links
/// is bound back (opened before the cover, bound through /proc/self/fd), a
/// symbolic link is made again (its target comes back only if it is kept
/// too). A kept path that is relative, equal to or above a Hidden directory,
/// or that leads into one through a link, is not kept. True when every
/// Hidden directory is covered (its own inode out of sight) and every path
/// kept below one is back; otherwise nothing is covered.
bool coverDirectories(const std::vector<std::string> &Hidden,
                      const std::vector<std::string> &Private,
                      const std::vector<std::string> &Kept) {
  if (::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0)
    return false;
  CoverPlan Plan;
  if (!planCovers(Hidden, Private, Plan))
    return false;
  for (const std::string &Given : Kept)
    planKeptPath(Given, Plan);
  // The working directory is entered again once covered: a process whose
  // directory lies below a cover still walks the file system under it.
  char Cwd[PATH_MAX];
  bool Ok = ::getcwd(Cwd, sizeof(Cwd)) != nullptr;
  Covers Mounted;
  for (const std::string &Dir : Plan.Optional)
    Mounted.cover(Dir); // where the OS permits
  for (const std::string &Dir : Plan.Required)
    Ok = Ok && Mounted.cover(Dir);
  bool KeptBack = putKeptPathsBack(Plan, Mounted);
  Ok = Ok && KeptBack;
  Ok = Ok && ::chdir(Cwd) == 0;
  // Each Hidden directory's own inode must be out of sight.
  for (size_t I = 0; Ok && I < Plan.Required.size(); ++I) {
    struct stat St;
    Ok = ::stat(Plan.Required[I].c_str(), &St) != 0 ||
         std::make_pair(St.st_dev, St.st_ino) != Plan.RequiredIds[I];
  }
  // Half a cover is none: the worker must keep reaching its own files.
  if (!Ok)
    Mounted.undo();
  return Ok;
}

//--- The PID namespace --------------------------------------------------------

/// Waits for a child, retrying when interrupted; its wait status.
int waitForChild(pid_t Child) {
  int Status = 0;
  while (::waitpid(Child, &Status, 0) < 0)
    if (errno != EINTR)
      return W_EXITCODE(ExitError, 0);
  return Status;
}

/// Ends this process as a wait status says: with its exit code, or by its
/// signal (so that kevin-run reports the candidate's crash, not ours).
[[noreturn]] void endLike(int Status) {
  if (WIFSIGNALED(Status)) {
    int Signal = WTERMSIG(Status);
    struct rlimit NoCore = {0, 0};
    ::setrlimit(RLIMIT_CORE, &NoCore);
    ::signal(Signal, SIG_DFL);
    sigset_t Only;
    sigemptyset(&Only);
    sigaddset(&Only, Signal);
    ::sigprocmask(SIG_UNBLOCK, &Only, nullptr);
    ::raise(Signal);
  }
  ::_exit(WIFEXITED(Status) ? WEXITSTATUS(Status) : ExitError);
}

/// Set once this worker is process 2 of a PID namespace of its own.
bool InOwnPidNamespace = false;

/// Moves the rest of this worker into a PID namespace of its own, in which
/// it is process 2 under a small init (process 1). The process kevin-run
/// started waits outside, and ends as the worker ended; when the init
/// leaves, the kernel kills every process left in the namespace, so nothing
/// the candidate started survives its worker, not even a child that called
/// setsid to escape the process-group kill. A fresh /proc there shows only
/// the namespace's processes. Returns true in the worker once both are
/// made; false where the OS refuses the namespace (nothing changed) or the
/// /proc mount (the worker is in the namespace, /proc shows the outer one).
bool enterPidNamespace() {
  // Status carries the worker's wait status out; the outer process holds
  // Alive's write end until it ends.
  int Status[2] = {-1, -1}, Alive[2] = {-1, -1};
  if (::pipe2(Status, O_CLOEXEC) != 0 || ::pipe2(Alive, O_CLOEXEC) != 0 ||
      ::unshare(CLONE_NEWPID) != 0) {
    for (int Fd : {Status[0], Status[1], Alive[0], Alive[1]})
      if (Fd >= 0)
        ::close(Fd);
    return false;
  }
  // From here every child would land in the namespace: a failed fork ends
  // the worker rather than leave a namespace without its init.
  pid_t Init = ::fork();
  if (Init < 0)
    ::_exit(ExitError);
  if (Init > 0) {
    ::close(STDIN_FILENO);
    ::close(Status[1]);
    ::close(Alive[0]);
    int Ended = waitForChild(Init);
    int Reported;
    if (::read(Status[0], &Reported, sizeof(Reported)) == sizeof(Reported))
      Ended = Reported;
    endLike(Ended);
  }
  // The init holds nothing secret, but the candidate must not trace it.
  ::prctl(PR_SET_DUMPABLE, 0);
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  // The outer process may have ended before the line above: then no one
  // holds Alive's write end.
  ::close(Alive[1]);
  struct pollfd Outer = {Alive[0], POLLIN, 0};
  if (::poll(&Outer, 1, 0) != 0)
    ::_exit(ExitError);
  ::close(Alive[0]);
  ::close(Status[0]);
  pid_t Worker = ::fork();
  if (Worker < 0)
    ::_exit(ExitError);
  if (Worker > 0) {
    // Process 1 ignores signals it has no handler for, even fatal ones it
    // raises itself, so it reports the worker's status instead of
    // mirroring it; the process outside does that.
    ::close(STDIN_FILENO);
    int Ended = waitForChild(Worker);
    ssize_t Ignored = ::write(Status[1], &Ended, sizeof(Ended));
    (void)Ignored;
    ::_exit(0);
  }
  ::prctl(PR_SET_DUMPABLE, 1);
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  ::close(Status[1]);
  // A process the candidate left sees its parent change the moment the
  // worker ends, before the init can end the namespace: endWorkerProcess
  // and exit() kill it first (kill(-1) spares the init and the worker). A
  // candidate that calls _exit leaves that window open.
  InOwnPidNamespace = true;
  std::atexit([] { ::kill(-1, SIGKILL); });
  return ::mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC,
                 nullptr) == 0;
}

} // namespace

WorkerIsolation isolateWorker(bool Network,
                              const std::vector<std::string> &Hidden,
                              const std::vector<std::string> &Private,
                              const std::vector<std::string> &Kept) {
  WorkerIsolation Result;
  // The network namespace may be refused where the others are not.
  std::vector<int> Tries = {0};
  if (Network)
    Tries.insert(Tries.begin(), CLONE_NEWNET);
  for (int NetworkFlag : Tries) {
    if (!enterUserNamespace(NetworkFlag | CLONE_NEWNS))
      continue;
    Result.Network = NetworkFlag != 0;
    bool OwnProc = enterPidNamespace();
    bool Covered = !Hidden.empty() && coverDirectories(Hidden, Private, Kept);
    // A second user namespace leaves the process without privilege over
    // the first one's mounts: the covers and /proc are locked in place.
    bool Locked = enterUserNamespace(CLONE_NEWNS);
    Result.Hidden = Covered && Locked;
    Result.Processes = OwnProc && Locked;
    return Result;
  }
  // No user namespaces: a privileged process can still leave the network.
  Result.Network = Network && ::unshare(CLONE_NEWNET) == 0;
  return Result;
}

WorkerIsolation isolateCandidateWorker(const WorkerOptions &Options) {
  return Options.UseNamespaces
             ? isolateWorker(Options.IsolateNetwork, Options.HiddenDirs,
                             Options.PrivateDirs, Options.KeptPaths)
             : WorkerIsolation();
}

} // namespace worker

void endWorkerProcess(int Code) {
  std::fflush(nullptr);
  if (worker::InOwnPidNamespace)
    ::kill(-1, SIGKILL);
  std::_Exit(Code);
}

} // namespace kevin
