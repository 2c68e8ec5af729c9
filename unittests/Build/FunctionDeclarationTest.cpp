//===-- FunctionDeclarationTest.cpp - tests for functionPrototype ---------===//
#include "kevin/Build/FunctionDeclaration.h"

#include <gtest/gtest.h>

using namespace kevin;

TEST(FunctionPrototypeTest, DefinitionsAndDeclarations) {
  EXPECT_EQ(functionPrototype("torch::Tensor relu(torch::Tensor x) {\n"
                              "  return x;\n}\n",
                              "relu"),
            "torch::Tensor relu(torch::Tensor x)");
  // A CUDA extension's cpp source declares what cuda.cu defines.
  EXPECT_EQ(functionPrototype("torch::Tensor gelu_cuda(torch::Tensor x);",
                              "gelu_cuda"),
            "torch::Tensor gelu_cuda(torch::Tensor x)");
  EXPECT_EQ(functionPrototype(
                "std::vector<std::pair<at::Tensor, int64_t>>\n"
                "split(const at::Tensor &x, int64_t n, double a = 0.5) {}",
                "split"),
            "std::vector<std::pair<at::Tensor, int64_t>> "
            "split(const at::Tensor &x, int64_t n, double a = 0.5)");
  EXPECT_EQ(
      functionPrototype("torch::Tensor f(torch::Tensor x) noexcept;", "f"),
      "torch::Tensor f(torch::Tensor x) noexcept");
}

TEST(FunctionPrototypeTest, TheFirstTopLevelMentionDecides) {
  const char *Text = "#include <vector>\n"
                     "// torch::Tensor helper(int) in a comment\n"
                     "static float helper(float v) { return v; }\n"
                     "namespace detail { torch::Tensor run(torch::Tensor); }\n"
                     "const char *doc = \"run(x) {\";\n"
                     "torch::Tensor run(torch::Tensor x) {\n"
                     "  auto s = '}'; return detail::run(x);\n"
                     "}\n";
  EXPECT_EQ(functionPrototype(Text, "run"),
            "torch::Tensor run(torch::Tensor x)");
  // Static: the other unit could not link to it.
  EXPECT_EQ(functionPrototype(Text, "helper"), std::nullopt);
  EXPECT_EQ(functionPrototype(Text, "missing"), std::nullopt);
}

TEST(FunctionPrototypeTest, CommentsAndDirectivesAreNotCopied) {
  EXPECT_EQ(functionPrototype("#define N 4\n"
                              "torch::Tensor /* out */ f(torch::Tensor x) "
                              "// the entry\n{ return x; }",
                              "f"),
            "torch::Tensor f(torch::Tensor x)");
}

TEST(FunctionPrototypeTest, InlineIsDroppedForTheOtherUnit) {
  EXPECT_EQ(
      functionPrototype("inline torch::Tensor f(torch::Tensor x) {}", "f"),
      "torch::Tensor f(torch::Tensor x)");
}

TEST(FunctionPrototypeTest, WhatAnotherUnitCannotCallIsRefused) {
  for (const char *Text :
       {"template <typename T> T f(T x) { return x; }",
        "constexpr int f(int x) { return x; }", "extern \"C\" int f(int x);",
        "extern \"C\" { int f(int x); }",
        "namespace { torch::Tensor f(torch::Tensor x) { return x; } }",
        "auto f(torch::Tensor x) { return x; }",
        "decltype(auto) f(torch::Tensor x) { return x; }",
        "torch::Tensor f(torch::Tensor x) = delete;",
        "torch::Tensor f(torch::Tensor x) try { return x; } catch (...) {}",
        "RETURN_TYPE(x) f(torch::Tensor x);", "f(torch::Tensor x);",
        "auto y = f(torch::ones({1}));", "int a, f(int x);",
        "torch::Tensor ns::f(torch::Tensor x) { return x; }",
        "[[nodiscard]] torch::Tensor f(torch::Tensor x);"})
    EXPECT_EQ(functionPrototype(Text, "f"), std::nullopt) << Text;
}

TEST(FunctionPrototypeTest, LiteralsDoNotConfuseTheScan) {
  // Braces and quotes in literals, a raw string, a digit separator.
  const char *Text = "const char *a = \"{\\\"\";\n"
                     "const char *b = R\"x(}\")x\";\n"
                     "int c = 1'000;\n"
                     "char d = '{';\n"
                     "torch::Tensor f(torch::Tensor x);\n";
  EXPECT_EQ(functionPrototype(Text, "f"), "torch::Tensor f(torch::Tensor x)");
}
