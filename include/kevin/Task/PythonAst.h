//===-- kevin/Task/PythonAst.h - CPython's ast as JSON ----------*- C++ -*-===//
//
// Python is parsed by CPython's own `ast` module running in an embedded,
// isolated interpreter: the text is handed to ast.parse, which never
// executes it, and the tree comes back as JSON (lib/Task/ast_dump.py
// documents the shape). The interpreter is started once per process.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_TASK_PYTHONAST_H
#define KEVIN_TASK_PYTHONAST_H

#include "kevin/Support/Error.h"

#include <nlohmann/json.hpp>
#include <string>

namespace kevin {

/// One node of a Python AST (see lib/Task/ast_dump.py).
using PyNode = nlohmann::json;

/// Parses Text as a Python module. A syntax error (or a tree nested too
/// deeply) is an Error at its line and column in Text, with File = Name.
Expected<PyNode> parsePythonAst(const std::string &Text,
                                const std::string &Name);

} // namespace kevin

#endif // KEVIN_TASK_PYTHONAST_H
