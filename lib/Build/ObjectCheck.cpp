//===-- ObjectCheck.cpp - what compiled objects refer to ------------------===//
//
// Reads each object's whole symbol table (`nm -P -g`) and section headers
// (`readelf -S -W`), run with an argv (no shell), and fails closed: an
// object whose tables cannot be read is a build error.
//
//===----------------------------------------------------------------------===//
#include "ObjectCheck.h"
#include "CompileStep.h"
#include "kevin/Build/LaunchGate.h"

#include <fstream>

namespace kevin {

namespace {

/// Whether the file at Path starts as an ELF object does.
bool isElfFile(const std::string &Path) {
  char Magic[4] = {};
  std::ifstream(Path, std::ios::binary).read(Magic, sizeof(Magic));
  return std::string(Magic, sizeof(Magic)) == std::string("\x7f") + "ELF";
}

/// Why one object cannot be used, or "".
std::string objectProblem(const std::string &Object, const std::string &Dir,
                          const TorchToolchain &T,
                          const BuildOptions &Options) {
  // Only ELF objects have a symbol table (the unit tests' stand-in
  // compilers write none).
  if (!isElfFile(Dir + Object))
    return "";
  Step Symbols, Sections;
  std::string SymbolTable, SectionTable;
  Symbols.Argv = {"nm", "-P", "-g", Object};
  runStep(Symbols, T, Options, Dir, &SymbolTable);
  if (Symbols.Ok) {
    Sections.Argv = {"readelf", "-S", "-W", Object};
    runStep(Sections, T, Options, Dir, &SectionTable);
  }
  if (!Symbols.Ok || !Sections.Ok)
    return "kevin cannot read what they refer to: " + Symbols.Output +
           Sections.Output;
  // An object of link-time optimization shows the compiler's symbol
  // table, not the assembler's, which hides a versioned reference.
  if (SectionTable.find(".gnu.lto_") != std::string::npos)
    return "they were compiled for link-time optimization (-flto), "
           "which hides what they refer to from kevin's launch gate "
           "(KEVIN-RT-010)";
  if (std::string Found = launchGateBypass(SymbolTable); !Found.empty())
    return "they refer to '" + Found +
           "', which goes around kevin's launch gate (KEVIN-RT-010)";
  return "";
}

} // namespace

std::string objectsProblem(const std::vector<std::string> &Objects,
                           const std::string &Dir, const TorchToolchain &T,
                           const BuildOptions &Options) {
  for (const std::string &Object : Objects)
    if (std::string Problem = objectProblem(Object, Dir, T, Options);
        !Problem.empty())
      return Problem;
  return "";
}

} // namespace kevin
