//===-- kevin/Build/DiagnosticMapper.h - errors to .py lines ----*- C++ -*-===//
//
// A candidate passes its C++/CUDA sources to load_inline as Python strings,
// so `main.cpp:14:5: error: ...` means nothing to the model that wrote them.
// The mapper knows where each source string starts inside the unit kevin
// wrote, finds that string in the candidate's .py text, and rewrites the
// position to `cand.py:<line>:<col>`. A position it cannot place (the string
// was built at run time, or escapes changed its text) is kept as
// `<source N>:line:col`, which says so.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_BUILD_DIAGNOSTICMAPPER_H
#define KEVIN_BUILD_DIAGNOSTICMAPPER_H

#include "kevin/Build/Builder.h"

#include <string>

namespace kevin {

class DiagnosticMapper {
public:
  /// Unit is the translation unit as written to disk at UnitPath.
  DiagnosticMapper(const TranslationUnit &Unit, std::string UnitPath,
                   const std::string &OriginPath,
                   const std::string &OriginText);

  /// Rewrites every `UnitPath:line[:col]` in compiler output. Lines that
  /// refer to other files (torch headers, the other unit) are kept as they
  /// are.
  std::string map(const std::string &CompilerOutput) const;

  /// The candidate line for a unit line, or 0 when it cannot be placed.
  unsigned mapLine(unsigned UnitLine) const;

private:
  struct Piece {
    unsigned UnitLine;   ///< First line of the piece in the unit.
    unsigned OriginLine; ///< Its first line in the .py, 0 if not found.
    unsigned Index;      ///< Which source string (for the fallback label).
  };
  const Piece *pieceFor(unsigned UnitLine) const;
  std::vector<Piece> Pieces;
  std::string UnitPath;
  std::string UnitText;
  std::string OriginPath;
  std::string OriginText;
};

/// Keeps the first Limit bytes of Text (on a line boundary when possible)
/// and says how much was cut.
std::string truncateMessage(const std::string &Text, size_t Limit);

} // namespace kevin

#endif // KEVIN_BUILD_DIAGNOSTICMAPPER_H
