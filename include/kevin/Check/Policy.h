//===-- kevin/Check/Policy.h - what the checker enforces --------*- C++ -*-===//
//
// A policy says which rules run, with which severity, and holds the
// allowlists the rules consult. Policies are TOML; two presets are built in:
// `strict` (the default, every rule of ANTI-HACKING.md §6 that kevin
// implements) and `kevin` (the rules of the Kevin paper: no PyTorch compute,
// no try/except, no inheritance/pass bypass, a CUDA kernel is required).
// A policy file may start from a preset (`preset = "kevin"`) and override
// rules and lists. Candidate files cannot change the policy.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_CHECK_POLICY_H
#define KEVIN_CHECK_POLICY_H

#include "kevin/Support/Config.h"
#include "kevin/Support/Error.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace kevin {

class Policy {
public:
  /// A built-in preset by name (`strict`, `kevin`).
  static Expected<Policy> preset(const std::string &Name);
  /// A policy file; it starts from its `preset` key (default `strict`).
  static Expected<Policy> load(const std::string &Path);
  /// The names of the built-in presets.
  static std::vector<std::string> presetNames();

  const std::string &name() const { return Name; }
  bool enabled(const std::string &Rule) const;
  Severity severity(const std::string &Rule) const;

  /// A named allowlist (`imports`, `forward_torch_calls`, `compute_methods`,
  /// `cuda_flags`, `cxx_flags`, `denied_flags`, `aten_allowed`, ...).
  const std::set<std::string> &list(const std::string &Key) const;
  /// True when Value matches an entry of the list; entries ending in `*`
  /// match by prefix.
  bool matches(const std::string &Key, const std::string &Value) const;

private:
  Error apply(const ConfigFile &File);

  std::string Name;
  std::map<std::string, bool> Enabled;
  std::map<std::string, Severity> Severities;
  std::map<std::string, std::set<std::string>> NamedLists;
};

} // namespace kevin

#endif // KEVIN_CHECK_POLICY_H
