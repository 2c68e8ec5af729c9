//===-- Zygote.cpp - workers forked from a warm parent --------------------===//
//
// The zygote's server (runZygote, in kevin-worker: one thread, a poll loop
// over its socket, a self-pipe woken by SIGCHLD and one connection per
// running child) and the trusted side's client (Zygote, whose launcher
// sends one request per worker). See kevin/Exec/Zygote.h for the process
// model and why it is safe.
//
//===----------------------------------------------------------------------===//
#include "kevin/Exec/Zygote.h"
#include "kevin/Exec/WorkerSupport.h"

#include <atomic>
#include <cerrno>
#include <chrono>
#include <climits>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <mutex>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

namespace kevin {

namespace {

namespace py = pybind11;

/// Ints (pids, wait statuses) travel as the bytes of an int: both ends run
/// on one machine.
bool sendInt(int Fd, int Value) {
  return ::send(Fd, &Value, sizeof(Value), MSG_NOSIGNAL) ==
         static_cast<ssize_t>(sizeof(Value));
}

/// Fills Path into Address; false when it does not fit.
bool socketAddress(const std::string &Path, struct sockaddr_un &Address) {
  std::memset(&Address, 0, sizeof(Address));
  Address.sun_family = AF_UNIX;
  if (Path.size() >= sizeof(Address.sun_path))
    return false;
  std::memcpy(Address.sun_path, Path.c_str(), Path.size() + 1);
  return true;
}

//--- The server: runZygote ----------------------------------------------------

/// One request: the worker's command line and surroundings, and its stdin,
/// stdout and stderr.
struct WorkerRequest {
  std::vector<std::string> Argv, Env;
  std::string Cwd;
  int Niceness = 0;
  std::vector<int> Fds;

  void closeFds() {
    for (int Fd : Fds)
      ::close(Fd);
    Fds.clear();
  }
};

/// Takes the descriptors of a received message's SCM_RIGHTS into Fds.
void takeDescriptors(struct msghdr &Message, std::vector<int> &Fds) {
  for (struct cmsghdr *C = CMSG_FIRSTHDR(&Message); C;
       C = CMSG_NXTHDR(&Message, C)) {
    if (C->cmsg_level != SOL_SOCKET || C->cmsg_type != SCM_RIGHTS)
      continue;
    size_t Count = (C->cmsg_len - CMSG_LEN(0)) / sizeof(int);
    const unsigned char *Data = CMSG_DATA(C);
    for (size_t I = 0; I < Count; ++I) {
      int Fd;
      std::memcpy(&Fd, Data + I * sizeof(int), sizeof(int));
      Fds.push_back(Fd);
    }
  }
}

/// Reads a request's line and its descriptors from Conn (a stalled client
/// times out); false when it is incomplete.
bool receiveLine(int Conn, std::string &Line, std::vector<int> &Fds) {
  struct timeval Limit = {10, 0};
  ::setsockopt(Conn, SOL_SOCKET, SO_RCVTIMEO, &Limit, sizeof(Limit));
  char Buffer[65536];
  alignas(struct cmsghdr) char Control[CMSG_SPACE(4 * sizeof(int))];
  // The client sends nothing after its line: the line ends a read.
  while (Line.empty() || Line.back() != '\n') {
    struct iovec Io = {Buffer, sizeof(Buffer)};
    struct msghdr Message = {};
    Message.msg_iov = &Io;
    Message.msg_iovlen = 1;
    Message.msg_control = Control;
    Message.msg_controllen = sizeof(Control);
    ssize_t N = ::recvmsg(Conn, &Message, MSG_CMSG_CLOEXEC);
    if (N < 0 && errno == EINTR)
      continue;
    if (N > 0)
      takeDescriptors(Message, Fds);
    if (N <= 0 || (Message.msg_flags & MSG_CTRUNC) ||
        Line.size() + static_cast<size_t>(N) > (16u << 20))
      return false;
    Line.append(Buffer, static_cast<size_t>(N));
  }
  return true;
}

/// Reads and parses one request; false (its descriptors closed) when it is
/// not one.
bool receiveRequest(int Conn, WorkerRequest &R) {
  std::string Line;
  if (receiveLine(Conn, Line, R.Fds) && R.Fds.size() == 3) {
    Json Request = Json::parse(Line, nullptr, false);
    try {
      R.Argv = Request.at("argv").get<std::vector<std::string>>();
      R.Env = Request.at("env").get<std::vector<std::string>>();
      R.Cwd = Request.at("cwd").get<std::string>();
      R.Niceness = Request.at("niceness").get<int>();
      if (!R.Argv.empty())
        return true;
    } catch (const Json::exception &) {
      // Not a request (a value that did not parse reads as none).
    }
  }
  R.closeFds();
  return false;
}

/// The write end of the self-pipe that SIGCHLD wakes.
int ChildExitWake = -1;

void onChildExit(int) {
  int Saved = errno;
  char Byte = 0;
  ssize_t Ignored = ::write(ChildExitWake, &Byte, 1);
  (void)Ignored;
  errno = Saved;
}

/// Closes every descriptor from 3 up.
void closeInheritedDescriptors() {
#ifdef SYS_close_range
  if (::syscall(SYS_close_range, 3U, ~0U, 0U) == 0)
    return;
#endif
  std::vector<int> Open;
  if (DIR *D = ::opendir("/proc/self/fd")) {
    while (struct dirent *E = ::readdir(D)) {
      int Fd = std::atoi(E->d_name);
      if (Fd > 2 && Fd != ::dirfd(D))
        Open.push_back(Fd);
    }
    ::closedir(D);
  }
  for (int Fd : Open)
    ::close(Fd);
}

/// In a child, what a freshly exec'ed worker's Python would hold: the
/// request's environment in os.environ (whose assignments set the process's
/// environment too), tempfile's directory not yet chosen, numpy's global
/// generator seeded afresh rather than shared with every other child.
const char *FreshenSource = R"KEVINPY(
import os, sys
os.environ.clear()
os.environ.update(os.fsdecode(entry).split("=", 1)
                  for entry in entries if entry.find(b"=") > 0)
if "tempfile" in sys.modules:
    sys.modules["tempfile"].tempdir = None
if "numpy" in sys.modules:
    sys.modules["numpy"].random.seed()
)KEVINPY";

/// Replaces the process's environment and Python's view of it by Env.
void adoptEnvironment(const std::vector<std::string> &Env) {
  ::clearenv();
  py::list Entries;
  for (const std::string &Entry : Env)
    Entries.append(py::bytes(Entry));
  py::dict Scope;
  Scope["entries"] = Entries;
  py::exec(FreshenSource, Scope);
}

/// In the child of a fork: becomes the worker R asks for, as a fresh
/// kevin-worker process would start (see execChild in Subprocess.cpp).
[[noreturn]] void
becomeWorker(WorkerRequest &R, pid_t Zygote,
             const std::function<int(std::vector<std::string>)> &RunWorker) {
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != Zygote)
    std::_Exit(127);
  ::prctl(PR_SET_DUMPABLE, 1);
  ::setpgid(0, 0);
  // The other dispositions are what Python's start left, as in a fresh
  // worker (SIGPIPE ignored, its SIGINT handler).
  ::signal(SIGCHLD, SIG_DFL);
  sigset_t Empty;
  sigemptyset(&Empty);
  ::sigprocmask(SIG_SETMASK, &Empty, nullptr);
  for (int I = 0; I < 3; ++I)
    ::dup2(R.Fds[I], I);
  closeInheritedDescriptors();
  if (R.Niceness != 0) {
    int Ignored = ::nice(R.Niceness);
    (void)Ignored;
  }
  if (!R.Cwd.empty() && ::chdir(R.Cwd.c_str()) != 0) {
    std::fprintf(stderr, "kevin-worker: error: cannot enter %s: %s\n",
                 R.Cwd.c_str(), std::strerror(errno));
    std::_Exit(127);
  }
  try {
    adoptEnvironment(R.Env);
  } catch (const std::exception &E) {
    std::fprintf(stderr, "kevin-worker: error: %s\n", E.what());
    std::_Exit(127);
  }
  std::_Exit(RunWorker(std::move(R.Argv)));
}

/// A child still running, and the connection that asked for it (-1 once
/// its client has gone).
struct RunningChild {
  pid_t Pid;
  int Conn;
};

class ZygoteServer {
public:
  ZygoteServer(std::string SocketPath,
               std::function<int(std::vector<std::string>)> RunWorker)
      : SocketPath(std::move(SocketPath)), RunWorker(std::move(RunWorker)) {}
  int run();

private:
  /// Binds and listens, then puts the socket at SocketPath (so that it is
  /// ready once it exists).
  bool listen();
  bool socketRemoved() const;
  void acceptRequest();
  void startWorker(WorkerRequest &R, int Conn);
  /// Writes the status of every child that ended to its connection.
  void reapChildren();
  /// Kills the children whose clients hung up.
  void dropGoneClients(const std::vector<struct pollfd> &Fds);

  std::string SocketPath;
  std::function<int(std::vector<std::string>)> RunWorker;
  int Listener = -1;
  int Wake[2] = {-1, -1};
  struct stat Socket = {};
  std::vector<RunningChild> Children;
};

bool ZygoteServer::listen() {
  struct sockaddr_un Address;
  std::string Temporary = SocketPath + ".new";
  Listener = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (Listener < 0 || !socketAddress(Temporary, Address))
    return false;
  ::unlink(Temporary.c_str());
  mode_t Mask = ::umask(0177);
  int Bound = ::bind(Listener, reinterpret_cast<struct sockaddr *>(&Address),
                     sizeof(Address));
  ::umask(Mask);
  return Bound == 0 && ::listen(Listener, 128) == 0 &&
         ::rename(Temporary.c_str(), SocketPath.c_str()) == 0 &&
         ::stat(SocketPath.c_str(), &Socket) == 0;
}

bool ZygoteServer::socketRemoved() const {
  struct stat Now;
  return ::stat(SocketPath.c_str(), &Now) != 0 || Now.st_ino != Socket.st_ino ||
         Now.st_dev != Socket.st_dev;
}

int ZygoteServer::run() {
  if (::pipe2(Wake, O_CLOEXEC | O_NONBLOCK) != 0)
    return 1;
  ChildExitWake = Wake[1];
  struct sigaction Action = {};
  Action.sa_handler = onChildExit;
  Action.sa_flags = SA_RESTART | SA_NOCLDSTOP;
  ::sigaction(SIGCHLD, &Action, nullptr);
  if (!listen()) {
    std::fprintf(stderr, "kevin-worker: error: cannot listen on %s: %s\n",
                 SocketPath.c_str(), std::strerror(errno));
    return 1;
  }
  while (!socketRemoved()) {
    std::vector<struct pollfd> Fds = {{Listener, POLLIN, 0},
                                      {Wake[0], POLLIN, 0}};
    for (const RunningChild &C : Children)
      Fds.push_back({C.Conn, POLLIN, 0});
    if (::poll(Fds.data(), Fds.size(), 1000) < 0 && errno != EINTR)
      return 1;
    char Drain[64];
    while (::read(Wake[0], Drain, sizeof(Drain)) > 0) {
    }
    reapChildren();
    dropGoneClients(Fds);
    if (Fds[0].revents & POLLIN)
      acceptRequest();
  }
  return 0;
}

void ZygoteServer::acceptRequest() {
  int Conn = ::accept4(Listener, nullptr, nullptr, SOCK_CLOEXEC);
  if (Conn < 0)
    return;
  WorkerRequest R;
  if (receiveRequest(Conn, R))
    startWorker(R, Conn);
  else
    ::close(Conn);
}

void ZygoteServer::startWorker(WorkerRequest &R, int Conn) {
  pid_t Self = ::getpid();
  PyOS_BeforeFork();
  pid_t Pid = ::fork();
  if (Pid == 0) {
    PyOS_AfterFork_Child();
    becomeWorker(R, Self, RunWorker);
  }
  PyOS_AfterFork_Parent();
  R.closeFds();
  if (Pid < 0) {
    ::close(Conn); // the client reads no pid
    return;
  }
  // Also set the group here, so that a kill right away cannot miss.
  ::setpgid(Pid, Pid);
  if (!sendInt(Conn, Pid)) {
    ::kill(-Pid, SIGKILL);
    ::close(Conn);
    Conn = -1;
  }
  Children.push_back({Pid, Conn});
}

void ZygoteServer::reapChildren() {
  int Status;
  pid_t Pid;
  while ((Pid = ::waitpid(-1, &Status, WNOHANG)) > 0) {
    for (auto C = Children.begin(); C != Children.end(); ++C) {
      if (C->Pid != Pid)
        continue;
      if (C->Conn >= 0) {
        sendInt(C->Conn, Status);
        ::close(C->Conn);
      }
      Children.erase(C);
      break;
    }
  }
}

void ZygoteServer::dropGoneClients(const std::vector<struct pollfd> &Fds) {
  // The connections polled are Fds[2...], in Children's order then; a child
  // reaped since has no entry any more.
  for (size_t I = 2; I < Fds.size(); ++I) {
    if (!Fds[I].revents || Fds[I].fd < 0)
      continue;
    for (RunningChild &C : Children) {
      if (C.Conn != Fds[I].fd)
        continue;
      // A client sends nothing after its request: readable means gone.
      ::kill(-C.Pid, SIGKILL);
      ::close(C.Conn);
      C.Conn = -1;
    }
  }
}

} // namespace

int runZygote(const std::string &SocketPath,
              std::function<int(std::vector<std::string> Argv)> RunWorker) {
  ::prctl(PR_SET_DUMPABLE, 0);
  // Received descriptors must not land on 0, 1 or 2.
  for (int Fd = 0; Fd < 3; ++Fd)
    if (::fcntl(Fd, F_GETFD) < 0 && ::open("/dev/null", O_RDWR) != Fd)
      return 1;
  try {
    worker::preloadTorch();
  } catch (const std::exception &E) {
    std::fprintf(stderr, "kevin-worker: error: cannot import torch: %s\n",
                 E.what());
    return 1;
  }
  return ZygoteServer(SocketPath, std::move(RunWorker)).run();
}

//--- The client: Zygote -------------------------------------------------------

/// What a Zygote shares with its launchers and with the thread that runs it.
struct ZygoteState {
  std::string WorkerPath; ///< canonical
  std::string SocketPath;
  std::atomic<bool> Stopping{false};
  std::atomic<bool> Ended{false};
  std::mutex Guard;
  std::string Ending; ///< How it ended, with its stderr; under Guard.
};

namespace {

/// Path with its symbolic links resolved; Path itself when it cannot be.
std::string canonicalPath(const std::string &Path) {
  char Real[PATH_MAX];
  return ::realpath(Path.c_str(), Real) ? Real : Path;
}

/// A descriptor closed on destruction unless released.
struct OwnedFd {
  int Fd;
  ~OwnedFd() {
    if (Fd >= 0)
      ::close(Fd);
  }
  int release() { return std::exchange(Fd, -1); }
};

Expected<int> connectTo(const std::string &SocketPath) {
  struct sockaddr_un Address;
  if (!socketAddress(SocketPath, Address))
    return Error::inFile(SocketPath, "socket path too long");
  int Fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (Fd >= 0 && ::connect(Fd, reinterpret_cast<struct sockaddr *>(&Address),
                           sizeof(Address)) == 0)
    return Fd;
  std::string Why = std::strerror(errno);
  if (Fd >= 0)
    ::close(Fd);
  return Error::inFile(SocketPath, "cannot reach the zygote: " + Why);
}

/// The request line for the child of Options.
Expected<std::string> requestLine(const SubprocessOptions &Options) {
  try {
    Json Request = {{"argv", Options.Argv},
                    {"env", Options.Environment ? *Options.Environment
                                                : currentEnvironment()},
                    {"cwd", Options.WorkingDirectory},
                    {"niceness", Options.Niceness}};
    return Request.dump() + "\n";
  } catch (const Json::exception &E) {
    return Error::make(std::string("cannot send a request: ") + E.what());
  }
}

/// Sends Line with the three descriptors (carried by its first bytes).
bool sendRequest(int Fd, const std::string &Line, const int (&Fds)[3]) {
  alignas(struct cmsghdr) char Control[CMSG_SPACE(sizeof(Fds))] = {};
  struct iovec Io = {const_cast<char *>(Line.data()), Line.size()};
  struct msghdr Message = {};
  Message.msg_iov = &Io;
  Message.msg_iovlen = 1;
  Message.msg_control = Control;
  Message.msg_controllen = sizeof(Control);
  struct cmsghdr *C = CMSG_FIRSTHDR(&Message);
  C->cmsg_level = SOL_SOCKET;
  C->cmsg_type = SCM_RIGHTS;
  C->cmsg_len = CMSG_LEN(sizeof(Fds));
  std::memcpy(CMSG_DATA(C), Fds, sizeof(Fds));
  size_t Sent = 0;
  while (Sent < Line.size()) {
    ssize_t N = Sent == 0 ? ::sendmsg(Fd, &Message, MSG_NOSIGNAL)
                          : ::send(Fd, Line.data() + Sent, Line.size() - Sent,
                                   MSG_NOSIGNAL);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return false;
    Sent += static_cast<size_t>(N);
  }
  return true;
}

/// Reads an int from Fd within TimeoutMs; std::nullopt at end of file,
/// error or timeout.
std::optional<int> readInt(int Fd, int TimeoutMs) {
  unsigned char Bytes[sizeof(int)];
  size_t Got = 0;
  auto Deadline = SteadyClock::now() + std::chrono::milliseconds(TimeoutMs);
  while (Got < sizeof(Bytes)) {
    auto Left = std::chrono::duration_cast<std::chrono::milliseconds>(
                    Deadline - SteadyClock::now())
                    .count();
    struct pollfd Ready = {Fd, POLLIN, 0};
    int Polled =
        ::poll(&Ready, 1, static_cast<int>(std::max<long long>(0, Left)));
    if (Polled < 0 && errno == EINTR)
      continue;
    if (Polled <= 0)
      return std::nullopt;
    ssize_t N = ::read(Fd, Bytes + Got, sizeof(Bytes) - Got);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return std::nullopt;
    Got += static_cast<size_t>(N);
  }
  int Value;
  std::memcpy(&Value, Bytes, sizeof(Value));
  return Value;
}

/// Starts the child of Options through the zygote of State.
Expected<LaunchedChild> launchThrough(const ZygoteState &State,
                                      const SubprocessOptions &Options,
                                      const int (&Fds)[3]) {
  if (State.Stopping || State.Ended)
    return Error::make("the worker zygote has stopped");
  if (canonicalPath(Options.Argv.front()) != State.WorkerPath)
    return Error::inFile(Options.Argv.front(),
                         "the worker zygote runs only " + State.WorkerPath);
  Expected<std::string> Line = requestLine(Options);
  if (!Line)
    return Line.error();
  Expected<int> Connected = connectTo(State.SocketPath);
  if (!Connected)
    return Connected.error();
  OwnedFd Conn{*Connected};
  if (!sendRequest(Conn.Fd, *Line, Fds))
    return Error::inFile(State.SocketPath,
                         std::string("cannot send a request to the zygote: ") +
                             std::strerror(errno));
  std::optional<int> Pid = readInt(Conn.Fd, 60000);
  if (!Pid || *Pid <= 0)
    return Error::inFile(State.SocketPath, "the zygote started no worker");
  return LaunchedChild{*Pid, Conn.release()};
}

/// Runs the zygote to its end, on Zygote's thread.
void runZygoteProcess(std::shared_ptr<ZygoteState> State,
                      SubprocessOptions Options) {
  Expected<SubprocessResult> R = runSubprocess(Options);
  std::lock_guard<std::mutex> Lock(State->Guard);
  State->Ending =
      R ? R->describe() +
              (R->Stderr.empty() ? "" : ": " + stderrTail(R->Stderr, 4000))
        : R.error().message();
  State->Ended = true;
}

} // namespace

Zygote::Zygote(TempDir Dir, std::shared_ptr<ZygoteState> State)
    : Dir(std::move(Dir)), State(std::move(State)) {}

Expected<std::unique_ptr<Zygote>> Zygote::start(const std::string &WorkerPath,
                                                const std::string &CacheDir) {
  Expected<TempDir> Dir = TempDir::create("kevin-zygote");
  if (!Dir)
    return Dir.error();
  auto State = std::make_shared<ZygoteState>();
  State->WorkerPath = canonicalPath(WorkerPath);
  State->SocketPath = Dir->path() + "/zygote.sock";
  struct sockaddr_un Address;
  if (!socketAddress(State->SocketPath + ".new", Address))
    return Error::inFile(State->SocketPath, "socket path too long");
  SubprocessOptions Run;
  Run.Argv = {WorkerPath, "zygote", "--socket", State->SocketPath};
  Run.Environment = workerEnvironment(Dir->path(), CacheDir);
  Run.WorkingDirectory = Dir->path();
  Run.MaxCaptureBytes = 64 * 1024;
  Run.StopWhen = [S = State.get()] { return S->Stopping.load(); };
  std::unique_ptr<Zygote> Z(new Zygote(std::move(*Dir), State));
  Z->Runner = std::thread(runZygoteProcess, State, std::move(Run));
  if (Error E = Z->awaitSocket(120))
    return E;
  return Z;
}

Error Zygote::awaitSocket(double TimeoutSeconds) const {
  auto Start = SteadyClock::now();
  while (secondsSince(Start) < TimeoutSeconds) {
    if (State->Ended) {
      std::lock_guard<std::mutex> Lock(State->Guard);
      return Error::make("the worker zygote " + State->Ending);
    }
    struct stat St;
    if (::stat(State->SocketPath.c_str(), &St) == 0 && S_ISSOCK(St.st_mode))
      return Error::success();
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return Error::make("the worker zygote was not ready within " +
                     std::to_string(static_cast<int>(TimeoutSeconds)) + " s");
}

ChildLauncher Zygote::launcher() const {
  std::weak_ptr<ZygoteState> Weak = State;
  return [Weak](const SubprocessOptions &Options, int StdinFd, int StdoutFd,
                int StderrFd) -> Expected<LaunchedChild> {
    std::shared_ptr<ZygoteState> S = Weak.lock();
    if (!S)
      return Error::make("the worker zygote is gone");
    return launchThrough(*S, Options, {StdinFd, StdoutFd, StderrFd});
  };
}

bool Zygote::alive() const { return !State->Stopping && !State->Ended; }

Zygote::~Zygote() {
  State->Stopping = true;
  if (Runner.joinable())
    Runner.join();
}

} // namespace kevin
