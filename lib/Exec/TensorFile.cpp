//===-- TensorFile.cpp - tensors exchanged with workers --------------------===//
//
// See kevin/Exec/TensorFile.h. Layout: "KEVTNSR1", the header's length (u64,
// little-endian), the JSON header {"tensors":[{"dtype","sizes","offset",
// "nbytes"}]}, then each tensor's bytes at its offset (64-byte aligned).
//
//===----------------------------------------------------------------------===//
#include "kevin/Exec/TensorFile.h"
#include "kevin/Support/FileSystem.h"
#include "kevin/Support/Record.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <limits>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace kevin {

namespace {

constexpr char Magic[8] = {'K', 'E', 'V', 'T', 'N', 'S', 'R', '1'};
constexpr size_t PrefixBytes = sizeof(Magic) + sizeof(uint64_t);
constexpr size_t MaxHeaderBytes = size_t(1) << 20;
constexpr size_t Alignment = 64;

size_t alignUp(size_t N) { return (N + Alignment - 1) / Alignment * Alignment; }

/// The scalar type called Name by c10::toString; nullopt when none is.
std::optional<at::ScalarType> scalarTypeNamed(const std::string &Name) {
  for (int I = 0; I < static_cast<int>(at::ScalarType::NumOptions); ++I) {
    auto Type = static_cast<at::ScalarType>(I);
    if (Name == c10::toString(Type))
      return Type;
  }
  return std::nullopt;
}

/// Reads Size bytes at Offset of Fd into Into, through short reads and
/// EINTR; false on an error or an early end of file.
bool readAt(int Fd, void *Into, size_t Size, size_t Offset) {
  size_t Done = 0;
  while (Done < Size) {
    ssize_t N = ::pread(Fd, static_cast<char *>(Into) + Done, Size - Done,
                        static_cast<off_t>(Offset + Done));
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return false;
    Done += static_cast<size_t>(N);
  }
  return true;
}

/// Closes a descriptor when it goes out of scope.
struct FileCloser {
  int Fd;
  ~FileCloser() {
    if (Fd >= 0)
      ::close(Fd);
  }
};

} // namespace

at::Tensor emptyHostTensor(at::IntArrayRef Sizes, at::ScalarType Type) {
  at::Tensor T = at::empty(Sizes, at::TensorOptions().dtype(Type));
  constexpr uintptr_t HugePage = uintptr_t(2) << 20;
  auto Begin = reinterpret_cast<uintptr_t>(T.data_ptr());
  uintptr_t First = (Begin + HugePage - 1) & ~(HugePage - 1);
  uintptr_t Last = (Begin + T.nbytes()) & ~(HugePage - 1);
  // Advice only: a kernel without huge pages leaves the memory as it was.
  if (Last > First)
    ::madvise(reinterpret_cast<void *>(First), Last - First, MADV_HUGEPAGE);
  return T;
}

Expected<OpenTensorFile> OpenTensorFile::open(const std::string &Path) {
  int Fd = ::open(Path.c_str(), O_RDONLY | O_CLOEXEC);
  if (Fd < 0)
    return Error::inFile(Path, "cannot open tensor file");
  return OpenTensorFile(Path, Fd);
}

OpenTensorFile::OpenTensorFile(OpenTensorFile &&Other) noexcept
    : Path(std::move(Other.Path)), Fd(std::exchange(Other.Fd, -1)) {}

OpenTensorFile &OpenTensorFile::operator=(OpenTensorFile &&Other) noexcept {
  if (this != &Other) {
    if (Fd >= 0)
      ::close(Fd);
    Path = std::move(Other.Path);
    Fd = std::exchange(Other.Fd, -1);
  }
  return *this;
}

OpenTensorFile::~OpenTensorFile() {
  if (Fd >= 0)
    ::close(Fd);
}

Expected<std::vector<at::Tensor>> readTensorFile(const std::string &Path,
                                                 size_t MaxBytes) {
  Expected<OpenTensorFile> File = OpenTensorFile::open(Path);
  if (!File)
    return File.error();
  return File->read(MaxBytes);
}

size_t outputReadLimit(const std::vector<at::Tensor> &Reference) {
  size_t Bytes = 0;
  for (const at::Tensor &T : Reference)
    Bytes += T.nbytes();
  return std::max<size_t>(4 * Bytes, size_t(64) << 20);
}

Expected<std::vector<at::Tensor>> OpenTensorFile::read(size_t MaxBytes) const {
  struct stat St;
  if (::fstat(Fd, &St) != 0)
    return Error::inFile(Path, "cannot open tensor file");
  size_t FileBytes = static_cast<size_t>(St.st_size);
  auto Malformed = [&](const std::string &Why) {
    return Error::inFile(Path, "malformed tensor file: " + Why);
  };
  char Prefix[PrefixBytes];
  if (FileBytes < PrefixBytes || !readAt(Fd, Prefix, PrefixBytes, 0) ||
      std::memcmp(Prefix, Magic, sizeof(Magic)) != 0)
    return Malformed("not a kevin tensor file");
  uint64_t HeaderBytes = 0;
  for (size_t I = 0; I < 8; ++I)
    HeaderBytes |= uint64_t(static_cast<unsigned char>(Prefix[8 + I]))
                   << (8 * I);
  if (HeaderBytes > MaxHeaderBytes || PrefixBytes + HeaderBytes > FileBytes)
    return Malformed("header length out of range");
  std::string HeaderText(HeaderBytes, '\0');
  if (!readAt(Fd, HeaderText.data(), HeaderBytes, PrefixBytes))
    return Malformed("short header");
  Json Header = Json::parse(HeaderText, nullptr, false);
  if (Header.is_discarded() || !Header.contains("tensors") ||
      !Header["tensors"].is_array())
    return Malformed("header is not a tensor list");
  std::vector<at::Tensor> Tensors;
  size_t DataStart = PrefixBytes + HeaderBytes;
  size_t Total = 0;
  try {
    for (const Json &Entry : Header["tensors"]) {
      std::optional<at::ScalarType> Type =
          scalarTypeNamed(Entry.at("dtype").get<std::string>());
      if (!Type)
        return Malformed("unknown dtype");
      const Json &Offsets = Entry.at("offset"), &Lengths = Entry.at("nbytes");
      if (!Offsets.is_number_unsigned() || !Lengths.is_number_unsigned() ||
          !Entry.at("sizes").is_array())
        return Malformed("bad tensor entry");
      std::vector<int64_t> Sizes;
      size_t Numel = 1;
      for (const Json &S : Entry.at("sizes")) {
        if (!S.is_number_integer())
          return Malformed("bad sizes");
        int64_t Size = S.get<int64_t>();
        if (Size < 0 || (Size > 0 && Numel > std::numeric_limits<size_t>::max() /
                                                 static_cast<size_t>(Size)))
          return Malformed("bad sizes");
        Numel *= static_cast<size_t>(Size);
        Sizes.push_back(Size);
      }
      size_t Offset = Offsets.get<size_t>();
      size_t Bytes = Lengths.get<size_t>();
      size_t Item = c10::elementSize(*Type);
      if (Numel > std::numeric_limits<size_t>::max() / Item ||
          Bytes != Numel * Item || Offset < DataStart || Offset > FileBytes ||
          Bytes > FileBytes - Offset)
        return Malformed("tensor bytes out of range");
      Total += Bytes;
      if (Total > MaxBytes)
        return Malformed("more than " + std::to_string(MaxBytes) +
                         " bytes of tensors");
      at::Tensor T = emptyHostTensor(Sizes, *Type);
      if (Bytes > 0 && !readAt(Fd, T.data_ptr(), Bytes, Offset))
        return Malformed("short tensor data");
      Tensors.push_back(std::move(T));
    }
  } catch (const std::exception &E) {
    return Malformed(E.what());
  }
  return Tensors;
}

Error writeTensorFile(const std::string &Path,
                      const std::vector<at::Tensor> &Tensors) {
  std::vector<at::Tensor> Dense;
  Json Entries = Json::array();
  try {
    for (const at::Tensor &T : Tensors) {
      if (T.layout() != at::kStrided || T.is_quantized())
        return Error::inFile(Path, "cannot save tensors: only dense tensors "
                                   "can be exchanged, not " +
                                       std::string(c10::str(T.layout())));
      // Lazy conjugate/negative views hold other bytes than their values;
      // copy_ writes their values.
      if (T.is_cpu())
        Dense.push_back(T.resolve_conj().resolve_neg().contiguous());
      else
        Dense.push_back(emptyHostTensor(T.sizes(), T.scalar_type()).copy_(T));
      Entries.push_back(
          Json{{"dtype", c10::toString(T.scalar_type())},
               {"sizes", Dense.back().sizes().vec()},
               {"nbytes", Dense.back().nbytes()}});
    }
  } catch (const std::exception &E) {
    return Error::inFile(Path, std::string("cannot save tensors: ") + E.what());
  }
  // Offsets depend on the header's length, which depends on the offsets'
  // digits: reserve room for them by writing the header with wide numbers.
  size_t Guess = alignUp(PrefixBytes + Json{{"tensors", Entries}}.dump().size() +
                         32 * Entries.size() + 64);
  size_t Offset = Guess;
  for (size_t I = 0; I < Dense.size(); ++I) {
    Entries[I]["offset"] = Offset;
    Offset = alignUp(Offset + Dense[I].nbytes());
  }
  std::string Header = Json{{"tensors", Entries}}.dump();
  if (PrefixBytes + Header.size() > Guess)
    return Error::inFile(Path, "cannot save tensors: header too large");
  Header.resize(Guess - PrefixBytes, ' '); // JSON allows trailing blanks

  // The reason travels with the error: a full disk under a batch of
  // gpu-sized outputs must say so.
  auto cannotWrite = [&Path](int Errno) {
    return Error::inFile(Path, std::string("cannot write tensor file: ") +
                                   (Errno ? std::strerror(Errno)
                                          : "short write"));
  };
  std::string Tmp = Path + ".tmp";
  int Fd = ::open(Tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (Fd < 0)
    return cannotWrite(errno);
  errno = 0;
  bool Ok;
  {
    FileCloser Closer{Fd};
    char Prefix[PrefixBytes];
    std::memcpy(Prefix, Magic, sizeof(Magic));
    uint64_t Length = Header.size();
    for (size_t I = 0; I < 8; ++I)
      Prefix[8 + I] = static_cast<char>((Length >> (8 * I)) & 0xff);
    Ok = fs::writeAll(Fd, std::string_view(Prefix, PrefixBytes)) &&
         fs::writeAll(Fd, Header);
    size_t At = Guess;
    static const char Zeros[Alignment] = {};
    for (size_t I = 0; Ok && I < Dense.size(); ++I) {
      size_t Bytes = Dense[I].nbytes();
      Ok = (Bytes == 0 || fs::writeAll(
                         Fd, std::string_view(static_cast<const char *>(
                                                  Dense[I].data_ptr()),
                                              Bytes)));
      At += Bytes;
      if (Ok && I + 1 < Dense.size()) {
        size_t Pad = alignUp(At) - At;
        Ok = fs::writeAll(Fd, std::string_view(Zeros, Pad));
        At += Pad;
      }
    }
  }
  if (!Ok || std::rename(Tmp.c_str(), Path.c_str()) != 0) {
    int Errno = errno;
    ::unlink(Tmp.c_str());
    return cannotWrite(Errno);
  }
  return Error::success();
}

} // namespace kevin
