//===-- TranslationUnits.cpp - the units an extension compiles to ---------===//
//
// The translation units load_inline would write (torch/extension.h, the
// candidate's strings, the pybind11 binding; the CUDA strings in a unit of
// their own), or `load`'s files as they are, and the binding unit split in
// two.
//
//===----------------------------------------------------------------------===//
#include "TranslationUnits.h"
#include "kevin/Build/FunctionDeclaration.h"

#include <algorithm>
#include <cctype>
#include <set>

namespace kevin {

namespace {

/// kevin's pybind11 binding of the spec's functions, as load_inline
/// writes it; Callables (when given) name what each function is bound to.
std::string pybindModuleText(const ExtensionSpec &Spec,
                             const std::vector<std::string> &Callables = {}) {
  std::string Binding = "PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {";
  for (size_t I = 0; I < Spec.Functions.size(); ++I) {
    const auto &[Fn, Doc] = Spec.Functions[I];
    const std::string &Callee = I < Callables.size() ? Callables[I] : Fn;
    if (Spec.WrapFunctions)
      Binding += "\nm.def(\"" + Fn + "\", torch::wrap_pybind_function(" +
                 Callee + "), \"" + Doc + "\");";
    else
      Binding += "\nm.def(\"" + Fn + "\", " + Callee + ", \"" + Doc + "\");";
  }
  return Binding + "\n}\n";
}

} // namespace

std::vector<TranslationUnit> writeTranslationUnits(const ExtensionSpec &Spec) {
  std::vector<TranslationUnit> Units;
  auto addPiece = [](TranslationUnit &U, unsigned &Line,
                     const std::string &Text) {
    U.Pieces.emplace_back(Line, Text);
    U.Text += Text + "\n";
    Line +=
        1 + static_cast<unsigned>(std::count(Text.begin(), Text.end(), '\n'));
  };
  if (Spec.RawSources) {
    unsigned Index = 0;
    for (const std::string &Src : Spec.CppSources) {
      TranslationUnit U;
      U.FileName = "source" + std::to_string(Index++) + ".cpp";
      unsigned Line = 1;
      addPiece(U, Line, Src);
      Units.push_back(std::move(U));
    }
    for (const std::string &Src : Spec.CudaSources) {
      TranslationUnit U;
      U.FileName = "source" + std::to_string(Index++) + ".cu";
      U.IsCuda = true;
      unsigned Line = 1;
      addPiece(U, Line, Src);
      Units.push_back(std::move(U));
    }
    return Units;
  }
  // load_inline joins its strings with newlines after a first include line,
  // then appends the binding; the CUDA unit gets three includes first.
  TranslationUnit Main;
  Main.FileName = "main.cpp";
  Main.StartsWithExtensionHeader = true;
  unsigned Line = 1;
  Main.Text = "#include <torch/extension.h>\n";
  Line = 2;
  for (const std::string &Src : Spec.CppSources)
    addPiece(Main, Line, Src);
  if (!Spec.Functions.empty()) {
    // The binding is kevin's text, not the candidate's: an empty piece.
    Main.Pieces.emplace_back(Line, "");
    Main.Text += pybindModuleText(Spec);
  }
  Units.push_back(std::move(Main));
  if (!Spec.CudaSources.empty()) {
    TranslationUnit Cuda;
    Cuda.FileName = "cuda.cu";
    Cuda.IsCuda = true;
    Cuda.Text = "#include <torch/types.h>\n#include <cuda.h>\n#include "
                "<cuda_runtime.h>\n";
    unsigned CudaLine = 4;
    for (const std::string &Src : Spec.CudaSources)
      addPiece(Cuda, CudaLine, Src);
    Units.push_back(std::move(Cuda));
  }
  return Units;
}

std::optional<BindingSplitUnits> splitBinding(const ExtensionSpec &Spec,
                                              const TranslationUnit &Main,
                                              const std::string &CandidateCpp) {
  if (Spec.Functions.empty())
    return std::nullopt;
  std::string Prototypes, Pointers, Check;
  std::vector<std::string> Each;
  std::set<std::string> Words;
  std::vector<std::string> Callables;
  for (const auto &Function : Spec.Functions) {
    const std::string &Fn = Function.first;
    std::optional<std::string> Prototype = functionPrototype(CandidateCpp, Fn);
    if (!Prototype)
      return std::nullopt;
    Prototypes += *Prototype + ";\n";
    Each.push_back(*Prototype);
    for (size_t At = 0; At < Prototype->size();) {
      size_t End = wordEnd(*Prototype, At);
      if (End == At) {
        ++At;
        continue;
      }
      std::string Word = Prototype->substr(At, End - At);
      // Operator names (`and`, `not`, ...) cannot be macros.
      static const std::set<std::string> OperatorNames = {
          "and",    "and_eq", "bitand", "bitor", "compl", "not",
          "not_eq", "or",     "or_eq",  "xor",   "xor_eq"};
      if (!std::isdigit(static_cast<unsigned char>(Word[0])) &&
          !OperatorNames.count(Word))
        Words.insert(Word);
      At = End;
    }
    std::string Pointer = "kevin_bound_" + std::to_string(Callables.size());
    std::string Type = "decltype(&kevin_binding_check::" + Fn + ")";
    // Hidden: resolved within the extension's own library, so another
    // extension's pointer of the same name cannot stand in for it.
    Pointers += "extern \"C\" __attribute__((visibility(\"hidden\"))) " + Type +
                " " + Pointer + ";\n";
    Check += "static_assert(std::is_same<decltype(&::" + Fn + "), " + Type +
             ">::value, \"kevin: the binding's prototype of " + Fn + "\");\n" +
             Type + " " + Pointer + " = &::" + Fn + ";\n";
    Callables.push_back("+" + Pointer);
  }
  std::string Guards;
  for (const std::string &Word : Words)
    Guards += "#ifdef " + Word + "\n#error kevin_binding: " + Word +
              " is a macro\n#endif\n";
  std::string Declarations =
      "namespace kevin_binding_check {\n" + Prototypes + "}\n" + Pointers;
  BindingSplitUnits Units;
  Units.Candidate = Main;
  Units.Candidate.FileName = "candidate.cpp";
  Units.Candidate.StartsWithExtensionHeader = false;
  size_t BindingAt = Main.Text.rfind("PYBIND11_MODULE(");
  Units.Candidate.Text =
      Main.Text.substr(0, BindingAt) + Guards + Declarations + Check;
  // The guards go in kevin's unit too: its headers define other macros.
  Units.BindingText = "// kevin's binding unit (lib/Build/Builder.cpp)\n" +
                      Guards + Declarations + pybindModuleText(Spec, Callables);
  Units.Prototypes = std::move(Each);
  return Units;
}

} // namespace kevin
