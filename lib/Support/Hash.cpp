//===-- Hash.cpp - content hashing for cache keys ------------------------===//
//
// SHA-256 through OpenSSL's EVP interface.
//
//===----------------------------------------------------------------------===//
#include "kevin/Support/Hash.h"
#include "kevin/Support/FileSystem.h"

#include <openssl/evp.h>

#include <cstdint>

namespace kevin {

struct ContentHasher::Impl {
  EVP_MD_CTX *Context = EVP_MD_CTX_new();
  ~Impl() { EVP_MD_CTX_free(Context); }
};

ContentHasher::ContentHasher() : State(std::make_unique<Impl>()) {
  EVP_DigestInit_ex(State->Context, EVP_sha256(), nullptr);
}

ContentHasher::~ContentHasher() = default;

void ContentHasher::update(const void *Data, size_t Size) {
  EVP_DigestUpdate(State->Context, Data, Size);
}

ContentHasher &ContentHasher::add(std::string_view Part) {
  uint64_t Length = Part.size();
  update(&Length, sizeof(Length));
  update(Part.data(), Part.size());
  return *this;
}

Error ContentHasher::addFile(const std::string &Path) {
  Expected<std::string> Contents = fs::readFileWithSystemMessage(Path);
  if (!Contents)
    return Contents.error();
  add(*Contents);
  return Error::success();
}

static std::string toHex(const unsigned char *Bytes, unsigned Size) {
  static const char Digits[] = "0123456789abcdef";
  std::string Hex;
  Hex.reserve(Size * 2);
  for (unsigned I = 0; I < Size; ++I) {
    Hex += Digits[Bytes[I] >> 4];
    Hex += Digits[Bytes[I] & 15];
  }
  return Hex;
}

std::string ContentHasher::finish() {
  unsigned char Digest[EVP_MAX_MD_SIZE];
  unsigned Size = 0;
  EVP_DigestFinal_ex(State->Context, Digest, &Size);
  return toHex(Digest, Size);
}

std::string sha256Hex(std::string_view Bytes) {
  unsigned char Digest[EVP_MAX_MD_SIZE];
  unsigned Size = 0;
  EVP_Digest(Bytes.data(), Bytes.size(), Digest, &Size, EVP_sha256(), nullptr);
  return toHex(Digest, Size);
}

} // namespace kevin
