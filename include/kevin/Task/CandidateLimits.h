//===-- kevin/Task/CandidateLimits.h - bounds on one candidate --*- C++ -*-===//
//
// kevin bounds the work one candidate can make it do: the candidate's bytes,
// the nodes and the nesting depth of its Python tree, and kevin-check's time
// and memory on it. Each limit has an id (`kevin-limit-candidate-size`), a
// key of a check policy's [limits] table (`candidate_bytes`) and a default.
// A candidate over a limit is refused with one diagnostic that ends in the
// limit's id, as a rule's finding ends in the rule's:
//
//   big.py:1:1: error: the candidate is 2097152 bytes, more than the limit
//   of 1048576 [kevin-limit-candidate-size]
//
// never with a crash, a hang or a missing record. Limits are not rules of
// Rules.def: they bound kevin's own work rather than judge the candidate, so
// they cannot be switched off or made warnings, only set.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_TASK_CANDIDATELIMITS_H
#define KEVIN_TASK_CANDIDATELIMITS_H

#include "kevin/Support/Error.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace kevin {

enum class LimitKind {
  CandidateBytes, ///< bytes of the candidate as given (file, code, response)
  AstNodes,       ///< nodes of its Python tree
  NestingDepth,   ///< nesting depth of its Python tree
  CheckSeconds,   ///< kevin-check's wall-clock seconds on it
  CheckMemoryMiB, ///< kevin-check's address space while it checks it, MiB
};

/// One limit: its id, its policy key, its default and what it bounds.
struct LimitInfo {
  LimitKind Kind;
  const char *Id;  ///< `kevin-limit-candidate-size`
  const char *Key; ///< `candidate_bytes`, in a check policy's [limits]
  uint64_t Default;
  const char *Summary; ///< lowercase, one line
};

/// Every limit, in LimitKind order.
const std::vector<LimitInfo> &limitCatalog();
const LimitInfo &limitInfo(LimitKind Kind);
/// The limit with this id, or null.
const LimitInfo *findLimit(const std::string &Id);
/// The limit with this policy key, or null.
const LimitInfo *findLimitByKey(const std::string &Key);

/// The value of every limit: the defaults until set.
class CandidateLimits {
public:
  CandidateLimits();
  uint64_t operator[](LimitKind Kind) const {
    return Values[static_cast<size_t>(Kind)];
  }
  void set(LimitKind Kind, uint64_t Value) {
    Values[static_cast<size_t>(Kind)] = Value;
  }

private:
  std::array<uint64_t, 5> Values;
};

/// The error of a candidate over a limit: at Loc, Message followed by the
/// limit's id in brackets, of kind InvalidInput.
Error limitError(LimitKind Kind, SourceLocation Loc,
                 const std::string &Message);
/// The limit an error made by limitError is about; null for any other.
const LimitInfo *exceededLimit(const Error &E);
/// The message of an error made by limitError, without the id.
std::string limitMessage(const Error &E);

/// The bytes of a candidate: the size of the file at Path, or of Code when
/// Path is empty (0 for a file that cannot be sized).
uint64_t candidateBytes(const std::string &Path, const std::string &Code);

/// An error (kevin-limit-candidate-size, at Path:1:1) when a candidate of
/// Bytes bytes is over its limit.
Error checkCandidateSize(const std::string &Path, uint64_t Bytes,
                         const CandidateLimits &Limits);

} // namespace kevin

#endif // KEVIN_TASK_CANDIDATELIMITS_H
