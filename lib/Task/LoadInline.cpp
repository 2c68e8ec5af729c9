//===-- LoadInline.cpp - load_inline calls, resolved ----------------------===//
//
// Static resolution of load_inline arguments with byte-exact positions.
//
//===----------------------------------------------------------------------===//
#include "kevin/Task/LoadInline.h"

#include <algorithm>

namespace kevin {

void MappedText::append(const MappedText &Other) {
  size_t Base = Text.size();
  Text += Other.Text;
  for (const Run &R : Other.Runs)
    Runs.push_back({Base + R.Offset, R.Line, R.Column});
}

void MappedText::appendSynthetic(const std::string &S, unsigned Line,
                                 unsigned Column) {
  // Synthetic bytes all point at one position, so each byte starts a run.
  for (size_t I = 0; I < S.size(); ++I)
    Runs.push_back({Text.size() + I, Line, Column});
  Text += S;
}

MappedText MappedText::fromConstant(const PyNode &Node) {
  MappedText M;
  M.Text = Node["value"].get<std::string>();
  unsigned Line = Node["line"].get<unsigned>();
  unsigned Col = Node["col"].get<unsigned>();
  const PyNode &Map = Node["map"];
  if (Map.is_array() && !Map.empty()) {
    for (const PyNode &R : Map)
      M.Runs.push_back({R[0].get<size_t>(), R[1].get<unsigned>(),
                        R[2].get<unsigned>()});
  } else {
    M.Runs.push_back({0, Line, Col});
  }
  return M;
}

std::pair<unsigned, unsigned> MappedText::origin(size_t Offset) const {
  if (Runs.empty())
    return {0, 0};
  auto It = std::upper_bound(
      Runs.begin(), Runs.end(), Offset,
      [](size_t O, const Run &R) { return O < R.Offset; });
  if (It == Runs.begin())
    return {Runs.front().Line, Runs.front().Column};
  --It;
  // Within a run, columns advance with the offset unless the run crosses a
  // newline of the decoded text (only the last byte of a run may be one).
  return {It->Line, It->Column + static_cast<unsigned>(Offset - It->Offset)};
}

const PyNode *LoadInlineCall::argument(const std::string &Name) const {
  for (const auto &A : Arguments)
    if (A.first == Name)
      return A.second;
  return nullptr;
}

static const char *const LoadInlineParameters[] = {
    "name",          "cpp_sources",       "cuda_sources",
    "functions",     "extra_cflags",      "extra_cuda_cflags",
    "extra_ldflags", "extra_include_paths", "build_directory",
    "verbose",       "with_cuda",         "is_python_module",
    "with_pytorch_error_handling", "keep_intermediates"};

static bool isLoadInline(const PythonModule &M, const PyNode &Func) {
  std::string Q = M.qualifiedName(Func);
  return Q == "torch.utils.cpp_extension.load_inline";
}

std::vector<LoadInlineCall> findLoadInlineCalls(const PythonModule &M) {
  std::vector<LoadInlineCall> Calls;
  walkNodes(M.root(), [&](const PyNode &N) {
    if (!isNode(N, "Call") || !isLoadInline(M, N["func"]))
      return true;
    LoadInlineCall C;
    C.Call = &N;
    size_t I = 0;
    for (const PyNode &A : N["args"]) {
      std::string Name = I < std::size(LoadInlineParameters)
                             ? LoadInlineParameters[I]
                             : "<extra>";
      if (isNode(A, "Starred"))
        Name = "*";
      C.Arguments.push_back({Name, &A});
      ++I;
    }
    for (const PyNode &K : N["keywords"])
      C.Arguments.push_back(
          {K["arg"].is_string() ? K["arg"].get<std::string>() : "**",
           &K["value"]});
    Calls.push_back(std::move(C));
    return true;
  });
  for (const PyNode &Stmt : M.body()) {
    if (!isNode(Stmt, "Assign") || Stmt["targets"].size() != 1 ||
        !isNode(Stmt["targets"][0], "Name"))
      continue;
    for (LoadInlineCall &C : Calls)
      if (C.Call == &Stmt["value"])
        C.BoundName = Stmt["targets"][0]["id"].get<std::string>();
  }
  return Calls;
}

namespace {

constexpr unsigned MaxResolveDepth = 64;

// True when Name is declared `global` in some function (so a module-level
// binding could be replaced at run time).
bool declaredGlobal(const PythonModule &M, const std::string &Name) {
  bool Found = false;
  walkNodes(M.root(), [&](const PyNode &N) {
    if (isNode(N, "Global") || isNode(N, "Nonlocal"))
      for (const PyNode &G : N["names"])
        if (G == Name)
          Found = true;
    return !Found;
  });
  return Found;
}

const PyNode *singleBinding(const PythonModule &M, const std::string &Name,
                            std::string &Why) {
  auto It = M.moduleBindings().find(Name);
  if (It == M.moduleBindings().end()) {
    Why = "'" + Name + "' is not bound at module level";
    return nullptr;
  }
  if (It->second.size() != 1) {
    Why = "'" + Name + "' is bound more than once";
    return nullptr;
  }
  const PyNode &Stmt = *It->second.front();
  if (declaredGlobal(M, Name)) {
    Why = "'" + Name + "' is declared global in a function";
    return nullptr;
  }
  if (isNode(Stmt, "Assign") && Stmt["targets"].size() == 1 &&
      isNode(Stmt["targets"][0], "Name"))
    return &Stmt["value"];
  if (isNode(Stmt, "AnnAssign") && Stmt["value"].is_object())
    return &Stmt["value"];
  Why = "'" + Name + "' is not bound by a plain assignment";
  return nullptr;
}

ResolvedString fail(const PyNode &Node, std::string Message) {
  ResolvedString R;
  R.Failure = UnresolvedArgument{&Node, std::move(Message)};
  return R;
}

ResolvedString resolve(const PythonModule &M, const PyNode &Expr,
                       unsigned Depth) {
  if (Depth > MaxResolveDepth)
    return fail(Expr, "source expression is nested too deeply");
  const std::string &Type = nodeType(Expr);
  if (Type == "Constant") {
    if (Expr.value("vtype", "") != "str")
      return fail(Expr, "source is not a string");
    ResolvedString R;
    R.Value = MappedText::fromConstant(Expr);
    return R;
  }
  if (Type == "BinOp" && isNode(Expr["op"], "Add")) {
    ResolvedString L = resolve(M, Expr["left"], Depth + 1);
    if (L.Failure)
      return L;
    ResolvedString Rt = resolve(M, Expr["right"], Depth + 1);
    if (Rt.Failure)
      return Rt;
    L.Value->append(*Rt.Value);
    return L;
  }
  if (Type == "Name") {
    std::string Why;
    const PyNode *Value = singleBinding(M, Expr["id"].get<std::string>(), Why);
    if (!Value)
      return fail(Expr, Why);
    return resolve(M, *Value, Depth + 1);
  }
  if (Type == "List" || Type == "Tuple") {
    // load_inline joins a list of sources with newlines.
    ResolvedString R;
    R.Value = MappedText();
    bool First = true;
    for (const PyNode &E : Expr["elts"]) {
      ResolvedString Part = resolve(M, E, Depth + 1);
      if (Part.Failure)
        return Part;
      if (!First)
        R.Value->appendSynthetic("\n", E["line"].get<unsigned>(),
                                 E["col"].get<unsigned>());
      R.Value->append(*Part.Value);
      First = false;
    }
    return R;
  }
  if (Type == "JoinedStr")
    return fail(Expr, "source is an f-string");
  if (Type == "Call")
    return fail(Expr, "source is computed by a call");
  return fail(Expr, "source is not a constant string expression");
}

void resolveListInto(const PythonModule &M, const PyNode &Expr, unsigned Depth,
                     ResolvedList &Out) {
  if (Out.Failure)
    return;
  if (Depth > MaxResolveDepth) {
    Out.Failure = UnresolvedArgument{&Expr, "list is nested too deeply"};
    return;
  }
  const std::string &Type = nodeType(Expr);
  if (Type == "List" || Type == "Tuple") {
    for (const PyNode &E : Expr["elts"]) {
      ResolvedString S = resolve(M, E, Depth + 1);
      if (S.Failure) {
        Out.Failure = S.Failure;
        return;
      }
      Out.Items.push_back({S.Value->text(), &E});
    }
    return;
  }
  if (Type == "Name") {
    std::string Why;
    const PyNode *Value = singleBinding(M, Expr["id"].get<std::string>(), Why);
    if (!Value) {
      Out.Failure = UnresolvedArgument{&Expr, Why};
      return;
    }
    if (isNode(*Value, "List") || isNode(*Value, "Tuple") || isNode(*Value, "Name")) {
      resolveListInto(M, *Value, Depth + 1, Out);
      return;
    }
  }
  if (Type == "BinOp" && isNode(Expr["op"], "Add") &&
      !isNode(Expr["left"], "Constant")) {
    resolveListInto(M, Expr["left"], Depth + 1, Out);
    resolveListInto(M, Expr["right"], Depth + 1, Out);
    return;
  }
  ResolvedString S = resolve(M, Expr, Depth + 1);
  if (S.Failure) {
    Out.Failure = S.Failure;
    return;
  }
  Out.Items.push_back({S.Value->text(), &Expr});
}

} // namespace

ResolvedString resolveString(const PythonModule &M, const PyNode &Expr) {
  return resolve(M, Expr, 0);
}

ResolvedList resolveStringList(const PythonModule &M, const PyNode &Expr) {
  ResolvedList Out;
  resolveListInto(M, Expr, 0, Out);
  return Out;
}

} // namespace kevin
