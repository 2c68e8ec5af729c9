//===-- CandidateTest.cpp - tests for candidate reading and extraction ----===//
//
// UTF-8 validation, response block extraction and Python parse errors.
//
//===----------------------------------------------------------------------===//
#include "kevin/Task/Candidate.h"
#include "kevin/Task/PythonModule.h"

#include <gtest/gtest.h>

using namespace kevin;

TEST(CandidateTest, Utf8Validation) {
  size_t Bad = 0;
  EXPECT_TRUE(isValidUtf8("plain \xc3\xa9t\xc3\xa9", Bad));
  EXPECT_FALSE(isValidUtf8("ab\xff", Bad));
  EXPECT_EQ(Bad, 2u);
  EXPECT_FALSE(isValidUtf8("\xc0\x80", Bad)); // overlong NUL
  EXPECT_FALSE(isValidUtf8("\xed\xa0\x80", Bad)); // surrogate
  EXPECT_FALSE(isValidUtf8("\xe2\x82", Bad)); // truncated
}

TEST(CandidateTest, SyntaxErrorPositionIncludesOffset) {
  CandidateSource S{"r.md", "x = (1,\n", 4};
  Expected<PythonModule> M = PythonModule::parse(S);
  ASSERT_FALSE(bool(M));
  EXPECT_EQ(M.error().location().File, "r.md");
  EXPECT_EQ(M.error().location().Line, 5u);
}

TEST(CandidateTest, ImportAliases) {
  CandidateSource S{"c.py",
                    "import torch.nn.functional as F\nfrom torch import nn\n"
                    "from torch.utils.cpp_extension import load_inline as li\n"
                    "a = F.relu\nb = nn.Module\nc = li\n",
                    0};
  Expected<PythonModule> M = PythonModule::parse(S);
  ASSERT_TRUE(bool(M));
  const PyNode &Body = M->body();
  EXPECT_EQ(M->qualifiedName(Body[3]["value"]), "torch.nn.functional.relu");
  EXPECT_EQ(M->qualifiedName(Body[4]["value"]), "torch.nn.Module");
  EXPECT_EQ(M->qualifiedName(Body[5]["value"]),
            "torch.utils.cpp_extension.load_inline");
}

TEST(CandidateTest, UnreadableFilesAreFileAccessErrors) {
  auto Missing = readCandidateFile("/nonexistent/kevin/candidate.py");
  ASSERT_FALSE(Missing);
  EXPECT_EQ(Missing.error().message(), "cannot open file");
  EXPECT_EQ(Missing.error().kind(), ErrorKind::FileAccess);
  auto Directory = readCandidateFile("/");
  ASSERT_FALSE(Directory);
  EXPECT_EQ(Directory.error().message(), "cannot read file");
  EXPECT_EQ(Directory.error().kind(), ErrorKind::FileAccess);
}
