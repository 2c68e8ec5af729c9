//===-- kevin/Check/CheckPolicy.h - what the checker enforces ---*- C++ -*-===//
//
// A check policy says which rules run, with which severity, and holds the
// allowlists the rules consult. Policies are TOML; three presets are built
// in: `strict` (the default, every rule of ANTI-HACKING.md §6 that kevin
// implements), `kevin` (the rules of the Kevin paper: no PyTorch compute,
// no try/except, no inheritance/pass bypass, a CUDA kernel is required) and
// `cpu` (strict without the CUDA-kernel requirements). A preset's rule
// settings are its column of lib/Check/Rules.def, so every rule has one; its
// lists are lib/Check/presets/<preset>.toml. A policy file may start from a
// preset (`preset = "kevin"`) and override rules, lists and limits (what
// one candidate may cost, kevin/Task/CandidateLimits.h; every preset has the
// defaults). Candidate files cannot change the policy. (Not to be confused with the LLM policy of
// kevin/Rollout/Policy.h.)
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_CHECK_CHECKPOLICY_H
#define KEVIN_CHECK_CHECKPOLICY_H

#include "kevin/Support/Config.h"
#include "kevin/Support/Error.h"
#include "kevin/Task/CandidateLimits.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace kevin {

class CheckPolicy {
public:
  /// A built-in preset by name (`strict`, `kevin`, `cpu`).
  static Expected<CheckPolicy> preset(const std::string &Name);
  /// A policy file; it starts from its `preset` key (default `strict`).
  static Expected<CheckPolicy> load(const std::string &Path);
  /// The names of the built-in presets.
  static std::vector<std::string> presetNames();

  const std::string &name() const { return Name; }
  /// Whether Rule runs. Every rule of the catalog has a setting: a preset
  /// gives each one, and a policy file overrides some.
  bool enabled(const std::string &Rule) const;
  Severity severity(const std::string &Rule) const;

  /// A named allowlist (`imports`, `forward_torch_calls`, `compute_methods`,
  /// `cuda_flags`, `cxx_flags`, `denied_flags`, `aten_allowed`, ...).
  const std::set<std::string> &list(const std::string &Key) const;
  /// True when Value matches an entry of the list; entries ending in `*`
  /// match by prefix.
  bool matches(const std::string &Key, const std::string &Value) const;

  /// The limits on one candidate: the defaults, and a policy file's
  /// [limits] over them.
  const CandidateLimits &limits() const { return Limits; }

private:
  /// Sets every rule as Rules.def's column for the built-in preset says.
  Error applyRulesDef(const std::string &Preset);
  /// Applies a policy file's (or a preset's) rules, lists and limits.
  Error apply(const ConfigFile &File);
  Error applyLimits(const ConfigFile &File);

  std::string Name;
  std::map<std::string, bool> Enabled;
  std::map<std::string, Severity> Severities;
  std::map<std::string, std::set<std::string>> NamedLists;
  CandidateLimits Limits;
};

} // namespace kevin

#endif // KEVIN_CHECK_CHECKPOLICY_H
