//===-- Worker.cpp - the isolated worker processes ------------------------===//
//
// Embedded CPython (pybind11) + LibTorch. Python objects are turned into
// at::Tensor with THPVariable_Unpack and every check that matters (exact
// tensor type, storage aliasing, copies to CPU, the files written) is done
// here in C++, out of reach of candidate Python code. Python helpers come
// from WorkerPrelude.py, run before any task or candidate code.
//
//===----------------------------------------------------------------------===//
#include "kevin/Exec/Worker.h"
#include "FreshMemoryPoison.h"
#include "LaunchGateSwitch.h"
#include "kevin/Exec/WorkerSupport.h"
#include "kevin/Exec/Compare.h"
#include "kevin/Exec/KernelCoverage.h"
#include "kevin/Exec/Outcome.h"
#include "kevin/Exec/Protocol.h"
#include "kevin/Exec/TensorFile.h"
#include "kevin/Exec/WorkerProcess.h"
#include "kevin/Support/Record.h"

#include <ATen/ATen.h>
#include <pybind11/embed.h>
#include <pybind11/stl.h>
#include <torch/csrc/autograd/python_variable.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <poll.h>
#include <sched.h>
#include <sstream>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace py = pybind11;

namespace kevin {

namespace worker {

static const char *PreludeSource =
#include "WorkerPrelude.inc"
    ;

double secondsSince(Clock::time_point Start) {
  return std::chrono::duration<double>(Clock::now() - Start).count();
}

//--- State shared with the embedded _kevin_build module ---------------------

BuilderState *Builder = nullptr;

std::optional<Json> readSecretsLine(const char *Key, const char *What) {
  std::string Line;
  std::getline(std::cin, Line);
  Json Secrets = Json::parse(Line, nullptr, false);
  if (Secrets.is_discarded() || !Secrets.is_object() || !Secrets.contains(Key)) {
    std::cerr << "kevin-worker: error: no " << What << " on stdin\n";
    return std::nullopt;
  }
  return Secrets;
}

int openProgress(const std::string &Dir) {
  return ::open((Dir + "/" + protocol::Progress).c_str(),
                O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
}

void progress(int Fd, const std::string &Line) {
  if (Fd < 0)
    return;
  std::string Text = Line + "\n";
  ssize_t Ignored = ::write(Fd, Text.data(), Text.size());
  (void)Ignored;
}

std::string
buildHook(const std::string &Name, const std::vector<std::string> &Cpp,
          const std::vector<std::string> &Cuda,
          const std::vector<std::pair<std::string, std::string>> &Fns,
          const std::vector<std::string> &Cflags,
          const std::vector<std::string> &CudaCflags,
          const std::vector<std::string> &Ldflags,
          const std::vector<std::string> &Includes, bool Wrap, bool Raw) {
  if (!Builder)
    throw std::runtime_error("kevin's builder is not set up");
  ExtensionSpec Spec;
  Spec.Name = Name;
  Spec.CppSources = Cpp;
  Spec.CudaSources = Cuda;
  Spec.Functions = Fns;
  Spec.ExtraCflags = Cflags;
  Spec.ExtraCudaCflags = CudaCflags;
  Spec.ExtraLdflags = Ldflags;
  Spec.ExtraIncludePaths = Includes;
  Spec.WrapFunctions = Wrap;
  Spec.RawSources = Raw;
  Spec.OriginPath = Builder->OriginPath;
  Spec.OriginText = Builder->OriginText;
  for (const std::vector<std::string> *Sources : {&Cpp, &Cuda})
    for (const std::string &Source : *Sources) {
      Builder->KernelNames.merge(globalFunctionNames(Source));
      Builder->KernelNamespaces.merge(declaredNamespaces(Source));
    }
  progress(Builder->ProgressFd, "build");
  Expected<BuildResult> R = [&] {
    py::gil_scoped_release Release;
    return buildExtension(Spec, Builder->Toolchain, Builder->Options);
  }();
  progress(Builder->ProgressFd, Builder->Stage);
  Json Entry;
  Entry["name"] = Name;
  if (!R) {
    Builder->Failed = true;
    Builder->FailOutcome = "build-error";
    Builder->FailMessage = R.error().message();
    Entry["ok"] = false;
    Entry["outcome"] = "build-error";
    Entry["message"] = R.error().message();
    Builder->Builds.push_back(Entry);
    throw std::runtime_error("Error building extension '" + Name +
                             "': " + R.error().message());
  }
  Builder->Seconds += R->Seconds;
  Entry["ok"] = R->Ok;
  Entry["outcome"] = R->Outcome;
  Entry["cache_hit"] = R->CacheHit;
  Entry["precompiled_header"] = R->PrecompiledHeaderUsed;
  Entry["cuda_header"] = torchHeaderName(R->CudaHeaderUsed);
  Entry["binding_header"] = torchHeaderName(R->BindingHeaderUsed);
  Entry["binding_split"] = R->BindingSplit;
  Entry["seconds"] = R->Seconds;
  Entry["key"] = R->Key;
  if (!R->Ok) {
    if (!Builder->Failed) {
      Builder->Failed = true;
      Builder->FailOutcome = R->Outcome;
      Builder->FailMessage = R->Message;
    }
  }
  Builder->Builds.push_back(Entry);
  if (!R->Ok)
    throw std::runtime_error("Error building extension '" + Name + "':\n" +
                             R->Message);
  return R->LibraryPath;
}

} // namespace worker
} // namespace kevin

PYBIND11_EMBEDDED_MODULE(_kevin_build, M) {
  M.def("build", &kevin::worker::buildHook);
}

namespace kevin {
namespace worker {

//--- Small helpers -----------------------------------------------------------

/// Writes JSON to Dir/Name through a temporary file and rename, so a reader
/// never sees half a result.
bool writeJson(const std::string &Dir, const char *Name, const Json &Value) {
  std::string Path = Dir + "/" + Name, Tmp = Path + ".tmp";
  {
    std::ofstream Out(Tmp, std::ios::binary);
    Out << formatRecordLine(Value) << "\n";
    if (!Out)
      return false;
  }
  return std::rename(Tmp.c_str(), Path.c_str()) == 0;
}

Json tensorMeta(const at::Tensor &T) {
  Json Meta;
  Meta["dtype"] = dtypeName(T);
  Json Shape = Json::array();
  for (int64_t S : T.sizes())
    Shape.push_back(S);
  Meta["shape"] = Shape;
  Meta["device"] = T.device().str();
  return Meta;
}

std::vector<at::Tensor> cpuCopies(const std::vector<at::Tensor> &Ts) {
  std::vector<at::Tensor> Out;
  for (const at::Tensor &T : Ts)
    Out.push_back(T.to(at::kCPU, false, true));
  return Out;
}

/// The storage byte range of a tensor, for overlap tests.
std::pair<uintptr_t, uintptr_t> storageRange(const at::Tensor &T) {
  if (!T.defined() || !T.has_storage())
    return {0, 0};
  const c10::Storage &S = T.storage();
  auto Begin = reinterpret_cast<uintptr_t>(S.data());
  return {Begin, Begin + S.nbytes()};
}

bool overlaps(std::pair<uintptr_t, uintptr_t> A,
              std::pair<uintptr_t, uintptr_t> B) {
  return A.first < A.second && B.first < B.second && A.first < B.second &&
         B.first < A.second;
}

/// Classifies a Python exception message into an outcome.
Outcome classifyException(const std::string &TypeAndMessage) {
  auto Has = [&](const char *S) {
    return TypeAndMessage.find(S) != std::string::npos;
  };
  if (Has("OutOfMemoryError") || Has("out of memory") ||
      Has("can't allocate memory") || Has("MemoryError"))
    return Outcome::Oom;
  if (Has("CUDA error") || Has("illegal memory access") ||
      Has("CUDA kernel errors") || Has("cudaError"))
    return Outcome::CudaError;
  return Outcome::RuntimeError;
}

bool isSystemExit(const py::error_already_set &E) {
  return E.matches(PyExc_SystemExit) || E.matches(PyExc_KeyboardInterrupt);
}

/// Starts the interpreter with torch importable and the prelude run.
py::module_ startPython() {
  py::module_ Sys = py::module_::import("sys");
  Sys.attr("argv") = py::make_tuple("kevin-worker");
  Sys.attr("dont_write_bytecode") = true;
#ifdef KEVIN_TORCH_SITE_DIR
  // A venv's torch is not on the embedded interpreter's default path.
  py::list Path = Sys.attr("path");
  Path.insert(0, KEVIN_TORCH_SITE_DIR);
#endif
  py::module_ Prelude = py::reinterpret_borrow<py::module_>(
      py::module_::import("types").attr("ModuleType")("_kevin_prelude"));
  Sys.attr("modules")["_kevin_prelude"] = Prelude;
  py::exec(PreludeSource, Prelude.attr("__dict__"));
  return Prelude;
}

TorchToolchain toolchainFrom(py::module_ &Prelude, const std::string &Arch) {
  Json T = Json::parse(
      Prelude.attr("to_json")(Prelude.attr("toolchain")()).cast<std::string>());
  TorchToolchain Tc;
  for (const Json &D : T["include_dirs"])
    Tc.IncludeDirs.push_back(D.get<std::string>());
  Tc.PythonIncludeDir = T["python_include"].get<std::string>();
  Tc.TorchLibDir = T["lib_dir"].get<std::string>();
  Tc.TorchVersion = T["version"].get<std::string>();
  Tc.CxxAbi = T["cxx_abi"].get<bool>();
  for (const Json &D : T["pybind11_defines"])
    Tc.Pybind11Defines.push_back(D.get<std::string>());
  Tc.CudaHome = T["cuda_home"].get<std::string>();
  if (!Tc.CudaHome.empty() &&
      ::access((Tc.CudaHome + "/bin/nvcc").c_str(), X_OK) == 0)
    Tc.Nvcc = Tc.CudaHome + "/bin/nvcc";
  if (!Arch.empty())
    Tc.CudaArch = Arch;
  else if (!T["cuda_arch"].get<std::string>().empty())
    Tc.CudaArch = T["cuda_arch"].get<std::string>();
  return Tc;
}

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

/// True when Path lies strictly below Dir (both absolute and canonical).
bool isBelow(const std::string &Path, const std::string &Dir) {
  return Path.size() > Dir.size() && Path.rfind(Dir, 0) == 0 &&
         (Dir == "/" || Path[Dir.size()] == '/');
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
  auto resolve = [](const std::string &Path) -> std::string {
    char Real[PATH_MAX];
    return ::realpath(Path.c_str(), Real) ? Real : "";
  };
  std::vector<std::string> Required, Optional;
  std::vector<std::pair<dev_t, ino_t>> RequiredIds;
  for (const std::string &Dir : Hidden) {
    std::string Real = resolve(Dir);
    struct stat St;
    if (Real.empty() || Real == "/" || ::stat(Real.c_str(), &St) != 0)
      return false;
    Required.push_back(Real);
    RequiredIds.push_back({St.st_dev, St.st_ino});
  }
  for (const std::string &Dir : Private) {
    std::string Real = resolve(Dir);
    if (!Real.empty() && Real != "/")
      Optional.push_back(Real);
  }
  std::sort(Optional.begin(), Optional.end(),
            [](const std::string &A, const std::string &B) {
              return A.size() < B.size();
            });
  auto belowAny = [](const std::string &Path,
                     const std::vector<std::string> &Dirs) {
    for (const std::string &Dir : Dirs)
      if (isBelow(Path, Dir))
        return true;
    return false;
  };
  struct Back {
    std::string Path;
    int Fd;
    bool IsFile;
    bool Required; ///< below a Hidden directory: the worker needs it
  };
  struct Link {
    std::string Path, Target;
  };
  std::vector<Back> Backs;
  std::vector<Link> Links;
  for (const std::string &Given : Kept) {
    if (Given.empty() || Given[0] != '/')
      continue;
    std::string Path = std::filesystem::path(Given).lexically_normal();
    while (Path.size() > 1 && Path.back() == '/')
      Path.pop_back();
    if (!belowAny(Path, Required) && !belowAny(Path, Optional))
      continue; // nothing covers it
    bool Above = false;
    for (const std::string &Dir : Required)
      Above |= Path == Dir || isBelow(Dir, Path);
    if (Above)
      continue; // it would bring a Hidden directory back
    std::string Real = resolve(Path);
    struct stat St;
    if (Real != Path) {
      char Target[PATH_MAX];
      ssize_t N = ::readlink(Path.c_str(), Target, sizeof(Target) - 1);
      if (N > 0 && ::lstat(Path.c_str(), &St) == 0 && S_ISLNK(St.st_mode))
        Links.push_back({Path, std::string(Target, static_cast<size_t>(N))});
      continue;
    }
    // Opened without following a link, and checked to be what was resolved
    // (a directory on the way swapped for a link in between would not be).
    int Fd = ::open(Real.c_str(), O_PATH | O_NOFOLLOW | O_CLOEXEC);
    char Opened[PATH_MAX];
    ssize_t N =
        Fd < 0 ? -1
               : ::readlink(("/proc/self/fd/" + std::to_string(Fd)).c_str(),
                            Opened, sizeof(Opened) - 1);
    if (Fd >= 0 &&
        (N <= 0 || std::string(Opened, static_cast<size_t>(N)) != Real)) {
      ::close(Fd);
      continue;
    }
    if (Fd >= 0 && ::fstat(Fd, &St) == 0)
      Backs.push_back(
          {Real, Fd, !S_ISDIR(St.st_mode), belowAny(Real, Required)});
    else if (Fd >= 0)
      ::close(Fd);
  }
  // The working directory is entered again once covered: a process whose
  // directory lies below a cover still walks the file system under it.
  char Cwd[PATH_MAX];
  bool Ok = ::getcwd(Cwd, sizeof(Cwd)) != nullptr;
  std::vector<std::string> Mounted;
  auto isCovered = [&](const std::string &Path) {
    return std::find(Mounted.begin(), Mounted.end(), Path) != Mounted.end() ||
           belowAny(Path, Mounted);
  };
  auto cover = [&](const std::string &Dir) {
    if (isCovered(Dir))
      return true;
    if (::mount("kevin-private", Dir.c_str(), "tmpfs", MS_NOSUID | MS_NODEV,
                "size=256m,mode=755") != 0)
      return false;
    Mounted.push_back(Dir);
    return true;
  };
  for (const std::string &Dir : Optional)
    cover(Dir); // where the OS permits
  for (const std::string &Dir : Required)
    Ok = Ok && cover(Dir);
  for (const Back &B : Backs) {
    std::string From = "/proc/self/fd/" + std::to_string(B.Fd);
    bool Bound = isCovered(B.Path) && makeMountPoint(B.Path, B.IsFile) &&
                 ::mount(From.c_str(), B.Path.c_str(), nullptr,
                         MS_BIND | MS_REC, nullptr) == 0;
    // What only a Private cover hides may stay hidden: loading it fails
    // later, as it would on a machine without it.
    Ok = Ok && (Bound || !B.Required);
    ::close(B.Fd);
  }
  for (const Link &L : Links) {
    struct stat St;
    if (isCovered(L.Path) && ::lstat(L.Path.c_str(), &St) != 0 &&
        makeParents(L.Path))
      (void)::symlink(L.Target.c_str(), L.Path.c_str());
  }
  Ok = Ok && ::chdir(Cwd) == 0;
  // Each Hidden directory's own inode must be out of sight.
  for (size_t I = 0; Ok && I < Required.size(); ++I) {
    struct stat St;
    Ok = ::stat(Required[I].c_str(), &St) != 0 ||
         std::make_pair(St.st_dev, St.st_ino) != RequiredIds[I];
  }
  // Half a cover is none: the worker must keep reaching its own files.
  if (!Ok)
    for (auto Dir = Mounted.rbegin(); Dir != Mounted.rend(); ++Dir)
      ::umount2(Dir->c_str(), MNT_DETACH);
  return Ok;
}

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

py::object toPython(const at::Tensor &T) {
  return py::reinterpret_steal<py::object>(THPVariable_Wrap(T));
}

at::Tensor fromPython(const py::handle &H) {
  return THPVariable_Unpack(H.ptr());
}

/// Builds the positional arguments of a trial from its layout and tensors.
py::list trialArguments(py::module_ &Prelude, const Json &Layout,
                        const std::vector<at::Tensor> &Tensors) {
  py::list Args;
  for (const Json &Slot : Layout) {
    if (Slot.contains("tensor"))
      Args.append(toPython(Tensors.at(Slot["tensor"].get<size_t>())));
    else
      Args.append(Prelude.attr("from_json")(Slot["value"].dump()));
  }
  return Args;
}

namespace {

/// One call of the reference model on a trial's inputs.
struct ReferenceCall {
  Json Layout;                      ///< where tensors and values go
  std::vector<at::Tensor> Pristine; ///< CPU copies of the input tensors
  py::object Out;
  double Seconds = 0;
  bool Skipped = false; ///< drawn with shapes not wanted: no forward ran
};

using TensorShapes = std::vector<std::vector<int64_t>>;

TensorShapes shapesOf(const std::vector<at::Tensor> &Tensors) {
  TensorShapes Shapes;
  for (const at::Tensor &T : Tensors)
    Shapes.push_back(T.sizes().vec());
  return Shapes;
}

/// Draws a trial's inputs from Seed (heavy-tailed when Heavy, KEVIN-RT-022;
/// Heavy turns false when no input is one the transform applies to; with the
/// task's batch_size set to BatchSize when that is positive) and calls Model
/// on clones of them; not when the inputs' shapes are Unwanted's (Skipped).
ReferenceCall callReference(py::module_ &Prelude, py::module_ &Task,
                            py::object &Model, const std::string &Device,
                            uint64_t Seed, bool &Heavy, int64_t BatchSize,
                            const TensorShapes *Unwanted) {
  ReferenceCall Call;
  py::list Inputs =
      BatchSize > 0
          ? Prelude.attr("draw_inputs_with_batch")(Task, Device, Seed,
                                                   BatchSize)
          : Prelude.attr("draw_inputs")(Task.attr("get_inputs"), Device, Seed);
  if (Heavy) {
    py::object Transformed =
        Prelude.attr("heavy_tailed")(Inputs, Seed ^ 0x9e3779b97f4a7c15ULL);
    Heavy = !Transformed.is_none();
    if (Heavy)
      Inputs = Transformed;
  }
  py::list Args;
  for (py::handle Item : Inputs) {
    Json Slot;
    if (THPVariable_Check(Item.ptr())) {
      at::Tensor Drawn = fromPython(Item);
      at::Tensor Tensor = Drawn.to(at::Device(Device));
      Slot["tensor"] = Call.Pristine.size();
      // The model gets a clone: a CPU draw stays pristine as it is.
      Call.Pristine.push_back(Drawn.is_cpu() ? Drawn : Tensor.to(at::kCPU));
      Args.append(toPython(Tensor.clone()));
    } else {
      Slot["value"] =
          Json::parse(Prelude.attr("to_json")(Item).cast<std::string>());
      Args.append(Item);
    }
    Call.Layout.push_back(Slot);
  }
  if (Unwanted && shapesOf(Call.Pristine) == *Unwanted) {
    Call.Skipped = true;
    return Call;
  }
  auto CallStart = Clock::now();
  Call.Out = Model(*Args);
  if (Device.rfind("cuda", 0) == 0)
    Prelude.attr("cuda_synchronize")();
  Call.Seconds = secondsSince(CallStart);
  return Call;
}

/// The output tensors of a forward (a tensor, or a tuple or list of them).
std::vector<at::Tensor> outputTensorsOf(const py::object &Out) {
  std::vector<at::Tensor> Tensors;
  if (THPVariable_Check(Out.ptr())) {
    Tensors.push_back(fromPython(Out));
  } else if (py::isinstance<py::tuple>(Out) || py::isinstance<py::list>(Out)) {
    for (py::handle H : Out)
      if (THPVariable_Check(H.ptr()))
        Tensors.push_back(fromPython(H));
  }
  return Tensors;
}

/// A heavy-tailed trial's call, or the task's own draw (Heavy turns false)
/// when the reference raises on those inputs or its outputs stop being
/// finite: the task's domain is narrower than the transform assumes.
ReferenceCall callReferenceOrFallBack(py::module_ &Prelude, py::module_ &Task,
                                      py::object &Model,
                                      const std::string &Device, uint64_t Seed,
                                      bool &Heavy, int64_t BatchSize,
                                      const TensorShapes *Unwanted = nullptr) {
  if (Heavy) {
    try {
      ReferenceCall Call = callReference(Prelude, Task, Model, Device, Seed,
                                         Heavy, BatchSize, Unwanted);
      if (!Heavy || Call.Skipped)
        return Call; // nothing was transformed: the task's own draw
      bool Finite = true;
      for (const at::Tensor &T : outputTensorsOf(Call.Out))
        Finite &= !T.is_floating_point() || at::isfinite(T).all().item<bool>();
      if (Finite)
        return Call;
    } catch (const std::exception &) {
      if (!Heavy)
        throw; // the task's own draw failed: the reference's error
    }
    Heavy = false;
  }
  return callReference(Prelude, Task, Model, Device, Seed, Heavy, BatchSize,
                       Unwanted);
}

/// Per output, the L2 norm of the float32 result's difference from the
/// float64 model's (`error`) and of the float64 result (`norm`), or null
/// where they cannot be told (not floating point, other shape, NaN/Inf
/// anywhere, a norm that overflows): the bound KEVIN-RT-023 holds the
/// candidate to. The float64 model runs on float64 copies of the pristine
/// inputs. An Error when it cannot run.
Expected<Json> float64Errors(py::module_ &Prelude, py::object &Model64,
                             const ReferenceCall &Call,
                             const std::vector<at::Tensor> &Outputs,
                             const std::string &Device) {
  try {
    py::list Args64;
    for (const Json &Slot : Call.Layout) {
      if (Slot.contains("tensor")) {
        const at::Tensor &P = Call.Pristine.at(Slot["tensor"].get<size_t>());
        Args64.append(toPython(P.is_floating_point() && !P.is_complex()
                                   ? P.to(at::Device(Device), at::kDouble)
                                   : P.to(at::Device(Device))));
      } else
        Args64.append(Prelude.attr("from_json")(Slot["value"].dump()));
    }
    std::vector<at::Tensor> Outputs64 = outputTensorsOf(Model64(*Args64));
    Json Errors = Json::array();
    for (size_t I = 0; I < Outputs.size(); ++I) {
      const at::Tensor &O = Outputs[I];
      Json Entry = nullptr;
      if (I < Outputs64.size() && O.is_floating_point() && !O.is_complex() &&
          Outputs64[I].is_floating_point() &&
          O.sizes().equals(Outputs64[I].sizes())) {
        at::Tensor R = Outputs64[I].to(O.device(), at::kDouble);
        at::Tensor D = O.to(at::kDouble) - R;
        double Diff = D.norm().item<double>(), Norm = R.norm().item<double>();
        if (std::isfinite(Diff) && std::isfinite(Norm))
          Entry = Json{{"error", Diff}, {"norm", Norm}};
      }
      Errors.push_back(Entry);
    }
    return Errors;
  } catch (const std::exception &E) {
    return Error::make(std::string("the float64 model failed: ") + E.what());
  }
}

} // namespace

} // namespace worker

using namespace worker;

//--- Reference worker --------------------------------------------------------

int runReferenceWorker(const WorkerOptions &Options) {
  guardFromCandidates();
  Json Report;
  Report["ok"] = false;
  // Never finalized: the process ends with _Exit right after reporting (see
  // kevin-worker.cpp), so neither candidate atexit code nor the teardown of
  // a broken CUDA context can change what happened.
  py::initialize_interpreter();
  try {
    auto Start = Clock::now();
    py::module_ Prelude = startPython();
    py::module_ Task;
    try {
      Task = Prelude.attr("import_file")("kevin_task", Options.Task);
    } catch (py::error_already_set &E) {
      Report["message"] = "cannot import the task: " +
                          Prelude
                              .attr("describe")(E.value(), Options.Task,
                                                Options.Task, E.trace())
                              .cast<std::string>();
      writeJson(Options.Dir, protocol::ReferenceJson, Report);
      return ExitClean;
    }
    for (const char *Needed : {"Model", "get_inputs", "get_init_inputs"})
      if (!py::hasattr(Task, Needed)) {
        Report["message"] = std::string("the task defines no '") + Needed + "'";
        writeJson(Options.Dir, protocol::ReferenceJson, Report);
        return ExitClean;
      }
    double ImportSeconds = secondsSince(Start);
    // The seeds come once kevin-run holds the device: everything above ran
    // off it, while kevin-run waited.
    auto WaitStart = Clock::now();
    std::optional<Json> SecretsLine = readSecretsLine("seeds", "trial seeds");
    double SeedsWait = secondsSince(WaitStart);
    if (!SecretsLine)
      return ExitError;
    const Json &Secrets = *SecretsLine;
    py::object Device =
        py::module_::import("torch").attr("device")(Options.Device);
    // The reference is float32 throughout: no TF32 in cuDNN's convolutions
    // either (on by default), so the precision budget measures float32.
    Prelude.attr("no_tf32")();
    Prelude.attr("manual_seed")(protocol::InitSeed);
    py::list Init = Task.attr("get_init_inputs")();
    Report["init_args"] =
        Json::parse(Prelude.attr("to_json")(Init).cast<std::string>());
    Prelude.attr("manual_seed")(protocol::InitSeed);
    py::object Model = Task.attr("Model")(*Init);
    Model = Model.attr("to")(Device);
    // Its float64 twin, made before any forward (KEVIN-RT-023).
    bool WantFloat64 = Secrets.value("float64", false);
    py::object Model64 =
        WantFloat64 ? Prelude.attr("float64_model")(Model) : py::none();
    if (WantFloat64 && Model64.is_none())
      Report["float64_unavailable"] = "the model cannot be copied to float64";
    py::object NoGrad = Prelude.attr("no_grad")();
    NoGrad.attr("__enter__")();
    const Json &HeavyTailed = Secrets.contains("heavy_tailed")
                                  ? Secrets["heavy_tailed"]
                                  : Json::array();
    // The trial drawn at a held-out batch size (KEVIN-RT-022), if any.
    int64_t HeldOutTrial = Secrets.value("held_out_batch", int64_t(-1));
    TensorShapes NominalShapes;
    Json Trials = Json::array();
    for (unsigned T = 0; T < Options.Trials; ++T) {
      uint64_t Seed = Secrets["seeds"][T].get<uint64_t>();
      bool Heavy = T < HeavyTailed.size() && HeavyTailed[T].is_boolean() &&
                   HeavyTailed[T].get<bool>();
      int64_t Batch = 0;
      std::optional<ReferenceCall> HeldOut;
      if (T == HeldOutTrial) {
        // Where the task's semantics allow it: it has a batch_size, the
        // draw's shapes differ from the task's own (checked before the
        // forward), and the model takes the draw.
        bool WasHeavy = Heavy;
        try {
          Batch = Prelude.attr("held_out_batch_size")(Task).cast<int64_t>();
          if (Batch > 0)
            HeldOut =
                callReferenceOrFallBack(Prelude, Task, Model, Options.Device,
                                        Seed, Heavy, Batch, &NominalShapes);
          if (HeldOut && HeldOut->Skipped)
            HeldOut.reset();
        } catch (const std::exception &) {
          HeldOut.reset();
        }
        if (!HeldOut) {
          Batch = 0;
          Heavy = WasHeavy;
        }
      }
      ReferenceCall Call =
          HeldOut ? std::move(*HeldOut)
                  : callReferenceOrFallBack(Prelude, Task, Model,
                                            Options.Device, Seed, Heavy, 0);
      if (T == 0)
        NominalShapes = shapesOf(Call.Pristine);
      const Json &Layout = Call.Layout;
      const std::vector<at::Tensor> &Pristine = Call.Pristine;
      const py::object &Out = Call.Out;
      double Seconds = Call.Seconds;
      Json Outputs;
      std::vector<at::Tensor> OutTensors, DeviceOutputs;
      py::list Items;
      if (THPVariable_Check(Out.ptr())) {
        Outputs["kind"] = "tensor";
        Items.append(Out);
      } else if (py::isinstance<py::tuple>(Out) ||
                 py::isinstance<py::list>(Out)) {
        Outputs["kind"] = py::isinstance<py::tuple>(Out) ? "tuple" : "list";
        for (py::handle H : Out)
          Items.append(H);
      } else {
        Report["message"] =
            "the reference Model returned a " +
            py::str(py::type::of(Out).attr("__name__")).cast<std::string>() +
            ", not a tensor";
        writeJson(Options.Dir, protocol::ReferenceJson, Report);
        return ExitClean;
      }
      Json Metas = Json::array();
      for (py::handle H : Items) {
        if (!THPVariable_Check(H.ptr())) {
          Report["message"] =
              "the reference Model returned a non-tensor element";
          writeJson(Options.Dir, protocol::ReferenceJson, Report);
          return ExitClean;
        }
        at::Tensor O = fromPython(H);
        Metas.push_back(tensorMeta(O));
        OutTensors.push_back(O.detach().to(at::kCPU));
        DeviceOutputs.push_back(O.detach());
      }
      Outputs["tensors"] = Metas;
      if (Error E = writeTensorFile(
              protocol::trialFile(Options.Dir, T, "inputs"), Pristine)) {
        std::cerr << "kevin-worker: error: " << E.message() << "\n";
        return ExitError;
      }
      if (Error E = writeTensorFile(
              protocol::trialFile(Options.Dir, T, "reference"), OutTensors)) {
        std::cerr << "kevin-worker: error: " << E.message() << "\n";
        return ExitError;
      }
      Json Trial;
      Trial["inputs"] = Layout;
      Trial["inputs_distribution"] = Heavy ? "heavy-tailed" : "task";
      if (Batch > 0)
        Trial["held_out_batch"] = Batch;
      Trial["outputs"] = Outputs;
      Trial["seconds"] = Seconds;
      if (!Model64.is_none()) {
        Expected<Json> Errors = float64Errors(Prelude, Model64, Call,
                                              DeviceOutputs, Options.Device);
        if (Errors) {
          Trial["float64"] = *Errors;
        } else {
          // No budget for any trial of the task, so the record says one
          // thing.
          Report["float64_unavailable"] = Errors.error().message();
          Model64 = py::none();
          for (Json &Earlier : Trials)
            Earlier.erase("float64");
        }
      }
      Trials.push_back(Trial);
    }
    NoGrad.attr("__exit__")(py::none(), py::none(), py::none());
    Report["ok"] = true;
    Report["trials"] = Trials;
    Report["seconds"] = {{"import", ImportSeconds},
                         {"seeds_wait", SeedsWait},
                         {"total", secondsSince(Start)}};
    writeJson(Options.Dir, protocol::ReferenceJson, Report);
    return ExitClean;
  } catch (py::error_already_set &E) {
    Report["message"] = std::string("the reference failed: ") + E.what();
  } catch (const std::exception &E) {
    Report["message"] = std::string("the reference failed: ") + E.what();
  }
  writeJson(Options.Dir, protocol::ReferenceJson, Report);
  return ExitClean;
}

//--- Candidate worker --------------------------------------------------------

namespace {

/// The candidate's verdict as the worker sees it; written as result.json.
struct CandidateReport {
  Json Value;
  int ProgressFd = -1;
  void fail(Stage S, Outcome O, const std::string &Message) {
    Value["stage"] = stageName(S);
    Value["outcome"] = outcomeName(O);
    Value["message"] = Message;
  }
};

/// The task kevin-run sends after the nonce line once the reference has
/// made the inputs (the worker builds meanwhile): init args, the input
/// layouts, and the fresh directory the inputs were linked into.
Expected<Json> readTaskFromStdin() {
  std::string Text((std::istreambuf_iterator<char>(std::cin)),
                   std::istreambuf_iterator<char>());
  Json Task = Json::parse(Text, nullptr, false);
  if (Task.is_discarded() || !Task.contains("trials") ||
      !Task.contains("inputs_dir") || !Task["inputs_dir"].is_string())
    return Error::make("no task on stdin (the reference failed, or kevin-run "
                       "gave up on this worker)");
  std::string Dir = Task["inputs_dir"].get<std::string>();
  if (Dir.empty() || Dir.find('/') != std::string::npos || Dir[0] == '.')
    return Error::make("the task names a bad inputs directory '" + Dir + "'");
  return Task;
}

} // namespace

int runCandidateWorker(const WorkerOptions &Options) {
  WorkerIsolation Isolation =
      Options.UseNamespaces
          ? isolateWorker(Options.IsolateNetwork, Options.HiddenDirs,
                          Options.PrivateDirs, Options.KeptPaths)
          : WorkerIsolation();
  std::string Display =
      Options.DisplayName.empty() ? Options.Candidate : Options.DisplayName;
  CandidateReport Report;
  // The nonce line comes once kevin-run holds the device: it is read before
  // any candidate code runs (the trusted set-up before it needs no device),
  // or before reporting a failure of that set-up. The task follows later.
  auto readNonce = [&] {
    if (Report.Value.contains("nonce"))
      return true;
    std::optional<Json> Secrets = readSecretsLine("nonce", "nonce");
    if (!Secrets)
      return false;
    Report.Value["nonce"] = (*Secrets)["nonce"];
    return true;
  };
  Report.Value["stage"] = "format";
  Report.Value["outcome"] = "ok";
  Report.Value["message"] = "";
  Report.Value["network_isolated"] = Isolation.Network;
  Report.Value["reference_hidden"] = Isolation.Hidden;
  Report.Value["processes_isolated"] = Isolation.Processes;
  Report.ProgressFd = openProgress(Options.Dir);

  BuilderState State;
  State.Options = Options.Build;
  State.OriginPath = Display;
  State.OriginText = readWholeFile(Options.Candidate);
  State.ProgressFd = Report.ProgressFd;
  Builder = &State;

  auto finish = [&](Stage S) {
    if (!readNonce())
      return ExitError;
    if (Report.Value["outcome"] == "ok")
      Report.Value["stage"] = stageName(S);
    // A failed build stays a build error even if the candidate caught it.
    if (State.Failed) {
      Report.fail(Stage::Build, *parseOutcome(State.FailOutcome),
                  State.FailMessage);
    }
    Report.Value["builds"] = State.Builds;
    Report.Value["kernel_names"] = State.KernelNames;
    Report.Value["kernel_namespaces"] = State.KernelNamespaces;
    Report.Value["build_seconds"] = State.Seconds;
    progress(Report.ProgressFd, "done");
    return writeJson(Options.Dir, protocol::ResultJson, Report.Value)
               ? ExitClean
               : ExitError;
  };

  // Never finalized: the process ends with _Exit right after reporting (see
  // kevin-worker.cpp), so neither candidate atexit code nor the teardown of
  // a broken CUDA context can change what happened.
  py::initialize_interpreter();
  try {
    progress(Report.ProgressFd, "format");
    py::module_ Prelude = startPython();
    State.Toolchain = toolchainFrom(Prelude, Options.CudaArch);
    py::object Syntax = Prelude.attr("check_syntax")(Options.Candidate);
    if (!Syntax.is_none()) {
      Report.fail(Stage::Format, Outcome::FormatError,
                  Display + ":" + Syntax.cast<std::string>());
      return finish(Stage::Format);
    }
    Prelude.attr("install_builder")();
    bool Cuda = Options.Device.rfind("cuda", 0) == 0;

    if (!readNonce())
      return ExitError;

    // A candidate that could reach the reference's directory is imported
    // only once its task has come: kevin-run has then read the reference's
    // outputs and deleted them.
    std::optional<Json> TaskFirst;
    if (!Options.BuildOnly && !Options.HiddenDirs.empty() &&
        !Isolation.Hidden) {
      progress(Report.ProgressFd, protocol::ImportAfterTask);
      Expected<Json> Early = readTaskFromStdin();
      if (!Early) {
        std::cerr << "kevin-worker: error: " << Early.error().message()
                  << "\n";
        return ExitError;
      }
      TaskFirst = std::move(*Early);
    }

    // KEVIN-RT-009's functions, taken before the candidate can replace
    // them in the prelude's module.
    py::object WarmProfiler = Prelude.attr("warm_profiler");
    py::object ProfileKernels = Prelude.attr("profile_kernels");
    // KEVIN-RT-005's fill of the CUDA caching allocator's free blocks, taken
    // before the candidate can replace it.
    py::object PoisonCudaCache = Prelude.attr("poison_cuda_cache");

    // Load: import the candidate (its load_inline calls build here).
    progress(Report.ProgressFd, "load");
    auto LoadStart = Clock::now();
    py::module_ Candidate;
    try {
      Candidate =
          Prelude.attr("import_file")("kevin_candidate", Options.Candidate);
    } catch (py::error_already_set &E) {
      if (isSystemExit(E)) {
        Report.fail(Stage::Load, Outcome::EarlyExit,
                    "the candidate called exit while being imported");
        return finish(Stage::Load);
      }
      std::string Message = Prelude
                                .attr("describe")(E.value(), Options.Candidate,
                                                  Display, E.trace())
                                .cast<std::string>();
      Report.fail(Stage::Load,
                  classifyException(Message) == Outcome::Oom
                      ? Outcome::Oom
                      : Outcome::LoadError,
                  Message);
      return finish(Stage::Load);
    }
    Report.Value["seconds"]["load"] = secondsSince(LoadStart);
    if (State.Failed)
      return finish(Stage::Build);
    if (!py::hasattr(Candidate, "ModelNew") ||
        !py::isinstance<py::type>(Candidate.attr("ModelNew"))) {
      Report.fail(Stage::Format, Outcome::FormatError,
                  Display + ": no class 'ModelNew' is defined");
      return finish(Stage::Format);
    }
    if (Options.BuildOnly)
      return finish(Stage::Load);

    // kevin-run starts this worker beside the reference worker; the task
    // arrives when the reference has made the inputs. "load ready" ends the
    // build phase's time limit, "load model" starts the run phase's.
    progress(Report.ProgressFd, "load ready");
    // The profiler's first start (seconds) overlaps the reference's run.
    if (Cuda && Options.ProfileKernels)
      WarmProfiler();
    Expected<Json> TaskOrError =
        TaskFirst ? Expected<Json>(std::move(*TaskFirst)) : readTaskFromStdin();
    if (!TaskOrError) {
      std::cerr << "kevin-worker: error: " << TaskOrError.error().message()
                << "\n";
      return ExitError;
    }
    const Json &Task = *TaskOrError;
    std::string InputsDir =
        Options.Dir + "/" + Task["inputs_dir"].get<std::string>();
    progress(Report.ProgressFd, "load model");

    // Construct ModelNew under the init seed, as the reference was.
    if (Options.MemoryLimitMiB) {
      struct rlimit Limit;
      Limit.rlim_cur = Limit.rlim_max =
          static_cast<rlim_t>(Options.MemoryLimitMiB) << 20;
      ::setrlimit(RLIMIT_AS, &Limit);
    }
    py::object Device =
        py::module_::import("torch").attr("device")(Options.Device);
    py::object Model;
    py::list Init = Prelude.attr("from_json")(Task["init_args"].dump());
    try {
      Prelude.attr("manual_seed")(protocol::InitSeed);
      Model = Candidate.attr("ModelNew")(*Init);
      Model = Model.attr("to")(Device);
    } catch (py::error_already_set &E) {
      if (isSystemExit(E)) {
        Report.fail(Stage::Load, Outcome::EarlyExit, "ModelNew() called exit");
        return finish(Stage::Load);
      }
      std::string Message = Prelude
                                .attr("describe")(E.value(), Options.Candidate,
                                                  Display, E.trace())
                                .cast<std::string>();
      Outcome O = classifyException(Message);
      Report.fail(Stage::Load,
                  O == Outcome::RuntimeError ? Outcome::LoadError : O,
                  "ModelNew(...) failed: " + Message);
      return finish(Stage::Load);
    }
    // From here on a fresh CPU block reads NaN until written, so an output
    // element the candidate leaves unwritten fails as nan on every run. On
    // CUDA the allocator's free blocks are filled before every checked call.
    Report.Value["fresh_memory_poisoned"] =
        Cuda ? PoisonCudaCache(Device, 0).cast<bool>() : poisonFreshCpuMemory();
    // The filled memory kept free for a call's outputs: twice its inputs,
    // at most 4 GiB.
    auto poisonReserve = [](const std::vector<at::Tensor> &Inputs) {
      int64_t Bytes = 0;
      for (const at::Tensor &In : Inputs)
        Bytes += In.numel() * In.element_size();
      return std::min<int64_t>(2 * Bytes, int64_t(4) << 30);
    };
    std::vector<std::pair<uintptr_t, uintptr_t>> Owned;
    for (const char *Kind : {"parameters", "buffers"})
      for (py::handle P : Model.attr(Kind)())
        if (THPVariable_Check(P.ptr()))
          Owned.push_back(storageRange(fromPython(P)));

    // Calls forward (or Through(model, args), which calls it); a raised
    // exception or exit is reported (after Which: "trial 3"), and false.
    auto callModel = [&](const py::list &Args, const std::string &Which,
                         py::object &Out,
                         const py::object &Through = py::object()) {
      try {
        Out = Through ? Through(Model, Args) : Model(*Args);
        if (Cuda)
          Prelude.attr("cuda_synchronize")();
        return true;
      } catch (py::error_already_set &E) {
        if (isSystemExit(E)) {
          Report.fail(Stage::Run, Outcome::EarlyExit, "forward called exit");
          return false;
        }
        std::string Message =
            Prelude
                .attr("describe")(E.value(), Options.Candidate, Display,
                                  E.trace())
                .cast<std::string>();
        Report.fail(Stage::Run, classifyException(Message),
                    Which + ": " + Message);
        return false;
      }
    };
    // The items of an output in its exact structure: a plain torch.Tensor,
    // or a tuple/list of them; Outputs["kind"] says which.
    auto outputItems = [](const py::object &Out, Json &Outputs) {
      std::vector<py::handle> Items;
      if (py::isinstance<py::tuple>(Out) || py::isinstance<py::list>(Out)) {
        Outputs["kind"] = py::isinstance<py::tuple>(Out) ? "tuple" : "list";
        for (py::handle H : Out)
          Items.push_back(H);
      } else {
        Outputs["kind"] = "tensor";
        Items.push_back(Out);
      }
      return Items;
    };
    // A plain torch.Tensor without instance attributes; otherwise a
    // reported type-mismatch, and false.
    auto checkPlainTensor = [&](py::handle H, const std::string &Call) {
      if (!THPVariable_CheckExact(H.ptr())) {
        std::string Type =
            py::str(py::type::of(H).attr("__name__")).cast<std::string>();
        Report.fail(Stage::Compare, Outcome::TypeMismatch,
                    Call + " returned a '" + Type +
                        "' where a plain torch.Tensor was expected");
        return false;
      }
      py::object Dict = py::reinterpret_steal<py::object>(
          PyObject_GenericGetDict(H.ptr(), nullptr));
      PyErr_Clear();
      if (Dict && py::len(Dict) != 0) {
        Report.fail(Stage::Compare, Outcome::TypeMismatch,
                    Call + " returned a tensor carrying instance attributes");
        return false;
      }
      return true;
    };

    // The trial kevin-run picked for the profiled call (KEVIN-RT-009).
    std::optional<unsigned> ProfiledTrial;
    if (Cuda && Options.ProfileKernels && Task.contains("profiled_trial"))
      ProfiledTrial = Task["profiled_trial"].get<unsigned>();
    // KEVIN-RT-010, ghost replay: one more forward, on inputs no call has
    // seen, with every launch of the candidate's extensions skipped (kevin's
    // launch gate), before the trial kevin-run picked (a secret one after
    // the first, or after the last). Whatever it returns goes to kevin-run,
    // which fails the candidate when that is still the right answer.
    // Nothing here fails the candidate: a forward that raises without its
    // kernels depends on them. False on a tool error.
    std::optional<unsigned> GhostBefore;
    if (Cuda && Task.contains("ghost"))
      GhostBefore = Task["ghost"]["before_trial"].get<unsigned>();
    auto replayGhost = [&]() -> bool {
      Expected<std::vector<at::Tensor>> Loaded = readTensorFile(
          protocol::trialFile(InputsDir, Options.Trials, "inputs"));
      if (!Loaded) {
        std::cerr << "kevin-worker: error: " << Loaded.error().message()
                  << "\n";
        return false;
      }
      std::vector<at::Tensor> Given;
      for (const at::Tensor &In : *Loaded)
        Given.push_back(In.to(at::Device(Options.Device), false, true));
      py::list Args = trialArguments(Prelude, Task["ghost"]["inputs"], Given);
      Json Ghost;
      // Filled first: an honest kernel's output reads NaN without it.
      PoisonCudaCache(Device, poisonReserve(Given));
      uint64_t SkippedBefore = worker::skippedCandidateLaunches();
      std::vector<at::Tensor> OnCpu;
      std::string Raised;
      worker::skipCandidateLaunches(true);
      try {
        py::object Out = Model(*Args);
        Prelude.attr("cuda_synchronize")();
        Json Kind;
        for (py::handle H : outputItems(Out, Kind)) {
          if (!THPVariable_CheckExact(H.ptr())) {
            Raised = "forward returned something other than tensors";
            break;
          }
          OnCpu.push_back(fromPython(H).detach().to(at::kCPU));
        }
        Ghost["kind"] = Kind["kind"];
      } catch (py::error_already_set &E) {
        Raised = isSystemExit(E) ? "forward called exit" : E.what();
      } catch (const std::exception &E) {
        Raised = E.what();
      }
      worker::skipCandidateLaunches(false);
      Ghost["skipped_launches"] =
          worker::skippedCandidateLaunches() - SkippedBefore;
      if (!Raised.empty()) {
        Ghost["raised"] = Raised.substr(0, 300);
      } else if (Error E = writeTensorFile(
                     protocol::trialFile(Options.Dir, Options.Trials, "ghost"),
                     OnCpu)) {
        std::cerr << "kevin-worker: error: " << E.message() << "\n";
        return false;
      }
      Report.Value["ghost"] = Ghost;
      return true;
    };
    // Run: fresh clones per call; the last trial reuses the previous
    // call's input buffers with new contents (a pointer-keyed cache then
    // returns a stale answer).
    py::object NoGrad = Prelude.attr("no_grad")();
    NoGrad.attr("__enter__")();
    Json Trials = Json::array();
    std::vector<at::Tensor> Previous, BeforePrevious;
    auto RunStart = Clock::now();
    // One progress line for all the calls: the candidate can read the file,
    // and a line per call that named the profiled call or the replay would
    // give their secret places away (KEVIN-RT-009, -010).
    progress(Report.ProgressFd, "run");
    State.Stage = "run";
    for (unsigned T = 0; T < Options.Trials; ++T) {
      if (GhostBefore && *GhostBefore == T && !replayGhost())
        return ExitError;
      Expected<std::vector<at::Tensor>> Loaded =
          readTensorFile(protocol::trialFile(InputsDir, T, "inputs"));
      if (!Loaded) {
        std::cerr << "kevin-worker: error: " << Loaded.error().message()
                  << "\n";
        return ExitError;
      }
      std::vector<at::Tensor> Given;
      bool Reuse =
          T + 1 == Options.Trials && T > 0 && Previous.size() == Loaded->size();
      for (size_t I = 0; Reuse && I < Previous.size(); ++I)
        Reuse = Previous[I].sizes().equals((*Loaded)[I].sizes()) &&
                Previous[I].scalar_type() == (*Loaded)[I].scalar_type();
      for (size_t I = 0; I < Loaded->size(); ++I) {
        at::Tensor Fresh =
            (*Loaded)[I].to(at::Device(Options.Device), false, true);
        if (Reuse) {
          Previous[I].copy_(Fresh);
          Given.push_back(Previous[I]);
        } else {
          Given.push_back(Fresh);
        }
      }
      py::list Args =
          trialArguments(Prelude, Task["trials"][T]["inputs"], Given);
      // KEVIN-RT-009: one checked call, at a secret trial, runs under
      // torch's profiler; kevin-run sorts its GPU work by whose kernels ran.
      bool Profiled = ProfiledTrial && *ProfiledTrial == T;
      if (Cuda)
        PoisonCudaCache(Device, poisonReserve(Given));
      auto CallStart = Clock::now();
      py::object Out;
      std::string Which = "trial " + std::to_string(T);
      if (!callModel(Args, Which, Out,
                     Profiled ? ProfileKernels : py::object()))
        return finish(Stage::Run);
      double Seconds = secondsSince(CallStart);
      if (Profiled) {
        py::object Work = py::reinterpret_borrow<py::tuple>(Out)[1];
        Out = py::reinterpret_borrow<py::tuple>(Out)[0];
        if (py::isinstance<py::str>(Work))
          Report.Value["kernels_unavailable"] = Work.cast<std::string>();
        else
          Report.Value["kernels"] =
              Json::parse(Prelude.attr("to_json")(Work).cast<std::string>());
      }
      Json Outputs;
      std::vector<py::handle> Items = outputItems(Out, Outputs);
      std::vector<at::Tensor> Copies;
      Json Metas = Json::array();
      for (py::handle H : Items) {
        if (!checkPlainTensor(H, "forward"))
          return finish(Stage::Compare);
        at::Tensor O = fromPython(H);
        Json Meta = tensorMeta(O);
        bool Aliases = false;
        for (const at::Tensor &In : Given)
          Aliases |= overlaps(storageRange(O), storageRange(In));
        bool AliasesParameter = false;
        for (const auto &Range : Owned)
          AliasesParameter |= overlaps(storageRange(O), Range);
        Meta["aliases_input"] = Aliases;
        Meta["aliases_parameter"] = AliasesParameter;
        Metas.push_back(Meta);
        Copies.push_back(O.detach()); // copied before the next call
      }
      Outputs["tensors"] = Metas;
      // The inputs after the call against the file they were loaded from.
      std::vector<at::Tensor> After;
      for (const at::Tensor &In : Given)
        After.push_back(In.to(at::kCPU));
      bool InputsChanged = !sameBits(After, *Loaded);
      std::vector<at::Tensor> FirstOnCpu = cpuCopies(Copies);

      // KEVIN-RT-005's second run: the same inputs again at fresh addresses,
      // the first outputs still alive, so new outputs land in other blocks.
      // An output region the kernel never writes, or a race, then differs;
      // such a second output goes to kevin-run, which checks it against the
      // reference too. Its inputs are not checked for changes or aliasing:
      // the first call's were.
      std::vector<at::Tensor> AgainGiven;
      for (const at::Tensor &In : *Loaded)
        AgainGiven.push_back(In.to(at::Device(Options.Device), false, true));
      py::list AgainArgs =
          trialArguments(Prelude, Task["trials"][T]["inputs"], AgainGiven);
      py::object AgainOut;
      if (Cuda)
        PoisonCudaCache(Device, poisonReserve(AgainGiven));
      if (!callModel(AgainArgs, Which + ", forward called again", AgainOut))
        return finish(Stage::Run);
      Json AgainKind;
      std::vector<py::handle> AgainItems = outputItems(AgainOut, AgainKind);
      if (AgainKind["kind"] != Outputs["kind"] ||
          AgainItems.size() != Items.size()) {
        Report.fail(Stage::Compare, Outcome::TypeMismatch,
                    Which + ": forward called again on the same inputs "
                            "returned a different structure");
        return finish(Stage::Compare);
      }
      std::vector<at::Tensor> AgainOnCpu;
      for (py::handle H : AgainItems) {
        if (!checkPlainTensor(H, "forward called again"))
          return finish(Stage::Compare);
        AgainOnCpu.push_back(fromPython(H).detach().to(at::kCPU));
      }
      bool RepeatDiffers = !sameBits(FirstOnCpu, AgainOnCpu);

      auto writeTrialFile = [&](const char *Kind,
                                const std::vector<at::Tensor> &Tensors) {
        Error E =
            writeTensorFile(protocol::trialFile(Options.Dir, T, Kind), Tensors);
        if (E)
          std::cerr << "kevin-worker: error: " << E.message() << "\n";
        return !E;
      };
      if (!writeTrialFile("outputs", FirstOnCpu) ||
          (RepeatDiffers && !writeTrialFile("repeat", AgainOnCpu)))
        return ExitError;
      Json Trial;
      Trial["inputs_changed"] = InputsChanged;
      Trial["repeat_differs"] = RepeatDiffers;
      Trial["outputs"] = Outputs;
      Trial["seconds"] = Seconds;
      Trial["reused_input_buffers"] = Reuse;
      Trials.push_back(Trial);
      // Keep the last two calls' inputs alive (fresh addresses every call);
      // the last trial rewrites the buffers of the call just before it.
      BeforePrevious = Given;
      Previous = AgainGiven;
    }
    Report.Value["trials"] = Trials;
    Report.Value["seconds"]["run"] = secondsSince(RunStart);
    if (GhostBefore && *GhostBefore >= Options.Trials && !replayGhost())
      return ExitError;
    NoGrad.attr("__exit__")(py::none(), py::none(), py::none());
    return finish(Stage::Compare);
  } catch (py::error_already_set &E) {
    if (isSystemExit(E)) {
      Report.fail(Stage::Run, Outcome::EarlyExit, "the candidate called exit");
      return finish(Stage::Run);
    }
    std::string Message = E.what();
    Report.fail(Stage::Run, classifyException(Message),
                Message.substr(0, 2000));
    return finish(Stage::Run);
  } catch (const std::exception &E) {
    std::string Message = E.what();
    Report.fail(Stage::Run, classifyException(Message),
                Message.substr(0, 2000));
    return finish(Stage::Run);
  }
}

void endWorkerProcess(int Code) {
  std::fflush(nullptr);
  if (worker::InOwnPidNamespace)
    ::kill(-1, SIGKILL);
  std::_Exit(Code);
}

} // namespace kevin
