//===-- BuildFiles.cpp - the builder's file utilities ---------------------===//
//
// See BuildFiles.h.
//
//===----------------------------------------------------------------------===//
#include "BuildFiles.h"
#include "kevin/Support/Subprocess.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <sys/stat.h>

namespace kevin {

bool fileExists(const std::string &Path) {
  struct stat St;
  return ::stat(Path.c_str(), &St) == 0;
}

Error makeDirs(const std::string &Path) {
  std::string Partial;
  std::istringstream In(Path);
  std::string Part;
  if (!Path.empty() && Path[0] == '/')
    Partial = "/";
  while (std::getline(In, Part, '/')) {
    if (Part.empty())
      continue;
    Partial += Part + "/";
    if (::mkdir(Partial.c_str(), 0755) != 0 && errno != EEXIST)
      return Error::inFile(Partial, std::string("cannot create directory: ") +
                                        std::strerror(errno));
  }
  return Error::success();
}

Error writeFile(const std::string &Path, const std::string &Text) {
  std::ofstream Out(Path, std::ios::binary);
  Out << Text;
  Out.close();
  if (!Out)
    return Error::inFile(Path, "cannot write file");
  return Error::success();
}

void removeTree(const std::string &Path) {
  SubprocessOptions Rm;
  Rm.Argv = {"rm", "-rf", Path};
  Rm.Environment = std::vector<std::string>{"PATH=/usr/bin:/bin"};
  (void)runSubprocess(Rm);
}

} // namespace kevin
