//===-- kevin/Exec/TensorFile.h - tensors exchanged with workers -*- C++ -*-===//
//
// The files through which workers and tools pass tensors: inputs, reference
// and candidate outputs. Gpu-profile tasks move gigabytes per evaluation
// through them, so the format is raw: a magic, a JSON header (dtype, sizes,
// offset and length of each tensor) and the contiguous bytes, each tensor
// read straight into its own storage. A file written by a candidate's
// process is untrusted: every header field is checked against the file.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_EXEC_TENSORFILE_H
#define KEVIN_EXEC_TENSORFILE_H

#include "kevin/Support/Error.h"

#include <ATen/ATen.h>

#include <limits>
#include <string>
#include <vector>

namespace kevin {

/// The CPU tensors of a tensor file (dense, contiguous). A file whose
/// tensors would take more than MaxBytes is malformed (a candidate's file
/// must not make the trusted reader allocate what it likes).
Expected<std::vector<at::Tensor>>
readTensorFile(const std::string &Path,
               size_t MaxBytes = std::numeric_limits<size_t>::max());

/// A tensor file opened now and read later: its name may be unlinked in
/// between (kevin-run takes the reference's outputs out of a candidate's
/// reach before the candidate runs, and reads them while it does).
class OpenTensorFile {
public:
  /// Errors name Path.
  static Expected<OpenTensorFile> open(const std::string &Path);
  OpenTensorFile(OpenTensorFile &&Other) noexcept;
  OpenTensorFile &operator=(OpenTensorFile &&Other) noexcept;
  OpenTensorFile(const OpenTensorFile &) = delete;
  OpenTensorFile &operator=(const OpenTensorFile &) = delete;
  ~OpenTensorFile();

  /// As readTensorFile.
  Expected<std::vector<at::Tensor>>
  read(size_t MaxBytes = std::numeric_limits<size_t>::max()) const;

private:
  OpenTensorFile(std::string Path, int Fd) : Path(std::move(Path)), Fd(Fd) {}
  std::string Path;
  int Fd = -1;
};

/// What readTensorFile should allow for a candidate's outputs when the
/// reference's are Reference: four times their size, at least 64 MiB.
size_t outputReadLimit(const std::vector<at::Tensor> &Reference);

/// An uninitialised CPU tensor. From 2 MiB on, its memory is advised to
/// the kernel as transparent huge pages (MADV_HUGEPAGE, where the kernel
/// allows it), so that filling it faults once per 2 MiB rather than once
/// per 4 KiB page: on a virtual machine the faults of one gpu-sized
/// tensor took seconds, more than the copy itself.
at::Tensor emptyHostTensor(at::IntArrayRef Sizes, at::ScalarType Type);

/// Writes Tensors (copied to the CPU and made contiguous when they are not)
/// to Path, through a temporary file renamed into place. Sparse and
/// quantized tensors are refused.
Error writeTensorFile(const std::string &Path,
                      const std::vector<at::Tensor> &Tensors);

} // namespace kevin

#endif // KEVIN_EXEC_TENSORFILE_H
