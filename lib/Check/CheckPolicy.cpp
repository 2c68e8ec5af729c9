//===-- CheckPolicy.cpp - what the checker enforces -----------------------===//
//
// A preset's rule settings are its column of Rules.def; its lists are a TOML
// file compiled into the binary (lib/Check/presets). A policy file is applied
// on top of the preset it names.
//
//===----------------------------------------------------------------------===//
#include "kevin/Check/CheckPolicy.h"
#include "kevin/Check/Finding.h"

#include <algorithm>
#include <iterator>
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

/// A rule's setting in a built-in preset.
enum class RuleSetting { Off, Warning, Error };

/// The built-in presets Rules.def gives rule settings for, in the order of
/// its columns.
const char *const SettingColumns[] = {"cpu", "kevin", "strict"};

/// A row of Rules.def: a rule and its setting in each built-in preset.
struct RuleSettingsRow {
  const char *Rule;
  RuleSetting Settings[std::size(SettingColumns)];
};

const RuleSettingsRow RuleSettings[] = {
#define RULE(Id, Kind, CatalogId, Summary, Hint, Cpu, Kevin, Strict)           \
  {Id, {RuleSetting::Cpu, RuleSetting::Kevin, RuleSetting::Strict}},
#include "Rules.def"
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

std::vector<std::string> CheckPolicy::presetNames() {
  std::vector<std::string> Names;
  for (const PresetText &P : Presets)
    Names.push_back(P.Name);
  return Names;
}

Expected<CheckPolicy> CheckPolicy::preset(const std::string &Name) {
  for (const PresetText &P : Presets) {
    if (Name != P.Name)
      continue;
    Expected<ConfigFile> File =
        ConfigFile::parse(P.Text, "<preset " + Name + ">");
    if (!File)
      return File.error();
    // A built-in preset's rule settings come from Rules.def alone.
    if (const toml::node *Rules = File->table().get("rules"))
      return Error::at(File->locationOf(*Rules),
                       "a built-in preset sets no rules: they are columns of "
                       "lib/Check/Rules.def",
                       ErrorKind::Internal);
    CheckPolicy Result;
    Result.Name = Name;
    if (Error E = Result.applyRulesDef(Name))
      return E;
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

Expected<CheckPolicy> CheckPolicy::load(const std::string &Path) {
  Expected<ConfigFile> File = ConfigFile::load(Path);
  if (!File)
    return File.error();
  Expected<std::optional<std::string>> Base = File->getString("preset");
  if (!Base)
    return Base.error();
  Expected<CheckPolicy> Result = preset(Base->value_or("strict"));
  if (!Result)
    return Result.error().withContext(Path);
  Result->Name = Path;
  if (Error E = Result->apply(*File))
    return E;
  return Result;
}

Error CheckPolicy::applyRulesDef(const std::string &Preset) {
  const auto *Column =
      std::find_if(std::begin(SettingColumns), std::end(SettingColumns),
                   [&](const char *Name) { return Preset == Name; });
  if (Column == std::end(SettingColumns))
    return Error::make("built-in preset '" + Preset +
                           "' has no column in lib/Check/Rules.def",
                       ErrorKind::Internal);
  size_t Index = Column - std::begin(SettingColumns);
  for (const RuleSettingsRow &Row : RuleSettings) {
    RuleSetting Setting = Row.Settings[Index];
    Enabled[Row.Rule] = Setting != RuleSetting::Off;
    if (Setting != RuleSetting::Off)
      Severities[Row.Rule] =
          Setting == RuleSetting::Error ? Severity::Error : Severity::Warning;
  }
  return Error::success();
}

Error CheckPolicy::apply(const ConfigFile &File) {
  if (Error E =
          File.rejectUnknownKeys("", {"preset", "rules", "lists", "limits"}))
    return E;
  if (Error E = applyLimits(File))
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
      NamedLists[Name] =
          std::set<std::string>((*Items)->begin(), (*Items)->end());
    }
  }
  return Error::success();
}

Error CheckPolicy::applyLimits(const ConfigFile &File) {
  const toml::node *Table = File.table().get("limits");
  if (!Table)
    return Error::success();
  if (!Table->is_table())
    return Error::at(File.locationOf(*Table), "'limits' must be a table");
  for (const auto &[Key, Node] : *Table->as_table()) {
    std::string Name(Key.str());
    const LimitInfo *Limit = findLimitByKey(Name);
    if (!Limit)
      return Error::at(File.locationOf(Node), "unknown limit '" + Name + "'");
    const auto *Value = Node.as_integer();
    if (!Value || Value->get() <= 0)
      return Error::at(File.locationOf(Node),
                       "limit '" + Name + "' must be a positive integer");
    Limits.set(Limit->Kind, static_cast<uint64_t>(Value->get()));
  }
  return Error::success();
}

bool CheckPolicy::enabled(const std::string &Rule) const {
  auto It = Enabled.find(Rule);
  return It == Enabled.end() ? false : It->second;
}

Severity CheckPolicy::severity(const std::string &Rule) const {
  auto It = Severities.find(Rule);
  return It == Severities.end() ? Severity::Error : It->second;
}

const std::set<std::string> &CheckPolicy::list(const std::string &Key) const {
  static const std::set<std::string> Empty;
  auto It = NamedLists.find(Key);
  return It == NamedLists.end() ? Empty : It->second;
}

bool CheckPolicy::matches(const std::string &Key,
                          const std::string &Value) const {
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
