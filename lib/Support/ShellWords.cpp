//===-- ShellWords.cpp - flags as the shell splits them -------------------===//
//
// The word splitting of /bin/sh for compiler flags: blanks separate words,
// single quotes keep everything literally, inside double quotes a backslash
// escapes only a double quote, a backslash, a dollar or a backquote, and
// outside quotes a backslash escapes the next character.
//
//===----------------------------------------------------------------------===//
#include "kevin/Support/ShellWords.h"

#include <algorithm>
#include <cstring>

namespace kevin {

namespace {

bool isShellBlank(char C) { return C == ' ' || C == '\t' || C == '\n'; }

/// Appends the double-quoted text that starts after Line[I] to Word; I ends
/// on the closing quote (or the end).
void appendDoubleQuoted(const std::string &Line, size_t &I, std::string &Word) {
  for (++I; I < Line.size() && Line[I] != '"'; ++I) {
    if (Line[I] == '\\' && I + 1 < Line.size() &&
        std::strchr("\"\\$`", Line[I + 1]))
      ++I;
    Word += Line[I];
  }
}

} // namespace

std::vector<std::string> shellWords(const std::vector<std::string> &Flags) {
  std::string Line;
  for (const std::string &F : Flags)
    Line += F + " ";
  std::vector<std::string> Words;
  std::string Word;
  bool InWord = false;
  for (size_t I = 0; I < Line.size(); ++I) {
    char C = Line[I];
    if (isShellBlank(C)) {
      if (InWord)
        Words.push_back(std::move(Word));
      Word.clear();
      InWord = false;
      continue;
    }
    InWord = true;
    if (C == '\\' && I + 1 < Line.size()) {
      Word += Line[++I];
    } else if (C == '\'') {
      size_t End = std::min(Line.find('\'', I + 1), Line.size());
      Word += Line.substr(I + 1, End - I - 1);
      I = End;
    } else if (C == '"') {
      appendDoubleQuoted(Line, I, Word);
    } else {
      Word += C;
    }
  }
  return Words;
}

} // namespace kevin
