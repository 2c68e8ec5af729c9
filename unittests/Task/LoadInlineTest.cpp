//===-- LoadInlineTest.cpp - tests for static source resolution -----------===//
//
// load_inline arguments resolve through names, `+`, implicit concatenation
// and escapes, and every byte keeps its .py position.
//
//===----------------------------------------------------------------------===//
#include "kevin/Task/LoadInline.h"

#include <gtest/gtest.h>

using namespace kevin;

namespace {

PythonModule parse(const std::string &Text) {
  Expected<PythonModule> M = PythonModule::parse({"c.py", Text, 0});
  EXPECT_TRUE(bool(M));
  return std::move(*M);
}

} // namespace

TEST(LoadInlineTest, ResolvesNamesConcatenationAndEscapes) {
  PythonModule M = parse(
      "from torch.utils.cpp_extension import load_inline\n"
      "A = 'ab\\tc'\n"
      "B = A + ('d'\n     'e')\n"
      "ext = load_inline(name='x', cpp_sources=B, functions=['f', 'g'])\n");
  std::vector<LoadInlineCall> Calls = findLoadInlineCalls(M);
  ASSERT_EQ(Calls.size(), 1u);
  EXPECT_EQ(Calls[0].BoundName, "ext");
  ResolvedString S = resolveString(M, *Calls[0].argument("cpp_sources"));
  ASSERT_TRUE(S.Value.has_value());
  EXPECT_EQ(S.Value->text(), "ab\tcde");
  // 'c' follows the two-character escape \t: line 2, byte column 9.
  EXPECT_EQ(S.Value->origin(3), std::make_pair(2u, 9u));
  // 'e' is on line 4 in the second literal of the implicit concatenation.
  EXPECT_EQ(S.Value->origin(5), std::make_pair(4u, 6u));
  ResolvedList L = resolveStringList(M, *Calls[0].argument("functions"));
  ASSERT_FALSE(L.Failure.has_value());
  ASSERT_EQ(L.Items.size(), 2u);
  EXPECT_EQ(L.Items[1].first, "g");
}

TEST(LoadInlineTest, RawStringsKeepBackslashes) {
  PythonModule M = parse("S = r'a\\nb'\n");
  ResolvedString S = resolveString(M, M.body()[0]["value"]);
  ASSERT_TRUE(S.Value.has_value());
  EXPECT_EQ(S.Value->text(), "a\\nb");
  EXPECT_EQ(S.Value->origin(3), std::make_pair(1u, 9u));
}

TEST(LoadInlineTest, UnresolvableSources) {
  PythonModule M = parse("A = 'x'\nA = A + 'y'\nB = str(1)\nC = f'{A}'\n"
                         "def g():\n    global D\nD = 'z'\n");
  auto Fails = [&](const char *Name) {
    PyNode N = {{"_type", "Name"}, {"id", Name}, {"line", 1}, {"col", 0}};
    return resolveString(M, N).Failure.has_value();
  };
  EXPECT_TRUE(Fails("A"));   // bound twice
  EXPECT_TRUE(Fails("B"));   // a call
  EXPECT_TRUE(Fails("C"));   // an f-string
  EXPECT_TRUE(Fails("D"));   // declared global
  EXPECT_TRUE(Fails("E"));   // unbound
}
