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
