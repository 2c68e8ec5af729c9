//===-- CacheDir.cpp - where kevin keeps its caches -----------------------===//
//
// See kevin/Support/CacheDir.h.
//
//===----------------------------------------------------------------------===//
#include "kevin/Support/CacheDir.h"

#include <cstdlib>

namespace kevin {

std::string defaultCacheDir() {
  if (const char *Dir = std::getenv("KEVIN_CACHE_DIR"); Dir && *Dir)
    return Dir;
  const char *Home = std::getenv("HOME");
  return std::string(Home && *Home ? Home : "/tmp") + "/.cache/kevin";
}

} // namespace kevin
