//===-- PyImportRule.cpp - kevin-py-import (KEVIN-PY-004) -----------------===//
//
// Imports come from the policy's allowlist (`lists.imports`); star and
// relative imports are rejected. One rule removes introspection, threads,
// file system and environment access, native access and other backends.
//
//===----------------------------------------------------------------------===//
#include "PythonRules.h"

namespace kevin {
namespace {

class ImportRule : public PythonRule {
public:
  const char *id() const override { return "kevin-py-import"; }
  void check(PyRuleContext &Ctx) const override {
    walkNodes(Ctx.M.root(), [&](const PyNode &N) {
      if (isNode(N, "Import")) {
        for (const PyNode &A : N["names"]) {
          std::string Name = A["name"].get<std::string>();
          if (!Ctx.P.matches("imports", Name))
            Ctx.Sink.report(id(), Ctx.M.locate(N),
                            "import of '" + Name + "' is not allowed");
        }
      } else if (isNode(N, "ImportFrom")) {
        if (N.value("level", 0) != 0 || !N["module"].is_string()) {
          Ctx.Sink.report(id(), Ctx.M.locate(N), "relative import");
          return true;
        }
        std::string Module = N["module"].get<std::string>();
        for (const PyNode &A : N["names"]) {
          std::string Name = A["name"].get<std::string>();
          if (Name == "*") {
            Ctx.Sink.report(id(), Ctx.M.locate(N),
                            "star import from '" + Module + "'");
            continue;
          }
          std::string Full = Module + "." + Name;
          if (!Ctx.P.matches("imports", Full))
            Ctx.Sink.report(id(), Ctx.M.locate(N),
                            "import of '" + Full + "' is not allowed");
        }
      }
      return true;
    });
  }
};

} // namespace

std::unique_ptr<PythonRule> createImportRule() {
  return std::make_unique<ImportRule>();
}

} // namespace kevin
