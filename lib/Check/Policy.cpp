//===-- Policy.cpp - what the checker enforces ----------------------------===//
//
// Presets are TOML files compiled into the binary (lib/Check/presets); a
// policy file is applied on top of the preset it names.
//
//===----------------------------------------------------------------------===//
#include "kevin/Check/Policy.h"
#include "kevin/Check/Finding.h"

#include <utility>

namespace kevin {

namespace {

struct PresetText {
  const char *Name;
  const char *Text;
};

const PresetText Presets[] = {
#include "Presets.inc"
};

const char *const ListKeys[] = {
    "imports",    "forward_torch_calls", "compute_methods",
    "load_inline_arguments", "cxx_flags", "cuda_flags",
    "aten_allowed"};

bool isListKey(const std::string &Key) {
  for (const char *K : ListKeys)
    if (Key == K)
      return true;
  return false;
}

} // namespace

std::vector<std::string> Policy::presetNames() {
  std::vector<std::string> Names;
  for (const PresetText &P : Presets)
    Names.push_back(P.Name);
  return Names;
}

Expected<Policy> Policy::preset(const std::string &Name) {
  for (const PresetText &P : Presets) {
    if (Name != P.Name)
      continue;
    Expected<ConfigFile> File =
        ConfigFile::parse(P.Text, "<preset " + Name + ">");
    if (!File)
      return File.error();
    Policy Result;
    Result.Name = Name;
    if (Error E = Result.apply(*File))
      return E;
    return Result;
  }
  std::string Known;
  for (const PresetText &P : Presets)
    Known += std::string(Known.empty() ? "" : ", ") + P.Name;
  return Error::make("unknown policy preset '" + Name + "' (known: " + Known +
                     ")");
}

Expected<Policy> Policy::load(const std::string &Path) {
  Expected<ConfigFile> File = ConfigFile::load(Path);
  if (!File)
    return File.error();
  Expected<std::optional<std::string>> Base = File->getString("preset");
  if (!Base)
    return Base.error();
  Expected<Policy> Result = preset(Base->value_or("strict"));
  if (!Result)
    return Result.error().withContext(Path);
  Result->Name = Path;
  if (Error E = Result->apply(*File))
    return E;
  return Result;
}

Error Policy::apply(const ConfigFile &File) {
  if (Error E = File.rejectUnknownKeys("", {"preset", "rules", "lists"}))
    return E;
  if (const toml::table *Rules = File.table()["rules"].as_table()) {
    for (const auto &[Key, Node] : *Rules) {
      std::string Rule(Key.str());
      if (!findRule(Rule))
        return Error::at(File.locationOf(Node), "unknown rule '" + Rule + "'");
      const auto *Value = Node.as_string();
      std::string Setting = Value ? Value->get() : "";
      if (Setting == "off") {
        Enabled[Rule] = false;
      } else if (Setting == "error" || Setting == "warning") {
        Enabled[Rule] = true;
        Severities[Rule] =
            Setting == "error" ? Severity::Error : Severity::Warning;
      } else {
        return Error::at(File.locationOf(Node),
                         "rule '" + Rule +
                             "' must be \"error\", \"warning\" or \"off\"");
      }
    }
  }
  if (const toml::table *Lists = File.table()["lists"].as_table()) {
    for (const auto &[Key, Node] : *Lists) {
      std::string Name(Key.str());
      if (!isListKey(Name))
        return Error::at(File.locationOf(Node), "unknown list '" + Name + "'");
      Expected<std::optional<std::vector<std::string>>> Items =
          File.getStringArray("lists." + Name);
      if (!Items)
        return Items.error();
      NamedLists[Name] = std::set<std::string>((*Items)->begin(), (*Items)->end());
    }
  }
  return Error::success();
}

bool Policy::enabled(const std::string &Rule) const {
  auto It = Enabled.find(Rule);
  return It == Enabled.end() ? false : It->second;
}

Severity Policy::severity(const std::string &Rule) const {
  auto It = Severities.find(Rule);
  return It == Severities.end() ? Severity::Error : It->second;
}

const std::set<std::string> &Policy::list(const std::string &Key) const {
  static const std::set<std::string> Empty;
  auto It = NamedLists.find(Key);
  return It == NamedLists.end() ? Empty : It->second;
}

bool Policy::matches(const std::string &Key, const std::string &Value) const {
  for (const std::string &Entry : list(Key)) {
    if (!Entry.empty() && Entry.back() == '*') {
      if (Value.compare(0, Entry.size() - 1, Entry, 0, Entry.size() - 1) == 0)
        return true;
    } else if (Entry == Value) {
      return true;
    }
  }
  return false;
}

} // namespace kevin
