//===-- TorchHeaders.cpp - kevin's narrower torch headers -----------------===//
//
// The header texts of lib/Build/embedded, the sets they are written in, and
// the cheap scans that decide which units may try them.
//
//===----------------------------------------------------------------------===//
#include "TorchHeaders.h"
#include "BuildFiles.h"
#include "kevin/Build/Builder.h"
#include "kevin/Build/FunctionDeclaration.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <stdexcept>
#include <utility>
#include <vector>

namespace kevin {

namespace {

/// lib/Build/embedded: file name -> text, byte for byte.
constexpr std::pair<std::string_view, std::string_view> EmbeddedHeaders[] = {
#include "EmbeddedHeaders.inc"
};

/// The text of lib/Build/embedded/<Name>; a name it lacks does not compile
/// where the text is a constant.
constexpr std::string_view embeddedHeader(std::string_view Name) {
  for (const auto &File : EmbeddedHeaders)
    if (File.first == Name)
      return File.second;
  throw std::logic_error("not in lib/Build/embedded");
}

/// What a unit may call as torch::f( or at::f( to be compiled with the
/// minimal header: its factories, and types and option helpers it has.
const std::set<std::string> MinimalHeaderCallables = {
    "arange",     "empty",     "empty_like",    "empty_strided", "from_blob",
    "full",       "full_like", "ones",          "ones_like",     "zeros",
    "zeros_like", "Tensor",    "TensorOptions", "Device",        "dtype",
    "device",     "Scalar",    "IntArrayRef"};

/// What each header the facade stands in for holds.
constexpr std::string_view FacadeStandIn =
    "// kevin's torch facade (lib/Build/TorchFacade.h)\n#pragma once\n"
    "#include <kevin_torch_facade.h>\n";

/// The first character at or after At that is not white space.
size_t skipSpace(const std::string &Text, size_t At) {
  while (At < Text.size() && std::isspace(static_cast<unsigned char>(Text[At])))
    ++At;
  return At;
}

} // namespace

constexpr std::string_view MinimalTypesHeader =
    embeddedHeader("minimal_types.h");
constexpr std::string_view LeanExtensionHeader =
    embeddedHeader("lean_extension.h");
constexpr std::string_view MinimalBindingHeader =
    embeddedHeader("binding_extension.h");
constexpr std::string_view TorchDtypeNamesHeader =
    embeddedHeader("torch_dtype_names.h");
constexpr std::string_view TorchFacadeHeader = embeddedHeader("torch_facade.h");
constexpr std::string_view TorchFacadeSupportSource =
    embeddedHeader("torch_facade_support.cpp");
constexpr std::string_view TorchFacadeBindingHeader =
    embeddedHeader("torch_facade_binding.h");
constexpr std::string_view TorchFacadePythonSource =
    embeddedHeader("torch_facade_python.cpp");
const std::vector<std::string> TorchFacadeStandIns = {
    "torch/extension.h",       "torch/types.h",
    "ATen/ATen.h",             "ATen/Dispatch.h",
    "ATen/cuda/CUDAContext.h", "c10/cuda/CUDAGuard.h",
    "c10/cuda/CUDAStream.h",   "c10/cuda/CUDAException.h"};

std::string writeHeaderDir(const std::string &Dir, HeaderSet Set) {
  using HeaderFiles = std::vector<std::pair<std::string, std::string_view>>;
  HeaderFiles Files = {{"kevin_torch_dtype_names.h", TorchDtypeNamesHeader}};
  switch (Set) {
  case HeaderSet::Minimal:
    Files.insert(Files.end(),
                 {{"torch/types.h", MinimalTypesHeader},
                  {"torch/extension.h", embeddedHeader("minimal_extension.h")}});
    break;
  case HeaderSet::Lean:
    Files.emplace_back("torch/extension.h", LeanExtensionHeader);
    break;
  case HeaderSet::MinimalBinding:
    Files.insert(Files.end(), {{"torch/types.h", MinimalTypesHeader},
                               {"torch/extension.h", MinimalBindingHeader}});
    break;
  case HeaderSet::Facade:
    Files.insert(Files.end(),
                 {{"kevin_torch_facade.h", TorchFacadeHeader},
                  {"kevin_torch_facade_binding.h", TorchFacadeBindingHeader}});
    for (const std::string &Name : TorchFacadeStandIns)
      Files.emplace_back(Name, FacadeStandIn);
    break;
  }
  for (const auto &[Name, Text] : Files) {
    std::string Path = Dir + "/" + Name;
    if (makeDirs(Path.substr(0, Path.rfind('/'))) ||
        writeFile(Path, std::string(Text)))
      return "";
  }
  return Dir;
}

const char *torchHeaderName(TorchHeader H) {
  switch (H) {
  case TorchHeader::None:
    return "none";
  case TorchHeader::Facade:
    return "facade";
  case TorchHeader::Minimal:
    return "minimal";
  case TorchHeader::Lean:
    return "lean";
  case TorchHeader::Full:
    return "full";
  }
  return "none";
}

std::set<std::string> declaredFunctionNames(const std::string &Text) {
  static const std::set<std::string> NotTypes = {
      "return", "else",   "case",   "throw",    "new",     "delete",
      "sizeof", "typeid", "decltype", "alignof", "co_return", "co_yield"};
  std::set<std::string> Names;
  std::string LastWord; // The word before the current one, if nothing else.
  size_t LastPunct = std::string::npos; // The last non-space, non-word one.
  bool WordLast = false;
  for (size_t At = 0; At < Text.size();) {
    char C = Text[At];
    if (std::isspace(static_cast<unsigned char>(C))) {
      ++At;
      continue;
    }
    // Comments and string literals are skipped whole.
    if (Text.compare(At, 2, "//") == 0) {
      At = std::min(Text.find('\n', At), Text.size());
      continue;
    }
    if (Text.compare(At, 2, "/*") == 0) {
      size_t Close = Text.find("*/", At + 2);
      At = Close == std::string::npos ? Text.size() : Close + 2;
      continue;
    }
    if (C == '"') {
      for (++At; At < Text.size() && Text[At] != '"'; ++At)
        if (Text[At] == '\\')
          ++At;
      LastPunct = At++;
      WordLast = false;
      continue;
    }
    if (!isWordChar(C)) {
      LastPunct = At;
      WordLast = false;
      ++At;
      continue;
    }
    size_t End = wordEnd(Text, At);
    std::string Word = Text.substr(At, End - At);
    size_t Next = skipSpace(Text, End);
    // `Tensor& f(`, `std::vector<Tensor> f(`, `float* f(`; not `p->f(`.
    char Punct = LastPunct == std::string::npos ? 0 : Text[LastPunct];
    bool Arrow = Punct == '>' && LastPunct > 0 && Text[LastPunct - 1] == '-';
    bool AfterType =
        (WordLast && !NotTypes.count(LastWord)) ||
        (!WordLast && !Arrow && (Punct == '>' || Punct == '*' || Punct == '&'));
    bool Qualified = At >= 1 && (Text[At - 1] == '.' || Text[At - 1] == ':');
    if (Next < Text.size() && Text[Next] == '(' && AfterType && !Qualified &&
        !std::isdigit(static_cast<unsigned char>(Word[0])))
      Names.insert(Word);
    LastWord = Word;
    WordLast = true;
    At = End;
  }
  return Names;
}

bool declaresAtenOpName(const std::string &Text,
                        const std::vector<std::string> &IncludeDirs) {
  for (const std::string &Name : declaredFunctionNames(Text))
    for (const std::string &Dir : IncludeDirs)
      if (!MinimalHeaderCallables.count(Name) &&
          fileExists(Dir + "/ATen/ops/" + Name + ".h"))
        return true;
  return false;
}

bool fitsMinimalTorchHeader(const std::string &Text) {
  // Where the minimal header could compile a unit into something else
  // than torch's headers would: requires_grad (at:: factories ignore or
  // refuse it, torch::'s honour it), and unqualified calls (which reach
  // ATen's ops by ADL with torch's headers).
  for (const char *Needle :
       {"requires_grad", "using namespace torch", "using namespace at"})
    if (Text.find(Needle) != std::string::npos)
      return false;
  auto startsAt = [&](size_t At, const std::string &Literal) {
    return Text.compare(At, Literal.size(), Literal) == 0;
  };
  size_t At = 0;
  while (At < Text.size()) {
    if (!isWordChar(Text[At])) {
      // Other torch headers include torch's own torch/types.h by its path.
      for (const char *Open : {"<", "\""})
        if (startsAt(At, Open + std::string("torch/")) &&
            !startsAt(At + 1, "torch/extension.h") &&
            !startsAt(At + 1, "torch/types.h"))
          return false;
      ++At;
      continue;
    }
    size_t End = wordEnd(Text, At);
    std::string Word = Text.substr(At, End - At);
    bool AfterScope = At >= 2 && startsAt(At - 2, "::");
    At = End;
    // An alias of torch's namespaces hides which namespace calls go to
    // (`namespace cg = cooperative_groups;` does not).
    if (Word == "namespace") {
      size_t Name = skipSpace(Text, End), NameEnd = wordEnd(Text, Name);
      size_t Equals = skipSpace(Text, NameEnd);
      if (NameEnd > Name && startsAt(Equals, "=")) {
        size_t Target = skipSpace(Text, Equals + 1);
        if (startsAt(Target, "::"))
          Target = skipSpace(Text, Target + 2);
        std::string Aliased = Text.substr(Target, wordEnd(Text, Target) - Target);
        if (Aliased == "torch" || Aliased == "at" || Aliased == "c10" ||
            Aliased == "caffe2" || Aliased.empty())
          return false;
      }
      continue;
    }
    if (AfterScope || (Word != "torch" && Word != "at"))
      continue;
    size_t Next = skipSpace(Text, End);
    if (!startsAt(Next, "::"))
      continue;
    size_t NameStart = skipSpace(Text, Next + 2),
           NameEnd = wordEnd(Text, NameStart);
    size_t Paren = skipSpace(Text, NameEnd);
    if (NameEnd > NameStart && Paren < Text.size() && Text[Paren] == '(' &&
        !MinimalHeaderCallables.count(
            Text.substr(NameStart, NameEnd - NameStart)))
      return false;
  }
  return true;
}

} // namespace kevin
