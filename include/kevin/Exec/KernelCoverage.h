//===-- kevin/Exec/KernelCoverage.h - whose kernels ran ---------*- C++ -*-===//
//
// KEVIN-RT-009: one forward of the candidate runs under torch's profiler
// (in the candidate's worker), and kevin-run sorts the GPU kernels it
// recorded: the candidate's own (a `__global__` function of the sources its
// extensions were built from), torch's glue (fills, copies, memsets), and
// the rest (ATen compute, cuBLAS, cuDNN, Triton, host-device copies...).
// The candidate's kernels must have run and done most of the work.
//
//===----------------------------------------------------------------------===//

#ifndef KEVIN_EXEC_KERNELCOVERAGE_H
#define KEVIN_EXEC_KERNELCOVERAGE_H

#include <set>
#include <string>
#include <utility>
#include <vector>

namespace kevin {

/// The names of the `__global__` functions a C++/CUDA source defines or
/// declares (a text scan; comments and directives do not count).
std::set<std::string> globalFunctionNames(const std::string &Source);

/// The namespaces a C++/CUDA source declares (`namespace a::b {` gives both).
std::set<std::string> declaredNamespaces(const std::string &Source);

/// A kernel's function as the profiler names it, qualified and without
/// template arguments, signature or return type:
/// `void ns::relu_kernel<float>(float const*, float*, int)` ->
/// `ns::relu_kernel`.
std::string kernelQualifiedName(const std::string &ProfiledName);
/// The same without its qualifiers: `relu_kernel`.
std::string kernelFunctionName(const std::string &ProfiledName);

enum class KernelKind { Candidate, Glue, Other };
const char *kernelKindName(KernelKind K);

/// Candidate when the kernel's function is one of CandidateKernels, in no
/// namespace, an anonymous one or CandidateNamespaces, and never a
/// library's (at::, c10::, cub::, thrust::, cutlass::, cudnn::, ...); Glue
/// for torch's fills and copies and device-side memcpy/memset; Other
/// (host-device copies included).
KernelKind classifyKernel(const std::string &ProfiledName,
                          const std::set<std::string> &CandidateKernels,
                          const std::set<std::string> &CandidateNamespaces);

/// GPU time of one profiled forward, by kind.
struct KernelCoverage {
  double CandidateMicros = 0, GlueMicros = 0, OtherMicros = 0;
  unsigned CandidateLaunches = 0;
  /// Candidate / (Candidate + Other): glue counts for neither side; 1 when
  /// only glue or nothing ran.
  double coverage() const;
  /// The kernels, most time first: name, kind, microseconds summed.
  std::vector<std::pair<std::string, std::pair<KernelKind, double>>> Kernels;
};

KernelCoverage
measureKernelCoverage(const std::vector<std::pair<std::string, double>> &Events,
                      const std::set<std::string> &CandidateKernels,
                      const std::set<std::string> &CandidateNamespaces);

} // namespace kevin

#endif // KEVIN_EXEC_KERNELCOVERAGE_H
