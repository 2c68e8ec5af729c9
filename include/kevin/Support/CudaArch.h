//===-- kevin/Support/CudaArch.h - the machine's nvcc target --*- C++ -*-===//
//
// The nvcc target of the machine's GPUs as nvidia-smi reports it, which
// makes no CUDA context. kevin's tools hand it to their workers, so that a
// worker's set-up touches no device: a CUDA context made while another
// process's kernel is timed (its device memory mapped) slows that kernel.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_SUPPORT_CUDAARCH_H
#define KEVIN_SUPPORT_CUDAARCH_H

#include <string>
#include <vector>

namespace kevin {

/// The target of nvidia-smi's `compute_cap` lines ("9.0" gives sm_90a,
/// "8.6" sm_86: the arch-specific target from 9.0 on, as torch's own
/// extensions get it); empty unless every line names the same capability.
std::string cudaArchFromComputeCaps(const std::string &SmiOutput);

/// cudaArchFromComputeCaps of what the command Argv prints (nvidia-smi's
/// query in machineCudaArch); empty when it cannot run or fails.
std::string cudaArchFromCommand(const std::vector<std::string> &Argv);

/// cudaArchFromCommand of this machine's `nvidia-smi
/// --query-gpu=compute_cap`, asked once per process; empty without
/// nvidia-smi or GPUs. nvidia-smi lists every GPU whatever
/// CUDA_VISIBLE_DEVICES says, so a machine of mixed GPUs gets none (its
/// workers ask torch).
std::string machineCudaArch();

/// Arch when set, else machineCudaArch().
std::string cudaArchOr(const std::string &Arch);

} // namespace kevin

#endif // KEVIN_SUPPORT_CUDAARCH_H
