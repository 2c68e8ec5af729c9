//===-- kevin/Task/LoadInline.h - load_inline calls, resolved ---*- C++ -*-===//
//
// Finds the `load_inline(...)` calls of a candidate and resolves their
// arguments statically: string literals, names bound once at module scope,
// `+` of those and implicit concatenation. Every byte of a resolved source
// keeps the position of the Python character that produced it, so a
// diagnostic inside a CUDA string points at the right .py line and column.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_TASK_LOADINLINE_H
#define KEVIN_TASK_LOADINLINE_H

#include "kevin/Task/PythonModule.h"

#include <optional>
#include <string>
#include <vector>

namespace kevin {

/// A string built from string constants, with each byte's origin.
class MappedText {
public:
  /// A run of bytes starting at Offset that come from consecutive columns
  /// of one source line.
  struct Run {
    size_t Offset;
    unsigned Line;   ///< Line in the Python text (before LineOffset).
    unsigned Column; ///< 0-based byte column.
  };

  const std::string &text() const { return Text; }
  const std::vector<Run> &runs() const { return Runs; }
  /// Appends another mapped text.
  void append(const MappedText &Other);
  /// Appends text that has no position of its own (it maps to Fallback).
  void appendSynthetic(const std::string &S, unsigned Line, unsigned Column);
  /// Builds the text of a str constant node (its "map" from ast_dump.py).
  static MappedText fromConstant(const PyNode &Node);
  /// The Python (line, byte column) of a byte of the text.
  std::pair<unsigned, unsigned> origin(size_t Offset) const;

private:
  std::string Text;
  std::vector<Run> Runs;
};

/// Why a load_inline argument could not be resolved.
struct UnresolvedArgument {
  const PyNode *Node;  ///< The expression that stopped resolution.
  std::string Message; ///< Lowercase reason.
};

/// A string argument resolved to text (or not).
struct ResolvedString {
  std::optional<MappedText> Value;
  std::optional<UnresolvedArgument> Failure;
};

/// A string list argument (`functions=`, flags): each element resolved.
struct ResolvedList {
  std::vector<std::pair<std::string, const PyNode *>> Items;
  std::optional<UnresolvedArgument> Failure;
};

/// One `load_inline(...)` call of the candidate.
struct LoadInlineCall {
  const PyNode *Call = nullptr;
  /// The module-level name the result is bound to (`ext = load_inline(...)`),
  /// empty when it is not a plain module-level assignment.
  std::string BoundName;
  /// Keyword arguments by name; positional arguments are named after
  /// load_inline's signature (name, cpp_sources, cuda_sources, functions...).
  std::vector<std::pair<std::string, const PyNode *>> Arguments;

  const PyNode *argument(const std::string &Name) const;
};

/// Every call of load_inline in the module (anywhere, in source order).
std::vector<LoadInlineCall> findLoadInlineCalls(const PythonModule &M);

/// Resolves a string expression (a literal, a module-level name bound once
/// to a resolvable expression, `a + b`, or a list of those joined by
/// newlines as load_inline does for lists of sources).
ResolvedString resolveString(const PythonModule &M, const PyNode &Expr);

/// Resolves a list of strings (or a single string, as load_inline allows).
ResolvedList resolveStringList(const PythonModule &M, const PyNode &Expr);

} // namespace kevin

#endif // KEVIN_TASK_LOADINLINE_H
