//===-- kevin/Check/PythonRule.h - rules over the Python AST ----*- C++ -*-===//
//
// One class per rule (clang-tidy anatomy): each rule reads the candidate's
// PythonModule and reports findings through a FindingSink, which fills in
// the catalog id and the policy's severity. Shared analyses (the forward
// path, scopes, extension names) live in PythonFacts.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_CHECK_PYTHONRULE_H
#define KEVIN_CHECK_PYTHONRULE_H

#include "kevin/Check/CheckPolicy.h"
#include "kevin/Check/Checker.h"
#include "kevin/Check/Finding.h"
#include "kevin/Task/LoadInline.h"
#include "kevin/Task/PythonModule.h"

#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace kevin {

/// Collects findings, filling in the rule's catalog id, severity and hint.
class FindingSink {
public:
  explicit FindingSink(const CheckPolicy &P) : P(P) {}
  /// Reports a finding of Rule (an id from the catalog) unless the policy
  /// switches the rule off. MaxSeverity caps the policy's severity (a rule
  /// reports its grey-zone cases as warnings).
  void report(const std::string &Rule, SourceLocation Loc, std::string Message,
              std::string Hint = "", Severity MaxSeverity = Severity::Error);
  std::vector<Finding> &findings() { return Findings; }

private:
  const CheckPolicy &P;
  std::vector<Finding> Findings;
};

/// Facts about the module that several rules need.
struct PythonFacts {
  explicit PythonFacts(const PythonModule &M);

  /// The single top-level ModelNew class, or null.
  const PyNode *ModelNew = nullptr;
  /// ModelNew.forward, or null.
  const PyNode *Forward = nullptr;
  /// Function bodies on the forward path: ModelNew.forward, the ModelNew
  /// methods it calls through `self`, and module functions it calls,
  /// transitively.
  std::vector<const PyNode *> ForwardPath;
  /// Names bound to extension modules (`ext = load_inline(...)`).
  std::set<std::string> ExtensionNames;
  /// Attributes of self assigned an nn layer in any ModelNew method.
  std::set<std::string> LayerAttributes;
  /// The load_inline calls of the module.
  std::vector<LoadInlineCall> LoadInlineCalls;

  /// The names a function binds locally (parameters and assignments).
  static std::set<std::string> localNames(const PyNode &Function);
};

/// The innermost-last stack of enclosing FunctionDef/Lambda/ClassDef nodes.
using ScopeStack = std::vector<const PyNode *>;

/// Visits every node below Root with the scopes that enclose it.
void walkScoped(
    const PyNode &Root,
    const std::function<bool(const PyNode &, const ScopeStack &)> &Visit);

/// The Name at the root of an Attribute/Subscript/Call chain, or "".
std::string rootName(const PyNode &Expr);

/// True when Name is local to the innermost function of Scopes.
bool isLocalName(const std::string &Name, const ScopeStack &Scopes);

/// True when Function is a method (a def directly inside a class).
bool isMethod(const PyNode &Function, const ScopeStack &Scopes);

/// The method Name of the ClassDef Class (its last definition), or null.
const PyNode *findMethod(const PyNode &Class, const std::string &Name);

/// The qualified names that denote nn.Module (`torch.nn.Module`).
bool isNnModule(const PythonModule &M, const PyNode &Expr);

struct PyRuleContext {
  const PythonModule &M;
  const PythonFacts &Facts;
  const CheckPolicy &P;
  const TaskInfo *Task;
  FindingSink &Sink;
};

class PythonRule {
public:
  virtual ~PythonRule() = default;
  /// The rule id (`kevin-py-...`).
  virtual const char *id() const = 0;
  virtual void check(PyRuleContext &Ctx) const = 0;
};

/// Every Python rule, in catalog order.
std::vector<std::unique_ptr<PythonRule>> createPythonRules();

} // namespace kevin

#endif // KEVIN_CHECK_PYTHONRULE_H
