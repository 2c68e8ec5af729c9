//===-- PyCrossCallStateRule.cpp - kevin-py-cross-call-state (PY-012) -----===//
//
// KEVIN-PY-012: the forward path keeps no state between calls. It rejects
// global/nonlocal declarations, stores into self (a lazily created
// workspace is still state the runtime must vet), mutating method calls on
// module-level objects, mutable default arguments and generators.
//
//===----------------------------------------------------------------------===//
#include "PythonRules.h"

namespace kevin {
namespace {

const char *const Mutators[] = {"append", "extend",  "insert", "update",
                                "setdefault", "pop", "clear",  "add",
                                "popitem", "remove", "discard"};

class CrossCallStateRule : public PythonRule {
public:
  const char *id() const override { return "kevin-py-cross-call-state"; }
  void check(PyRuleContext &Ctx) const override {
    for (const PyNode *F : Ctx.Facts.ForwardPath) {
      for (const char *Key : {"defaults", "kw_defaults"})
        for (const PyNode &D : (*F)["args"][Key])
          if (isNode(D, "List") || isNode(D, "Dict") || isNode(D, "Set"))
            Ctx.Sink.report(id(), Ctx.M.locate(D), "mutable default argument");
      std::set<std::string> Locals = PythonFacts::localNames(*F);
      walkNodes((*F)["body"], [&](const PyNode &N) {
        const std::string &T = nodeType(N);
        if (T == "Global" || T == "Nonlocal")
          Ctx.Sink.report(id(), Ctx.M.locate(N),
                          T == "Global" ? "global declaration in the forward "
                                          "path"
                                        : "nonlocal declaration in the "
                                          "forward path");
        else if (T == "Yield" || T == "YieldFrom")
          Ctx.Sink.report(id(), Ctx.M.locate(N), "generator in the forward path");
        else if (T == "Assign" || T == "AugAssign" || T == "AnnAssign")
          checkStore(Ctx, N);
        else if (T == "Call" && isNode(N["func"], "Attribute")) {
          std::string Root = rootName(N["func"]["value"]);
          std::string Method = N["func"]["attr"].get<std::string>();
          bool Mutator = false;
          for (const char *M : Mutators)
            Mutator |= Method == M;
          if (Mutator && !Root.empty() && !Locals.count(Root) &&
              (Root == "self" || Ctx.M.moduleBindings().count(Root)))
            Ctx.Sink.report(id(), Ctx.M.locate(N),
                            "mutation of '" + Root + "' with ." + Method +
                                "() in the forward path");
        }
        return true;
      });
    }
  }

private:
  // A store into self keeps state across calls. A plain assignment of a
  // fresh allocation (a lazily grown workspace, FP-15) is only a warning:
  // the runtime fresh-input checks decide whether it is reused as a result.
  void checkStore(PyRuleContext &Ctx, const PyNode &Stmt) const {
    std::vector<const PyNode *> Targets;
    if (isNode(Stmt, "Assign"))
      for (const PyNode &T : Stmt["targets"])
        Targets.push_back(&T);
    else
      Targets.push_back(&Stmt["target"]);
    const PyNode &Value = Stmt["value"];
    bool Allocation = isNode(Stmt, "Assign") && isNode(Value, "Call") &&
                      Ctx.P.matches("forward_torch_calls",
                                    Ctx.M.qualifiedName(Value["func"])) &&
                      Ctx.M.qualifiedName(Value["func"]).find("empty") !=
                          std::string::npos;
    for (const PyNode *T : Targets) {
      if (!(isNode(*T, "Attribute") || isNode(*T, "Subscript")) ||
          rootName(*T) != "self")
        continue;
      if (Allocation)
        Ctx.Sink.report(id(), Ctx.M.locate(*T),
                        "workspace allocated into self in the forward path "
                        "(state kept across calls)",
                        "", Severity::Warning);
      else
        Ctx.Sink.report(id(), Ctx.M.locate(*T),
                        "store into self in the forward path (state kept "
                        "across calls)");
    }
  }
};

} // namespace

std::unique_ptr<PythonRule> createCrossCallStateRule() {
  return std::make_unique<CrossCallStateRule>();
}

} // namespace kevin
