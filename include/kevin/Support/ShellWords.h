//===-- kevin/Support/ShellWords.h - flags as the shell splits them -*- C++ -*-===//
//
// load_inline's extra_cflags, extra_cuda_cflags and extra_ldflags reach the
// compiler through the shell that runs torch's ninja build line, where they
// are joined by spaces. The builder gives the compiler those words, and
// kevin-check judges those words, so both split them here.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_SUPPORT_SHELLWORDS_H
#define KEVIN_SUPPORT_SHELLWORDS_H

#include <string>
#include <vector>

namespace kevin {

/// The words /bin/sh makes of Flags joined by spaces: an empty flag
/// disappears, "-O3 --use_fast_math" is two words, quotes group and
/// backslashes escape. Nothing is expanded ($ and globs stay as written).
std::vector<std::string> shellWords(const std::vector<std::string> &Flags);

} // namespace kevin

#endif // KEVIN_SUPPORT_SHELLWORDS_H
