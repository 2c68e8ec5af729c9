//===-- FunctionDeclaration.cpp - a bound function's prototype ------------===//
//
// A scan of C++ text, not a parse: comments are blanked, each preprocessor
// directive becomes a `;` (a boundary), literals are skipped, and braces give
// the nesting depth. A prototype runs from the last `;` or `}` before the
// function's name to the `{` or `;` after its parameter list.
//
//===----------------------------------------------------------------------===//

#include "kevin/Build/FunctionDeclaration.h"

#include <cctype>
#include <set>
#include <vector>

namespace kevin {

bool isWordChar(char C) {
  return std::isalnum(static_cast<unsigned char>(C)) || C == '_';
}

size_t wordEnd(const std::string &Text, size_t At) {
  while (At < Text.size() && isWordChar(Text[At]))
    ++At;
  return At;
}

namespace {

bool isSpace(char C) { return std::isspace(static_cast<unsigned char>(C)); }

/// Text with comments blanked (line breaks kept) and each preprocessor
/// directive turned into a `;` followed by blanks; InLiteral marks the
/// characters of string and character literals, which the scan skips.
struct MaskedText {
  std::string Code;
  std::vector<bool> InLiteral;

  explicit MaskedText(const std::string &Text)
      : Code(Text), InLiteral(Text.size(), false) {
    size_t N = Text.size();
    auto blank = [&](size_t From, size_t To) {
      for (size_t I = From; I < To && I < N; ++I)
        if (Code[I] != '\n')
          Code[I] = ' ';
    };
    // Blanks a block comment starting at I; returns the index after it.
    auto blockComment = [&](size_t I) {
      size_t Close = Text.find("*/", I + 2);
      size_t End = Close == std::string::npos ? N : Close + 2;
      blank(I, End);
      return End;
    };
    bool LineStart = true;
    for (size_t I = 0; I < N;) {
      char C = Text[I];
      if (C == '\n') {
        LineStart = true;
        ++I;
        continue;
      }
      if (isSpace(C)) {
        ++I;
        continue;
      }
      if (LineStart && C == '#') {
        size_t J = I + 1;
        while (J < N && Text[J] != '\n') {
          if (Text.compare(J, 2, "\\\n") == 0) {
            J += 2;
            continue;
          }
          J = Text.compare(J, 2, "/*") == 0 ? blockComment(J) : J + 1;
        }
        blank(I, J);
        Code[I] = ';';
        I = J;
        continue;
      }
      LineStart = false;
      if (Text.compare(I, 2, "//") == 0) {
        size_t End = Text.find('\n', I);
        End = End == std::string::npos ? N : End;
        blank(I, End);
        I = End;
        continue;
      }
      if (Text.compare(I, 2, "/*") == 0) {
        I = blockComment(I);
        continue;
      }
      if (C == '"' || (C == '\'' && !isDigitSeparator(Text, I))) {
        size_t End = literalEnd(Text, I);
        for (size_t K = I; K < End; ++K)
          InLiteral[K] = true;
        I = End;
        continue;
      }
      ++I;
    }
  }

  /// A `'` inside a number (`1'000`) separates digits.
  static bool isDigitSeparator(const std::string &Text, size_t At) {
    size_t Start = At;
    while (Start > 0 && isWordChar(Text[Start - 1]))
      --Start;
    return Start < At && std::isdigit(static_cast<unsigned char>(Text[Start]));
  }

  /// The index after the literal whose quote is at At (raw strings too).
  static size_t literalEnd(const std::string &Text, size_t At) {
    char Quote = Text[At];
    bool Raw = Quote == '"' && At > 0 && Text[At - 1] == 'R';
    if (Raw) {
      size_t Open = Text.find('(', At);
      if (Open == std::string::npos)
        return Text.size();
      std::string Close = ")" + Text.substr(At + 1, Open - At - 1) + "\"";
      size_t End = Text.find(Close, Open);
      return End == std::string::npos ? Text.size() : End + Close.size();
    }
    for (size_t I = At + 1; I < Text.size(); ++I) {
      if (Text[I] == '\\')
        ++I;
      else if (Text[I] == Quote || Text[I] == '\n')
        return I + 1;
    }
    return Text.size();
  }

  bool isCode(size_t I, char C) const { return !InLiteral[I] && Code[I] == C; }
};

/// Words that, before a function's name, mean another unit cannot call it
/// by the same prototype, or that the text is no plain function at all.
const std::set<std::string> &disqualifyingWords() {
  static const std::set<std::string> Words = {
      "static",          "constexpr",  "consteval",  "template", "extern",
      "friend",          "typedef",    "using",      "virtual",  "operator",
      "thread_local",    "register",   "mutable",    "explicit", "return",
      "namespace",       "class",      "struct",     "union",    "enum",
      "__forceinline__", "__device__", "__global__", "__host__", "auto",
      "decltype"};
  return Words;
}

/// Whether Prefix (what precedes the name) is a return type spelled by
/// words, `::`, `<...>`, `*`, `&` and cv-qualifiers alone.
bool isPlainReturnType(const std::string &Prefix) {
  if (Prefix.empty())
    return false;
  int Angles = 0;
  for (size_t I = 0; I < Prefix.size();) {
    char C = Prefix[I];
    if (isWordChar(C)) {
      size_t End = wordEnd(Prefix, I);
      if (disqualifyingWords().count(Prefix.substr(I, End - I)))
        return false;
      I = End;
      continue;
    }
    if (C == '<')
      ++Angles;
    else if (C == '>' && --Angles < 0)
      return false;
    else if (C == ',' && Angles == 0)
      return false;
    else if (!isSpace(C) && C != ':' && C != '*' && C != '&' && C != ',' &&
             C != '>')
      return false;
    ++I;
  }
  char Last = Prefix.back();
  return Angles == 0 &&
         (isWordChar(Last) || Last == '>' || Last == '*' || Last == '&');
}

std::string trim(const std::string &S) {
  size_t B = 0, E = S.size();
  while (B < E && isSpace(S[B]))
    ++B;
  while (E > B && isSpace(S[E - 1]))
    --E;
  return S.substr(B, E - B);
}

/// The prototype whose name starts at NameAt and ends at NameEnd, or empty.
std::optional<std::string> prototypeAt(const MaskedText &M, size_t NameAt,
                                       size_t NameEnd) {
  const std::string &Code = M.Code;
  size_t N = Code.size();
  size_t Open = NameEnd;
  while (Open < N && isSpace(Code[Open]))
    ++Open;
  if (Open == N || !M.isCode(Open, '('))
    return std::nullopt;
  // The parameter list: balanced parentheses, no statement or block.
  size_t Close = Open;
  for (int Parens = 0; Close < N; ++Close) {
    if (M.InLiteral[Close])
      continue;
    char C = Code[Close];
    if (C == ';' || C == '{' || C == '}')
      return std::nullopt;
    if (C == '(')
      ++Parens;
    else if (C == ')' && --Parens == 0)
      break;
  }
  if (Close == N)
    return std::nullopt;
  // After it, up to the body or the `;`: noexcept or a trailing return
  // type, nothing that makes it deleted, defaulted or a try block.
  size_t Stop = Close + 1;
  while (Stop < N && !M.isCode(Stop, '{') && !M.isCode(Stop, ';') &&
         !M.isCode(Stop, '}') && !M.isCode(Stop, '='))
    ++Stop;
  if (Stop == N || M.isCode(Stop, '}') || M.isCode(Stop, '='))
    return std::nullopt;
  std::string Trailing = Code.substr(Close + 1, Stop - Close - 1);
  for (const char *Word : {"try", "override", "final"})
    if (findWord(Trailing, Word) != std::string::npos)
      return std::nullopt;
  // Before it, back to the last `;` or `}`: the return type.
  size_t Start = NameAt;
  while (Start > 0 && !M.isCode(Start - 1, ';') && !M.isCode(Start - 1, '}'))
    --Start;
  for (size_t I = Start; I < NameAt; ++I)
    if (M.InLiteral[I])
      return std::nullopt;
  std::string Prefix = trim(Code.substr(Start, NameAt - Start));
  // `inline` goes: the other unit declares the function without a body.
  for (const std::string Word : {"inline", "__inline__"})
    for (size_t P; (P = findWord(Prefix, Word)) != std::string::npos;)
      Prefix.replace(P, Word.size(), std::string(Word.size(), ' '));
  if (!isPlainReturnType(trim(Prefix)))
    return std::nullopt;
  return trim(Prefix) + " " + trim(Code.substr(NameAt, Stop - NameAt));
}

} // namespace

size_t findWord(const std::string &Text, const std::string &Word) {
  for (size_t P = Text.find(Word); P != std::string::npos;
       P = Text.find(Word, P + 1)) {
    size_t E = P + Word.size();
    if ((P == 0 || !isWordChar(Text[P - 1])) &&
        (E == Text.size() || !isWordChar(Text[E])))
      return P;
  }
  return std::string::npos;
}

std::string codeWithoutComments(const std::string &Text) {
  MaskedText M(Text);
  for (size_t At = 0; At < M.Code.size(); ++At)
    // A directive's `;` marks a boundary for the prototype scan only.
    if ((M.InLiteral[At] || Text[At] == '#') && M.Code[At] != '\n')
      M.Code[At] = ' ';
  return M.Code;
}

std::optional<std::string> functionPrototype(const std::string &Text,
                                             const std::string &Name) {
  if (Name.empty())
    return std::nullopt;
  MaskedText M(Text);
  const std::string &Code = M.Code;
  int Depth = 0;
  for (size_t I = 0; I < Code.size(); ++I) {
    if (M.InLiteral[I])
      continue;
    char C = Code[I];
    if (C == '{') {
      ++Depth;
      continue;
    }
    if (C == '}') {
      Depth = Depth > 0 ? Depth - 1 : 0;
      continue;
    }
    if (!isWordChar(C))
      continue;
    size_t End = wordEnd(Code, I);
    // The first mention of the name at the top level decides: a call, a
    // qualified name or a variable there means the text is not plain.
    if (Depth == 0 && Code.compare(I, End - I, Name) == 0 &&
        End - I == Name.size()) {
      if (I >= 2 && Code.compare(I - 2, 2, "::") == 0)
        return std::nullopt;
      return prototypeAt(M, I, End);
    }
    I = End - 1;
  }
  return std::nullopt;
}

} // namespace kevin
