//===-- Candidate.cpp - the text of a candidate ---------------------------===//
//
// Reading candidate files (UTF-8, bounded size) and extracting the final
// python block of a model response.
//
//===----------------------------------------------------------------------===//
#include "kevin/Task/Candidate.h"
#include "kevin/Support/FileSystem.h"

#include <cctype>
#include <iostream>
#include <iterator>
#include <sstream>
#include <vector>

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
  if (Text.size() > MaxCandidateBytes)
    return Error::inFile(Path, "file is larger than " +
                                   std::to_string(MaxCandidateBytes >> 20) +
                                   " MiB");
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

Expected<std::string> readCandidateFile(const std::string &Path) {
  std::string Text;
  if (Path == "-") {
    Text.assign(std::istreambuf_iterator<char>(std::cin),
                std::istreambuf_iterator<char>());
  } else {
    Expected<std::string> File = fs::readFile(Path);
    if (!File)
      return File.error();
    Text = std::move(*File);
  }
  if (Error E = validateCandidateText(Text, Path))
    return E;
  return Text;
}

namespace {

struct Fence {
  unsigned OpenLine;  // 0-based line of the opening fence
  unsigned CloseLine; // 0-based line of the closing fence
  std::string Info;
};

std::string trimmed(const std::string &S) {
  size_t B = S.find_first_not_of(" \t\r");
  if (B == std::string::npos)
    return "";
  size_t E = S.find_last_not_of(" \t\r");
  return S.substr(B, E - B + 1);
}

std::string lowered(std::string S) {
  for (char &C : S)
    C = static_cast<char>(std::tolower(static_cast<unsigned char>(C)));
  return S;
}

} // namespace

Expected<CandidateSource> extractPythonBlock(const std::string &Response,
                                             const std::string &Path) {
  std::vector<std::string> Lines;
  {
    std::string Line;
    std::istringstream In(Response);
    while (std::getline(In, Line))
      Lines.push_back(Line);
  }
  // Blank out <think>...</think> sections, keeping line numbers.
  std::vector<std::string> Visible = Lines;
  bool InThink = false;
  for (std::string &L : Visible) {
    std::string Out;
    size_t Pos = 0;
    while (Pos <= L.size()) {
      if (InThink) {
        size_t End = L.find("</think>", Pos);
        if (End == std::string::npos) {
          Pos = L.size() + 1;
          break;
        }
        InThink = false;
        Pos = End + 8;
        continue;
      }
      size_t Start = L.find("<think>", Pos);
      if (Start == std::string::npos) {
        Out += L.substr(Pos);
        break;
      }
      Out += L.substr(Pos, Start - Pos);
      InThink = true;
      Pos = Start + 7;
    }
    L = Out;
  }
  std::vector<Fence> Fences;
  for (unsigned I = 0; I < Visible.size(); ++I) {
    std::string T = trimmed(Visible[I]);
    if (T.rfind("```", 0) != 0 && T.rfind("~~~", 0) != 0)
      continue;
    std::string Marker = T.substr(0, 3);
    size_t InfoStart = T.find_first_not_of(Marker[0]);
    std::string Info =
        InfoStart == std::string::npos ? "" : lowered(trimmed(T.substr(InfoStart)));
    unsigned Close = I + 1;
    while (Close < Visible.size() && trimmed(Visible[Close]).rfind(Marker, 0) != 0)
      ++Close;
    Fences.push_back({I, Close, Info});
    I = Close;
  }
  const Fence *Chosen = nullptr;
  for (const Fence &F : Fences)
    if (F.Info == "python" || F.Info == "py" || F.Info == "python3")
      Chosen = &F;
  if (!Chosen)
    for (const Fence &F : Fences)
      if (F.Info.empty())
        Chosen = &F;
  if (!Chosen)
    return Error::inFile(Path, "no fenced python code block in the response");
  CandidateSource Source;
  Source.Path = Path;
  Source.LineOffset = Chosen->OpenLine + 1;
  for (unsigned I = Chosen->OpenLine + 1; I < Chosen->CloseLine && I < Lines.size(); ++I)
    Source.Text += Lines[I] + "\n";
  if (trimmed(Source.Text).empty())
    return Error::at({Path, Chosen->OpenLine + 1, 1},
                     "the final python code block is empty");
  return Source;
}

} // namespace kevin
