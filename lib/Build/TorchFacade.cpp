//===-- TorchFacade.cpp - CUDA units compiled without torch's headers -----===//
//
// The scan that lets a unit try kevin's torch facade, the look at the
// object it gave (`nm -g`), and the support object in the cache.
//
//===----------------------------------------------------------------------===//
#include "TorchFacade.h"
#include "CompileStep.h"
#include "PrecompiledHeader.h"
#include "TorchHeaders.h"
#include "kevin/Build/FunctionDeclaration.h"

#include <cxxabi.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string_view>
#include <set>
#include <sstream>

namespace kevin {

namespace {

/// c10's own headers the facade includes as they are.
const char *const RealHeadersOfFacade[] = {"c10/util/Half.h",
                                           "c10/util/BFloat16.h"};

/// Whether the #include at Line names a torch header the facade lacks.
bool includesOtherTorchHeader(const std::string &Line) {
  size_t Open = Line.find_first_of("<\"");
  if (Open == std::string::npos)
    return false;
  size_t Close = Line.find_first_of(">\"", Open + 1);
  std::string Name = Line.substr(Open + 1, Close - Open - 1);
  for (const char *Root : {"torch/", "ATen/", "c10/", "caffe2/"})
    if (Name.rfind(Root, 0) == 0) {
      for (const std::string &StandIn : TorchFacadeStandIns)
        if (Name == StandIn)
          return false;
      for (const char *Real : RealHeadersOfFacade)
        if (Name == Real)
          return false;
      return true;
    }
  return false;
}

bool mentions(const std::string &Text,
              std::initializer_list<const char *> Words) {
  for (const char *W : Words)
    if (Text.find(W) != std::string::npos)
      return true;
  return false;
}

/// The symbols of an `nm -g` table: (type letter, mangled name).
std::vector<std::pair<char, std::string>> symbolsOf(const std::string &Table) {
  std::vector<std::pair<char, std::string>> Symbols;
  std::istringstream In(Table);
  for (std::string Line; std::getline(In, Line);) {
    // "<address> T name" when defined, "<spaces> U name" when not.
    size_t Start = Line.find_first_not_of(' ');
    if (Start == std::string::npos)
      continue;
    size_t Type = Line[Start + 1] == ' ' ? Start : Line.find(' ', Start) + 1;
    if (Type == 0 || Type + 2 > Line.size())
      continue;
    Symbols.emplace_back(Line[Type], Line.substr(Type + 2));
  }
  return Symbols;
}

/// Drops Prefix from the front of S when S starts with it.
bool consume(std::string_view &S, std::string_view Prefix) {
  if (S.substr(0, Prefix.size()) != Prefix)
    return false;
  S.remove_prefix(Prefix.size());
  return true;
}

/// Drops one call offset of a thunk's name (`h<number>_` or
/// `v<number>_<number>_`, numbers with an optional `n` for negative).
bool consumeCallOffset(std::string_view &S) {
  auto Number = [&S] {
    consume(S, "n");
    size_t Digits = 0;
    while (Digits < S.size() &&
           std::isdigit(static_cast<unsigned char>(S[Digits])))
      ++Digits;
    S.remove_prefix(Digits);
    return Digits > 0 && consume(S, "_");
  };
  if (consume(S, "h"))
    return Number();
  return consume(S, "v") && Number() && Number();
}

/// Whether the mangled Symbol is itself of at::, c10:: or torch:: (a
/// function, a variable, a vtable or type info, a thunk, a static local of
/// theirs), rather than something else whose arguments, template arguments
/// or result merely name their types: the demangled form puts a template
/// function's result first, so only the mangled one tells the scope apart.
/// Reads only the symbol's first few characters, whatever its length.
bool inTorchNamespace(std::string_view S) {
  if (!consume(S, "_Z"))
    return false;
  if (S.substr(0, 2) == "Th" || S.substr(0, 2) == "Tv") {
    S.remove_prefix(1);
    if (!consumeCallOffset(S))
      return false;
  } else if (consume(S, "Tc")) {
    if (!consumeCallOffset(S) || !consumeCallOffset(S))
      return false;
  } else {
    for (std::string_view Special :
         {"TV", "TT", "TI", "TS", "TH", "TW", "TC", "GV", "GR", "GTt"})
      if (consume(S, Special))
        break;
  }
  while (consume(S, "Z"))
    ;
  if (!consume(S, "N"))
    return false;
  while (!S.empty() &&
         std::string_view("rVKROH").find(S[0]) != std::string_view::npos)
    S.remove_prefix(1);
  return consume(S, "2at") || consume(S, "3c10") || consume(S, "5torch");
}

/// Symbol demangled, for a message.
std::string demangled(const std::string &Symbol) {
  int Status = 0;
  std::unique_ptr<char, void (*)(void *)> Name(
      abi::__cxa_demangle(Symbol.c_str(), nullptr, nullptr, &Status),
      std::free);
  return Status == 0 && Name ? std::string(Name.get()) : Symbol;
}

} // namespace

bool fitsTorchFacade(const std::string &Text,
                     const std::vector<std::string> &IncludeDirs) {
  if (!fitsMinimalTorchHeader(Text) || declaresAtenOpName(Text, IncludeDirs))
    return false;
  std::istringstream In(Text);
  for (std::string Line; std::getline(In, Line);) {
    size_t Hash = Line.find_first_not_of(" \t");
    if (Hash == std::string::npos || Line[Hash] != '#' ||
        Line.find("include", Hash) == std::string::npos)
      continue;
    if (includesOtherTorchHeader(Line))
      return false;
  }
  return true;
}

std::vector<std::string> torchFacadeDefines(const std::string &Text) {
  std::vector<std::string> Defines;
  if (mentions(Text, {"Half", "HALF", "kFloat16", "kF16"}))
    Defines.push_back("-DKEVIN_FACADE_HALF");
  if (mentions(Text, {"BFloat16", "BFLOAT16"}))
    Defines.push_back("-DKEVIN_FACADE_BFLOAT16");
  return Defines;
}

std::string torchFacadeObjectProblem(const std::string &Object,
                                     const std::string &Dir,
                                     const TorchToolchain &T,
                                     const BuildOptions &Options) {
  char Magic[4] = {};
  std::ifstream(Dir + Object, std::ios::binary).read(Magic, sizeof(Magic));
  // Only ELF objects have a symbol table (the unit tests' stand-in
  // compilers write none).
  if (std::string(Magic, sizeof(Magic)) != std::string("\x7f") + "ELF")
    return "";
  Step Symbols;
  std::string Table;
  Symbols.Argv = {"nm", "-g", Object};
  runStep(Symbols, T, Options, Dir, &Table);
  if (!Symbols.Ok)
    return "nm cannot read it: " + Symbols.Output;
  for (const auto &[Type, Name] : symbolsOf(Table)) {
    if (Name.find("kevin_facade") != std::string::npos)
      return "'" + demangled(Name) + "' names a type of kevin's torch facade";
    if (inTorchNamespace(Name))
      return "'" + demangled(Name) + "' is torch's" +
             (Type == 'U' ? " (referred to)" : " (defined)");
  }
  return "";
}

namespace {

/// The flags of the support objects: torch's headers, CUDA's, C++17.
std::vector<std::string> supportFlags(const TorchToolchain &T) {
  std::vector<std::string> Flags = {"-fPIC", "-std=c++17", "-O2",
                                    std::string("-D_GLIBCXX_USE_CXX11_ABI=") +
                                        (T.CxxAbi ? "1" : "0")};
  for (const std::string &Dir : T.IncludeDirs)
    Flags.insert(Flags.end(), {"-isystem", Dir});
  if (!T.CudaHome.empty())
    Flags.insert(Flags.end(), {"-isystem", T.CudaHome + "/include"});
  return Flags;
}

/// A support object compiled from Source (named FileName) in the cache.
std::string supportObject(const std::vector<std::string> &Flags,
                          const TorchToolchain &T, const BuildOptions &Options,
                          const char *FileName, std::string_view Source,
                          bool Wait) {
  PchRecipe Recipe{FileName, std::string(Source), std::string(Source), {},
                   true};
  std::string Path = precompiledHeader(Flags, T, Options, Recipe, Wait);
  return Path.empty() ? "" : Path + ".o";
}

/// The arithmetic type words pybind11 converts as numbers (or bool).
const std::set<std::string> ArithmeticWords = {
    "bool",         "short",        "int",          "long",
    "unsigned",     "signed",       "float",        "double",
    "int8_t",       "int16_t",      "int32_t",      "int64_t",
    "uint8_t",      "uint16_t",     "uint32_t",     "uint64_t",
    "size_t",        "std::int8_t",   "std::int16_t",  "std::int32_t",
    "std::int64_t",  "std::uint8_t",  "std::uint16_t", "std::uint32_t",
    "std::uint64_t", "std::size_t"};

/// Optionals: std::optional with any torch; c10's and torch's, which are
/// std::optional from torch 2.3 on (the facade has them then; with an older
/// torch the binding does not compile, and the unit is compiled whole).
const std::set<std::string> OptionalNames = {"std::optional", "c10::optional",
                                             "torch::optional"};

/// A prototype's tokens: names with their `::` joined in (a leading `::`
/// dropped), and every other character on its own.
std::vector<std::string> prototypeTokens(const std::string &Text) {
  std::vector<std::string> Tokens;
  for (size_t At = 0; At < Text.size();) {
    char C = Text[At];
    if (std::isspace(static_cast<unsigned char>(C))) {
      ++At;
      continue;
    }
    if (!isWordChar(C) && Text.compare(At, 2, "::") != 0) {
      Tokens.emplace_back(1, C);
      ++At;
      continue;
    }
    std::string Name;
    for (size_t End; At < Text.size(); At = End) {
      if (Text.compare(At, 2, "::") == 0) {
        Name += "::";
        End = At + 2;
        continue;
      }
      End = wordEnd(Text, At);
      if (End == At)
        break;
      Name += Text.substr(At, End - At);
    }
    Tokens.push_back(Name.rfind("::", 0) == 0 ? Name.substr(2) : Name);
  }
  return Tokens;
}

/// Reads the types the facade's binding converts from a run of tokens.
class BindableTypeReader {
public:
  BindableTypeReader(const std::vector<std::string> &Tokens, size_t Begin,
                     size_t End)
      : Tokens(Tokens), At(Begin), End(End) {}

  /// A type, then at most a parameter's name, and nothing else.
  bool wholeParameter() {
    if (!type())
      return false;
    if (At < End && isWordChar(Tokens[At][0]) &&
        !ArithmeticWords.count(Tokens[At]))
      ++At;
    return At == End;
  }
  bool wholeType() { return type() && At == End; }

private:
  bool accept(const char *Token) {
    if (At < End && Tokens[At] == Token) {
      ++At;
      return true;
    }
    return false;
  }
  bool type() {
    while (accept("const"))
      ;
    if (At >= End)
      return false;
    const std::string &Name = Tokens[At++];
    if (ArithmeticWords.count(Name)) {
      while (At < End && ArithmeticWords.count(Tokens[At]))
        ++At;
    } else if (Name == "std::vector" || Name == "std::tuple" ||
               OptionalNames.count(Name)) {
      if (!accept("<"))
        return false;
      do
        if (!type())
          return false;
      while (accept(","));
      if (!accept(">"))
        return false;
    } else if (Name != "torch::Tensor" && Name != "at::Tensor" &&
               Name != "std::string") {
      return false;
    }
    while (accept("const"))
      ;
    if (accept("&"))
      accept("&");
    return true;
  }

  const std::vector<std::string> &Tokens;
  size_t At, End;
};

} // namespace

std::string torchFacadeSupport(const TorchToolchain &T,
                               const BuildOptions &Options, bool Wait) {
  return supportObject(supportFlags(T), T, Options, "torch_facade_support.cpp",
                       TorchFacadeSupportSource, Wait);
}

std::string torchFacadePythonSupport(const TorchToolchain &T,
                                     const BuildOptions &Options, bool Wait) {
  std::vector<std::string> Flags = supportFlags(T);
  if (!T.PythonIncludeDir.empty())
    Flags.insert(Flags.end(), {"-isystem", T.PythonIncludeDir});
  Flags.insert(Flags.end(), T.Pybind11Defines.begin(), T.Pybind11Defines.end());
  return supportObject(Flags, T, Options, "torch_facade_python.cpp",
                       TorchFacadePythonSource, Wait);
}

bool bindsThroughTorchFacade(const std::string &Prototype) {
  std::vector<std::string> Tokens = prototypeTokens(Prototype);
  auto Open = std::find(Tokens.begin(), Tokens.end(), "(");
  if (Open == Tokens.end() || Open == Tokens.begin() || Tokens.back() != ")")
    return false;
  size_t Name = static_cast<size_t>(Open - Tokens.begin()) - 1;
  bool VoidResult = Name == 1 && Tokens[0] == "void";
  if (!VoidResult && !BindableTypeReader(Tokens, 0, Name).wholeType())
    return false;
  // The parameters, split at the commas outside brackets; a default value
  // (after a `=` outside brackets) is not bound.
  size_t Close = Tokens.size() - 1, Begin = Name + 2;
  if (Close == Begin + 1 && Tokens[Begin] == "void")
    return true;
  int Depth = 0;
  size_t TypeEnd = std::string::npos;
  bool AfterComma = false; // `f(int a,)` names no last parameter
  for (size_t I = Begin; I <= Close; ++I) {
    const std::string &Tok = Tokens[I];
    if (I < Close && (Tok == "<" || Tok == "(" || Tok == "{"))
      ++Depth;
    else if (I < Close && (Tok == ">" || Tok == ")" || Tok == "}"))
      --Depth;
    else if (I < Close && Tok == "=" && Depth == 0 &&
             TypeEnd == std::string::npos)
      TypeEnd = I;
    else if (I == Close || (Tok == "," && Depth == 0)) {
      size_t End = TypeEnd == std::string::npos ? I : TypeEnd;
      if (!(I == Close && I == Begin && !AfterComma) &&
          !BindableTypeReader(Tokens, Begin, End).wholeParameter())
        return false;
      AfterComma = true;
      Begin = I + 1;
      TypeEnd = std::string::npos;
    }
  }
  return Depth == 0;
}

} // namespace kevin
