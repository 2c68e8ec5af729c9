//===-- CompileStep.cpp - one compiler or tool call of a build ------------===//
//
// See CompileStep.h.
//
//===----------------------------------------------------------------------===//
#include "CompileStep.h"
#include "BuildFlags.h"
#include "kevin/Support/Subprocess.h"

namespace kevin {

namespace {

/// Bytes of each stream kept of a compiler's output.
constexpr size_t CompilerOutputBytes = 256 * 1024;
/// Bytes of a table read whole (an object's symbols); more fails the step.
constexpr size_t WholeOutputBytes = size_t(1) << 30;

} // namespace

void runStep(Step &S, const TorchToolchain &T, const BuildOptions &Options,
             const std::string &Dir, std::string *WholeStdout) {
  SubprocessOptions Run;
  Run.Argv = S.Argv;
  Run.Environment = compilerEnvironment(T);
  Run.WorkingDirectory = Dir;
  Run.TimeoutSeconds = Options.TimeoutSeconds;
  Run.MaxCaptureBytes = WholeStdout ? WholeOutputBytes : CompilerOutputBytes;
  auto R = runSubprocess(Run);
  if (!R) {
    S.Output = R.error().message() + "\n";
    return;
  }
  S.Ok = R->succeeded();
  S.TimedOut = R->TimedOut;
  S.Exited = !R->TimedOut && R->Signal == 0 && R->ExitCode >= 0;
  if (WholeStdout) {
    *WholeStdout = std::move(R->Stdout);
    S.Output = R->Stderr;
    if (R->StdoutTruncated) {
      WholeStdout->clear();
      S.Ok = false;
      S.Output += S.Argv[0] + " printed more than " +
                  std::to_string(WholeOutputBytes) + " bytes\n";
      return;
    }
  } else {
    S.Output = R->Stdout + R->Stderr;
  }
  if (R->TimedOut)
    S.Output += S.Argv[0] + " " + R->describe() + "\n";
  else if (!S.Ok && S.Output.empty())
    S.Output = S.Argv[0] + " " + R->describe() + "\n";
}

} // namespace kevin
