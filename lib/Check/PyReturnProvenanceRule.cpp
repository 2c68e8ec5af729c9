//===-- PyReturnProvenanceRule.cpp - kevin-py-return-provenance (PY-011) --===//
//
// KEVIN-PY-011: what ModelNew.forward returns comes out of the extension,
// and every tensor input goes into it. A returned value counts when it is
// an extension call (on a module load_inline returned, directly or through
// a name or self attribute bound to it or to one of its functions), a view,
// copy, conversion or element of one, a tuple of such values, a local name
// bound to one (or passed to an extension call as an output buffer), or the
// result of an in-file helper (a method, a module function, the forward of
// an in-file module held in self) whose returns all count. A tensor input
// counts when its name appears in the arguments of an extension call,
// directly, through local names derived from it, or through the parameters
// of in-file helpers. Which inputs are tensors comes from the reference's
// Model.forward (--task) and the candidate's own signature.
//
// The analysis is flow-insensitive and stays silent when it cannot tell:
// a local counts if any of its bindings does; calls it cannot resolve are
// assumed to return extension output and to pass their arguments on; an
// input captured by a nested function counts as used; returns under an
// empty-input test (`if x.numel() == 0: return ...`) are not checked.
//
//===----------------------------------------------------------------------===//
#include "PythonRules.h"

#include <algorithm>
#include <map>

namespace kevin {
namespace {

const char *const Id = "kevin-py-return-provenance";

/// Methods and attributes whose result carries its receiver's data: views,
/// layout copies and dtype/device conversions.
bool keepsProvenance(const std::string &Name) {
  static const std::set<std::string> Names = {
      "view",      "view_as",    "reshape",   "reshape_as", "unsqueeze",
      "squeeze",   "permute",    "transpose", "t",          "T",
      "mT",        "contiguous", "flatten",   "unflatten",  "expand",
      "expand_as", "narrow",     "select",    "split",      "chunk",
      "unbind",    "movedim",    "swapaxes",  "detach",     "clone",
      "to",        "float",      "double",    "half",       "bfloat16",
      "type_as",   "cpu",        "cuda",      "squeeze_",   "unsqueeze_"};
  return Names.count(Name) != 0;
}

bool isScope(const PyNode &N) {
  const std::string &T = nodeType(N);
  return T == "FunctionDef" || T == "AsyncFunctionDef" || T == "Lambda" ||
         T == "ClassDef";
}

/// Visits the nodes of a function's body, but not the bodies of nested
/// functions, lambdas and classes (their own scopes; Visit sees the node).
void walkBody(const PyNode &Fn,
              const std::function<void(const PyNode &)> &Visit) {
  walkNodes(Fn["body"], [&](const PyNode &N) {
    Visit(N);
    return !isScope(N);
  });
}

/// Adds the names an expression reads to Out.
void readNames(const PyNode &E, std::set<std::string> &Out) {
  walkNodes(E, [&](const PyNode &N) {
    if (isNode(N, "Name"))
      Out.insert(N["id"].get<std::string>());
    return true;
  });
}

/// The names a binding target binds, and the roots of subscript and
/// attribute targets (`buf[0] = v` binds into buf).
void targetRoots(const PyNode &T, std::vector<std::string> &Out) {
  if (isNode(T, "Tuple") || isNode(T, "List")) {
    for (const PyNode &E : T["elts"])
      targetRoots(E, Out);
    return;
  }
  std::string Root = rootName(T);
  if (!Root.empty())
    Out.push_back(Root);
}

/// The local names a binding target binds.
void targetNames(const PyNode &T, std::vector<std::string> &Out) {
  if (isNode(T, "Name"))
    Out.push_back(T["id"].get<std::string>());
  else if (isNode(T, "Tuple") || isNode(T, "List"))
    for (const PyNode &E : T["elts"])
      targetNames(E, Out);
  else if (isNode(T, "Starred"))
    targetNames(T["value"], Out);
}

/// The positional parameters of a function, in order.
std::vector<std::string> positionalParams(const PyNode &Fn) {
  std::vector<std::string> Names;
  for (const char *Key : {"posonlyargs", "args"})
    for (const PyNode &A : Fn["args"][Key])
      Names.push_back(A["arg"].get<std::string>());
  return Names;
}

bool isStaticMethod(const PyNode &Fn) {
  for (const PyNode &D : Fn["decorator_list"])
    if (isNode(D, "Name") && D["id"] == "staticmethod")
      return true;
  return false;
}

/// `x.numel() == 0`, `x.shape[0] == 0`, `len(x) == 0`, `not x.numel()`,
/// and or-chains of those: the test of an empty-input early return.
bool isEmptyTest(const PyNode &Test) {
  auto MentionsSize = [](const PyNode &E) {
    bool Found = false;
    walkNodes(E, [&](const PyNode &N) {
      if (isNode(N, "Attribute")) {
        const std::string &A = N["attr"].get_ref<const std::string &>();
        Found |= A == "numel" || A == "nelement" || A == "shape" || A == "size";
      }
      if (isNode(N, "Call") && isNode(N["func"], "Name"))
        Found |= N["func"]["id"] == "len";
      return !Found;
    });
    return Found;
  };
  auto IsZero = [](const PyNode &E) {
    return isNode(E, "Constant") && E.value("vtype", "") == "int" &&
           E["value"] == 0;
  };
  if (isNode(Test, "Compare") && Test["ops"].size() == 1 &&
      isNode(Test["ops"][0], "Eq")) {
    const PyNode &L = Test["left"];
    const PyNode &R = Test["comparators"][0];
    return (IsZero(R) && MentionsSize(L)) || (IsZero(L) && MentionsSize(R));
  }
  if (isNode(Test, "UnaryOp") && isNode(Test["op"], "Not"))
    return MentionsSize(Test["operand"]);
  if (isNode(Test, "BoolOp")) {
    bool Or = isNode(Test["op"], "Or");
    bool All = true, Any = false;
    for (const PyNode &V : Test["values"]) {
      bool Empty = isEmptyTest(V);
      All &= Empty;
      Any |= Empty;
    }
    return Or ? All : Any;
  }
  return false;
}

/// The return statements (with a value) of a statement list, outside
/// nested scopes and empty-input early returns.
void collectReturns(const PyNode &Body, std::vector<const PyNode *> &Out) {
  for (const PyNode &S : Body) {
    if (isScope(S))
      continue;
    if (isNode(S, "Return")) {
      if (!S["value"].is_null())
        Out.push_back(&S["value"]);
      continue;
    }
    if (!(isNode(S, "If") && isEmptyTest(S["test"])) && S.contains("body") &&
        S["body"].is_array())
      collectReturns(S["body"], Out);
    for (const char *Key : {"orelse", "finalbody"})
      if (S.contains(Key) && S[Key].is_array())
        collectReturns(S[Key], Out);
    for (const char *Key : {"handlers", "cases"})
      if (S.contains(Key))
        for (const PyNode &H : S[Key])
          collectReturns(H["body"], Out);
  }
}

/// What the rule knows about one function.
struct FunctionInfo {
  /// The class the function is a method of, or null.
  const PyNode *Class = nullptr;
  std::set<std::string> Locals;
  /// Each local name and the expressions bound to it (a for loop binds
  /// its target to the iterable, a with statement to the context).
  std::map<std::string, std::vector<const PyNode *>> Bindings;
  /// Binding statements for the input flow: target roots, value.
  std::vector<std::pair<std::vector<std::string>, const PyNode *>> Flows;
  /// Names passed directly as arguments of an extension call.
  std::set<std::string> OutBuffers;
};

/// What the rule knows about a class's self attributes.
struct ClassInfo {
  std::set<std::string> ExtensionModules;   ///< self.ext = <load_inline module>
  std::set<std::string> ExtensionFunctions; ///< self.fn = ext.fn
  std::map<std::string, const PyNode *> Instances; ///< self.block = Block(...)
  std::set<std::string> Layers; ///< self.conv = nn.Conv2d(...)
};

/// A function being evaluated, with the arguments of the call that runs
/// it (empty for forward itself).
struct Frame {
  const PyNode *Fn;
  const Frame *Caller = nullptr;
  std::map<std::string, const PyNode *> Arguments;
};

/// What a call runs.
struct CallTarget {
  enum Kind { Extension, Helper, Unknown, Other } K = Other;
  const PyNode *Fn = nullptr; ///< Helper: the function.
  bool Bound = false;         ///< Helper: called as a bound method.
};

class Analysis {
public:
  explicit Analysis(PyRuleContext &Ctx) : Ctx(Ctx) {
    walkNodes(Ctx.M.root(), [&](const PyNode &N) {
      if (isNode(N, "ClassDef"))
        for (const PyNode &S : N["body"])
          if (isNode(S, "FunctionDef") || isNode(S, "AsyncFunctionDef"))
            ClassOf[&S] = &N;
      return true;
    });
  }

  /// Whether E, evaluated in Fr, is extension output.
  bool isExtensionValue(const PyNode &E, const Frame &Fr, unsigned Depth = 0);
  /// The names of Fn whose values reach an extension call.
  const std::set<std::string> &reaching(const PyNode &Fn);

private:
  const FunctionInfo &info(const PyNode &Fn);
  const ClassInfo &classInfo(const PyNode &Class);
  bool isExtensionModule(const PyNode &E, const PyNode &Fn, unsigned Depth);
  bool isExtensionFunction(const PyNode &E, const PyNode &Fn, unsigned Depth);
  CallTarget resolve(const PyNode &Call, const PyNode &Fn);
  bool bindArguments(const PyNode &Call, const CallTarget &T,
                     std::map<std::string, const PyNode *> &Out) const;
  bool nameIsExtensionValue(const std::string &Name, const Frame &Fr,
                            unsigned Depth);

  PyRuleContext &Ctx;
  std::map<const PyNode *, const PyNode *> ClassOf;
  std::map<const PyNode *, FunctionInfo> Infos;
  std::map<const PyNode *, ClassInfo> Classes;
  std::map<const PyNode *, std::set<std::string>> Reaching;
  std::set<const PyNode *> Evaluating;
  std::set<const PyNode *> InReaching;
  std::set<std::pair<const PyNode *, std::string>> NamesInProgress;
};

const ClassInfo &Analysis::classInfo(const PyNode &Class) {
  auto It = Classes.find(&Class);
  if (It != Classes.end())
    return It->second;
  ClassInfo &CI = Classes[&Class];
  walkNodes(Class["body"], [&](const PyNode &N) {
    if (!isNode(N, "Assign"))
      return true;
    const PyNode &V = N["value"];
    for (const PyNode &T : N["targets"]) {
      if (!isNode(T, "Attribute") || !isNode(T["value"], "Name") ||
          T["value"]["id"] != "self")
        continue;
      std::string Attr = T["attr"].get<std::string>();
      if (isNode(V, "Name") &&
          Ctx.Facts.ExtensionNames.count(V["id"].get<std::string>()))
        CI.ExtensionModules.insert(Attr);
      else if (isNode(V, "Attribute") && isNode(V["value"], "Name") &&
               Ctx.Facts.ExtensionNames.count(
                   V["value"]["id"].get<std::string>()))
        CI.ExtensionFunctions.insert(Attr);
      else if (isNode(V, "Call") && isNode(V["func"], "Name")) {
        if (const PyNode *C = Ctx.M.findTopLevel(
                V["func"]["id"].get<std::string>(), "ClassDef"))
          CI.Instances[Attr] = C;
      }
      if (isNode(V, "Call") &&
          Ctx.M.qualifiedName(V["func"]).rfind("torch.nn.", 0) == 0)
        CI.Layers.insert(Attr);
    }
    return true;
  });
  return CI;
}

const FunctionInfo &Analysis::info(const PyNode &Fn) {
  auto It = Infos.find(&Fn);
  if (It != Infos.end())
    return It->second;
  FunctionInfo &FI = Infos[&Fn];
  auto Class = ClassOf.find(&Fn);
  FI.Class = Class == ClassOf.end() ? nullptr : Class->second;
  FI.Locals = PythonFacts::localNames(Fn);
  auto Bind = [&](const PyNode &Target, const PyNode &Value) {
    std::vector<std::string> Roots;
    targetRoots(Target, Roots);
    FI.Flows.push_back({Roots, &Value});
    std::vector<std::string> Names;
    targetNames(Target, Names);
    for (const std::string &Name : Names)
      FI.Bindings[Name].push_back(&Value);
  };
  walkBody(Fn, [&](const PyNode &N) {
    const std::string &T = nodeType(N);
    if (T == "Assign") {
      for (const PyNode &Target : N["targets"])
        Bind(Target, N["value"]);
    } else if (T == "AnnAssign" && !N["value"].is_null()) {
      Bind(N["target"], N["value"]);
    } else if (T == "AugAssign") {
      std::vector<std::string> Roots;
      targetRoots(N["target"], Roots);
      FI.Flows.push_back({Roots, &N["value"]});
    } else if (T == "For" || T == "AsyncFor") {
      Bind(N["target"], N["iter"]);
    } else if (T == "NamedExpr") {
      Bind(N["target"], N["value"]);
    } else if (T == "With" || T == "AsyncWith") {
      for (const PyNode &Item : N["items"])
        if (!Item["optional_vars"].is_null())
          Bind(Item["optional_vars"], Item["context_expr"]);
    }
  });
  // Names handed to the extension as they are: output buffers it writes.
  // (FI is in the map already, so the lookups below see its bindings.)
  walkBody(Fn, [&](const PyNode &N) {
    if (!isNode(N, "Call") || !isExtensionFunction(N["func"], Fn, 0))
      return;
    for (const PyNode &A : N["args"])
      if (isNode(A, "Name"))
        FI.OutBuffers.insert(A["id"].get<std::string>());
    for (const PyNode &K : N["keywords"])
      if (isNode(K["value"], "Name"))
        FI.OutBuffers.insert(K["value"]["id"].get<std::string>());
  });
  return FI;
}

bool Analysis::isExtensionModule(const PyNode &E, const PyNode &Fn,
                                 unsigned Depth) {
  if (Depth > 8)
    return false;
  const FunctionInfo &FI = info(Fn);
  if (isNode(E, "Name")) {
    std::string Name = E["id"].get<std::string>();
    if (!FI.Locals.count(Name))
      return Ctx.Facts.ExtensionNames.count(Name) != 0;
    auto It = FI.Bindings.find(Name);
    if (It != FI.Bindings.end())
      for (const PyNode *V : It->second)
        if (isExtensionModule(*V, Fn, Depth + 1))
          return true;
    return false;
  }
  if (FI.Class && isNode(E, "Attribute") && isNode(E["value"], "Name") &&
      E["value"]["id"] == "self")
    return classInfo(*FI.Class).ExtensionModules.count(
               E["attr"].get<std::string>()) != 0;
  return false;
}

bool Analysis::isExtensionFunction(const PyNode &E, const PyNode &Fn,
                                   unsigned Depth) {
  if (Depth > 8)
    return false;
  if (isNode(E, "Attribute") && isExtensionModule(E["value"], Fn, Depth + 1))
    return true;
  const FunctionInfo &FI = info(Fn);
  if (isNode(E, "Name")) {
    std::string Name = E["id"].get<std::string>();
    std::vector<const PyNode *> Values;
    if (FI.Locals.count(Name)) {
      auto It = FI.Bindings.find(Name);
      if (It != FI.Bindings.end())
        Values = It->second;
    } else {
      auto It = Ctx.M.moduleBindings().find(Name);
      if (It != Ctx.M.moduleBindings().end())
        for (const PyNode *S : It->second)
          if (isNode(*S, "Assign"))
            Values.push_back(&(*S)["value"]);
    }
    for (const PyNode *V : Values)
      if (isNode(*V, "Attribute") &&
          isExtensionModule((*V)["value"], Fn, Depth + 1))
        return true;
    for (const PyNode *V : Values)
      if (FI.Locals.count(Name) && isExtensionFunction(*V, Fn, Depth + 1))
        return true;
    return false;
  }
  if (FI.Class && isNode(E, "Attribute") && isNode(E["value"], "Name") &&
      E["value"]["id"] == "self")
    return classInfo(*FI.Class).ExtensionFunctions.count(
               E["attr"].get<std::string>()) != 0;
  return false;
}

CallTarget Analysis::resolve(const PyNode &Call, const PyNode &Fn) {
  CallTarget T;
  const PyNode &Func = Call["func"];
  if (isExtensionFunction(Func, Fn, 0)) {
    T.K = CallTarget::Extension;
    return T;
  }
  const FunctionInfo &FI = info(Fn);
  if (isNode(Func, "Name")) {
    std::string Name = Func["id"].get<std::string>();
    if (FI.Locals.count(Name)) {
      T.K = CallTarget::Unknown; // a local function, lambda or alias
    } else if (const PyNode *F = Ctx.M.findTopLevel(Name, "FunctionDef")) {
      T.K = CallTarget::Helper;
      T.Fn = F;
    }
    return T;
  }
  if (!isNode(Func, "Attribute")) {
    T.K = CallTarget::Unknown; // self.blocks[i](x), make()(x), ...
    return T;
  }
  // self.<attr>(...) and self.<attr>.forward(...)
  const PyNode *SelfAttr = nullptr;
  if (isNode(Func["value"], "Name") && Func["value"]["id"] == "self")
    SelfAttr = &Func;
  else if (Func["attr"] == "forward" && isNode(Func["value"], "Attribute") &&
           isNode(Func["value"]["value"], "Name") &&
           Func["value"]["value"]["id"] == "self")
    SelfAttr = &Func["value"];
  if (!SelfAttr || !FI.Class || FI.Locals.count("self") == 0) {
    // blk.forward(x), self.blocks[i].forward(x): a module it cannot follow.
    if (Func["attr"] == "forward")
      T.K = CallTarget::Unknown;
    return T;
  }
  std::string Attr = (*SelfAttr)["attr"].get<std::string>();
  const ClassInfo &CI = classInfo(*FI.Class);
  if (SelfAttr == &Func)
    if (const PyNode *M = findMethod(*FI.Class, Attr)) {
      T.K = CallTarget::Helper;
      T.Fn = M;
      T.Bound = !isStaticMethod(*M);
      return T;
    }
  auto Instance = CI.Instances.find(Attr);
  if (Instance != CI.Instances.end()) {
    if (const PyNode *M = findMethod(*Instance->second, "forward")) {
      T.K = CallTarget::Helper;
      T.Fn = M;
      T.Bound = true;
    } else {
      T.K = CallTarget::Unknown;
    }
    return T;
  }
  if (!CI.Layers.count(Attr))
    T.K = CallTarget::Unknown; // a self attribute the rule cannot follow
  return T;
}

bool Analysis::bindArguments(const PyNode &Call, const CallTarget &T,
                             std::map<std::string, const PyNode *> &Out) const {
  std::vector<std::string> Params = positionalParams(*T.Fn);
  if (T.Bound && !Params.empty())
    Params.erase(Params.begin());
  const PyNode &Args = Call["args"];
  for (size_t I = 0; I < Args.size(); ++I) {
    if (isNode(Args[I], "Starred") || I >= Params.size())
      return false;
    Out[Params[I]] = &Args[I];
  }
  for (const PyNode &K : Call["keywords"]) {
    if (!K["arg"].is_string())
      return false;
    Out[K["arg"].get<std::string>()] = &K["value"];
  }
  return true;
}

bool Analysis::nameIsExtensionValue(const std::string &Name, const Frame &Fr,
                                    unsigned Depth) {
  if (!NamesInProgress.insert({Fr.Fn, Name}).second)
    return false;
  const FunctionInfo &FI = info(*Fr.Fn);
  bool Result = false;
  auto It = FI.Bindings.find(Name);
  if (It != FI.Bindings.end())
    for (const PyNode *V : It->second)
      if (!Result && isExtensionValue(*V, Fr, Depth + 1))
        Result = true;
  auto Arg = Fr.Arguments.find(Name);
  if (!Result && Arg != Fr.Arguments.end() && Fr.Caller)
    Result = isExtensionValue(*Arg->second, *Fr.Caller, Depth + 1);
  // An output buffer the extension writes (out = torch.empty_like(x);
  // ext.f(x, out)), unless it is one of forward's own inputs.
  if (!Result && FI.OutBuffers.count(Name)) {
    std::vector<std::string> Params = positionalParams(*Fr.Fn);
    bool Input = !Fr.Caller &&
                 std::find(Params.begin(), Params.end(), Name) != Params.end();
    Result = !Input;
  }
  NamesInProgress.erase({Fr.Fn, Name});
  return Result;
}

bool Analysis::isExtensionValue(const PyNode &E, const Frame &Fr,
                                unsigned Depth) {
  if (Depth > 32)
    return true; // too deep to tell
  const std::string &T = nodeType(E);
  if (T == "Name")
    return nameIsExtensionValue(E["id"].get<std::string>(), Fr, Depth);
  if (T == "Subscript" || T == "Starred" || T == "NamedExpr")
    return isExtensionValue(E["value"], Fr, Depth + 1);
  if (T == "Attribute")
    return keepsProvenance(E["attr"].get<std::string>()) &&
           isExtensionValue(E["value"], Fr, Depth + 1);
  if (T == "Tuple" || T == "List") {
    if (E["elts"].empty())
      return false;
    for (const PyNode &El : E["elts"])
      if (!isExtensionValue(El, Fr, Depth + 1))
        return false;
    return true;
  }
  if (T == "IfExp")
    return isExtensionValue(E["body"], Fr, Depth + 1) &&
           isExtensionValue(E["orelse"], Fr, Depth + 1);
  if (T != "Call")
    return false;
  CallTarget Target = resolve(E, *Fr.Fn);
  switch (Target.K) {
  case CallTarget::Extension:
  case CallTarget::Unknown:
    return true;
  case CallTarget::Helper: {
    Frame Sub{Target.Fn, &Fr, {}};
    if (!bindArguments(E, Target, Sub.Arguments) ||
        !Evaluating.insert(Target.Fn).second)
      return true; // cannot place the arguments, or recursion
    std::vector<const PyNode *> Returns;
    collectReturns((*Target.Fn)["body"], Returns);
    bool All = !Returns.empty();
    for (const PyNode *R : Returns)
      All = All && isExtensionValue(*R, Sub, Depth + 1);
    Evaluating.erase(Target.Fn);
    return All;
  }
  case CallTarget::Other:
    break;
  }
  const PyNode &Func = E["func"];
  return isNode(Func, "Attribute") &&
         keepsProvenance(Func["attr"].get<std::string>()) &&
         isExtensionValue(Func["value"], Fr, Depth + 1);
}

const std::set<std::string> &Analysis::reaching(const PyNode &Fn) {
  auto Known = Reaching.find(&Fn);
  if (Known != Reaching.end())
    return Known->second;
  static const std::set<std::string> Everything = {"*"};
  if (!InReaching.insert(&Fn).second)
    return Everything; // recursion: assume every name reaches
  std::set<std::string> S;
  const FunctionInfo &FI = info(Fn);
  walkBody(Fn, [&](const PyNode &N) {
    if (isScope(N)) {
      readNames(N, S); // captured by a nested scope: cannot tell
      return;
    }
    if (!isNode(N, "Call"))
      return;
    CallTarget Target = resolve(N, Fn);
    if (Target.K == CallTarget::Other)
      return;
    std::map<std::string, const PyNode *> Bound;
    if (Target.K == CallTarget::Helper && bindArguments(N, Target, Bound)) {
      const std::set<std::string> &Inner = reaching(*Target.Fn);
      for (const auto &[Param, Arg] : Bound)
        if (Inner.count(Param) || Inner.count("*"))
          readNames(*Arg, S);
      return;
    }
    for (const PyNode &A : N["args"])
      readNames(A, S);
    for (const PyNode &K : N["keywords"])
      readNames(K["value"], S);
  });
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const auto &[Roots, Value] : FI.Flows) {
      bool Reaches = false;
      for (const std::string &R : Roots)
        Reaches |= S.count(R) != 0;
      if (!Reaches)
        continue;
      size_t Before = S.size();
      readNames(*Value, S);
      Changed |= S.size() != Before;
    }
  }
  InReaching.erase(&Fn);
  return Reaching[&Fn] = std::move(S);
}

/// A short description of a returned expression for the message.
std::string describe(const PyRuleContext &Ctx, const PyNode &E,
                     const std::vector<std::string> &Inputs) {
  if (isNode(E, "Name")) {
    std::string Name = E["id"].get<std::string>();
    if (std::find(Inputs.begin(), Inputs.end(), Name) != Inputs.end())
      return "its input '" + Name + "'";
    return "'" + Name + "'";
  }
  if (isNode(E, "Constant"))
    return "a constant";
  if (isNode(E, "Call")) {
    std::string Q = Ctx.M.qualifiedName(E["func"]);
    if (!Q.empty())
      return "the result of '" + Q + "'";
    if (isNode(E["func"], "Attribute"))
      return "the result of '." + E["func"]["attr"].get<std::string>() + "()'";
  }
  if (isNode(E, "Attribute") && rootName(E) == "self")
    return "the attribute 'self." + E["attr"].get<std::string>() + "'";
  return "a value";
}

/// Whether forward's argument at Index (after self) is a tensor input the
/// rule should follow: not when it has a default or a non-tensor
/// annotation, nor when the reference passes a non-tensor there.
bool isTensorInput(const PyRuleContext &Ctx, const PyNode &Arg, size_t Index,
                   bool HasDefault) {
  if (HasDefault)
    return false;
  const PyNode &Annotation = Arg["annotation"];
  if (!Annotation.is_null() &&
      Ctx.M.qualifiedName(Annotation) != "torch.Tensor")
    return false;
  if (Ctx.Task && Index < Ctx.Task->ForwardTensorArgs.size() &&
      Ctx.Task->ForwardTensorArgs[Index])
    return *Ctx.Task->ForwardTensorArgs[Index];
  return true;
}

class ReturnProvenanceRule : public PythonRule {
public:
  const char *id() const override { return Id; }
  void check(PyRuleContext &Ctx) const override {
    const PyNode *Forward = Ctx.Facts.Forward;
    if (!Forward || Ctx.Facts.ExtensionNames.empty())
      return;
    Analysis A(Ctx);
    std::vector<std::string> Params = positionalParams(*Forward);
    Frame Top{Forward, nullptr, {}};
    std::vector<const PyNode *> Returns;
    collectReturns((*Forward)["body"], Returns);
    for (const PyNode *R : Returns) {
      std::vector<const PyNode *> Values = {R};
      if (isNode(*R, "Tuple") || isNode(*R, "List")) {
        Values.clear();
        for (const PyNode &El : (*R)["elts"])
          Values.push_back(&El);
      }
      for (const PyNode *V : Values)
        if (!A.isExtensionValue(*V, Top))
          Ctx.Sink.report(id(), Ctx.M.locate(*V),
                          "forward returns " + describe(Ctx, *V, Params) +
                              ", not a value an extension call produced");
    }
    std::vector<const PyNode *> Args;
    for (const char *Key : {"posonlyargs", "args"})
      for (const PyNode &Arg : (*Forward)["args"][Key])
        Args.push_back(&Arg);
    if (Args.empty())
      return;
    size_t Defaults = (*Forward)["args"]["defaults"].size();
    const std::set<std::string> &Reaching = A.reaching(*Forward);
    for (size_t I = 1; I < Args.size(); ++I) {
      std::string Name = (*Args[I])["arg"].get<std::string>();
      if (!isTensorInput(Ctx, *Args[I], I - 1, I + Defaults >= Args.size()) ||
          Reaching.count(Name) || Reaching.count("*"))
        continue;
      Ctx.Sink.report(id(), Ctx.M.locate(*Args[I]),
                      "tensor input '" + Name +
                          "' of forward reaches no extension call");
    }
  }
};

} // namespace

std::unique_ptr<PythonRule> createReturnProvenanceRule() {
  return std::make_unique<ReturnProvenanceRule>();
}

} // namespace kevin
