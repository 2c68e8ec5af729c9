//===-- ToolMain.cpp - shared command-line plumbing ----------------------===//
//
// Version text and CLI11 parsing with kevin's exit codes.
//
//===----------------------------------------------------------------------===//
#include "kevin/Support/ToolMain.h"
#include "kevin/Support/Error.h"
#include "kevin/Support/Version.h"

#include <iostream>
#include <sstream>

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

std::vector<std::string> splitCommaList(const std::string &List) {
  std::vector<std::string> Items;
  std::stringstream In(List);
  std::string Item;
  while (std::getline(In, Item, ','))
    if (!Item.empty())
      Items.push_back(Item);
  return Items;
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

/// The text CLI11 would have read for one TOML value, or std::nullopt for a
/// table or a date.
static std::optional<std::string> optionText(const toml::node &Node) {
  if (auto S = Node.value<std::string>())
    return *S;
  if (Node.is_boolean())
    return *Node.value<bool>() ? "true" : "false";
  if (Node.is_integer())
    return std::to_string(*Node.value<int64_t>());
  if (Node.is_floating_point()) {
    std::ostringstream Out;
    Out.precision(17);
    Out << *Node.value<double>();
    return Out.str();
  }
  return std::nullopt;
}

Error applyConfigSection(CLI::App &App, const ConfigFile &File,
                         const std::string &Section) {
  const toml::table *Table = File.table()[Section].as_table();
  if (!Table)
    return Error::success();
  for (const auto &[Key, Node] : *Table) {
    std::string Name(Key.str());
    SourceLocation Where = File.locationOf(Node);
    CLI::Option *Opt = nullptr;
    try {
      Opt = App.get_option("--" + Name);
    } catch (const CLI::OptionNotFound &) {
    }
    if (!Opt || Name == "config" || Name == "help" || Name == "version")
      return Error::at(Where, "unknown key '" + Name + "' in [" + Section +
                                  "] (keys are the long options of " +
                                  App.get_name() + ")");
    if (Opt->count())
      continue; // The command line wins.
    std::vector<std::string> Values;
    if (const toml::array *Array = Node.as_array()) {
      for (const toml::node &Element : *Array)
        if (auto Text = optionText(Element))
          Values.push_back(*Text);
        else
          return Error::at(Where, "'" + Name + "' must be a list of values");
    } else if (auto Text = optionText(Node)) {
      Values.push_back(*Text);
    } else {
      return Error::at(Where, "'" + Name + "' must be a value, not a table");
    }
    try {
      Opt->add_result(Values);
      Opt->run_callback();
    } catch (const CLI::Error &E) {
      return Error::at(Where, "'" + Name + "': " + E.what());
    }
  }
  return Error::success();
}

CLI::Option *addConfigOption(CLI::App &App, std::string &Path,
                             const std::string &Section) {
  return App.add_option("--config", Path,
                        "read options the command line leaves unset from the "
                        "[" + Section + "] table of this TOML file (kevin.toml)");
}

Error applyConfigFile(CLI::App &App, const std::string &Path,
                      const std::string &Section) {
  if (Path.empty())
    return Error::success();
  auto File = ConfigFile::load(Path);
  if (!File)
    return File.error();
  return applyConfigSection(App, *File, Section);
}

} // namespace kevin
