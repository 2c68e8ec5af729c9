//===-- WorkerProcess.cpp - running worker processes ----------------------===//
//
// Shared by kevin-run's judge and kevin-bench: see WorkerProcess.h.
//
//===----------------------------------------------------------------------===//
#include "kevin/Exec/WorkerProcess.h"
#include "kevin/Exec/Protocol.h"
#include "kevin/Support/FileSystem.h"

#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace kevin {

Expected<std::string> randomHex(size_t Bytes) {
  std::ifstream In("/dev/urandom", std::ios::binary);
  std::string Raw(Bytes, '\0');
  if (!In.read(Raw.data(), static_cast<std::streamsize>(Bytes)))
    return Error::inFile("/dev/urandom", "cannot read random bytes");
  static const char *Digits = "0123456789abcdef";
  std::string Hex;
  for (unsigned char C : Raw) {
    Hex += Digits[C >> 4];
    Hex += Digits[C & 15];
  }
  return Hex;
}

std::string TempDir::base() {
  const char *Base = std::getenv("TMPDIR");
  std::string Dir = Base && *Base ? Base : "/tmp";
  char Real[PATH_MAX];
  if (::realpath(Dir.c_str(), Real))
    Dir = Real;
  return Dir;
}

std::string TempDir::sharedParent() {
  return base() + "/kevin-" + std::to_string(::getuid());
}

namespace {

/// Marks a directory whose maker holds its flock, and one kept on purpose:
/// sweepAbandoned removes only the first kind, never the second.
constexpr const char *LockedMarker = ".kevin-locked";
constexpr const char *KeptMarker = ".kevin-kept";

void touchFile(const std::string &Path) {
  int Fd = ::open(Path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
  if (Fd >= 0)
    ::close(Fd);
}

/// Removes Dir and everything in it; candidate code may have taken the
/// write bit off its directories.
void removeTree(const std::string &Dir) {
  SubprocessOptions Rm;
  Rm.Argv = {"sh", "-c", "chmod -R u+rwX \"$0\" 2>/dev/null; rm -rf \"$0\"",
             Dir};
  Rm.Environment = std::vector<std::string>{"PATH=/usr/bin:/bin"};
  (void)runSubprocess(Rm);
}

} // namespace

Expected<TempDir> TempDir::create(const char *Prefix) {
  std::string Parent = sharedParent();
  // Another process may remove the empty parent between our mkdir and
  // mkdtemp: try again.
  for (int Attempt = 0;; ++Attempt) {
    if (::mkdir(Parent.c_str(), 0700) != 0 && errno != EEXIST)
      return Error::inFile(Parent, std::string("cannot create directory: ") +
                                       std::strerror(errno));
    struct stat St;
    if (::lstat(Parent.c_str(), &St) != 0 || !S_ISDIR(St.st_mode) ||
        St.st_uid != ::getuid() || (St.st_mode & 077) != 0)
      return Error::inFile(Parent, "not a private directory of this user "
                                   "(kevin keeps its work directories there)");
    std::string Template = Parent + "/" + Prefix + ".XXXXXX";
    if (::mkdtemp(Template.data())) {
      // Marked locked only once it is: where flock is missing (some network
      // and FUSE file systems), the directory is unmarked and never swept.
      int Fd = ::open(Template.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
      if (Fd >= 0 && ::flock(Fd, LOCK_EX | LOCK_NB) != 0) {
        ::close(Fd);
        Fd = -1;
      }
      if (Fd >= 0)
        touchFile(Template + "/" + LockedMarker);
      return TempDir(Template, Fd);
    }
    if (errno != ENOENT || Attempt == 4)
      return Error::inFile(Template,
                           std::string("cannot create temporary directory: ") +
                               std::strerror(errno));
  }
}

TempDir::TempDir(TempDir &&Other) noexcept
    : Path(std::move(Other.Path)), LockFd(Other.LockFd), Kept(Other.Kept) {
  Other.Path.clear();
  Other.LockFd = -1;
}

void TempDir::keep() {
  Kept = true;
  if (!Path.empty())
    touchFile(Path + "/" + KeptMarker);
}

TempDir::~TempDir() {
  if (Path.empty() || Kept) {
    if (LockFd >= 0)
      ::close(LockFd);
    return;
  }
  removeTree(Path);
  // Unlocked once gone: a sweep never sees it unlocked while it exists.
  if (LockFd >= 0)
    ::close(LockFd);
  // The shared parent goes when it is empty (another process may still use
  // it: then this fails, as it should).
  ::rmdir(Path.substr(0, Path.find_last_of('/')).c_str());
}

SweptDirs TempDir::sweepAbandoned(double MinAgeSeconds) {
  SweptDirs Swept;
  std::string Parent = sharedParent();
  std::error_code Ec;
  for (const auto &Entry : std::filesystem::directory_iterator(Parent, Ec)) {
    std::string Name = Entry.path().filename().string();
    std::string Dir = Entry.path().string();
    struct stat St;
    if (Name.rfind("kevin-", 0) != 0 || Name.find('.') == std::string::npos ||
        ::lstat(Dir.c_str(), &St) != 0 || !S_ISDIR(St.st_mode) ||
        St.st_uid != ::getuid() ||
        ::time(nullptr) - St.st_ctime < MinAgeSeconds ||
        ::access((Dir + "/" + LockedMarker).c_str(), F_OK) != 0 ||
        ::access((Dir + "/" + KeptMarker).c_str(), F_OK) == 0)
      continue;
    int Fd = ::open(Dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (Fd < 0)
      continue;
    // Held: a live process's. Taken: its maker is gone.
    if (::flock(Fd, LOCK_EX | LOCK_NB) == 0) {
      uintmax_t Bytes = fs::treeBytes(Dir);
      removeTree(Dir);
      if (::access(Dir.c_str(), F_OK) != 0) {
        ++Swept.Removed;
        Swept.Bytes += Bytes;
      }
    }
    ::close(Fd);
  }
  return Swept;
}

std::string sweptMessage(const SweptDirs &Swept) {
  if (Swept.Removed == 0)
    return "";
  return "removed " + std::to_string(Swept.Removed) +
         " work directories (" + std::to_string(Swept.Bytes >> 20) +
         " MiB) that ended processes left in " + TempDir::sharedParent();
}

std::string truncated(const std::string &Text, size_t Limit) {
  if (Text.size() <= Limit)
    return Text;
  return Text.substr(0, Limit) + " [...]";
}

/// The last Limit bytes of a worker's stderr, on line boundaries.
std::string stderrTail(const std::string &Stderr, size_t Limit) {
  std::string S = Stderr;
  while (!S.empty() && (S.back() == '\n' || S.back() == ' '))
    S.pop_back();
  if (S.size() <= Limit)
    return S;
  size_t Cut = S.find('\n', S.size() - Limit);
  return "[...]\n" +
         S.substr(Cut == std::string::npos ? S.size() - Limit : Cut + 1);
}

std::vector<std::string> coverArguments(const std::string &WorkDir,
                                        const std::string &CandidatePath,
                                        const std::string &CacheDir) {
  std::string Parent = TempDir::sharedParent();
  std::vector<std::string> Arguments = {"--hide", Parent};
  // Where the OS permits: no file or shared memory another evaluation can
  // reach, no device lock files, and no socket of a service that would run
  // something outside for the candidate (a terminal multiplexer's, D-Bus's,
  // systemd's, a container engine's).
  for (const char *Shared :
       {"/tmp", "/var/tmp", "/dev/shm", "/run", "/var/run"})
    Arguments.insert(Arguments.end(), {"--private", Shared});
  // The caller's paths come back; below kevin's directory nothing else (it
  // could name another evaluation's files).
  for (const std::string &Path : {WorkDir, CandidatePath, CacheDir})
    Arguments.insert(Arguments.end(), {"--keep", Path});
  auto parentOf = [](const std::string &Path) {
    size_t Slash = Path.rfind('/');
    return Slash == std::string::npos ? std::string() : Path.substr(0, Slash);
  };
  auto keep = [&](const std::string &Path) {
    if (!Path.empty() && Path != Parent && Path.rfind(Parent + "/", 0) != 0)
      Arguments.insert(Arguments.end(), {"--keep", Path});
  };
  // The directory of a candidate file of the caller's too (modules beside it
  // stay importable), never one of kevin's (a candidate's code written out
  // sits beside the reference's directory).
  char Real[PATH_MAX];
  if (::realpath(CandidatePath.c_str(), Real))
    keep(parentOf(Real));
    // What the worker itself may load from there later: torch's environment,
    // CUDA, the libraries it is told to search, the driver where some
    // distributions keep it, and the MPS control daemon's pipes.
#ifdef KEVIN_TORCH_SITE_DIR
  // <environment>/lib/pythonX.Y/site-packages
  keep(parentOf(parentOf(parentOf(KEVIN_TORCH_SITE_DIR))));
#endif
  for (const char *Variable : {"CUDA_HOME", "CUDA_MPS_PIPE_DIRECTORY"})
    if (const char *Value = std::getenv(Variable))
      keep(Value);
  if (const char *Search = std::getenv("LD_LIBRARY_PATH")) {
    std::istringstream Entries(Search);
    for (std::string Entry; std::getline(Entries, Entry, ':');)
      keep(Entry);
  }
  for (const char *Driver :
       {"/run/opengl-driver", "/run/nvidia/driver", "/tmp/nvidia-mps"})
    keep(Driver);
  return Arguments;
}

void guardFromCandidates() { ::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0); }

/// The environment of worker processes: nothing from the caller but what
/// running torch needs.
std::vector<std::string> workerEnvironment(const std::string &Home,
                                           const std::string &CacheDir) {
  std::string Path = "/usr/local/bin:/usr/bin:/bin";
  const char *CudaHome = std::getenv("CUDA_HOME");
  std::string Cuda = CudaHome && *CudaHome ? CudaHome : "/usr/local/cuda";
  if (::access((Cuda + "/bin").c_str(), X_OK) == 0)
    Path = Cuda + "/bin:" + Path;
  std::vector<std::string> Env = {
      "PATH=" + Path,       "HOME=" + Home,
      "TMPDIR=" + Home,     "KEVIN_CACHE_DIR=" + CacheDir,
      "LANG=C.UTF-8",       "PYTHONDONTWRITEBYTECODE=1",
      "PYTHONNOUSERSITE=1", "CUDA_HOME=" + Cuda};
  for (const char *Name : {"KEVIN_TASK_PROFILE", "CUDA_VISIBLE_DEVICES",
                           "LD_LIBRARY_PATH", "OMP_NUM_THREADS"})
    if (const char *Value = std::getenv(Name))
      Env.push_back(std::string(Name) + "=" + Value);
  return Env;
}

namespace {
Stage lastStage(const std::string &Dir) {
  std::string Text = fs::readFileOrEmpty(Dir + "/" + protocol::Progress);
  std::istringstream In(Text);
  std::string Line, Last;
  while (std::getline(In, Line))
    if (!Line.empty())
      Last = Line;
  std::string Word = Last.substr(0, Last.find(' '));
  if (Word == "done")
    return Stage::Compare;
  if (auto S = parseStage(Word))
    return *S;
  return Stage::Format;
}

} // namespace

WorkerVerdict classifyWorker(const SubprocessResult &R, const std::string &Dir,
                             const std::string &Nonce, double Limit,
                             size_t MaxMessage) {
  WorkerVerdict V;
  V.StageReached = lastStage(Dir);
  std::string StageText = stageName(V.StageReached);
  std::string Tail = stderrTail(R.Stderr, MaxMessage / 2);
  std::string Text = fs::readFileOrEmpty(Dir + "/" + protocol::ResultJson);
  Json Result = Json::parse(Text, nullptr, false);
  bool Parsed = !Text.empty() && !Result.is_discarded() && Result.is_object();
  if (R.TimedOut) {
    V.Result_ = Outcome::Timeout;
    char Buffer[160];
    std::snprintf(Buffer, sizeof(Buffer),
                  "timed out after %.1f s (limit %.0f s) during the %s stage",
                  R.WallSeconds, Limit, StageText.c_str());
    V.Message = Buffer;
    return V;
  }
  if (R.Signal) {
    V.Result_ = Outcome::Crash;
    V.Message = R.describe() + " during the " + StageText + " stage";
    if (R.Signal == SIGKILL)
      V.Message += " (possibly out of memory)";
    if (!Tail.empty())
      V.Message += "\n" + Tail;
    return V;
  }
  if (!Parsed) {
    V.Result_ = R.ExitCode == 0 ? Outcome::EarlyExit : Outcome::Crash;
    V.Message = R.ExitCode == 0
                    ? "exited with status 0 during the " + StageText +
                          " stage without reporting a result"
                    : R.describe() + " during the " + StageText +
                          " stage without reporting a result";
    if (!Tail.empty())
      V.Message += "\n" + Tail;
    return V;
  }
  const Json *GotNonce = findField(Result, "nonce");
  const Json *Outcome_ = findField(Result, "outcome");
  const Json *Stage_ = findField(Result, "stage");
  if (!GotNonce || !GotNonce->is_string() ||
      GotNonce->get<std::string>() != Nonce || !Outcome_ ||
      !Outcome_->is_string() || !parseOutcome(Outcome_->get<std::string>()) ||
      !Stage_ || !Stage_->is_string() ||
      !parseStage(Stage_->get<std::string>())) {
    V.Result_ = Outcome::InvalidResult;
    V.Message = "the worker's result is not attested (wrong nonce or fields): "
                "results written by candidate code are not accepted";
    return V;
  }
  if (R.ExitCode != 0) {
    V.Result_ = Outcome::Crash;
    V.Message = R.describe() + " after reporting";
    if (!Tail.empty())
      V.Message += "\n" + Tail;
    return V;
  }
  V.HaveResult = true;
  V.Result = Result;
  V.StageReached = *parseStage(Stage_->get<std::string>());
  V.Result_ = *parseOutcome(Outcome_->get<std::string>());
  if (const Json *M = findField(Result, "message"); M && M->is_string())
    V.Message = M->get<std::string>();
  return V;
}

void DeferredInput::send(std::string Text) {
  std::lock_guard<std::mutex> Lock(Guard);
  Bytes = std::move(Text);
  SentAt = Clock::now();
}

void DeferredInput::abandon() {
  std::lock_guard<std::mutex> Lock(Guard);
  Abandoned = true;
  Bytes = std::string();
}

std::optional<std::string> DeferredInput::poll() {
  std::lock_guard<std::mutex> Lock(Guard);
  return Bytes;
}

bool DeferredInput::abandoned() {
  std::lock_guard<std::mutex> Lock(Guard);
  return Abandoned;
}

std::optional<DeferredInput::Clock::time_point> DeferredInput::sentAt() {
  std::lock_guard<std::mutex> Lock(Guard);
  return SentAt;
}

bool DeferredInput::overdue(double LimitSeconds) {
  std::lock_guard<std::mutex> Lock(Guard);
  return Abandoned ||
         (SentAt && std::chrono::duration<double>(Clock::now() - *SentAt)
                            .count() > LimitSeconds);
}

Error linkOrCopy(const std::string &From, const std::string &To) {
  if (::link(From.c_str(), To.c_str()) == 0)
    return Error::success();
  return copyFile(From, To);
}

Error copyFile(const std::string &From, const std::string &To) {
  // In the kernel (sendfile): input sets run to gigabytes on a GPU profile.
  std::error_code Failed;
  std::filesystem::copy_file(
      From, To, std::filesystem::copy_options::overwrite_existing, Failed);
  if (!Failed)
    return Error::success();
  // libstdc++ reports a full disk met inside sendfile as an I/O error: the
  // free space tells the two apart.
  std::string Why = Failed.message();
  std::error_code NoSpace, NoSize;
  std::filesystem::space_info Space = std::filesystem::space(
      std::filesystem::path(To).parent_path(), NoSpace);
  uintmax_t Needed = std::filesystem::file_size(From, NoSize);
  if (!NoSpace && !NoSize && Space.available < Needed)
    Why = "No space left on device (" + std::to_string(Space.available) +
          " bytes free, the file has " + std::to_string(Needed) + ")";
  bool DiskFailed = Failed == std::errc::no_space_on_device ||
                    Failed.value() == EDQUOT || Failed == std::errc::io_error;
  return Error::inFile(To,
                       "cannot copy tensor file: " + Why +
                           (DiskFailed ? "; kevin's work directory failed, "
                                         "not the candidate"
                                       : ""),
                       DiskFailed ? ErrorKind::Internal : ErrorKind::Other);
  return Error::success();
}

} // namespace kevin
