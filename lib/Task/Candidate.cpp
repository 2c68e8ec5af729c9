//===-- Candidate.cpp - the text of a candidate ---------------------------===//
//
// Reading candidate files (UTF-8, no NUL byte, within the size limit). A model
// response's code is taken by kevin/Task/ModelResponse.h.
//
//===----------------------------------------------------------------------===//
#include "kevin/Task/Candidate.h"
#include "kevin/Support/FileSystem.h"

#include <cctype>
#include <iostream>
#include <iterator>

namespace kevin {

bool isValidUtf8(std::string_view Text, size_t &ErrorOffset) {
  size_t I = 0, N = Text.size();
  while (I < N) {
    unsigned char C = static_cast<unsigned char>(Text[I]);
    size_t Len = C < 0x80 ? 1 : (C >> 5) == 6 ? 2 : (C >> 4) == 14 ? 3
                 : (C >> 3) == 30 ? 4 : 0;
    if (Len == 0 || I + Len > N || (Len == 2 && C < 0xC2) ||
        (Len == 4 && C > 0xF4)) {
      ErrorOffset = I;
      return false;
    }
    for (size_t K = 1; K < Len; ++K)
      if ((static_cast<unsigned char>(Text[I + K]) >> 6) != 2) {
        ErrorOffset = I;
        return false;
      }
    if (Len == 3) {
      unsigned char C1 = static_cast<unsigned char>(Text[I + 1]);
      if ((C == 0xE0 && C1 < 0xA0) || (C == 0xED && C1 >= 0xA0)) {
        ErrorOffset = I;
        return false;
      }
    }
    if (Len == 4) {
      unsigned char C1 = static_cast<unsigned char>(Text[I + 1]);
      if ((C == 0xF0 && C1 < 0x90) || (C == 0xF4 && C1 >= 0x90)) {
        ErrorOffset = I;
        return false;
      }
    }
    I += Len;
  }
  return true;
}

Error validateCandidateText(const std::string &Text, const std::string &Path) {
  size_t Bad = 0;
  if (!isValidUtf8(Text, Bad)) {
    unsigned Line = 1, Col = 1;
    for (size_t I = 0; I < Bad; ++I) {
      if (Text[I] == '\n') {
        ++Line;
        Col = 1;
      } else {
        ++Col;
      }
    }
    return Error::at({Path, Line, Col}, "file is not valid UTF-8");
  }
  if (Text.find('\0') != std::string::npos)
    return Error::inFile(Path, "file contains a NUL byte");
  return Error::success();
}

Expected<std::string> readCandidateFile(const std::string &Path,
                                        const CandidateLimits &Limits) {
  std::string Text;
  if (Path == "-") {
    Text.assign(std::istreambuf_iterator<char>(std::cin),
                std::istreambuf_iterator<char>());
    if (Error E = checkCandidateSize(Path, Text.size(), Limits))
      return E;
  } else {
    if (Error E = checkCandidateSize(Path, candidateBytes(Path, ""), Limits))
      return E;
    Expected<std::string> File = fs::readFile(Path);
    if (!File)
      return File.error();
    Text = std::move(*File);
  }
  if (Error E = validateCandidateText(Text, Path))
    return E;
  return Text;
}

} // namespace kevin
