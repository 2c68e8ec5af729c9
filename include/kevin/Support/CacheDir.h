//===-- kevin/Support/CacheDir.h - where kevin keeps its caches -*- C++ -*-===//
//
// One cache directory for every tool: built extensions (lib/Build) and the
// precompiled lean prelude of kevin-check (lib/Check).
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_SUPPORT_CACHEDIR_H
#define KEVIN_SUPPORT_CACHEDIR_H

#include <string>

namespace kevin {

/// $KEVIN_CACHE_DIR, else $HOME/.cache/kevin (/tmp/.cache/kevin without HOME).
std::string defaultCacheDir();

} // namespace kevin

#endif // KEVIN_SUPPORT_CACHEDIR_H
