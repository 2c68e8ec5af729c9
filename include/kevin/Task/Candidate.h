//===-- kevin/Task/Candidate.h - the text of a candidate --------*- C++ -*-===//
//
// A candidate is the Python file a policy produced: either a `.py` in
// KernelBench `ModelNew` form or a raw model response (markdown or text) from
// which the final fenced python block is taken, skipping `<think>` sections.
// The candidate remembers how many lines precede the code in the original
// file, so that every diagnostic points into the file the user gave.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_TASK_CANDIDATE_H
#define KEVIN_TASK_CANDIDATE_H

#include "kevin/Support/Error.h"
#include "kevin/Task/CandidateLimits.h"

#include <string>
#include <string_view>

namespace kevin {

/// Python source text and where it came from.
struct CandidateSource {
  std::string Path;        ///< The original file, for diagnostics.
  std::string Text;        ///< The Python code.
  unsigned LineOffset = 0; ///< Lines of the original file before Text.
};

/// True when Text is well-formed UTF-8; otherwise ErrorOffset is set to the
/// first bad byte.
bool isValidUtf8(std::string_view Text, size_t &ErrorOffset);

/// Checks a candidate text read from Path: UTF-8, no NUL byte.
Error validateCandidateText(const std::string &Text, const std::string &Path);

/// Reads a file as a candidate text ("-" is stdin). A file larger than the
/// candidate-size limit is a limitError, and is not read.
Expected<std::string> readCandidateFile(const std::string &Path,
                                        const CandidateLimits &Limits = {});

} // namespace kevin

#endif // KEVIN_TASK_CANDIDATE_H
