// The tools' one command-line parser (core/command_line.hpp): both forms of
// a value, flags, aliases, repeatable options, positional arguments, the
// errors that name the option, the suggestions and AthenaK's hints.
#include "core/command_line.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using cfd::cli::Arguments;
using cfd::cli::Parser;
using cfd::cli::UsageError;

namespace {

Parser tool() {
  Parser p("cfdtool");
  p.stop_flag("--help", "-h")
      .stop_flag("--version")
      .flag("--quiet", "-q")
      .flag("--overwrite")
      .option("--tolerance")
      .option("--output")
      .option("--set", true)
      .optional_value("--list-keys")
      .passthrough("--kokkos-");
  return p;
}

// The message of the UsageError that parsing `args` throws.
std::string error_of(const Parser& p, const std::vector<std::string>& args) {
  try {
    p.parse(args);
  } catch (const UsageError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no UsageError";
  return "";
}

}  // namespace

TEST(CommandLine, ValueInBothForms) {
  for (const auto& args : {std::vector<std::string>{"--tolerance", "1e-3"}, {"--tolerance=1e-3"}}) {
    const Arguments a = tool().parse(args);
    EXPECT_TRUE(a.has("--tolerance"));
    EXPECT_EQ(a.value("--tolerance"), "1e-3");
    EXPECT_TRUE(a.positional.empty());
  }
  // Only the first '=' separates: the rest is the value.
  EXPECT_EQ(tool().parse({"--set=grid.nx=64"}).value("--set"), "grid.nx=64");
  // A value may begin with '-' when it is no option (a negative number).
  EXPECT_EQ(tool().parse({"--tolerance", "-1"}).value("--tolerance"), "-1");
  EXPECT_EQ(tool().parse({"--output="}).value("--output", "unset"), "");
  EXPECT_EQ(tool().parse({}).value("--output", "unset"), "unset");
}

TEST(CommandLine, FlagsAliasesAndPositional) {
  const Arguments a = tool().parse({"case.yaml", "-q", "--overwrite", "more.yaml"});
  EXPECT_TRUE(a.has("--quiet"));  // -q is --quiet
  EXPECT_TRUE(a.has("--overwrite"));
  EXPECT_FALSE(a.has("--output"));
  EXPECT_EQ(a.positional, (std::vector<std::string>{"case.yaml", "more.yaml"}));
  // After "--" everything is positional; "-" alone is positional.
  const Arguments b = tool().parse({"--", "-q", "-"});
  EXPECT_FALSE(b.has("--quiet"));
  EXPECT_EQ(b.positional, (std::vector<std::string>{"-q", "-"}));
}

TEST(CommandLine, FlagRefusesValue) {
  EXPECT_EQ(error_of(tool(), {"--quiet=x"}), "--quiet takes no value (got '--quiet=x')");
  EXPECT_EQ(error_of(tool(), {"-q=1"}), "--quiet takes no value (got '-q=1')");
}

TEST(CommandLine, MissingValueNamesTheOption) {
  EXPECT_EQ(error_of(tool(), {"--tolerance"}), "--tolerance needs a value");
  EXPECT_EQ(error_of(tool(), {"--output", "--overwrite"}), "--output needs a value (got the option '--overwrite')");
  EXPECT_EQ(error_of(tool(), {"--output", "--tolerance=3"}), "--output needs a value (got the option '--tolerance=3')");
}

TEST(CommandLine, RepeatableInOrderOthersLastWins) {
  const Arguments a = tool().parse({"--set", "a.b=1", "--output", "o", "--set=c.d=2", "-q", "-q"});
  EXPECT_EQ(a.values("--set"), (std::vector<std::string>{"a.b=1", "c.d=2"}));
  ASSERT_EQ(a.options.size(), 5u);  // in command-line order
  EXPECT_EQ(a.options[0].option, "--set");
  EXPECT_EQ(a.options[1].option, "--output");
  EXPECT_EQ(a.options[2].value, "c.d=2");
  // An option of one value given again: the later one counts.
  EXPECT_EQ(tool().parse({"--output", "a", "--output=b"}).value("--output"), "b");
}

TEST(CommandLine, OptionalValue) {
  EXPECT_EQ(tool().parse({"--list-keys", "sod"}).value("--list-keys"), "sod");
  EXPECT_EQ(tool().parse({"--list-keys=sod"}).value("--list-keys"), "sod");
  const Arguments a = tool().parse({"--list-keys", "--quiet"});
  EXPECT_TRUE(a.has("--list-keys"));
  EXPECT_EQ(a.value("--list-keys"), "");
  EXPECT_TRUE(a.has("--quiet"));
}

TEST(CommandLine, UnknownOptionSuggestions) {
  EXPECT_EQ(error_of(tool(), {"--tol"}), "unknown option '--tol'; did you mean '--tolerance'?");  // a prefix
  EXPECT_EQ(error_of(tool(), {"--tolerence=3"}), "unknown option '--tolerence=3'; did you mean '--tolerance'?");
  EXPECT_EQ(error_of(tool(), {"--ouput", "x"}), "unknown option '--ouput'; did you mean '--output'?");
  EXPECT_EQ(error_of(tool(), {"-quiet"}), "unknown option '-quiet'; did you mean '--quiet'?");
  EXPECT_EQ(error_of(tool(), {"--frobnicate"}), "unknown option '--frobnicate'");  // nothing near
  Parser two("cmp");
  two.option("--atol").option("--rtol");
  EXPECT_EQ(error_of(two, {"--tol", "1"}), "unknown option '--tol'; did you mean '--atol' or '--rtol'?");
  EXPECT_EQ(cfd::cli::edit_distance("--tol", "--atol"), 1u);
  EXPECT_EQ(cfd::cli::edit_distance("kitten", "sitting"), 3u);
  EXPECT_EQ(cfd::cli::edit_distance("", "abc"), 3u);
}

TEST(CommandLine, StopFlagEndsParsing) {
  const Arguments a = tool().parse({"-h", "--frobnicate"});
  EXPECT_EQ(a.stopped_at, "--help");
  EXPECT_TRUE(tool().parse({"--version"}).has("--version"));
  // An error before it still counts.
  EXPECT_EQ(error_of(tool(), {"--frobnicate", "--help"}), "unknown option '--frobnicate'");
}

TEST(CommandLine, PassthroughKeptWhole) {
  const Arguments a = tool().parse({"--kokkos-threads=2", "case.yaml", "--kokkos-numa", "1"});
  EXPECT_EQ(a.passthrough, (std::vector<std::string>{"--kokkos-threads=2", "--kokkos-numa"}));
  EXPECT_EQ(a.positional, (std::vector<std::string>{"case.yaml", "1"}));
}

TEST(CommandLine, AthenaKHints) {
  Parser p = tool();
  p.case_file_hints();
  EXPECT_EQ(error_of(p, {"-i", "kh.athinput"}),
            "unknown option '-i': cfdtool takes the case file as its first argument: cfdtool case.yaml (AthenaK's -i "
            "is not needed)");
  EXPECT_EQ(error_of(p, {"case.yaml", "mesh/nx1=64"}),
            "'mesh/nx1=64' is AthenaK's block/key=value form: use --set mesh.nx1=64");
  EXPECT_EQ(error_of(p, {"-i"}), "unknown option '-i'");
  // Paths are no assignments; without the hints nothing is guessed.
  EXPECT_EQ(p.parse({"runs/a.yaml"}).positional, (std::vector<std::string>{"runs/a.yaml"}));
  EXPECT_EQ(p.parse({"run=1/a.yaml"}).positional, (std::vector<std::string>{"run=1/a.yaml"}));
  EXPECT_EQ(tool().parse({"mesh/nx1=64"}).positional, (std::vector<std::string>{"mesh/nx1=64"}));
  EXPECT_EQ(error_of(tool(), {"-i", "kh.athinput"}), "unknown option '-i'");
}

TEST(CommandLine, SplitList) {
  EXPECT_EQ(cfd::cli::split_list("rho,p"), (std::vector<std::string>{"rho", "p"}));
  EXPECT_EQ(cfd::cli::split_list(",rho,,p,"), (std::vector<std::string>{"rho", "p"}));
  EXPECT_TRUE(cfd::cli::split_list("").empty());
}

TEST(CommandLine, NumbersReadWhole) {
  EXPECT_EQ(cfd::whole_number("42"), 42);
  EXPECT_FALSE(cfd::whole_number("3x"));
  EXPECT_FALSE(cfd::whole_number(" 4"));
  EXPECT_FALSE(cfd::whole_number("+4"));
  EXPECT_EQ(cfd::finite_number("1e-3"), 1e-3);
  EXPECT_FALSE(cfd::finite_number("inf"));
  EXPECT_FALSE(cfd::finite_number("1e400"));
}
