//===-- kevin/Check/Checker.h - the static anti-hacking checker -*- C++ -*-===//
//
// Checks one candidate without executing it: the Python rules run over the
// candidate's AST (lib/Task), then the translation units load_inline would
// build are parsed with Clang and the CUDA/C++ rules run over them. The
// result is a list of findings positioned in the original file.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_CHECK_CHECKER_H
#define KEVIN_CHECK_CHECKER_H

#include "kevin/Check/CheckPolicy.h"
#include "kevin/Check/Finding.h"
#include "kevin/Task/Candidate.h"

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace kevin {

/// What the checker needs to know about the task's reference file.
struct TaskInfo {
  std::string Path;
  /// Top-level identifiers the reference defines (Model, get_inputs,
  /// batch_size, ...); imports are not included.
  std::set<std::string> ReferenceNames;
  /// The reference names no floating dtype but torch's default float32 (no
  /// float16/bfloat16/float64 dtype, no .half()/.double()): lower-precision
  /// math in a candidate is then a downcast worth a warning.
  bool Fp32 = false;
  /// The integer constants the reference binds at module scope, in every
  /// size profile (batch_size, dim, in_features, ...): its shapes.
  std::set<long long> IntConstants;
  /// For each argument of Model.forward after self: true when the
  /// reference passes a tensor, false when it passes something else (an
  /// int, a float, None), unset when the reference does not tell.
  std::vector<std::optional<bool>> ForwardTensorArgs;
};

/// Reads a reference file and collects its top-level names.
Expected<TaskInfo> loadTaskInfo(const std::string &Path);

/// How the C++/CUDA translation units are parsed.
enum class ParserMode {
  Lean, ///< kevin's built-in declaration prelude only (fast).
  Full, ///< the real torch headers.
  Auto, ///< lean first; the real headers when the lean parse fails.
};

struct CheckOptions {
  ParserMode Parser = ParserMode::Auto;
  /// The torch include directory for full parses (empty: none known).
  std::string TorchInclude;
  /// Extra include directories for the C++/CUDA parse (tests' mock headers).
  std::vector<std::string> ExtraIncludes;
};

struct CheckResult {
  std::vector<Finding> Findings;
  /// Which parser produced the C++ verdict: "lean", "full" or "none".
  std::string ParserUsed = "none";
  /// Why the C++/CUDA parse is incomplete (kevin's limit, not a finding);
  /// empty when it is complete.
  std::string ParseIncomplete;
};

/// The default torch include directory (from the Python kevin was built
/// with), or empty when torch was not found.
std::string defaultTorchInclude();

/// Checks one candidate under a policy. Problems of the candidate itself
/// (syntax errors, no code block, a TU clang cannot parse) are findings;
/// only failures of the tool are an Error.
Expected<CheckResult> checkCandidate(const CandidateSource &Source,
                                     const CheckPolicy &P, const TaskInfo *Task,
                                     const CheckOptions &Options);

/// Sorts findings by position and drops exact duplicates.
void sortFindings(std::vector<Finding> &Findings);

} // namespace kevin

#endif // KEVIN_CHECK_CHECKER_H
