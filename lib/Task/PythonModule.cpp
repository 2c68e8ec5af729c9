//===-- PythonModule.cpp - a parsed candidate module ----------------------===//
//
// Import-alias table, module-scope bindings and positions of a candidate.
//
//===----------------------------------------------------------------------===//
#include "kevin/Task/PythonModule.h"

namespace kevin {

const std::string &nodeType(const PyNode &Node) {
  static const std::string Empty;
  if (!Node.is_object())
    return Empty;
  auto It = Node.find("_type");
  if (It == Node.end() || !It->is_string())
    return Empty;
  return It->get_ref<const std::string &>();
}

bool isNode(const PyNode &Node, const char *Type) {
  return nodeType(Node) == Type;
}

void walkNodes(const PyNode &Node,
               const std::function<bool(const PyNode &)> &Visit) {
  if (Node.is_array()) {
    for (const PyNode &Child : Node)
      walkNodes(Child, Visit);
    return;
  }
  if (!Node.is_object() || !Node.contains("_type"))
    return;
  if (!Visit(Node))
    return;
  for (auto It = Node.begin(); It != Node.end(); ++It)
    if (It->is_object() || It->is_array())
      walkNodes(*It, Visit);
}

Expected<PythonModule> PythonModule::parse(const CandidateSource &Source,
                                           const CandidateLimits &Limits) {
  Expected<PyNode> Root = parsePythonAst(Source.Text, Source.Path, Limits);
  if (!Root) {
    SourceLocation Loc = Root.error().location();
    if (Loc.Line)
      Loc.Line += Source.LineOffset;
    return Error::at(Loc, Root.error().message(), Root.error().kind());
  }
  PythonModule M;
  M.Source = Source;
  M.Root = std::move(*Root);
  M.index();
  return M;
}

SourceLocation PythonModule::locate(unsigned Line, unsigned ByteColumn) const {
  return {Source.Path, Line + Source.LineOffset, ByteColumn + 1};
}

SourceLocation PythonModule::locate(const PyNode &Node) const {
  if (!Node.is_object() || !Node.contains("line"))
    return {Source.Path, 0, 0};
  return locate(Node["line"].get<unsigned>(), Node["col"].get<unsigned>());
}

std::string PythonModule::qualifiedName(const PyNode &Expr) const {
  if (isNode(Expr, "Name")) {
    auto It = Imports.find(Expr["id"].get<std::string>());
    return It == Imports.end() ? std::string() : It->second;
  }
  if (isNode(Expr, "Attribute")) {
    std::string Base = qualifiedName(Expr["value"]);
    return Base.empty() ? Base : Base + "." + Expr["attr"].get<std::string>();
  }
  return std::string();
}

const PyNode *PythonModule::findTopLevel(const std::string &Name,
                                         const char *Type) const {
  const PyNode *Found = nullptr;
  for (const PyNode &Stmt : body())
    if (isNode(Stmt, Type) && Stmt["name"] == Name)
      Found = &Stmt;
  return Found;
}

static void targetNames(const PyNode &Target, std::vector<std::string> &Out) {
  if (isNode(Target, "Name"))
    Out.push_back(Target["id"].get<std::string>());
  else if (isNode(Target, "Tuple") || isNode(Target, "List"))
    for (const PyNode &E : Target["elts"])
      targetNames(E, Out);
  else if (isNode(Target, "Starred"))
    targetNames(Target["value"], Out);
}

std::vector<std::string> PythonModule::boundNames(const PyNode &Stmt) {
  std::vector<std::string> Names;
  const std::string &Type = nodeType(Stmt);
  if (Type == "Assign") {
    for (const PyNode &T : Stmt["targets"])
      targetNames(T, Names);
  } else if (Type == "AugAssign" || Type == "AnnAssign" || Type == "For" ||
             Type == "AsyncFor") {
    targetNames(Stmt["target"], Names);
  } else if (Type == "FunctionDef" || Type == "AsyncFunctionDef" ||
             Type == "ClassDef") {
    Names.push_back(Stmt["name"].get<std::string>());
  } else if (Type == "Import" || Type == "ImportFrom") {
    for (const PyNode &A : Stmt["names"]) {
      std::string Name = A["asname"].is_string()
                             ? A["asname"].get<std::string>()
                             : A["name"].get<std::string>();
      if (Type == "Import" && !A["asname"].is_string())
        Name = Name.substr(0, Name.find('.'));
      Names.push_back(Name);
    }
  } else if (Type == "With" || Type == "AsyncWith") {
    for (const PyNode &Item : Stmt["items"])
      if (Item["optional_vars"].is_object())
        targetNames(Item["optional_vars"], Names);
  }
  return Names;
}

void PythonModule::index() {
  // Imports anywhere in the file feed the alias table: a function-level
  // `import torch.nn.functional as F` still makes F mean that module.
  walkNodes(Root, [&](const PyNode &N) {
    if (isNode(N, "Import")) {
      for (const PyNode &A : N["names"]) {
        std::string Name = A["name"].get<std::string>();
        if (A["asname"].is_string())
          Imports[A["asname"].get<std::string>()] = Name;
        else
          Imports[Name.substr(0, Name.find('.'))] = Name.substr(0, Name.find('.'));
      }
    } else if (isNode(N, "ImportFrom") && N["module"].is_string() &&
               N.value("level", 0) == 0) {
      std::string Module = N["module"].get<std::string>();
      for (const PyNode &A : N["names"]) {
        std::string Name = A["name"].get<std::string>();
        std::string Local = A["asname"].is_string()
                                ? A["asname"].get<std::string>()
                                : Name;
        Imports[Local] = Module + "." + Name;
      }
    }
    return true;
  });
  for (const PyNode &Stmt : body())
    for (const std::string &Name : boundNames(Stmt))
      Bindings[Name].push_back(&Stmt);
}

} // namespace kevin
