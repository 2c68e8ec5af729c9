//===-- kevin/Support/Hash.h - content hashing for cache keys ---*- C++ -*-===//
//
// SHA-256 (OpenSSL) over the parts of a cache key. Candidates are hostile, so
// the build cache needs a collision-resistant hash: a crafted collision must
// not let one candidate load another's compiled extension. Parts are framed
// with their lengths, so ("ab","c") and ("a","bc") differ.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_SUPPORT_HASH_H
#define KEVIN_SUPPORT_HASH_H

#include "kevin/Support/Error.h"

#include <memory>
#include <string>
#include <string_view>

namespace kevin {

/// Incremental SHA-256 over length-framed parts.
class ContentHasher {
public:
  ContentHasher();
  ~ContentHasher();
  ContentHasher(const ContentHasher &) = delete;
  ContentHasher &operator=(const ContentHasher &) = delete;

  /// Adds one part of the key (its length is hashed first).
  ContentHasher &add(std::string_view Part);
  /// Adds the contents of a file as one part.
  Error addFile(const std::string &Path);
  /// The lowercase hex digest (64 characters); the hasher is then spent.
  std::string finish();

private:
  void update(const void *Data, size_t Size);
  struct Impl;
  std::unique_ptr<Impl> State;
};

/// SHA-256 of raw bytes (no framing), as lowercase hex.
std::string sha256Hex(std::string_view Bytes);

} // namespace kevin

#endif // KEVIN_SUPPORT_HASH_H
