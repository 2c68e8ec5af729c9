//===-- CudaArch.cpp - the machine's nvcc target --------------------------===//
//
// See kevin/Support/CudaArch.h.
//
//===----------------------------------------------------------------------===//
#include "kevin/Support/CudaArch.h"
#include "kevin/Support/Subprocess.h"

#include <regex>
#include <sstream>

namespace kevin {

std::string cudaArchFromComputeCaps(const std::string &SmiOutput) {
  static const std::regex Capability("\\s*([0-9]{1,3})\\.([0-9])\\s*");
  std::string Arch;
  std::istringstream In(SmiOutput);
  for (std::string Line; std::getline(In, Line);) {
    std::smatch M;
    if (!std::regex_match(Line, M, Capability))
      return "";
    std::string Named = "sm_" + M[1].str() + M[2].str() +
                        (std::stoi(M[1].str()) >= 9 ? "a" : "");
    if (!Arch.empty() && Named != Arch)
      return "";
    Arch = Named;
  }
  return Arch;
}

std::string cudaArchFromCommand(const std::vector<std::string> &Argv) {
  SubprocessOptions Command;
  Command.Argv = Argv;
  Command.TimeoutSeconds = 20;
  Expected<SubprocessResult> R = runSubprocess(Command);
  return R && R->succeeded() ? cudaArchFromComputeCaps(R->Stdout)
                             : std::string();
}

std::string machineCudaArch() {
  static const std::string Arch = cudaArchFromCommand(
      {"nvidia-smi", "--query-gpu=compute_cap", "--format=csv,noheader"});
  return Arch;
}

std::string cudaArchOr(const std::string &Arch) {
  return Arch.empty() ? machineCudaArch() : Arch;
}

} // namespace kevin
