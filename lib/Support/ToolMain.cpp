//===-- ToolMain.cpp - shared command-line plumbing ----------------------===//
//
// Version text and CLI11 parsing with kevin's exit codes.
//
//===----------------------------------------------------------------------===//
#include "kevin/Support/ToolMain.h"
#include "kevin/Support/Error.h"
#include "kevin/Support/Version.h"

#include <iostream>

namespace kevin {

static std::string componentLine(const char *Name, const char *Version) {
  return std::string("  ") + Name + ": " +
         (Version[0] ? Version : "not built") + "\n";
}

std::string versionText(const std::string &ToolName) {
  std::string Text = ToolName + " (kevin) " + KEVIN_VERSION + "\n";
  Text += "built with:\n";
  Text += componentLine("torch", KEVIN_BUILT_TORCH_VERSION);
  Text += componentLine("python", KEVIN_BUILT_PYTHON_VERSION);
  Text += componentLine("clang", KEVIN_BUILT_CLANG_VERSION);
  Text += componentLine("nvcc", KEVIN_BUILT_NVCC_VERSION);
  return Text;
}

std::optional<int> parseCommandLine(CLI::App &App, int Argc, char **Argv) {
  std::string Version = versionText(App.get_name());
  Version.pop_back(); // CLI11 adds the final newline.
  App.set_version_flag("--version", Version);
  try {
    App.parse(Argc, Argv);
  } catch (const CLI::CallForHelp &E) {
    App.exit(E);
    return ExitClean;
  } catch (const CLI::CallForAllHelp &E) {
    App.exit(E);
    return ExitClean;
  } catch (const CLI::CallForVersion &E) {
    App.exit(E);
    return ExitClean;
  } catch (const CLI::ParseError &E) {
    ToolContext(App.get_name()).usageError(E.what());
    return ExitError;
  }
  return std::nullopt;
}

} // namespace kevin
