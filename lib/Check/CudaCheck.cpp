//===-- CudaCheck.cpp - parse load_inline's translation units -------------===//
//
// Builds main.cpp and cuda.cu as load_inline would, maps kevin's CUDA and
// torch preludes into an in-memory file system, parses each TU with
// libTooling (clang 14, host-side CUDA without a CUDA install) and runs the
// CUDA rules in the AST consumer. The lean prelude (a declaration subset of
// torch) is tried first; when it cannot parse a TU and the real torch
// headers are there, the TU is parsed again against them. A TU that neither
// parses in the candidate's own lines is a kevin-cu-parse-failure finding;
// one whose error lies in kevin's preludes or the torch/CUDA headers (or
// names a header kevin does not have) is kevin's limit: the parse is marked
// incomplete and the builder's verdict rules.
//
//===----------------------------------------------------------------------===//
#include "kevin/Check/CudaRule.h"
#include "kevin/Support/CacheDir.h"
#include "kevin/Support/Hash.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticLex.h"
#include "clang/Basic/DiagnosticSema.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Basic/Version.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <cctype>
#include <condition_variable>
#include <future>
#include <mutex>
#include <functional>
#include <map>
#include <sys/stat.h>
#include <unistd.h>

namespace kevin {

namespace {

struct PreludeFile {
  const char *Path;
  const char *Text;
};

const PreludeFile PreludeFiles[] = {
#include "Prelude.inc"
};

const char *const PreludeRoot = "/kevin-prelude/";
const char *const UnitRoot = "/kevin-tu/";

SourceLocation locateIn(const clang::SourceManager &SM, const CudaUnit &Unit,
                        const PythonModule &M, clang::SourceLocation Loc) {
  SourceLocation Anchor = M.locate(*Unit.Call->Call);
  if (Loc.isInvalid())
    return Anchor;
  Loc = SM.getFileLoc(Loc);
  clang::FileID F = SM.getFileID(Loc);
  while (F != SM.getMainFileID()) {
    clang::SourceLocation Include = SM.getIncludeLoc(F);
    if (Include.isInvalid())
      return Anchor;
    Loc = SM.getFileLoc(Include);
    F = SM.getFileID(Loc);
  }
  auto [Line, Col] = Unit.Text.origin(SM.getFileOffset(Loc));
  if (Line == 0)
    return Anchor;
  return M.locate(Line, Col);
}

/// Where a parse error lies: the candidate's own text, the text kevin writes
/// around it (load_inline's binding of functions=), or elsewhere (kevin's
/// preludes, the torch and CUDA headers, a header kevin does not have).
enum class ErrorSite { User, Binding, Headers };

ErrorSite siteOf(const clang::SourceManager &SM, const CudaUnit &Unit,
                 clang::SourceLocation Loc) {
  if (Loc.isInvalid())
    return ErrorSite::Headers;
  Loc = SM.getFileLoc(Loc);
  if (SM.getFileID(Loc) != SM.getMainFileID())
    return ErrorSite::Headers;
  size_t Offset = SM.getFileOffset(Loc);
  for (const auto &[Begin, End] : Unit.UserRanges)
    if (Offset >= Begin && Offset < End)
      return ErrorSite::User;
  if (Unit.UserRanges.empty() || Offset < Unit.UserRanges.front().first)
    return ErrorSite::Headers; // the includes load_inline writes first
  // After the candidate's text: main.cpp's binding, or cuda.cu's end (an
  // unbalanced brace of the candidate's).
  return Unit.IsCuda ? ErrorSite::User : ErrorSite::Binding;
}

bool inTorchPrelude(const clang::SourceManager &SM, clang::SourceLocation Loc) {
  if (Loc.isInvalid())
    return false;
  return SM.getFilename(SM.getSpellingLoc(Loc))
      .startswith(std::string(PreludeRoot) + "torch/");
}

/// Whether a diagnostic argument names a declaration of kevin's torch
/// stand-ins (a class, function or namespace, or a type built on one).
bool argumentInTorchPrelude(const clang::Diagnostic &Info, unsigned I) {
  const clang::SourceManager &SM = Info.getSourceManager();
  const clang::Decl *D = nullptr;
  switch (Info.getArgKind(I)) {
  case clang::DiagnosticsEngine::ak_nameddecl:
    D = reinterpret_cast<const clang::NamedDecl *>(Info.getRawArg(I));
    break;
  case clang::DiagnosticsEngine::ak_declcontext:
    D = llvm::dyn_cast<clang::Decl>(
        reinterpret_cast<const clang::DeclContext *>(Info.getRawArg(I)));
    break;
  case clang::DiagnosticsEngine::ak_qualtype: {
    clang::QualType T = clang::QualType::getFromOpaquePtr(
        reinterpret_cast<void *>(Info.getRawArg(I)));
    if (!T.isNull())
      D = T->getPointeeOrArrayElementType()->getAsTagDecl();
    break;
  }
  default:
    break;
  }
  return D && inTorchPrelude(SM, D->getLocation());
}

/// The name a diagnostic argument spells, or "" when it is no name.
std::string argumentName(const clang::Diagnostic &Info, unsigned I) {
  switch (Info.getArgKind(I)) {
  case clang::DiagnosticsEngine::ak_identifierinfo:
    return Info.getArgIdentifier(I)->getName().str();
  case clang::DiagnosticsEngine::ak_declarationname:
    return clang::DeclarationName::getFromOpaqueInteger(Info.getRawArg(I))
        .getAsString();
  default:
    return "";
  }
}

/// CUDA's built-in variables and barriers: no header declares them in a C++
/// unit, torch's included.
bool isCudaBuiltinName(llvm::StringRef Name) {
  return llvm::StringSwitch<bool>(Name)
      .Cases("threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize", true)
      .Cases("__syncthreads", "__syncwarp", "__shfl_sync", "__shfl_down_sync",
             "__shfl_xor_sync", true)
      .Default(false);
}

// Collects the first error of a parse, positioned in the .py, and whether
// the real torch headers could change it (TorchMayMatter): an undeclared
// name (torch may declare it), or a torch declaration in the error or in its
// notes (the candidates overload resolution tried).
class ErrorCollector : public clang::DiagnosticConsumer {
public:
  ErrorCollector(const CudaUnit &Unit, const PythonModule &M)
      : Unit(Unit), M(M) {}
  void HandleDiagnostic(clang::DiagnosticsEngine::Level Level,
                        const clang::Diagnostic &Info) override {
    clang::DiagnosticConsumer::HandleDiagnostic(Level, Info);
    if (Failed && Level == clang::DiagnosticsEngine::Note && InFirstError &&
        Info.hasSourceManager())
      TorchMayMatter |= inTorchPrelude(Info.getSourceManager(), Info.getLocation());
    if (Level != clang::DiagnosticsEngine::Note)
      InFirstError = !Failed && Level >= clang::DiagnosticsEngine::Error;
    if (Level < clang::DiagnosticsEngine::Error || Failed)
      return;
    Failed = true;
    TorchMayMatter = torchMayMatter(Info);
    llvm::SmallString<256> Text;
    Info.FormatDiagnostic(Text);
    Message = std::string(Text.str());
    if (Info.hasSourceManager()) {
      const clang::SourceManager &SM = Info.getSourceManager();
      Where = locateIn(SM, Unit, M, Info.getLocation());
      Site = siteOf(SM, Unit, Info.getLocation());
      if (Site == ErrorSite::Headers && Info.getLocation().isValid())
        Header = SM.getFilename(SM.getFileLoc(Info.getLocation())).str();
    } else {
      Where = M.locate(*Unit.Call->Call);
    }
    // A header nvcc's include path has and kevin's does not.
    if (Info.getID() == clang::diag::err_pp_file_not_found)
      Site = ErrorSite::Headers;
  }
  bool Failed = false;
  std::string Message;
  SourceLocation Where;
  ErrorSite Site = ErrorSite::Headers;
  /// The header the error lies in, when it lies in one.
  std::string Header;
  bool TorchMayMatter = true;

private:
  bool torchMayMatter(const clang::Diagnostic &Info) const {
    if (!Info.hasSourceManager())
      return true;
    if (siteOf(Info.getSourceManager(), Unit, Info.getLocation()) ==
        ErrorSite::Binding)
      return false;
    unsigned ID = Info.getID();
    llvm::StringRef Category = clang::DiagnosticIDs::getCategoryNameFromID(
        clang::DiagnosticIDs::getCategoryNumberForDiag(ID));
    if (Category == "Parse Issue")
      return false;
    for (unsigned I = 0; I < Info.getNumArgs(); ++I)
      if (argumentInTorchPrelude(Info, I))
        return true;
    bool Undeclared = ID == clang::diag::err_undeclared_var_use ||
                      ID == clang::diag::err_undeclared_var_use_suggest ||
                      ID == clang::diag::err_unknown_typename ||
                      ID == clang::diag::err_unknown_typename_suggest ||
                      ID == clang::diag::err_no_member ||
                      ID == clang::diag::err_no_member_suggest ||
                      ID == clang::diag::err_undeclared_use ||
                      ID == clang::diag::err_pp_file_not_found;
    if (Undeclared && !Unit.IsCuda && Info.getNumArgs() > 0 &&
        isCudaBuiltinName(argumentName(Info, 0)))
      return false;
    return Undeclared;
  }

  const CudaUnit &Unit;
  const PythonModule &M;
  bool InFirstError = false;
};

class IncludeRecorder : public clang::PPCallbacks {
public:
  explicit IncludeRecorder(std::vector<IncludeRecord> &Out) : Out(Out) {}
  void InclusionDirective(clang::SourceLocation HashLoc,
                          const clang::Token &, llvm::StringRef FileName,
                          bool IsAngled, clang::CharSourceRange,
                          const clang::FileEntry *, llvm::StringRef,
                          llvm::StringRef, const clang::Module *,
                          clang::SrcMgr::CharacteristicKind) override {
    Out.push_back({FileName.str(), HashLoc, IsAngled});
  }

private:
  std::vector<IncludeRecord> &Out;
};

// Records every reference to the TORCH_EXTENSION_NAME macro: expansions,
// `defined`, #ifdef/#ifndef/#elifdef/#elifndef, #define and #undef.
class ExtensionNameRecorder : public clang::PPCallbacks {
public:
  explicit ExtensionNameRecorder(std::vector<clang::SourceLocation> &Out)
      : Out(Out) {}
  void MacroExpands(const clang::Token &Name, const clang::MacroDefinition &,
                    clang::SourceRange, const clang::MacroArgs *) override {
    note(Name);
  }
  void MacroDefined(const clang::Token &Name,
                    const clang::MacroDirective *) override {
    note(Name);
  }
  void MacroUndefined(const clang::Token &Name, const clang::MacroDefinition &,
                      const clang::MacroDirective *) override {
    note(Name);
  }
  void Defined(const clang::Token &Name, const clang::MacroDefinition &,
               clang::SourceRange) override {
    note(Name);
  }
  void Ifdef(clang::SourceLocation, const clang::Token &Name,
             const clang::MacroDefinition &) override {
    note(Name);
  }
  void Ifndef(clang::SourceLocation, const clang::Token &Name,
              const clang::MacroDefinition &) override {
    note(Name);
  }
  void Elifdef(clang::SourceLocation, const clang::Token &Name,
               const clang::MacroDefinition &) override {
    note(Name);
  }
  void Elifndef(clang::SourceLocation, const clang::Token &Name,
                const clang::MacroDefinition &) override {
    note(Name);
  }

private:
  void note(const clang::Token &Name) {
    const clang::IdentifierInfo *II = Name.getIdentifierInfo();
    if (II && II->getName() == "TORCH_EXTENSION_NAME")
      Out.push_back(Name.getLocation());
  }
  std::vector<clang::SourceLocation> &Out;
};

// Runs the rules over the unit's own top-level declarations only: the
// rules look at user code, and traversing every declaration of the torch
// and standard headers (all of a precompiled prelude) is most of the cost.
class Consumer : public clang::ASTConsumer {
public:
  Consumer(std::function<void(clang::ASTContext &)> Run,
           const clang::SourceManager &SM)
      : Run(std::move(Run)), SM(SM) {}
  bool HandleTopLevelDecl(clang::DeclGroupRef Group) override {
    for (clang::Decl *D : Group)
      if (SM.isInMainFile(SM.getExpansionLoc(D->getBeginLoc())))
        MainFileDecls.push_back(D);
    return true;
  }
  void HandleTranslationUnit(clang::ASTContext &AST) override {
    AST.setTraversalScope(MainFileDecls);
    Run(AST);
  }

private:
  std::function<void(clang::ASTContext &)> Run;
  const clang::SourceManager &SM;
  std::vector<clang::Decl *> MainFileDecls;
};

class Action : public clang::ASTFrontendAction {
public:
  Action(std::function<void(clang::ASTContext &)> Run,
         std::vector<IncludeRecord> &Includes,
         std::vector<clang::SourceLocation> &ExtensionNameUses)
      : Run(std::move(Run)), Includes(Includes),
        ExtensionNameUses(ExtensionNameUses) {}
  std::unique_ptr<clang::ASTConsumer>
  CreateASTConsumer(clang::CompilerInstance &CI, llvm::StringRef) override {
    CI.getPreprocessor().addPPCallbacks(
        std::make_unique<IncludeRecorder>(Includes));
    CI.getPreprocessor().addPPCallbacks(
        std::make_unique<ExtensionNameRecorder>(ExtensionNameUses));
    return std::make_unique<Consumer>(Run, CI.getSourceManager());
  }

private:
  std::function<void(clang::ASTContext &)> Run;
  std::vector<IncludeRecord> &Includes;
  std::vector<clang::SourceLocation> &ExtensionNameUses;
};

bool directoryExists(const std::string &Path) {
  struct stat St;
  return !Path.empty() && ::stat(Path.c_str(), &St) == 0 && S_ISDIR(St.st_mode);
}

/// The clang command line of a parse, less the input and the action: the
/// same for a unit and for the precompiled prelude it may use.
std::vector<std::string> baseArguments(bool IsCuda, bool Lean,
                                       const CheckOptions &Options) {
  std::vector<std::string> Args = {
      "clang++", "-std=c++17", "-w", "-ferror-limit=20",
      "-fno-caret-diagnostics", "-resource-dir=" KEVIN_CLANG_RESOURCE_DIR,
      "-DTORCH_API_INCLUDE_EXTENSION_H"};
  if (IsCuda) {
    for (const char *A : {"-x", "cuda", "--cuda-host-only", "-nocudainc",
                          "-nocudalib", "-Wno-unknown-cuda-version"})
      Args.push_back(A);
  } else {
    Args.push_back("-x");
    Args.push_back("c++");
  }
  for (const std::string &Dir : Options.ExtraIncludes)
    Args.push_back("-I" + Dir);
  Args.push_back("-I" + std::string(PreludeRoot) + "cuda");
  if (Lean) {
    Args.push_back("-I" + std::string(PreludeRoot) + "torch");
  } else {
    const std::string &T = Options.TorchInclude;
    Args.push_back("-I" + T);
    Args.push_back("-I" + T + "/torch/csrc/api/include");
    Args.push_back("-I" KEVIN_PYTHON_INCLUDE);
  }
  return Args;
}

const char *const CudaPreludeInclude = "kevin_cuda_prelude.h";

/// The command line of one unit's parse; Pch, when given, replaces the
/// prelude (it holds it, and the headers every unit starts with).
std::vector<std::string> commandLine(const CudaUnit &Unit, bool Lean,
                                     const CheckOptions &Options,
                                     const std::string &Pch) {
  std::vector<std::string> Args = baseArguments(Unit.IsCuda, Lean, Options);
  Args.insert(Args.begin() + 1, "-fsyntax-only");
  if (!Pch.empty()) {
    Args.push_back("-include-pch");
    Args.push_back(Pch);
  } else if (Unit.IsCuda) {
    Args.push_back("-include");
    Args.push_back(std::string(PreludeRoot) + CudaPreludeInclude);
  }
  Args.push_back(std::string(UnitRoot) + Unit.FileName);
  return Args;
}

/// An overlay of the real file system with the lean prelude and Extra
/// (path, text) files in memory.
llvm::IntrusiveRefCntPtr<clang::FileManager>
fileManagerWith(const std::vector<std::pair<std::string, std::string>> &Extra) {
  llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> Overlay(
      new llvm::vfs::OverlayFileSystem(llvm::vfs::getRealFileSystem()));
  llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> Memory(
      new llvm::vfs::InMemoryFileSystem);
  Overlay->pushOverlay(Memory);
  for (const PreludeFile &F : PreludeFiles)
    Memory->addFile(std::string(PreludeRoot) + F.Path, 0,
                    llvm::MemoryBuffer::getMemBuffer(F.Text));
  for (const auto &[Path, Text] : Extra)
    Memory->addFile(Path, 0, llvm::MemoryBuffer::getMemBufferCopy(Text));
  return new clang::FileManager(clang::FileSystemOptions(), Overlay);
}

/// What the precompiled prelude of a kind of unit holds: the CUDA prelude
/// (cuda.cu) and the headers every unit of that kind starts with. Its file
/// must be there, unchanged, whenever the precompiled form is used.
std::string precompiledHeaderText(bool IsCuda) {
  std::string Header = IsCuda ? std::string("#include \"") + PreludeRoot +
                                    CudaPreludeInclude + "\"\n"
                              : std::string();
  Header += "#include <torch/types.h>\n#include <torch/extension.h>\n";
  if (IsCuda)
    Header += "#include <cuda.h>\n#include <cuda_runtime.h>\n";
  return Header;
}

std::string precompiledHeaderPath(bool IsCuda) {
  return std::string(UnitRoot) + (IsCuda ? "prelude-cuda.h" : "prelude-cxx.h");
}

/// The lean prelude precompiled for one kind of unit, built on first use
/// into the cache directory (content-addressed: prelude, clang, options;
/// written under a temporary name and renamed, so concurrent checkers are
/// safe). Empty when it cannot be built: the parse then reads the prelude.
std::string leanPrecompiledPrelude(bool IsCuda, const CheckOptions &Options) {
  static std::mutex Lock;
  static std::map<bool, std::string> Known;
  std::lock_guard<std::mutex> Guard(Lock);
  if (auto It = Known.find(IsCuda); It != Known.end())
    return It->second;
  std::string &Path = Known[IsCuda];
  std::string Header = precompiledHeaderText(IsCuda);
  std::vector<std::string> Args = baseArguments(IsCuda, true, Options);
  ContentHasher Key;
  Key.add("kevin-check-pch").add(CLANG_VERSION_STRING).add(Header);
  for (const std::string &A : Args)
    Key.add(A);
  for (const PreludeFile &F : PreludeFiles)
    Key.add(F.Path).add(F.Text);
  std::string Dir = defaultCacheDir() + "/check-pch";
  std::string Final = Dir + "/" + Key.finish() + ".pch";
  if (::access(Final.c_str(), R_OK) == 0)
    return Path = Final;
  if (llvm::sys::fs::create_directories(Dir))
    return Path;
  std::string Temp =
      Final + ".tmp" + std::to_string(static_cast<long>(::getpid()));
  std::string Input = precompiledHeaderPath(IsCuda);
  Args.insert(Args.begin() + 1, "-c");
  Args.insert(Args.end(), {Input, "-o", Temp});
  llvm::IntrusiveRefCntPtr<clang::FileManager> Files =
      fileManagerWith({{Input, Header}});
  clang::IgnoringDiagConsumer Quiet;
  clang::tooling::ToolInvocation Invocation(
      Args, std::make_unique<clang::GeneratePCHAction>(), Files.get(),
      std::make_shared<clang::PCHContainerOperations>());
  Invocation.setDiagnosticConsumer(&Quiet);
  if (!Invocation.run() || ::rename(Temp.c_str(), Final.c_str()) != 0) {
    ::unlink(Temp.c_str());
    return Path;
  }
  return Path = Final;
}

struct UnitOutcome {
  bool Failed = false;
  std::string Message;
  SourceLocation Where;
  ErrorSite Site = ErrorSite::Headers;
  std::string Header;
  /// Whether a parse against the real torch headers could end otherwise.
  bool TorchMayMatter = true;
};

/// What the preprocessor recorded of a unit, for the rules.
struct PreprocessorRecord {
  std::vector<IncludeRecord> Includes;
  std::vector<clang::SourceLocation> ExtensionNameUses;
};

UnitOutcome parseUnit(
    const CudaUnit &Unit, bool Lean, const CheckOptions &Options,
    const std::string &Pch,
    const std::function<void(clang::ASTContext &, const PreprocessorRecord &)>
        &Run,
    const PythonModule &M) {
  std::vector<std::pair<std::string, std::string>> Inputs = {
      {std::string(UnitRoot) + Unit.FileName, Unit.Text.text()}};
  if (!Pch.empty())
    Inputs.emplace_back(precompiledHeaderPath(Unit.IsCuda),
                        precompiledHeaderText(Unit.IsCuda));
  llvm::IntrusiveRefCntPtr<clang::FileManager> Files = fileManagerWith(Inputs);
  PreprocessorRecord Record;
  auto RunWithRecord = [&](clang::ASTContext &AST) { Run(AST, Record); };
  clang::tooling::ToolInvocation Invocation(
      commandLine(Unit, Lean, Options, Pch),
      std::make_unique<Action>(RunWithRecord, Record.Includes,
                               Record.ExtensionNameUses),
      Files.get(), std::make_shared<clang::PCHContainerOperations>());
  ErrorCollector Errors(Unit, M);
  Invocation.setDiagnosticConsumer(&Errors);
  bool Ok = Invocation.run();
  UnitOutcome Out;
  Out.Failed = !Ok || Errors.Failed;
  Out.Message = Errors.Failed ? Errors.Message : "clang could not run";
  Out.Where = Errors.Failed ? Errors.Where : M.locate(*Unit.Call->Call);
  Out.Site = Errors.Site;
  Out.Header = Errors.Header;
  Out.TorchMayMatter = !Errors.Failed || Errors.TorchMayMatter;
  return Out;
}

bool isIdentifier(const std::string &S) {
  if (S.empty() || std::isdigit(static_cast<unsigned char>(S[0])))
    return false;
  for (char C : S)
    if (!std::isalnum(static_cast<unsigned char>(C)) && C != '_')
      return false;
  return true;
}

void appendUser(CudaUnit &Unit, const MappedText &Text) {
  size_t Begin = Unit.Text.text().size();
  Unit.Text.append(Text);
  Unit.UserRanges.push_back({Begin, Unit.Text.text().size()});
}

// The TUs of one load_inline call, as torch.utils.cpp_extension writes them.
std::vector<CudaUnit>
buildUnits(const PythonModule &M, const LoadInlineCall &Call,
           const std::vector<std::pair<std::string, const PyNode *>> &Functions,
           const std::string &ExtensionName) {
  // Defined in the text rather than with -D, so that one precompiled
  // prelude serves every extension name.
  std::string NameDefine =
      "#define TORCH_EXTENSION_NAME " + ExtensionName + "\n";
  std::vector<CudaUnit> Units;
  unsigned Line = (*Call.Call)["line"].get<unsigned>();
  unsigned Col = (*Call.Call)["col"].get<unsigned>();
  auto Resolve = [&](const char *Name) -> std::optional<MappedText> {
    const PyNode *Arg = Call.argument(Name);
    if (!Arg || (isNode(*Arg, "Constant") &&
                 Arg->value("vtype", "") == "NoneType"))
      return std::nullopt;
    ResolvedString R = resolveString(M, *Arg);
    return R.Value;
  };
  std::optional<MappedText> Cpp = Resolve("cpp_sources");
  std::optional<MappedText> Cuda = Resolve("cuda_sources");
  if (Cpp) {
    CudaUnit Unit;
    Unit.FileName = "main.cpp";
    Unit.Call = &Call;
    Unit.Text.appendSynthetic(NameDefine + "#include <torch/extension.h>\n",
                              Line, Col);
    appendUser(Unit, *Cpp);
    // load_inline writes the binding only when functions= is given.
    if (Call.argument("functions")) {
      std::string Binding = "\nPYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {\n";
      for (const auto &F : Functions)
        Binding += "m.def(\"" + F.first + "\", torch::wrap_pybind_function(" +
                   F.first + "), \"" + F.first + "\");\n";
      Binding += "}\n";
      Unit.Text.appendSynthetic(Binding, Line, Col);
    } else {
      Unit.Text.appendSynthetic("\n", Line, Col);
    }
    Units.push_back(std::move(Unit));
  }
  if (Cuda) {
    CudaUnit Unit;
    Unit.FileName = "cuda.cu";
    Unit.IsCuda = true;
    Unit.Call = &Call;
    Unit.Text.appendSynthetic(NameDefine +
                                  "#include <torch/types.h>\n#include <cuda.h>\n"
                                  "#include <cuda_runtime.h>\n",
                              Line, Col);
    appendUser(Unit, *Cuda);
    Unit.Text.appendSynthetic("\n", Line, Col);
    Units.push_back(std::move(Unit));
  }
  return Units;
}

/// The names load_inline's `functions=` exports (none when they do not
/// resolve statically).
std::vector<std::pair<std::string, const PyNode *>>
exportedFunctions(const PythonModule &M, const LoadInlineCall &Call) {
  std::vector<std::pair<std::string, const PyNode *>> Functions;
  if (const PyNode *F = Call.argument("functions")) {
    ResolvedList L = resolveStringList(M, *F);
    if (!L.Failure)
      Functions = L.Items;
  }
  return Functions;
}

/// The extension's `name=` when it is a static identifier, else a stand-in.
std::string extensionName(const PythonModule &M, const LoadInlineCall &Call) {
  std::string ExtName = "kevin_extension";
  if (const PyNode *N = Call.argument("name")) {
    ResolvedString R = resolveString(M, *N);
    if (R.Value && isIdentifier(R.Value->text()))
      ExtName = R.Value->text();
  }
  return ExtName;
}

/// Called with each parsed unit's AST, before the AST goes away.
using UnitVisitor = std::function<void(
    const CudaUnit &, clang::ASTContext &, const PreprocessorRecord &)>;

/// Parses the units (main.cpp, cuda.cu) in parallel; Visit sees their ASTs
/// one at a time, in unit order, so findings stay in a deterministic order.
/// A unit whose parse fails before its AST exists is not visited.
std::vector<UnitOutcome> parseUnitsInTurn(const std::vector<CudaUnit> &Units,
                                          bool Lean,
                                          const CheckOptions &Options,
                                          const PythonModule &M,
                                          const UnitVisitor &Visit) {
  std::mutex TurnMutex;
  std::condition_variable TurnChanged;
  size_t Turn = 0;
  auto parseInTurn = [&](size_t U) {
    const CudaUnit &Unit = Units[U];
    bool Ran = false;
    auto Run = [&](clang::ASTContext &AST, const PreprocessorRecord &Record) {
      std::unique_lock<std::mutex> Lock(TurnMutex);
      TurnChanged.wait(Lock, [&] { return Turn == U; });
      Visit(Unit, AST, Record);
      Ran = true;
      ++Turn;
      TurnChanged.notify_all();
    };
    std::string Pch = Lean ? leanPrecompiledPrelude(Unit.IsCuda, Options) : "";
    UnitOutcome O = parseUnit(Unit, Lean, Options, Pch, Run, M);
    if (!Ran && !Pch.empty()) // the precompiled prelude did not load
      O = parseUnit(Unit, Lean, Options, "", Run, M);
    if (!Ran) { // the parse failed before the rules could run
      std::unique_lock<std::mutex> Lock(TurnMutex);
      TurnChanged.wait(Lock, [&] { return Turn == U; });
      ++Turn;
      TurnChanged.notify_all();
    }
    return O;
  };
  std::vector<std::future<UnitOutcome>> Parses;
  for (size_t U = 1; U < Units.size(); ++U)
    Parses.push_back(std::async(std::launch::async, parseInTurn, U));
  std::vector<UnitOutcome> Outcomes = {parseInTurn(0)};
  for (std::future<UnitOutcome> &F : Parses)
    Outcomes.push_back(F.get());
  return Outcomes;
}

std::string describeFailure(const CudaUnit &Unit, const UnitOutcome &O,
                            bool Lean) {
  std::string Text = "cannot parse " + Unit.FileName + " (" +
                     (Lean ? "lean prelude" : "torch headers") +
                     "): " + O.Message;
  if (O.Site == ErrorSite::Binding)
    Text += " (in the PYBIND11_MODULE that load_inline writes for functions=)";
  if (!O.Header.empty())
    Text += " (in " + O.Header + ")";
  return Text;
}

/// Reports every unit that did not parse in the candidate's own lines, and
/// returns why the parse is incomplete when a unit failed only in kevin's
/// preludes or the headers (empty otherwise). The rules' findings of the
/// failed attempt (in Local) are dropped, except the positive evidence of
/// kevin-cu-library, which still counts.
std::string reportParseFailures(const std::vector<CudaUnit> &Units,
                                const std::vector<UnitOutcome> &Outcomes,
                                bool Lean, FindingSink &Local,
                                FindingSink &Sink) {
  std::string Incomplete;
  for (size_t U = 0; U < Units.size(); ++U) {
    const UnitOutcome &O = Outcomes[U];
    if (!O.Failed)
      continue;
    if (O.Site == ErrorSite::Headers)
      Incomplete += (Incomplete.empty() ? "" : "; ") +
                    describeFailure(Units[U], O, Lean);
    else
      Sink.report("kevin-cu-parse-failure", O.Where,
                  describeFailure(Units[U], O, Lean));
  }
  for (Finding &F : Local.findings())
    if (F.Rule == "kevin-cu-library")
      Sink.findings().push_back(std::move(F));
  return Incomplete;
}

} // namespace

bool CudaRuleContext::isUserCode(clang::SourceLocation Loc) const {
  if (Loc.isInvalid())
    return false;
  const clang::SourceManager &SM = sourceManager();
  clang::SourceLocation Spelling = SM.getSpellingLoc(Loc);
  if (SM.getFileID(Spelling) != SM.getMainFileID())
    return false;
  size_t Offset = SM.getFileOffset(Spelling);
  for (const auto &[Begin, End] : Unit.UserRanges)
    if (Offset >= Begin && Offset < End)
      return true;
  return false;
}

bool CudaRuleContext::isUserDecl(const clang::Decl *D) const {
  return D && isUserCode(D->getLocation());
}

SourceLocation CudaRuleContext::locate(clang::SourceLocation Loc) const {
  return locateIn(sourceManager(), Unit, M, Loc);
}

std::string CudaRuleContext::declFile(const clang::Decl *D) const {
  if (!D)
    return "";
  const clang::SourceManager &SM = sourceManager();
  clang::SourceLocation Loc = SM.getSpellingLoc(D->getLocation());
  if (Loc.isInvalid())
    return "";
  return SM.getFilename(Loc).str();
}

void CudaRuleContext::report(const char *Rule, clang::SourceLocation Loc,
                             std::string Message, Severity MaxSeverity) const {
  Sink.report(Rule, locate(Loc), std::move(Message), "", MaxSeverity);
}

Expected<ExtensionParse> checkExtensions(const PythonModule &M,
                                         const PythonFacts &Facts,
                                         const CheckPolicy &P,
                                         const CheckOptions &Options,
                                         const TaskInfo *Task,
                                         FindingSink &Sink) {
  ExtensionParse Result;
  bool AnyClangRule = false;
  for (const RuleInfo &R : ruleCatalog())
    AnyClangRule |= R.Kind == RuleKind::Cuda && P.enabled(R.Id);
  if (!AnyClangRule)
    return Result;
  if (Facts.LoadInlineCalls.empty()) {
    // Nothing load_inline would compile: there is no kernel at all.
    Sink.report("kevin-cu-no-kernel", M.locate(1, 0),
                "no CUDA kernel: the candidate builds no extension");
    return Result;
  }
  bool FullAvailable = directoryExists(Options.TorchInclude);
  for (const LoadInlineCall &Call : Facts.LoadInlineCalls) {
    std::vector<std::pair<std::string, const PyNode *>> Functions =
        exportedFunctions(M, Call);
    std::vector<CudaUnit> Units =
        buildUnits(M, Call, Functions, extensionName(M, Call));
    if (Units.empty())
      continue;
    std::vector<bool> Attempts;
    if (Options.Parser != ParserMode::Full)
      Attempts.push_back(true);
    if (Options.Parser != ParserMode::Lean && FullAvailable)
      Attempts.push_back(false);
    if (Attempts.empty())
      return Error::make("no torch include directory for --parser=full "
                         "(pass --torch-include)");
    for (size_t A = 0; A < Attempts.size(); ++A) {
      bool Lean = Attempts[A];
      FindingSink Local(P);
      std::vector<std::unique_ptr<CudaRule>> Rules = createCudaRules();
      ExtensionFacts ExtFacts;
      auto CheckUnit = [&](const CudaUnit &Unit, clang::ASTContext &AST,
                           const PreprocessorRecord &Record) {
        CudaRuleContext Ctx{AST,
                            Unit,
                            M,
                            P,
                            Local,
                            Functions,
                            Record.Includes,
                            Record.ExtensionNameUses,
                            Task};
        collectExtensionFacts(Ctx, ExtFacts);
        for (auto &Rule : Rules)
          Rule->check(Ctx);
      };
      std::vector<UnitOutcome> Outcomes =
          parseUnitsInTurn(Units, Lean, Options, M, CheckUnit);
      bool Failed = false, TorchMayMatter = false;
      for (const UnitOutcome &O : Outcomes) {
        Failed |= O.Failed;
        TorchMayMatter |= O.Failed && O.TorchMayMatter;
      }
      // The full parse swaps the torch headers only: it is not tried for an
      // error that involves none of them.
      bool Last = A + 1 == Attempts.size() || !TorchMayMatter;
      if (Failed && !Last)
        continue;
      Result.Parser = Lean ? "lean" : "full";
      if (Failed) {
        std::string Incomplete =
            reportParseFailures(Units, Outcomes, Lean, Local, Sink);
        if (!Incomplete.empty())
          Result.Incomplete +=
              (Result.Incomplete.empty() ? "" : "; ") + Incomplete;
        break;
      }
      for (auto &Rule : Rules)
        Rule->finish(ExtFacts, Call, M, Local);
      for (Finding &F : Local.findings())
        Sink.findings().push_back(std::move(F));
      break;
    }
  }
  return Result;
}

} // namespace kevin
