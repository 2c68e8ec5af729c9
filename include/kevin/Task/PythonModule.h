//===-- kevin/Task/PythonModule.h - a parsed candidate module ---*- C++ -*-===//
//
// The Python side of a candidate: its AST, the import-alias table (which
// local name means which module or imported object), the module-scope
// bindings, and positions mapped back into the original file. Rules in
// lib/Check work on this model; nothing here executes candidate code.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_TASK_PYTHONMODULE_H
#define KEVIN_TASK_PYTHONMODULE_H

#include "kevin/Support/Error.h"
#include "kevin/Task/Candidate.h"
#include "kevin/Task/PythonAst.h"

#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace kevin {

/// The type name of a node ("Call", "Name", ...), empty for non-nodes.
const std::string &nodeType(const PyNode &Node);
/// True when Node is an AST node of the given type.
bool isNode(const PyNode &Node, const char *Type);

/// Visits Node and every node below it, parents first. Returning false
/// from Visit skips the children of that node.
void walkNodes(const PyNode &Node,
               const std::function<bool(const PyNode &)> &Visit);

/// A parsed candidate module.
class PythonModule {
public:
  /// Parses a candidate; a syntax error, or a tree over one of Limits, is an
  /// Error at its position in the original file (see parsePythonAst).
  static Expected<PythonModule> parse(const CandidateSource &Source,
                                      const CandidateLimits &Limits = {});

  const PyNode &root() const { return Root; }
  const PyNode &body() const { return Root["body"]; }
  const CandidateSource &source() const { return Source; }

  /// The position of a node (or of a character inside a string constant)
  /// in the original file.
  SourceLocation locate(const PyNode &Node) const;
  SourceLocation locate(unsigned Line, unsigned ByteColumn) const;

  /// The dotted name an expression stands for through the import table:
  /// `F.relu` with `import torch.nn.functional as F` gives
  /// `torch.nn.functional.relu`; `load_inline` imported from
  /// torch.utils.cpp_extension gives `torch.utils.cpp_extension.load_inline`.
  /// Empty when the expression is not rooted at an imported name.
  std::string qualifiedName(const PyNode &Expr) const;

  /// Local names bound by imports, to the dotted name they stand for.
  const std::map<std::string, std::string> &imports() const { return Imports; }

  /// The module-scope statements that bind each name (assignments,
  /// augmented assignments, def, class, import, for/with targets).
  const std::map<std::string, std::vector<const PyNode *>> &
  moduleBindings() const {
    return Bindings;
  }

  /// The top-level class or function definition with this name, or null.
  const PyNode *findTopLevel(const std::string &Name, const char *Type) const;

  /// The names a binding statement binds at its own scope.
  static std::vector<std::string> boundNames(const PyNode &Stmt);

private:
  PythonModule() = default;
  void index();

  CandidateSource Source;
  PyNode Root;
  std::map<std::string, std::string> Imports;
  std::map<std::string, std::vector<const PyNode *>> Bindings;
};

} // namespace kevin

#endif // KEVIN_TASK_PYTHONMODULE_H
