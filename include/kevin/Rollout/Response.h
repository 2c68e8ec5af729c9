//===-- kevin/Rollout/Response.h - split a model response -------*- C++ -*-===//
//
// A policy's raw answer is markdown: optional chain-of-thought (between
// <think> and </think>, or before a lone </think> when the chat template ate
// the opening tag), prose, one or more fenced code blocks, and a summary of
// the changes after the last block. Kevin's later turns keep the code and the
// summary and drop the chain-of-thought; this splits a response accordingly.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_ROLLOUT_RESPONSE_H
#define KEVIN_ROLLOUT_RESPONSE_H

#include <string>
#include <string_view>

namespace kevin {

struct ParsedResponse {
  /// The chain-of-thought, without the tags ("" when there is none).
  std::string Reasoning;
  /// The body of the final fenced python block (or of the final unlabelled
  /// block when no block is labelled python).
  std::string Code;
  /// The prose after that block, trimmed: the model's summary of changes.
  std::string Summary;
  /// 1-based line of the first code line within the response.
  unsigned CodeLine = 0;
  bool HasCode = false;
  /// Why there is no code, when HasCode is false ("no fenced python code
  /// block", "the last code block is not closed").
  std::string Problem;
};

ParsedResponse parseResponse(std::string_view Text);

} // namespace kevin

#endif // KEVIN_ROLLOUT_RESPONSE_H
