//===-- kevin/Support/FileSystem.h - reading and writing files --*- C++ -*-===//
//
// The file operations every area needs: a whole file into a string with
// kevin's messages, a file written so that readers never see half of it,
// and where the running executable lies (to find its sibling tools).
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_SUPPORT_FILESYSTEM_H
#define KEVIN_SUPPORT_FILESYSTEM_H

#include "kevin/Support/Error.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace kevin {
namespace fs {

/// The bytes of Path. A file that cannot be opened is
/// `'Path': cannot open file`, one that fails while being read
/// `'Path': cannot read file`, both of ErrorKind::FileAccess.
Expected<std::string> readFile(const std::string &Path);

/// Like readFile, but the message of a failure is the system's reason:
/// `'Path': No such file or directory`, `'Path': Is a directory`.
Expected<std::string> readFileWithSystemMessage(const std::string &Path);

/// The bytes of Path, or an empty string when it cannot be read.
std::string readFileOrEmpty(const std::string &Path);

/// Why Path cannot be read as a regular file (the system's reason, or "not a
/// regular file"); an empty string when it can.
std::string whyUnreadable(const std::string &Path);

/// 64 random bits in hex: a name part no other process or thread picks.
/// Candidate workers run in PID namespaces of their own, where every one of
/// them is process 2, so a process id alone would collide in shared places.
std::string uniqueTag();

/// Writes Text to a new file in Path's directory and renames it over Path, so
/// that a reader sees the old file or the whole new one, never a part. On
/// failure Path is untouched and the temporary file removed; the error is
/// `'Path': cannot write file: <reason>` of ErrorKind::FileAccess.
Error writeFileAtomically(const std::string &Path, std::string_view Text);

/// Writes all of Text to the descriptor Fd, through short writes and
/// EINTR; false on an error (errno says which) or a write of nothing.
bool writeAll(int Fd, std::string_view Text);

/// The bytes of the regular files under Dir (Dir itself when it is a
/// file); what cannot be read counts as 0.
uintmax_t treeBytes(const std::string &Dir);

/// The absolute path of the running executable (/proc/self/exe), or an empty
/// string when it cannot be read.
std::string selfExecutablePath();

/// The directory of selfExecutablePath() without a trailing slash, or an
/// empty string when the path is unknown.
std::string selfExecutableDirectory();

} // namespace fs
} // namespace kevin

#endif // KEVIN_SUPPORT_FILESYSTEM_H
