//===-- ToolMainTest.cpp - tests for kevin/Support/ToolMain.h -------------===//
#include "kevin/Support/ToolMain.h"

#include <gtest/gtest.h>

using namespace kevin;

namespace {

struct Options {
  double Gamma = 0.4;
  std::string Mode = "sum";
  bool Log = false;
  std::vector<double> List = {1};
};

void bind(CLI::App &App, Options &O) {
  App.add_option("--gamma", O.Gamma);
  App.add_option("--return", O.Mode)->check(CLI::IsMember({"sum", "max"}));
  App.add_flag("--log-speedup", O.Log);
  App.add_option("--fast-p", O.List)->delimiter(',');
}

Error apply(const char *Toml, std::vector<const char *> Args, Options &O) {
  CLI::App App("test", "kevin-test");
  bind(App, O);
  Args.insert(Args.begin(), "kevin-test");
  App.parse(static_cast<int>(Args.size()), const_cast<char **>(Args.data()));
  auto File = ConfigFile::parse(Toml, "kevin.toml");
  EXPECT_TRUE(File);
  return applyConfigSection(App, *File, "reward");
}

} // namespace

TEST(ToolMainTest, ConfigSectionFillsUnsetOptions) {
  Options O;
  Error Err = apply("[reward]\ngamma = 0.8\nreturn = \"max\"\n"
                    "log-speedup = true\nfast-p = [0.5, 2]\n[grpo]\nx = 1\n",
                    {"--gamma", "0.1"}, O);
  ASSERT_FALSE(Err) << Err.message();
  EXPECT_EQ(O.Gamma, 0.1); // the command line wins
  EXPECT_EQ(O.Mode, "max");
  EXPECT_TRUE(O.Log);
  EXPECT_EQ(O.List, (std::vector<double>{0.5, 2}));
}

TEST(ToolMainTest, ConfigSectionErrorsHavePositions) {
  Options O;
  Error Unknown = apply("[reward]\n\ngama = 1\n", {}, O);
  ASSERT_TRUE(Unknown);
  EXPECT_EQ(Unknown.location().Line, 3u);
  EXPECT_NE(Unknown.message().find("unknown key 'gama'"), std::string::npos);
  Error Bad = apply("[reward]\nreturn = \"mean\"\n", {}, O);
  ASSERT_TRUE(Bad);
  EXPECT_EQ(Bad.location().Line, 2u);
  Error Table = apply("[reward]\ngamma = {a = 1}\n", {}, O);
  ASSERT_TRUE(Table);
  EXPECT_FALSE(apply("[other]\ngamma = 1\n", {}, O));
}

TEST(ToolMainTest, ChoiceOptions) {
  enum class Mode { Sum, Max };
  Mode M = Mode::Sum;
  CLI::App App("test", "kevin-test");
  CLI::Option *Opt = addChoiceOption<Mode>(
      App, "--return", M, {{"sum", Mode::Sum}, {"max", Mode::Max}}, "mode");
  EXPECT_NE(Opt->get_description().find("(default: sum)"), std::string::npos);
  const char *Good[] = {"kevin-test", "--return", "max"};
  App.parse(3, const_cast<char **>(Good));
  EXPECT_EQ(M, Mode::Max);
  CLI::App Again("test", "kevin-test");
  addChoiceOption<Mode>(Again, "--return", M,
                        {{"sum", Mode::Sum}, {"max", Mode::Max}}, "mode");
  const char *Bad[] = {"kevin-test", "--return", "mean"};
  EXPECT_THROW(Again.parse(3, const_cast<char **>(Bad)), CLI::ValidationError);
}

TEST(ToolMainTest, CommaListsDropEmptyItems) {
  EXPECT_EQ(splitCommaList("cuda:0,,cuda:1,"),
            (std::vector<std::string>{"cuda:0", "cuda:1"}));
  EXPECT_EQ(splitCommaList("check"), (std::vector<std::string>{"check"}));
  EXPECT_TRUE(splitCommaList("").empty());
  EXPECT_TRUE(splitCommaList(",,").empty());
}
