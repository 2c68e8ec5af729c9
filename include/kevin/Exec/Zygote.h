//===-- kevin/Exec/Zygote.h - workers forked from a warm parent -*- C++ -*-===//
//
// A worker spends most of its start in starting Python and importing torch.
// The zygote (`kevin-worker zygote --socket PATH`) does that once and then
// forks one fresh worker per request; each child runs exactly what
// `kevin-worker <mode> <args...>` would run (the same argv parsing,
// isolation, environment, nonces and launch gate), minus that start.
//
// Process model. The trusted process (kevin serve) starts the zygote through
// runSubprocess and talks to it over a Unix stream socket, one connection per
// worker: a request (a JSON line {"argv", "env", "cwd", "niceness"} carrying
// the worker's stdin, stdout and stderr by SCM_RIGHTS), answered by the
// worker's pid (an int) and, once the zygote has reaped it, its wait status
// (an int). runSubprocess drives such a child through
// SubprocessOptions::Launcher as it drives its own: pipes, timeouts, the kill
// of the worker's process group. A client that hangs up early has the
// zygote kill that group. The zygote exits 0 once its socket path is gone
// (Zygote's destructor kills it sooner); it dies with the thread that started
// it (PR_SET_PDEATHSIG), and its children die with it.
//
// Security. The zygote never runs candidate or task code: it only imports
// torch (without starting CUDA) and forks. It never sees a secret either:
// seeds and nonces travel on each worker's stdin, straight from the trusted
// process. Each child closes every descriptor it inherited but its own
// three, so no worker holds the socket, another worker's pipes or another
// connection. The socket lives in a private (0700) directory below
// TempDir::sharedParent(), which candidate workers see covered; the zygote
// is non-dumpable (its children become dumpable again, as a fresh worker
// is). One fork per worker: no two workers, and no two candidates, ever
// share a process.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_EXEC_ZYGOTE_H
#define KEVIN_EXEC_ZYGOTE_H

#include "kevin/Exec/WorkerProcess.h"
#include "kevin/Support/Error.h"
#include "kevin/Support/Subprocess.h"

#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace kevin {

/// What a Zygote and its launchers share (lib/Exec/Zygote.cpp).
struct ZygoteState;

/// The zygote itself, in kevin-worker: starts Python, imports torch, listens
/// on SocketPath (made 0600; its directory must be private) and forks a child
/// per request that calls RunWorker with the request's argv (argv[0] the
/// program) once it has the request's descriptors, working directory,
/// niceness and environment (os.environ included). RunWorker is expected to
/// end the process; if it returns, its value is the exit status. Returns 0
/// once SocketPath is removed, 1 when it cannot listen.
int runZygote(const std::string &SocketPath,
              std::function<int(std::vector<std::string> Argv)> RunWorker);

/// The trusted side: a running zygote and the launcher that starts workers
/// through it. Thread-safe; a launcher that outlives its Zygote fails with an
/// Error.
class Zygote {
public:
  /// Starts `WorkerPath zygote` with the workers' environment (a private
  /// temporary directory as its home) and waits, up to two minutes, until
  /// its socket is ready. An Error, with its stderr, when it ended before.
  static Expected<std::unique_ptr<Zygote>> start(const std::string &WorkerPath,
                                                 const std::string &CacheDir);
  /// For SubprocessOptions::Launcher (JudgeOptions, BenchOptions): starts a
  /// child whose Argv[0] is this zygote's worker, with the options' argv,
  /// environment (else ours), working directory and niceness.
  ChildLauncher launcher() const;
  /// False once the zygote has ended or is being stopped.
  bool alive() const;
  /// Kills the zygote (and with it every worker it still runs) and waits.
  ~Zygote();
  Zygote(const Zygote &) = delete;
  Zygote &operator=(const Zygote &) = delete;

private:
  Zygote(TempDir Dir, std::shared_ptr<ZygoteState> State);
  /// Waits until the socket exists or the zygote has ended.
  Error awaitSocket(double TimeoutSeconds) const;

  TempDir Dir;
  std::shared_ptr<ZygoteState> State;
  std::thread Runner;
};

} // namespace kevin

#endif // KEVIN_EXEC_ZYGOTE_H
