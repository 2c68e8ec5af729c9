//===-- kevin.cpp - the kevin driver --------------------------------------===//
//
// `kevin <verb> args...` runs the tool `kevin-<verb>` found next to this
// binary (git and llvm-driver style), passing the arguments through and
// returning its exit status. `kevin --version` prints kevin's version and the
// versions of torch, Python, clang and nvcc it was built with; `kevin --help`
// lists the verbs that are installed, leaving out kevin's internal tools.
//
//===----------------------------------------------------------------------===//
#include "kevin/Support/Error.h"
#include "kevin/Support/FileSystem.h"
#include "kevin/Support/ToolMain.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <dirent.h>
#include <iostream>
#include <iterator>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

using namespace kevin;

namespace {

struct VerbInfo {
  const char *Name;
  const char *Purpose;
};

// The verbs kevin knows how to describe; any other kevin-* tool found next to
// the driver is listed too, without a description, unless it is internal.
const VerbInfo KnownVerbs[] = {
    {"check", "static anti-reward-hacking checks (Python AST + Clang AST)"},
    {"run", "build a candidate and check it against the reference"},
    {"bench", "time a correct candidate against the reference"},
    {"reward", "scores and discounted per-turn returns"},
    {"grpo", "group advantages and training rows"},
    {"eval", "evaluate many candidates through the whole pipeline"},
    {"rollout", "multi-turn rollouts against a policy"},
    {"search", "spend a budget of kernels: parallel, serial or beam search"},
    {"serve", "the warm reward service RL trainers call over HTTP"},
    {"report", "metrics, tables and an HTML report over a run"},
};

// Tools that kevin's own tools start, not a user: `kevin --help` hides them
// (they still run as `kevin <name>`).
const char *const InternalTools[] = {"worker"};

bool isInternal(const std::string &Verb) {
  return std::find(std::begin(InternalTools), std::end(InternalTools), Verb) !=
         std::end(InternalTools);
}

/// The directory of this binary, from argv[0] when /proc/self/exe is not
/// readable.
std::string selfDirectory(const char *Argv0) {
  std::string Dir = fs::selfExecutableDirectory();
  if (!Dir.empty())
    return Dir;
  std::string Self = Argv0;
  auto Slash = Self.find_last_of('/');
  return Slash == std::string::npos ? "." : Self.substr(0, Slash);
}

bool isExecutable(const std::string &Path) {
  struct stat St;
  return ::stat(Path.c_str(), &St) == 0 && S_ISREG(St.st_mode) &&
         ::access(Path.c_str(), X_OK) == 0;
}

std::vector<std::string> installedVerbs(const std::string &Dir) {
  std::vector<std::string> Verbs;
  if (DIR *D = ::opendir(Dir.c_str())) {
    while (dirent *Entry = ::readdir(D)) {
      std::string Name = Entry->d_name;
      if (Name.rfind("kevin-", 0) == 0 && !isInternal(Name.substr(6)) &&
          isExecutable(Dir + "/" + Name))
        Verbs.push_back(Name.substr(6));
    }
    ::closedir(D);
  }
  std::sort(Verbs.begin(), Verbs.end());
  return Verbs;
}

void printHelp(const std::string &Dir) {
  std::cout << "kevin: the environment and reward side of multi-turn RL for "
               "CUDA kernels\n\n"
               "usage: kevin <verb> [args...]\n"
               "       kevin --version | --help\n\n"
               "'kevin <verb> --help' describes a verb.\n\n"
               "verbs installed here:\n";
  std::vector<std::string> Verbs = installedVerbs(Dir);
  if (Verbs.empty())
    std::cout << "  (none)\n";
  for (const std::string &Verb : Verbs) {
    const char *Purpose = "";
    for (const VerbInfo &Info : KnownVerbs)
      if (Verb == Info.Name)
        Purpose = Info.Purpose;
    std::cout << "  " << Verb << std::string(Verb.size() < 10 ? 10 - Verb.size() : 1, ' ')
              << Purpose << "\n";
  }
}

} // namespace

int main(int Argc, char **Argv) {
  ToolContext Tool("kevin");
  std::string Dir = selfDirectory(Argv[0]);
  if (Argc < 2) {
    Tool.usageError("no verb given");
    return ExitError;
  }
  std::string Verb = Argv[1];
  if (Verb == "--version" || Verb == "version") {
    std::cout << versionText("kevin");
    return ExitClean;
  }
  if (Verb == "--help" || Verb == "-h" || Verb == "help") {
    printHelp(Dir);
    return ExitClean;
  }
  if (Verb.empty() || Verb[0] == '-' || Verb.find('/') != std::string::npos) {
    Tool.usageError("'" + Verb + "' is not a kevin verb");
    return ExitError;
  }
  std::string Program = Dir + "/kevin-" + Verb;
  if (!isExecutable(Program)) {
    Tool.usageError("'" + Verb + "' is not a kevin verb (no '" + Program +
                    "'); see 'kevin --help'");
    return ExitError;
  }
  std::vector<char *> Args;
  std::string Name = "kevin-" + Verb;
  Args.push_back(Name.data());
  for (int I = 2; I < Argc; ++I)
    Args.push_back(Argv[I]);
  Args.push_back(nullptr);
  ::execv(Program.c_str(), Args.data());
  Tool.error(Error::inFile(Program, std::string("cannot execute: ") +
                                        std::strerror(errno)));
  return ExitError;
}
