//===-- DiagnosticMapper.cpp - compiler errors to .py lines ---------------===//
//
// Finds each source string of a unit in the candidate's text and rewrites
// compiler positions (`unit:L:C:` from g++, `unit(L):` from nvcc) to it.
//
//===----------------------------------------------------------------------===//
#include "kevin/Build/DiagnosticMapper.h"

#include <algorithm>
#include <sstream>

namespace kevin {

namespace {

unsigned lineOfOffset(const std::string &Text, size_t Offset) {
  return 1 + static_cast<unsigned>(
                 std::count(Text.begin(), Text.begin() + Offset, '\n'));
}

std::string trim(const std::string &S) {
  size_t B = S.find_first_not_of(" \t\r");
  if (B == std::string::npos)
    return "";
  size_t E = S.find_last_not_of(" \t\r");
  return S.substr(B, E - B + 1);
}

/// The 1-based line Line of Text, without its newline.
std::string lineOf(const std::string &Text, unsigned Line) {
  size_t Pos = 0;
  for (unsigned I = 1; I < Line; ++I) {
    Pos = Text.find('\n', Pos);
    if (Pos == std::string::npos)
      return "";
    ++Pos;
  }
  size_t End = Text.find('\n', Pos);
  return Text.substr(Pos, End == std::string::npos ? End : End - Pos);
}

} // namespace

DiagnosticMapper::DiagnosticMapper(const TranslationUnit &Unit,
                                   std::string UnitPath,
                                   const std::string &OriginPath,
                                   const std::string &OriginText)
    : UnitPath(std::move(UnitPath)), OriginPath(OriginPath) {
  unsigned Index = 0;
  for (const auto &[UnitLine, Text] : Unit.Pieces) {
    Piece P{UnitLine, 0, Index++};
    if (!Text.empty() && !OriginText.empty()) {
      size_t At = OriginText.find(Text);
      // Only a unique occurrence places the piece unambiguously.
      if (At != std::string::npos &&
          OriginText.find(Text, At + 1) == std::string::npos)
        P.OriginLine = lineOfOffset(OriginText, At);
    }
    Pieces.push_back(P);
  }
  UnitText = Unit.Text;
  this->OriginText = OriginText;
}

const DiagnosticMapper::Piece *
DiagnosticMapper::pieceFor(unsigned UnitLine) const {
  const Piece *Found = nullptr;
  for (const Piece &P : Pieces)
    if (P.UnitLine <= UnitLine)
      Found = &P;
  return Found;
}

unsigned DiagnosticMapper::mapLine(unsigned UnitLine) const {
  const Piece *P = pieceFor(UnitLine);
  if (!P)
    return 0;
  if (P->OriginLine)
    return P->OriginLine + (UnitLine - P->UnitLine);
  // The whole string was not found verbatim (escapes, run-time text): place
  // the single line when its text occurs exactly once in the candidate.
  std::string Wanted = trim(lineOf(UnitText, UnitLine));
  if (Wanted.size() < 8)
    return 0;
  size_t At = OriginText.find(Wanted);
  if (At == std::string::npos ||
      OriginText.find(Wanted, At + 1) != std::string::npos)
    return 0;
  return lineOfOffset(OriginText, At);
}

std::string DiagnosticMapper::map(const std::string &CompilerOutput) const {
  std::istringstream In(CompilerOutput);
  std::string Line, Out;
  // g++ quotes the offending line as `   9 |   code`; renumber the quote
  // by the shift of the diagnostic above it.
  long Shift = 0;
  bool HaveShift = false;
  while (std::getline(In, Line)) {
    size_t Bar = Line.find(" | ");
    if (HaveShift && Bar != std::string::npos && Bar > 0) {
      size_t Begin = Line.find_first_not_of(' ');
      if (Begin < Bar && Line.find_first_not_of("0123456789", Begin) == Bar) {
        long Quoted = std::stol(Line.substr(Begin, Bar - Begin)) + Shift;
        std::string Number = std::to_string(Quoted);
        std::string Padded =
            Number.size() < Bar ? std::string(Bar - Number.size(), ' ') + Number
                                : Number;
        Line = Padded + Line.substr(Bar);
      }
    }
    size_t At = Line.find(UnitPath);
    if (At != std::string::npos) {
      size_t After = At + UnitPath.size();
      // g++: path:L[:C]: ...   nvcc: path(L): ...
      bool Paren = After < Line.size() && Line[After] == '(';
      bool Colon = After < Line.size() && Line[After] == ':';
      size_t NumBegin = After + 1, NumEnd = NumBegin;
      while (NumEnd < Line.size() &&
             isdigit(static_cast<unsigned char>(Line[NumEnd])))
        ++NumEnd;
      if ((Paren || Colon) && NumEnd > NumBegin) {
        unsigned UnitLine =
            std::stoul(Line.substr(NumBegin, NumEnd - NumBegin));
        size_t Rest = Paren && NumEnd < Line.size() && Line[NumEnd] == ')'
                          ? NumEnd + 1
                          : NumEnd;
        std::string Position;
        if (unsigned Mapped = mapLine(UnitLine)) {
          Position = OriginPath + ":" + std::to_string(Mapped);
          Shift = static_cast<long>(Mapped) - static_cast<long>(UnitLine);
          HaveShift = true;
        } else {
          HaveShift = false;
          const Piece *P = pieceFor(UnitLine);
          Position = OriginPath + ":<" +
                     (P ? "source " + std::to_string(P->Index + 1) + " line " +
                              std::to_string(UnitLine - P->UnitLine + 1)
                        : "generated line " + std::to_string(UnitLine)) +
                     ", not found in the candidate>";
        }
        std::string Tail = Line.substr(Rest);
        // nvcc writes `(L): error`; make it `:L: error` like g++.
        if (Paren && !Tail.empty() && Tail[0] != ':')
          Tail = ":" + Tail;
        Line = Line.substr(0, At) + Position + Tail;
      } else {
        Line = Line.substr(0, At) + OriginPath + Line.substr(After);
      }
    } else if (Bar == std::string::npos &&
               Line.find(": ") != std::string::npos) {
      // A diagnostic about another file: its quotes are not ours.
      HaveShift = false;
    }
    Out += Line + "\n";
  }
  return Out;
}

std::string truncateMessage(const std::string &Text, size_t Limit) {
  if (Text.size() <= Limit)
    return Text;
  size_t Cut = Text.rfind('\n', Limit);
  if (Cut == std::string::npos || Cut < Limit / 2)
    Cut = Limit;
  return Text.substr(0, Cut) + "\n[... " + std::to_string(Text.size() - Cut) +
         " more bytes of compiler output cut]\n";
}

} // namespace kevin
