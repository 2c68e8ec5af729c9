//===-- kevin/Task/ModelResponse.h - the code in a model response -*- C++ -*-===//
//
// A policy's raw answer is markdown: optional chain-of-thought (between
// <think> and </think>, or before a lone </think> when the chat template ate
// the opening tag), prose, one or more fenced code blocks, and a summary of
// the changes after the last block. This is kevin's one reading of such an
// answer; kevin-check, kevin-run, kevin rollout and kevin serve all take a
// response's candidate from here.
//
// The candidate is the body of the final fenced block tagged python (`python`,
// `py`, `python3`, any case), or of the final untagged block when no block is
// tagged python. A response with no such block, whose final such block is
// empty, whose final such block is not closed (a truncated answer) or that
// ends inside <think> has no code: that is a format failure, and Problem
// says which.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_TASK_MODELRESPONSE_H
#define KEVIN_TASK_MODELRESPONSE_H

#include "kevin/Support/Record.h"

#include <string>
#include <string_view>

namespace kevin {

struct ParsedResponse {
  /// The chain-of-thought, without the tags ("" when there is none).
  std::string Reasoning;
  /// The body of the chosen block, each line ending in '\n'.
  std::string Code;
  /// The prose after that block, trimmed: the model's summary of changes.
  std::string Summary;
  /// 1-based line of the first code line within the response.
  unsigned CodeLine = 0;
  bool HasCode = false;
  /// Why there is no code, when HasCode is false.
  std::string Problem;
};

ParsedResponse parseResponse(std::string_view Text);

/// For a record that carries a string `response` and neither
/// `candidate_path` nor `code`: writes the code of the response into `code`.
/// Returns the format problem when the response has no code, else "" (also
/// for a record that needs no extraction).
std::string fillCodeFromResponse(Json &Record);

} // namespace kevin

#endif // KEVIN_TASK_MODELRESPONSE_H
