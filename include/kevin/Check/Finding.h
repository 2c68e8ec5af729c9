//===-- kevin/Check/Finding.h - findings and the rule catalog ---*- C++ -*-===//
//
// A finding is one rule violation at a position in the original candidate
// file. Every rule has a descriptive id (`kevin-py-try-except`), the id of
// the catalog entry it implements (KEVIN-PY-003 in ANTI-HACKING.md §6), a
// one-line summary and, where one exists, a one-line fix hint.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_CHECK_FINDING_H
#define KEVIN_CHECK_FINDING_H

#include "kevin/Support/Error.h"
#include "kevin/Support/Record.h"
#include "kevin/Task/CandidateLimits.h"

#include <string>
#include <vector>

namespace kevin {

/// Which tree a rule reads.
enum class RuleKind {
  Python, ///< The candidate's Python AST.
  Cuda,   ///< The Clang AST of the C++/CUDA sources load_inline builds.
};

/// A rule of the checker (a row of lib/Check/Rules.def).
struct RuleInfo {
  const char *Id;        ///< `kevin-py-try-except`
  const char *CatalogId; ///< `KEVIN-PY-003`
  const char *Summary;   ///< What the rule rejects, lowercase.
  const char *Hint;      ///< A one-line fix hint, or "".
  RuleKind Kind;         ///< Cuda rules need the Clang parse.
};

/// Every implemented rule, in catalog order.
const std::vector<RuleInfo> &ruleCatalog();
/// The rule with this id, or null.
const RuleInfo *findRule(const std::string &Id);

/// One violation.
struct Finding {
  std::string Rule;
  std::string CatalogId;
  Severity Sev = Severity::Error;
  SourceLocation Loc;
  std::string Message;
  std::string Hint;
};

/// The finding of a candidate over one of kevin's limits (E from
/// limitError, kevin/Task/CandidateLimits.h): an error whatever the policy,
/// its rule the limit's id, its hint the policy key that raises the limit.
/// Path is its file when E names none.
Finding limitFinding(const Error &E, const LimitInfo &Limit,
                     const std::string &Path);

/// `file:line:col: error: message [rule]` and, when there is a hint,
/// a second line `file:line:col: note: hint`.
std::string formatFinding(const Finding &F);
/// The JSON form of a finding (the `check.findings` items of a record).
Json findingToJson(const Finding &F);
/// The finding findingToJson wrote J from.
Finding findingFromJson(const Json &J);

} // namespace kevin

#endif // KEVIN_CHECK_FINDING_H
