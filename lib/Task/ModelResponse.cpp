//===-- ModelResponse.cpp - the code in a model response ------------------===//
//
// A line-based reading of markdown fences (CommonMark's rules for fences: up
// to three spaces of indent, three or more backticks or tildes, a closing
// fence of the same character at least as long as the opening one) and of
// <think> tags.
//
//===----------------------------------------------------------------------===//
#include "kevin/Task/ModelResponse.h"

#include <cctype>
#include <vector>

namespace kevin {

namespace {

std::string trim(std::string_view S) {
  size_t B = S.find_first_not_of(" \t\r\n");
  if (B == std::string_view::npos)
    return "";
  size_t E = S.find_last_not_of(" \t\r\n");
  return std::string(S.substr(B, E - B + 1));
}

struct Line {
  std::string_view Text;
  size_t Offset; ///< Of the line's first byte in the response.
};

std::vector<Line> splitLines(std::string_view Text) {
  std::vector<Line> Lines;
  size_t Start = 0;
  while (Start <= Text.size()) {
    size_t End = Text.find('\n', Start);
    if (End == std::string_view::npos) {
      if (Start < Text.size())
        Lines.push_back({Text.substr(Start), Start});
      break;
    }
    Lines.push_back({Text.substr(Start, End - Start), Start});
    Start = End + 1;
  }
  return Lines;
}

struct Fence {
  char Marker = '`';
  size_t Length = 0;
  std::string Info;
};

/// A fence line: three or more backticks or tildes after at most three
/// spaces, then the info string.
bool isFence(std::string_view L, Fence &F) {
  size_t Indent = 0;
  while (Indent < L.size() && Indent < 4 && L[Indent] == ' ')
    ++Indent;
  if (Indent > 3 || Indent == L.size() || (L[Indent] != '`' && L[Indent] != '~'))
    return false;
  char Marker = L[Indent];
  size_t N = 0;
  while (Indent + N < L.size() && L[Indent + N] == Marker)
    ++N;
  if (N < 3)
    return false;
  F = {Marker, N, trim(L.substr(Indent + N))};
  return true;
}

struct Block {
  std::string Info;
  size_t FirstLine, EndLine; ///< Body lines [FirstLine, EndLine).
  bool Closed;
};

std::vector<Block> findBlocks(const std::vector<Line> &Lines) {
  std::vector<Block> Blocks;
  for (size_t I = 0; I < Lines.size(); ++I) {
    Fence Open;
    if (!isFence(Lines[I].Text, Open))
      continue;
    Block B{Open.Info, I + 1, Lines.size(), false};
    for (size_t J = I + 1; J < Lines.size(); ++J) {
      Fence Close;
      if (isFence(Lines[J].Text, Close) && Close.Info.empty() &&
          Close.Marker == Open.Marker && Close.Length >= Open.Length) {
        B.EndLine = J;
        B.Closed = true;
        break;
      }
    }
    Blocks.push_back(B);
    I = B.EndLine;
  }
  return Blocks;
}

bool isPython(const std::string &Info) {
  std::string Lang = Info.substr(0, Info.find_first_of(" \t{"));
  for (char &C : Lang)
    C = static_cast<char>(std::tolower(static_cast<unsigned char>(C)));
  return Lang == "python" || Lang == "py" || Lang == "python3";
}

/// The final python block, else the final untagged one; nullptr when none.
const Block *chooseBlock(const std::vector<Block> &Blocks) {
  const Block *Chosen = nullptr;
  for (const Block &B : Blocks)
    if (isPython(B.Info))
      Chosen = &B;
  if (!Chosen)
    for (const Block &B : Blocks)
      if (B.Info.empty())
        Chosen = &B;
  return Chosen;
}

} // namespace

ParsedResponse parseResponse(std::string_view Text) {
  ParsedResponse Result;
  // Split off the chain-of-thought.
  std::string_view Body = Text;
  size_t BodyOffset = 0;
  size_t Close = Text.rfind("</think>");
  if (Close != std::string_view::npos) {
    size_t Open = Text.find("<think>");
    size_t ReasonStart =
        Open != std::string_view::npos && Open < Close ? Open + 7 : 0;
    Result.Reasoning = trim(Text.substr(ReasonStart, Close - ReasonStart));
    BodyOffset = Close + 8;
    Body = Text.substr(BodyOffset);
  } else if (size_t Open = Text.find("<think>");
             Open != std::string_view::npos) {
    // Thinking never ended (a truncated response): nothing usable follows.
    Result.Reasoning = trim(Text.substr(Open + 7));
    Result.Problem = "the response ends inside <think> (truncated reasoning)";
    return Result;
  }

  std::vector<Line> Lines = splitLines(Body);
  std::vector<Block> Blocks = findBlocks(Lines);
  const Block *Chosen = chooseBlock(Blocks);
  if (!Chosen) {
    Result.Problem = "no fenced python code block";
    return Result;
  }
  if (!Chosen->Closed) {
    Result.Problem = "the last code block is not closed (truncated response)";
    return Result;
  }
  for (size_t I = Chosen->FirstLine; I < Chosen->EndLine; ++I) {
    Result.Code.append(Lines[I].Text);
    Result.Code += '\n';
  }
  if (trim(Result.Code).empty()) {
    Result.Code.clear();
    Result.Problem = "the last python code block is empty";
    return Result;
  }
  Result.HasCode = true;
  // Line numbers count from the start of the whole response.
  size_t CodeOffset = BodyOffset + Lines[Chosen->FirstLine].Offset;
  Result.CodeLine = 1;
  for (size_t I = 0; I < CodeOffset && I < Text.size(); ++I)
    Result.CodeLine += Text[I] == '\n';
  if (Chosen->EndLine + 1 < Lines.size())
    Result.Summary = trim(Body.substr(Lines[Chosen->EndLine + 1].Offset));
  return Result;
}

std::string fillCodeFromResponse(Json &Record) {
  auto IsString = [&](const char *Key) {
    auto It = Record.find(Key);
    return It != Record.end() && It->is_string();
  };
  if (IsString("candidate_path") || IsString("code") || !IsString("response"))
    return "";
  ParsedResponse Parsed = parseResponse(Record["response"].get<std::string>());
  if (!Parsed.HasCode)
    return Parsed.Problem;
  Record["code"] = std::move(Parsed.Code);
  return "";
}

} // namespace kevin
