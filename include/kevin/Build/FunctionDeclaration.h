//===-- kevin/Build/FunctionDeclaration.h - bound prototypes ----*- C++ -*-===//
//
// The builder compiles a C++ extension's pybind11 binding in a unit of its
// own, beside the candidate's code, when it can declare each bound function
// there: this finds the declaration the candidate's source spells for a
// function, by a scan of the text (no parse). The builder checks, in the
// candidate's unit, that the declaration names the very function the
// candidate defines, so a wrong find costs a fallback, never a wrong call.
//
//===----------------------------------------------------------------------===//

#ifndef KEVIN_BUILD_FUNCTIONDECLARATION_H
#define KEVIN_BUILD_FUNCTIONDECLARATION_H

#include <optional>
#include <string>

namespace kevin {

/// The prototype of the first declaration or definition of the function
/// Name at the top level of Text (not in a namespace, class or extern "C"
/// block), without its body or `;`, comments blanked: e.g. `torch::Tensor
/// relu(torch::Tensor x, double alpha = 0.5)`; an `inline` is dropped (the
/// other unit declares it without a body). Empty when there is none, or
/// when another unit could not call it through that prototype: it is
/// static, constexpr, a template, extern, a deleted or defaulted one, a
/// function-try-block, or its return type is not spelled before its name
/// by type words alone (auto, decltype, a macro call).
std::optional<std::string> functionPrototype(const std::string &Text,
                                             const std::string &Name);

/// Whether C can be part of an identifier (or a number): the scans' words.
bool isWordChar(char C);

/// The end of the word (identifier or number) that starts at At; At itself
/// when Text[At] is not a word character.
size_t wordEnd(const std::string &Text, size_t At);

/// The position of the first whole word Word in Text (code, comment or
/// directive alike), or npos.
size_t findWord(const std::string &Text, const std::string &Word);

/// Text with its comments, preprocessor directives and string and character
/// literals blanked (line breaks kept): only code is left to scan.
std::string codeWithoutComments(const std::string &Text);

} // namespace kevin

#endif // KEVIN_BUILD_FUNCTIONDECLARATION_H
