//===-- WorkerSupport.cpp - result files and tensors of the workers -------===//
//
// The plain helpers the workers share (kevin/Exec/WorkerSupport.h): the
// secrets kevin-run sends on stdin, the progress file, result files written
// atomically, tensor descriptions, copies and storage ranges, and the
// classification of Python exceptions.
//
//===----------------------------------------------------------------------===//
#include "kevin/Exec/WorkerSupport.h"
#include "kevin/Exec/Compare.h"
#include "kevin/Exec/Protocol.h"
#include "kevin/Exec/TensorFile.h"

#include <cstdio>
#include <fcntl.h>
#include <fstream>
#include <iostream>
#include <unistd.h>

namespace kevin {
namespace worker {

std::optional<Json> readSecretsLine(const char *Key, const char *What) {
  std::string Line;
  std::getline(std::cin, Line);
  Json Secrets = Json::parse(Line, nullptr, false);
  if (Secrets.is_discarded() || !Secrets.is_object() ||
      !Secrets.contains(Key)) {
    std::cerr << "kevin-worker: error: no " << What << " on stdin\n";
    return std::nullopt;
  }
  return Secrets;
}

int openProgress(const std::string &Dir) {
  return ::open((Dir + "/" + protocol::Progress).c_str(),
                O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
}

void progress(int Fd, const std::string &Line) {
  if (Fd < 0)
    return;
  std::string Text = Line + "\n";
  ssize_t Ignored = ::write(Fd, Text.data(), Text.size());
  (void)Ignored;
}

/// Writes JSON to Dir/Name through a temporary file and rename, so a reader
/// never sees half a result.
bool writeJson(const std::string &Dir, const char *Name, const Json &Value) {
  std::string Path = Dir + "/" + Name, Tmp = Path + ".tmp";
  {
    std::ofstream Out(Tmp, std::ios::binary);
    Out << formatRecordLine(Value) << "\n";
    if (!Out)
      return false;
  }
  return std::rename(Tmp.c_str(), Path.c_str()) == 0;
}

std::optional<std::vector<at::Tensor>>
readTrialTensors(const std::string &Dir, unsigned T, const char *Kind) {
  Expected<std::vector<at::Tensor>> Tensors =
      readTensorFile(protocol::trialFile(Dir, T, Kind));
  if (!Tensors) {
    std::cerr << "kevin-worker: " << diagnosticLine(Tensors.error()) << "\n";
    return std::nullopt;
  }
  return std::move(*Tensors);
}

bool writeTrialTensors(const std::string &Dir, unsigned T, const char *Kind,
                       const std::vector<at::Tensor> &Tensors) {
  Error E = writeTensorFile(protocol::trialFile(Dir, T, Kind), Tensors);
  if (E)
    std::cerr << "kevin-worker: " << diagnosticLine(E) << "\n";
  return !E;
}

Json tensorMeta(const at::Tensor &T) {
  Json Meta;
  Meta["dtype"] = dtypeName(T);
  Json Shape = Json::array();
  for (int64_t S : T.sizes())
    Shape.push_back(S);
  Meta["shape"] = Shape;
  Meta["device"] = T.device().str();
  return Meta;
}

/// The storage byte range of a tensor, for overlap tests.
std::pair<uintptr_t, uintptr_t> storageRange(const at::Tensor &T) {
  if (!T.defined() || !T.has_storage())
    return {0, 0};
  const c10::Storage &S = T.storage();
  auto Begin = reinterpret_cast<uintptr_t>(S.data());
  return {Begin, Begin + S.nbytes()};
}

bool overlaps(std::pair<uintptr_t, uintptr_t> A,
              std::pair<uintptr_t, uintptr_t> B) {
  return A.first < A.second && B.first < B.second && A.first < B.second &&
         B.first < A.second;
}

/// Classifies a Python exception message into an outcome.
Outcome classifyException(const std::string &TypeAndMessage) {
  auto Has = [&](const char *S) {
    return TypeAndMessage.find(S) != std::string::npos;
  };
  if (Has("OutOfMemoryError") || Has("out of memory") ||
      Has("can't allocate memory") || Has("MemoryError"))
    return Outcome::Oom;
  if (Has("CUDA error") || Has("illegal memory access") ||
      Has("CUDA kernel errors") || Has("cudaError"))
    return Outcome::CudaError;
  return Outcome::RuntimeError;
}

bool isSystemExit(const py::error_already_set &E) {
  return E.matches(PyExc_SystemExit) || E.matches(PyExc_KeyboardInterrupt);
}

} // namespace worker
} // namespace kevin
