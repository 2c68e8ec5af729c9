//===-- TorchFacade.cpp - CUDA units compiled without torch's headers -----===//
//
// The scan that lets a unit try kevin's torch facade, the look at the
// object it gave (`nm -g -C`), and the support object in the cache.
//
//===----------------------------------------------------------------------===//
#include "TorchFacade.h"
#include "CompileStep.h"
#include "PrecompiledHeader.h"
#include "TorchHeaders.h"
#include "kevin/Build/FunctionDeclaration.h"

#include <cctype>
#include <cstring>
#include <fstream>
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

/// The readable symbols of an `nm -g -C` table: (type letter, name).
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

bool inTorchNamespace(const std::string &Name) {
  for (const char *Prefix : {"at::", "c10::", "torch::"})
    if (Name.rfind(Prefix, 0) == 0)
      return true;
  return false;
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

namespace {

/// Whether Line names something of torch's, of the standard library (whose
/// headers torch brings and the facade mostly does not), or the facade.
bool namesWhatTheFacadeMayLack(const std::string &Line) {
  // nvcc's front end quotes names with ", g++ with ' (or U+2018 U+2019 in
  // other locales: a namespace is matched with its closing quote alone).
  static const char *const Words[] = {
      "at::",    "c10::",    "torch::",    "caffe2::",   "std::",
      "at\"",    "c10\"",    "torch\"",    "std\"",      "at'",
      "c10'",    "torch'",   "std'",       "at\u2019",   "c10\u2019",
      "torch\u2019", "std\u2019", "AT_",   "C10_",       "TORCH_",
      "THC",     "c10/",     "ATen/",      "torch/",     "kevin_facade",
      "kevin_torch", "torch_facade"};
  for (const char *Word : Words)
    for (size_t At = Line.find(Word); At != std::string::npos;
         At = Line.find(Word, At + 1))
      // A whole word's start: FLOAT_MAX does not name AT_.
      if (At == 0 || !isWordChar(Line[At - 1]))
        return true;
  return false;
}

/// Whether an error line says that an all-capitals name (a constant such as
/// FLT_MAX, which torch's headers may bring) is not declared: nvcc's
/// `identifier "FLT_MAX" is undefined`, g++'s `'FLT_MAX' was not declared`.
bool undeclaredConstant(const std::string &Line) {
  if (Line.find(" is undefined") == std::string::npos &&
      Line.find(" was not declared") == std::string::npos)
    return false;
  for (const char *Quote : {"\"", "'", "\u2018"}) {
    size_t At = Line.find(Quote, Line.find("error:"));
    if (At == std::string::npos)
      continue;
    At += std::strlen(Quote);
    size_t End = wordEnd(Line, At);
    bool Capitals = End > At;
    for (size_t I = At; I < End; ++I)
      Capitals &= !std::islower(static_cast<unsigned char>(Line[I]));
    if (Capitals)
      return true;
  }
  return false;
}

} // namespace

bool facadeErrorMayBeTheFacades(const std::string &CompilerOutput) {
  std::istringstream In(CompilerOutput);
  // The error lines and the lines that qualify one (nvcc's "operand types
  // are: at::Tensor [ int ]"), not the source line each compiler echoes
  // after an error, macros (the facade's too) expanded.
  for (std::string Line; std::getline(In, Line);) {
    bool Error = Line.find("error:") != std::string::npos;
    bool Qualifier = false;
    for (const char *Phrase :
         {"types are:", "type is:", "detected during", "In instantiation of",
          "required from"})
      Qualifier |= Line.find(Phrase) != std::string::npos;
    if ((Error || Qualifier) && namesWhatTheFacadeMayLack(Line))
      return true;
    if (Error && undeclaredConstant(Line))
      return true;
  }
  return false;
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
  Symbols.Argv = {"nm", "-g", "-C", Object};
  runStep(Symbols, T, Options, Dir, &Table);
  if (!Symbols.Ok)
    return "nm cannot read it: " + Symbols.Output;
  for (const auto &[Type, Name] : symbolsOf(Table)) {
    if (Name.find("kevin_facade") != std::string::npos)
      return "'" + Name + "' names a type of kevin's torch facade";
    if (inTorchNamespace(Name))
      return "'" + Name + "' is torch's" +
             (Type == 'U' ? " (referred to)" : " (defined)");
  }
  return "";
}

std::string torchFacadeSupport(const TorchToolchain &T,
                               const BuildOptions &Options, bool Wait) {
  std::vector<std::string> Flags = {"-fPIC", "-std=c++17", "-O2",
                                    std::string("-D_GLIBCXX_USE_CXX11_ABI=") +
                                        (T.CxxAbi ? "1" : "0")};
  for (const std::string &Dir : T.IncludeDirs)
    Flags.insert(Flags.end(), {"-isystem", Dir});
  if (!T.CudaHome.empty())
    Flags.insert(Flags.end(), {"-isystem", T.CudaHome + "/include"});
  PchRecipe Recipe{"torch_facade_support.cpp",
                   std::string(TorchFacadeSupportSource),
                   std::string(TorchFacadeSupportSource),
                   {},
                   true};
  std::string Source = precompiledHeader(Flags, T, Options, Recipe, Wait);
  return Source.empty() ? "" : Source + ".o";
}

} // namespace kevin
