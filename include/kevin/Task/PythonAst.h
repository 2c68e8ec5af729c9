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
#include "kevin/Task/CandidateLimits.h"

#include <nlohmann/json.hpp>
#include <string>

namespace kevin {

/// One node of a Python AST (see lib/Task/ast_dump.py).
using PyNode = nlohmann::json;

/// Parses Text as a Python module. A syntax error is an Error at its line
/// and column in Text, with File = Name; a tree over the node or depth limit
/// is a limitError at the first node past it. The interpreter running out of
/// memory throws std::bad_alloc, as any allocation does.
Expected<PyNode> parsePythonAst(const std::string &Text,
                                const std::string &Name,
                                const CandidateLimits &Limits = {});

/// Starts the embedded interpreter now, if it is not started: a process that
/// forks a child per parse starts it once, before the first fork.
void startPythonParser();

/// Puts the interpreter in order in a child forked from a process that had
/// started it (CPython's after-fork hook); nothing when it was not started.
void pythonAfterFork();

} // namespace kevin

#endif // KEVIN_TASK_PYTHONAST_H
