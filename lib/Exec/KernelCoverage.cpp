//===-- KernelCoverage.cpp - whose kernels did the work -------------------===//
//
// Text scans only: `__global__` and namespace names in the sources the
// candidate's extensions were built from, function names in the profiler's
// demangled kernel names, and a short list of torch's glue kernels (fills and
// copies) that honest host code launches.
//
//===----------------------------------------------------------------------===//

#include "kevin/Exec/KernelCoverage.h"
#include "kevin/Build/FunctionDeclaration.h"

#include <algorithm>
#include <cctype>
#include <map>

namespace kevin {
namespace {

/// The index after the parenthesized group that opens at Open, or npos.
size_t skipParens(const std::string &Text, size_t Open) {
  int Depth = 0;
  for (size_t I = Open; I < Text.size(); ++I) {
    if (Text[I] == '(')
      ++Depth;
    else if (Text[I] == ')' && --Depth == 0)
      return I + 1;
  }
  return std::string::npos;
}

/// What names torch's fill and copy kernels, launched by host code such as
/// torch::zeros, .contiguous(), .to(dtype) or torch::cat: the fill functor
/// (a template argument of ATen's elementwise kernel), the copy kernels'
/// functions (casts to 16- and 8-bit floats have their own), cat's batched
/// copy.
constexpr const char *GlueKernels[] = {
    "at::native::FillFunctor<", "direct_copy_kernel_cuda",
    "float16_copy_kernel_cuda", "bfloat16_copy_kernel_cuda",
    "float8_copy_kernel_cuda",  "CatArrayBatchedCopy"};

/// Namespaces of libraries' kernels: never the candidate's, whatever their
/// function's name.
constexpr const char *LibraryNamespaces[] = {
    "at::",     "at_cuda_detail::", "c10::",   "cub::",
    "thrust::", "cutlass::",        "cute::",  "pytorch_flash::",
    "cudnn::",  "cublasLt::",       "triton::"};

} // namespace

std::set<std::string> globalFunctionNames(const std::string &Text) {
  std::string Source = codeWithoutComments(Text);
  std::set<std::string> Names;
  const std::string Keyword = "__global__";
  for (size_t At = Source.find(Keyword); At != std::string::npos;
       At = Source.find(Keyword, At + 1)) {
    if ((At > 0 && isWordChar(Source[At - 1])) ||
        (At + Keyword.size() < Source.size() &&
         isWordChar(Source[At + Keyword.size()])))
      continue;
    // The name is the word before the first `(` that is not an attribute's.
    std::string Word;
    for (size_t I = At + Keyword.size(); I < Source.size();) {
      char C = Source[I];
      if (isWordChar(C)) {
        size_t End = wordEnd(Source, I);
        Word = Source.substr(I, End - I);
        I = End;
        continue;
      }
      if (C == '(') {
        if (Word == "__launch_bounds__" || Word == "__attribute__" ||
            Word == "alignas" || Word == "__align__") {
          I = skipParens(Source, I);
          Word.clear();
          continue;
        }
        if (!Word.empty() && !std::isdigit(static_cast<unsigned char>(Word[0])))
          Names.insert(Word);
        break;
      }
      if (C == ';' || C == '{' || C == '}' || C == '=')
        break;
      ++I;
    }
  }
  return Names;
}

std::string kernelQualifiedName(const std::string &ProfiledName) {
  std::string Name = ProfiledName;
  const std::string Anonymous = "(anonymous namespace)";
  for (size_t P; (P = Name.find(Anonymous)) != std::string::npos;)
    Name.replace(P, Anonymous.size(), "anonymous");
  // The signature starts at the first `(` outside template arguments.
  int Angles = 0;
  size_t Paren = Name.size();
  for (size_t I = 0; I < Name.size(); ++I) {
    if (Name[I] == '<')
      ++Angles;
    else if (Name[I] == '>' && Angles > 0)
      --Angles;
    else if (Name[I] == '(' && Angles == 0) {
      Paren = I;
      break;
    }
  }
  std::string Head = Name.substr(0, Paren);
  while (!Head.empty() && std::isspace(static_cast<unsigned char>(Head.back())))
    Head.pop_back();
  // Drop trailing template arguments, then qualifiers and the return type.
  if (!Head.empty() && Head.back() == '>') {
    int Depth = 0;
    for (size_t I = Head.size(); I-- > 0;) {
      if (Head[I] == '>')
        ++Depth;
      else if (Head[I] == '<' && --Depth == 0) {
        Head.resize(I);
        break;
      }
    }
  }
  size_t Start = Head.rfind(' ');
  return Start == std::string::npos ? Head : Head.substr(Start + 1);
}

std::string kernelFunctionName(const std::string &ProfiledName) {
  std::string Qualified = kernelQualifiedName(ProfiledName);
  size_t Start = Qualified.size();
  while (Start > 0 && isWordChar(Qualified[Start - 1]))
    --Start;
  return Qualified.substr(Start);
}

std::set<std::string> declaredNamespaces(const std::string &Text) {
  std::string Source = codeWithoutComments(Text);
  std::set<std::string> Names;
  const std::string Keyword = "namespace";
  for (size_t At = Source.find(Keyword); At != std::string::npos;
       At = Source.find(Keyword, At + 1)) {
    size_t End = At + Keyword.size();
    if ((At > 0 && isWordChar(Source[At - 1])) ||
        (End < Source.size() && isWordChar(Source[End])))
      continue;
    // `namespace a::b {` names both.
    for (size_t I = End; I < Source.size();) {
      while (I < Source.size() &&
             (std::isspace(static_cast<unsigned char>(Source[I])) ||
              Source[I] == ':'))
        ++I;
      size_t WordEnd = wordEnd(Source, I);
      if (WordEnd == I)
        break;
      Names.insert(Source.substr(I, WordEnd - I));
      I = WordEnd;
    }
  }
  return Names;
}

const char *kernelKindName(KernelKind K) {
  switch (K) {
  case KernelKind::Candidate:
    return "candidate";
  case KernelKind::Glue:
    return "glue";
  case KernelKind::Other:
    return "other";
  }
  return "other";
}

KernelKind classifyKernel(const std::string &ProfiledName,
                          const std::set<std::string> &CandidateKernels,
                          const std::set<std::string> &CandidateNamespaces) {
  // Device-side copies and sets are glue; a copy to or from the host is
  // not (work done on the CPU and copied back is not the kernels' work).
  if (ProfiledName.rfind("Memset", 0) == 0 ||
      ProfiledName.rfind("Memcpy DtoD", 0) == 0)
    return KernelKind::Glue;
  if (ProfiledName.rfind("Memcpy", 0) == 0)
    return KernelKind::Other;
  // The candidate's: one of its kernels' names, in no namespace or in
  // namespaces its sources declare, never a library's.
  std::string Qualified = kernelQualifiedName(ProfiledName);
  bool Own = CandidateKernels.count(kernelFunctionName(ProfiledName)) > 0;
  for (const char *Namespace : LibraryNamespaces)
    Own &= Qualified.rfind(Namespace, 0) != 0;
  for (size_t Start = 0, Colons;
       Own && (Colons = Qualified.find("::", Start)) != std::string::npos;
       Start = Colons + 2) {
    std::string Namespace = Qualified.substr(Start, Colons - Start);
    Own = Namespace == "anonymous" || CandidateNamespaces.count(Namespace);
  }
  if (Own)
    return KernelKind::Candidate;
  for (const char *Glue : GlueKernels)
    if (ProfiledName.find(Glue) != std::string::npos)
      return KernelKind::Glue;
  return KernelKind::Other;
}

double KernelCoverage::coverage() const {
  double Judged = CandidateMicros + OtherMicros;
  return Judged > 0 ? CandidateMicros / Judged : 1.0;
}

KernelCoverage
measureKernelCoverage(const std::vector<std::pair<std::string, double>> &Events,
                      const std::set<std::string> &CandidateKernels,
                      const std::set<std::string> &CandidateNamespaces) {
  KernelCoverage C;
  std::map<std::string, std::pair<KernelKind, double>> ByName;
  for (const auto &[Name, Micros] : Events) {
    KernelKind K = classifyKernel(Name, CandidateKernels, CandidateNamespaces);
    auto &Entry = ByName.emplace(Name, std::make_pair(K, 0.0)).first->second;
    Entry.second += Micros;
    switch (K) {
    case KernelKind::Candidate:
      C.CandidateMicros += Micros;
      ++C.CandidateLaunches;
      break;
    case KernelKind::Glue:
      C.GlueMicros += Micros;
      break;
    case KernelKind::Other:
      C.OtherMicros += Micros;
      break;
    }
  }
  C.Kernels.assign(ByName.begin(), ByName.end());
  std::stable_sort(C.Kernels.begin(), C.Kernels.end(),
                   [](const auto &A, const auto &B) {
                     return A.second.second > B.second.second;
                   });
  return C;
}

} // namespace kevin
