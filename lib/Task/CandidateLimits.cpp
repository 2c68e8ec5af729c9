//===-- CandidateLimits.cpp - what one candidate may cost -----------------===//
//
// The table of limits, their defaults, and the diagnostics of a candidate
// over one. Needs no interpreter: kevin-run refuses an over-size candidate
// too.
//
//===----------------------------------------------------------------------===//
#include "kevin/Task/CandidateLimits.h"

#include <filesystem>

namespace kevin {

const std::vector<LimitInfo> &limitCatalog() {
  static const std::vector<LimitInfo> Limits = {
      {LimitKind::CandidateBytes, "kevin-limit-candidate-size",
       "candidate_bytes", 1u << 20,
       "bytes of the candidate as given: a file, a record's code or response"},
      {LimitKind::AstNodes, "kevin-limit-ast-nodes", "ast_nodes", 100000,
       "nodes of the candidate's python tree"},
      {LimitKind::NestingDepth, "kevin-limit-nesting-depth", "nesting_depth",
       100, "levels of nesting of the candidate's python tree"},
      {LimitKind::CheckSeconds, "kevin-limit-check-time", "check_seconds", 300,
       "seconds kevin-check spends on one candidate"},
      {LimitKind::CheckMemoryMiB, "kevin-limit-check-memory",
       "check_memory_mib", 4096,
       "address space (MiB) kevin-check uses while it checks one candidate"},
  };
  return Limits;
}

const LimitInfo &limitInfo(LimitKind Kind) {
  return limitCatalog()[static_cast<size_t>(Kind)];
}

const LimitInfo *findLimit(const std::string &Id) {
  for (const LimitInfo &L : limitCatalog())
    if (Id == L.Id)
      return &L;
  return nullptr;
}

const LimitInfo *findLimitByKey(const std::string &Key) {
  for (const LimitInfo &L : limitCatalog())
    if (Key == L.Key)
      return &L;
  return nullptr;
}

CandidateLimits::CandidateLimits() {
  for (const LimitInfo &L : limitCatalog())
    set(L.Kind, L.Default);
}

static std::string idSuffix(const LimitInfo &L) {
  return std::string(" [") + L.Id + "]";
}

Error limitError(LimitKind Kind, SourceLocation Loc,
                 const std::string &Message) {
  return Error::at(std::move(Loc), Message + idSuffix(limitInfo(Kind)),
                   ErrorKind::InvalidInput);
}

const LimitInfo *exceededLimit(const Error &E) {
  if (!E || E.kind() != ErrorKind::InvalidInput)
    return nullptr;
  const std::string &M = E.message();
  for (const LimitInfo &L : limitCatalog()) {
    std::string Suffix = idSuffix(L);
    if (M.size() > Suffix.size() &&
        M.compare(M.size() - Suffix.size(), Suffix.size(), Suffix) == 0)
      return &L;
  }
  return nullptr;
}

std::string limitMessage(const Error &E) {
  const LimitInfo *L = exceededLimit(E);
  if (!L)
    return E.message();
  return E.message().substr(0, E.message().size() - idSuffix(*L).size());
}

uint64_t candidateBytes(const std::string &Path, const std::string &Code) {
  if (Path.empty())
    return Code.size();
  std::error_code NotSized;
  uintmax_t Bytes = std::filesystem::file_size(Path, NotSized);
  return NotSized ? 0 : Bytes;
}

Error checkCandidateSize(const std::string &Path, uint64_t Bytes,
                         const CandidateLimits &Limits) {
  uint64_t Max = Limits[LimitKind::CandidateBytes];
  if (Bytes <= Max)
    return Error::success();
  return limitError(LimitKind::CandidateBytes, {Path, 1, 1},
                    "the candidate is " + std::to_string(Bytes) +
                        " bytes, more than the limit of " +
                        std::to_string(Max));
}

} // namespace kevin
