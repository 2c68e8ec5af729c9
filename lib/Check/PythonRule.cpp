//===-- PythonRule.cpp - shared facts for the Python rules ----------------===//
//
// The finding sink, scope walking, the forward path of ModelNew and the
// registry of Python rules.
//
//===----------------------------------------------------------------------===//
#include "kevin/Check/PythonRule.h"

#include "PythonRules.h"

#include <cctype>

namespace kevin {

void FindingSink::report(const std::string &Rule, SourceLocation Loc,
                         std::string Message, std::string Hint,
                         Severity MaxSeverity) {
  if (!P.enabled(Rule))
    return;
  const RuleInfo *Info = findRule(Rule);
  Finding F;
  F.Rule = Rule;
  F.CatalogId = Info ? Info->CatalogId : "";
  F.Sev = P.severity(Rule);
  if (MaxSeverity == Severity::Warning)
    F.Sev = Severity::Warning;
  F.Loc = std::move(Loc);
  F.Message = std::move(Message);
  F.Hint = !Hint.empty() ? std::move(Hint) : (Info ? Info->Hint : "");
  Findings.push_back(std::move(F));
}

static bool isScopeNode(const PyNode &N) {
  const std::string &T = nodeType(N);
  return T == "FunctionDef" || T == "AsyncFunctionDef" || T == "Lambda" ||
         T == "ClassDef";
}

static void walkScopedImpl(
    const PyNode &Node, ScopeStack &Scopes,
    const std::function<bool(const PyNode &, const ScopeStack &)> &Visit) {
  if (Node.is_array()) {
    for (const PyNode &Child : Node)
      walkScopedImpl(Child, Scopes, Visit);
    return;
  }
  if (!Node.is_object() || !Node.contains("_type"))
    return;
  if (!Visit(Node, Scopes))
    return;
  bool Push = isScopeNode(Node);
  if (Push)
    Scopes.push_back(&Node);
  for (auto It = Node.begin(); It != Node.end(); ++It)
    if (It->is_object() || It->is_array())
      walkScopedImpl(*It, Scopes, Visit);
  if (Push)
    Scopes.pop_back();
}

void walkScoped(
    const PyNode &Root,
    const std::function<bool(const PyNode &, const ScopeStack &)> &Visit) {
  ScopeStack Scopes;
  walkScopedImpl(Root, Scopes, Visit);
}

std::string rootName(const PyNode &Expr) {
  const PyNode *N = &Expr;
  while (true) {
    const std::string &T = nodeType(*N);
    if (T == "Name")
      return (*N)["id"].get<std::string>();
    if (T == "Attribute" || T == "Subscript" || T == "Starred")
      N = &(*N)["value"];
    else if (T == "Call")
      N = &(*N)["func"];
    else
      return "";
  }
}

std::set<std::string> PythonFacts::localNames(const PyNode &Function) {
  std::set<std::string> Names;
  const PyNode &Args = Function["args"];
  for (const char *Key : {"posonlyargs", "args", "kwonlyargs"})
    if (Args.contains(Key))
      for (const PyNode &A : Args[Key])
        Names.insert(A["arg"].get<std::string>());
  for (const char *Key : {"vararg", "kwarg"})
    if (Args.contains(Key) && Args[Key].is_object())
      Names.insert(Args[Key]["arg"].get<std::string>());
  std::set<std::string> Globals;
  std::function<void(const PyNode &)> Visit = [&](const PyNode &N) {
    if (N.is_array()) {
      for (const PyNode &C : N)
        Visit(C);
      return;
    }
    if (!N.is_object() || !N.contains("_type"))
      return;
    const std::string &T = nodeType(N);
    if (T == "Global" || T == "Nonlocal")
      for (const PyNode &G : N["names"])
        Globals.insert(G.get<std::string>());
    if (T == "Name" && (N["ctx"] == "Store" || N["ctx"] == "Del"))
      Names.insert(N["id"].get<std::string>());
    if (T == "FunctionDef" || T == "AsyncFunctionDef" || T == "ClassDef") {
      Names.insert(N["name"].get<std::string>());
      return;
    }
    if (T == "Lambda")
      return;
    if (T == "Import" || T == "ImportFrom")
      for (const std::string &B : PythonModule::boundNames(N))
        Names.insert(B);
    if (T == "ExceptHandler" && N["name"].is_string())
      Names.insert(N["name"].get<std::string>());
    for (auto It = N.begin(); It != N.end(); ++It)
      if (It->is_object() || It->is_array())
        Visit(*It);
  };
  if (isNode(Function, "Lambda"))
    Visit(Function["body"]);
  else
    for (const PyNode &S : Function["body"])
      Visit(S);
  for (const std::string &G : Globals)
    Names.erase(G);
  return Names;
}

bool isLocalName(const std::string &Name, const ScopeStack &Scopes) {
  for (auto It = Scopes.rbegin(); It != Scopes.rend(); ++It) {
    if (isNode(**It, "ClassDef"))
      continue;
    if (PythonFacts::localNames(**It).count(Name))
      return true;
  }
  return false;
}

bool isMethod(const PyNode &Function, const ScopeStack &Scopes) {
  for (size_t I = 0; I < Scopes.size(); ++I)
    if (Scopes[I] == &Function)
      return I > 0 && isNode(*Scopes[I - 1], "ClassDef");
  return false;
}

bool isNnModule(const PythonModule &M, const PyNode &Expr) {
  return M.qualifiedName(Expr) == "torch.nn.Module";
}

const PyNode *findMethod(const PyNode &Class, const std::string &Name) {
  const PyNode *Found = nullptr;
  for (const PyNode &S : Class["body"])
    if ((isNode(S, "FunctionDef") || isNode(S, "AsyncFunctionDef")) &&
        S["name"] == Name)
      Found = &S;
  return Found;
}

PythonFacts::PythonFacts(const PythonModule &M) {
  unsigned Count = 0;
  for (const PyNode &S : M.body())
    if (isNode(S, "ClassDef") && S["name"] == "ModelNew") {
      ModelNew = &S;
      ++Count;
    }
  if (Count != 1)
    ModelNew = nullptr;
  if (ModelNew)
    Forward = findMethod(*ModelNew, "forward");
  LoadInlineCalls = findLoadInlineCalls(M);
  for (const LoadInlineCall &C : LoadInlineCalls)
    if (!C.BoundName.empty())
      ExtensionNames.insert(C.BoundName);
  if (ModelNew) {
    walkNodes((*ModelNew)["body"], [&](const PyNode &N) {
      if (!isNode(N, "Assign") || !isNode(N["value"], "Call"))
        return true;
      std::string Q = M.qualifiedName(N["value"]["func"]);
      bool Layer = Q.rfind("torch.nn.", 0) == 0 &&
                   Q.find('.', 9) == std::string::npos && Q.size() > 9 &&
                   std::isupper(static_cast<unsigned char>(Q[9])) &&
                   Q != "torch.nn.Parameter" && Q != "torch.nn.ParameterList" &&
                   Q != "torch.nn.ParameterDict";
      if (!Layer)
        return true;
      for (const PyNode &T : N["targets"])
        if (isNode(T, "Attribute") && isNode(T["value"], "Name") &&
            T["value"]["id"] == "self")
          LayerAttributes.insert(T["attr"].get<std::string>());
      return true;
    });
  }
  // The forward path: forward, then self.<method>(...) and module-level
  // function calls, transitively.
  if (!Forward)
    return;
  std::vector<const PyNode *> Work = {Forward};
  std::set<const PyNode *> Seen = {Forward};
  while (!Work.empty()) {
    const PyNode *F = Work.back();
    Work.pop_back();
    ForwardPath.push_back(F);
    walkNodes((*F)["body"], [&](const PyNode &N) {
      if (!isNode(N, "Call"))
        return true;
      const PyNode &Func = N["func"];
      const PyNode *Target = nullptr;
      if (isNode(Func, "Name")) {
        Target = M.findTopLevel(Func["id"].get<std::string>(), "FunctionDef");
      } else if (isNode(Func, "Attribute") && isNode(Func["value"], "Name") &&
                 Func["value"]["id"] == "self") {
        Target = findMethod(*ModelNew, Func["attr"].get<std::string>());
      }
      if (Target && Seen.insert(Target).second)
        Work.push_back(Target);
      return true;
    });
  }
}

std::vector<std::unique_ptr<PythonRule>> createPythonRules() {
  std::vector<std::unique_ptr<PythonRule>> Rules;
#define PYTHON_RULE(Id, Factory, CatalogId, Summary, Hint, Cpu, Kevin, Strict) \
  Rules.push_back(Factory());
#include "Rules.def"
  return Rules;
}

} // namespace kevin
