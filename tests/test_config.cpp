// One test per kind of case-file error, plus defaults, overrides and the
// resolved configuration.
#include "core/config.hpp"
#include "physics/solvers.hpp"

#include "physics/diffusion/diffusion_params.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <string>

using cfd::Config;
using cfd::ConfigError;

namespace {

Config load(const std::string& text, const std::vector<std::string>& overrides = {}) {
  return Config::from_string(text, "case.yaml", overrides, cfd::solver_keys);
}

// The error message of loading `text`, which must fail.
std::string error_of(const std::string& text, const std::vector<std::string>& overrides = {}) {
  try {
    load(text, overrides);
  } catch (const ConfigError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no ConfigError for:\n" << text;
  return "";
}

const std::string minimal = "solver: diffusion\n";

}  // namespace

TEST(Config, DefaultsFillEveryKey) {
  const Config c = load(minimal);
  EXPECT_EQ(c.get_int("grid.nx"), 256);
  EXPECT_EQ(c.get_int("grid.ny"), 256);
  EXPECT_EQ(c.get_int("time.steps"), 100);
  EXPECT_DOUBLE_EQ(c.get_real("diffusion.alpha"), 0.1);
  EXPECT_EQ(c.get_string("diffusion.precision"), "fp64");
  EXPECT_FALSE(c.given("grid.nx"));
  EXPECT_TRUE(c.given("solver"));
}

TEST(Config, ValuesAreTyped) {
  const Config c = load("solver: diffusion\ngrid: {nx: 31, ny: 27}\ndiffusion:\n  alpha: 0.25\n  text_output: yes\n");
  EXPECT_EQ(c.get_int("grid.nx"), 31);
  EXPECT_EQ(c.get_real("diffusion.alpha"), 0.25);
  EXPECT_TRUE(c.get_bool("diffusion.text_output"));
  EXPECT_TRUE(c.given("grid.nx"));
  EXPECT_THROW(c.get_real("grid.nx"), std::logic_error);  // asking with the wrong type is a bug
}

TEST(Config, YamlSyntaxErrorNamesLineAndColumn) {
  const std::string e = error_of("solver: diffusion\ngrid:\n  nx: [1, 2\n");
  EXPECT_NE(e.find("case.yaml:"), std::string::npos) << e;
  EXPECT_NE(e.find("YAML syntax"), std::string::npos) << e;
}

TEST(Config, MissingSolver) { EXPECT_NE(error_of("grid:\n  nx: 10\n").find("'solver': missing"), std::string::npos); }

TEST(Config, UnknownSolverListsKnownOnes) {
  const std::string e = error_of("solver: difusion\n");
  EXPECT_NE(e.find("case.yaml:1:9"), std::string::npos) << e;
  EXPECT_NE(e.find("unknown solver 'difusion'"), std::string::npos) << e;
  EXPECT_NE(e.find("diffusion"), std::string::npos) << e;
}

TEST(Config, UnknownSectionSuggestsNearMiss) {
  const std::string e = error_of("solver: diffusion\ngrd:\n  nx: 10\n");
  EXPECT_NE(e.find("case.yaml:2:1"), std::string::npos) << e;
  EXPECT_NE(e.find("did you mean 'grid'"), std::string::npos) << e;
}

// A choice in other letters' case is a near miss (HLLC is hllc); a tab that
// indents is named as such, not as yaml-cpp's "illegal map value".
TEST(Config, ChoiceInCapitalsAndTabsAreNamed) {
  const std::string e = error_of("solver: euler\neuler:\n  riemann: HLLC\n");
  EXPECT_NE(e.find("case.yaml:3:12"), std::string::npos) << e;
  EXPECT_NE(e.find("did you mean 'hllc'"), std::string::npos) << e;
  const std::string t = error_of("solver: euler\neuler:\n\triemann: hllc\n");
  EXPECT_NE(t.find("case.yaml:3:1: error: a tab in the indentation; YAML indents with spaces only"), std::string::npos)
      << t;
  // A tab inside a value, a comment or a block scalar is no indentation.
  EXPECT_EQ(error_of("solver: euler\neuler:\n  problem: >\n    \tblast\n").find("a tab in the indentation"),
            std::string::npos);
  EXPECT_NO_THROW(load("solver: euler\n# a\tcomment\neuler:\n  problem: blast  \t# tab\n"));
}

TEST(Config, UnknownKeyNamesFileLineColumnAndPath) {
  const std::string e = error_of("solver: diffusion\ngrid:\n  nx: 10\n  nz: 4\n");
  EXPECT_NE(e.find("case.yaml:4:3: error: 'grid.nz': unknown key"), std::string::npos) << e;
  EXPECT_NE(e.find("did you mean 'nx'"), std::string::npos) << e;
}

TEST(Config, WrongType) {
  const std::string e = error_of("solver: diffusion\ngrid:\n  nx: ten\n");
  EXPECT_NE(e.find("case.yaml:3:7: error: 'grid.nx': expected an integer, got 'ten'"), std::string::npos) << e;
  const std::string r = error_of("solver: diffusion\ndiffusion:\n  alpha: fast\n");
  EXPECT_NE(r.find("'diffusion.alpha': expected a finite real number"), std::string::npos) << r;
  const std::string b = error_of("solver: diffusion\ndiffusion:\n  text_output: maybe\n");
  EXPECT_NE(b.find("expected true or false"), std::string::npos) << b;
}

TEST(Config, OutOfRange) {
  const std::string e = error_of("solver: diffusion\ngrid:\n  nx: 4\n");
  EXPECT_NE(e.find("'grid.nx': must be between 5 and"), std::string::npos) << e;
  const std::string a = error_of("solver: diffusion\ndiffusion:\n  alpha: -0.3\n");
  EXPECT_NE(a.find("'diffusion.alpha': must be between 0.0 and 1e+12, got -0.3"), std::string::npos) << a;
  // The explicit scheme's own limit is checked with the scheme, at the value's line.
  try {
    cfd::diffusion::params(load("solver: diffusion\ndiffusion:\n  alpha: 0.3\n"));
    ADD_FAILURE() << "alpha 0.3 accepted by the explicit scheme";
  } catch (const ConfigError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("case.yaml:3"), std::string::npos) << m;
    EXPECT_NE(m.find("unstable above 0.25, got 0.3"), std::string::npos) << m;
  }
  const std::string s = error_of("solver: diffusion\ntime:\n  steps: 0\n");
  EXPECT_NE(s.find("'time.steps'"), std::string::npos) << s;
}

TEST(Config, BadChoiceListsChoices) {
  const std::string e = error_of("solver: diffusion\ndiffusion:\n  precision: fp16\n");
  EXPECT_NE(e.find("case.yaml:3:14: error: 'diffusion.precision': expected one of fp32|fp64, got 'fp16'"),
            std::string::npos)
      << e;
}

TEST(Config, DuplicateKey) {
  const std::string e = error_of("solver: diffusion\ngrid:\n  nx: 10\n  nx: 12\n");
  EXPECT_NE(e.find("case.yaml:4:3: error: 'grid.nx': duplicate key"), std::string::npos) << e;
}

TEST(Config, SectionMustBeAMap) {
  const std::string e = error_of("solver: diffusion\ngrid: 10\n");
  EXPECT_NE(e.find("'grid': expected a map of keys, got a scalar"), std::string::npos) << e;
}

TEST(Config, ScalarExpectedNotAList) {
  const std::string e = error_of("solver: diffusion\ngrid:\n  nx: [10, 20]\n");
  EXPECT_NE(e.find("'grid.nx': expected integer, got a list"), std::string::npos) << e;
}

TEST(Config, TopLevelMustBeAMap) {
  EXPECT_NE(error_of("- a\n- b\n").find("a YAML map of sections"), std::string::npos);
}

TEST(Config, OverridesWinAndAreNamedInErrors) {
  const Config c = load("solver: diffusion\ngrid:\n  nx: 10\n", {"grid.nx=64", "diffusion.precision=fp32"});
  EXPECT_EQ(c.get_int("grid.nx"), 64);
  EXPECT_EQ(c.get_string("diffusion.precision"), "fp32");
  const std::string e = error_of(minimal, {"grid.nx=abc"});
  EXPECT_NE(e.find("command line (--set grid.nx)"), std::string::npos) << e;
  const std::string u = error_of(minimal, {"grid.nz=3"});
  EXPECT_NE(u.find("command line (--set grid.nz)"), std::string::npos) << u;
  EXPECT_NE(u.find("unknown key"), std::string::npos) << u;
}

TEST(Config, MalformedOverride) {
  EXPECT_THROW(cfd::split_override("grid.nx"), ConfigError);
  EXPECT_THROW(cfd::split_override("=3"), ConfigError);
  EXPECT_NE(error_of(minimal, {"a.b.c=1"}).find("expected section.key=value"), std::string::npos);
}

TEST(Config, ResolvedYamlReadsBackToTheSameConfiguration) {
  const Config c = load("solver: diffusion\ngrid: {nx: 31, ny: 27}\ndiffusion: {alpha: 0.2, precision: fp32}\n");
  const std::string text = c.resolved_yaml();
  EXPECT_NE(text.find("alpha: 0.2\n"), std::string::npos) << text;
  const Config again = load(text);
  EXPECT_EQ(again.resolved_yaml(), text);
  EXPECT_EQ(again.get_int("grid.ny"), 27);
  EXPECT_EQ(again.get_real("diffusion.alpha"), 0.2);
}

TEST(Config, FormatRealIsShortestRoundTrip) {
  EXPECT_EQ(cfd::format_real(0.1), "0.1");
  EXPECT_EQ(cfd::format_real(2.0), "2.0");
  EXPECT_EQ(cfd::format_real(1e-300), "1e-300");
  const double third = 1.0 / 3.0;
  EXPECT_EQ(std::stod(cfd::format_real(third)), third);
}

TEST(Config, ResolvedYamlOfEverySolverReadsBack) {
  for (const auto& s : cfd::solvers()) {
    const Config c = load(std::string("solver: ") + s.name + "\n");
    EXPECT_EQ(load(c.resolved_yaml()).resolved_yaml(), c.resolved_yaml()) << s.name;
  }
}

namespace {
// The error of reading `bytes` as a case file, or "" if it reads.
std::string file_error(const std::string& bytes) {
  // One file per test: ctest runs the tests as parallel processes.
  const std::string path =
      testing::TempDir() + "case_bytes_" + testing::UnitTest::GetInstance()->current_test_info()->name() + ".yaml";
  {
    std::ofstream out(path, std::ios::binary);
    out << bytes;
  }
  try {
    Config::from_file(path, {}, cfd::solver_keys);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

// Classic Mac OS line ends (a lone CR), NEL, LS and PS (YAML 1.1's line
// breaks, which yaml-cpp does not count): lines, as the editor shows them,
// not one line (a comment, or "'solver': missing").
TEST(Config, LoneCarriageReturnsAndLineSeparatorsAreLineEnds) {
  for (const std::string end : {"\r", "\xC2\x85", "\xE2\x80\xA8", "\xE2\x80\xA9"}) {
    EXPECT_EQ(file_error("# a comment" + end + "solver: diffusion" + end + "grid:" + end + "  nx: 40" + end), "");
    const std::string e = file_error("# a comment" + end + "solver: diffusion" + end + "grid:" + end + "  nxx: 40\n");
    EXPECT_NE(e.find("case_bytes_LoneCarriageReturnsAndLineSeparatorsAreLineEnds.yaml:4:3: error: 'grid.nxx': "
                     "unknown key"),
              std::string::npos)
        << e;
  }
}

// A lone UTF-16 surrogate encoded as UTF-8, an overlong form or a code point
// beyond U+10FFFF is not UTF-8 text: refused with its place.
TEST(Config, SurrogatesAndOverlongFormsAreNotUtf8) {
  for (const char* bad : {"\xED\xA0\x80", "\xE0\x80\xAF", "\xF4\x90\x80\x80", "\xF5\x80\x80\x80"}) {
    const std::string e = file_error(std::string("solver: diffusion\noutput:\n  dir: \"x") + bad + "\"\n");
    EXPECT_NE(e.find("case_bytes_SurrogatesAndOverlongFormsAreNotUtf8.yaml:3:10: error: not UTF-8 text"),
              std::string::npos)
        << e;
  }
  EXPECT_EQ(file_error("solver: diffusion\noutput:\n  dir: \"x\xF0\x9F\x98\x80\"\n"), "");  // U+1F600
}

TEST(Config, Utf16And32AreNamed) {
  const std::string u16 = std::string("\xFF\xFE", 2) + std::string("s\0o\0l\0", 6);
  EXPECT_NE(file_error(u16).find("the case file is UTF-16 (it starts with a byte order mark); save it as UTF-8"),
            std::string::npos);
  EXPECT_NE(file_error(std::string("\xFE\xFF\0s", 4)).find("UTF-16"), std::string::npos);
  EXPECT_NE(file_error(std::string("\xFF\xFE\0\0s\0\0\0", 8)).find("UTF-32"), std::string::npos);
  EXPECT_NE(file_error(std::string("solver: diffusion\n\0", 19)).find("binary data"), std::string::npos);
}

TEST(Config, NotUtf8AndDirectivesAreRefused) {
  const std::string e = file_error("solver: diffusion\noutput:\n  dir: \"caf\xE9\"\n");
  EXPECT_NE(e.find("case_bytes_NotUtf8AndDirectivesAreRefused.yaml:3:12: error: not UTF-8 text (byte 0xE9)"),
            std::string::npos)
      << e;
  EXPECT_EQ(file_error("solver: diffusion\noutput:\n  dir: \"caf\xC3\xA9\"\n"), "");
  const std::string d = file_error("solver: diffusion\n%TAG ! tag:x\n");
  EXPECT_NE(
      d.find(
          "case_bytes_NotUtf8AndDirectivesAreRefused.yaml:2:1: error: a line that starts with '%' is a YAML directive"),
      std::string::npos)
      << d;
}

// yaml-cpp stops at 500 levels and says only "bad file" (#34).
TEST(Config, DeepNestingIsNamed) {
  const std::string e =
      file_error("solver: diffusion\ngrid: " + std::string(3000, '[') + std::string(3000, ']') + "\n");
  EXPECT_NE(e.find(":2:"), std::string::npos) << e;
  EXPECT_NE(e.find("error: YAML syntax: nested too deeply"), std::string::npos) << e;
  EXPECT_EQ(e.find("bad file"), std::string::npos) << e;
}

// Numbers in case files and --set follow the tools' rules (std::from_chars,
// core/command_line.hpp): no '+', no hexadecimal, nothing around them (#29).
TEST(Config, NumbersReadLikeTheTools) {
  EXPECT_NE(
      error_of("solver: diffusion\ngrid:\n  nx: +64\n").find("expected an integer, got '+64' (write it without '+')"),
      std::string::npos);
  EXPECT_NE(error_of("solver: diffusion\ngrid:\n  nx: \" 64\"\n").find("expected an integer, got ' 64'"),
            std::string::npos);
  EXPECT_NE(error_of("solver: diffusion\ndiffusion:\n  alpha: 0x1p-4\n")
                .find("expected a finite real number, got '0x1p-4' (hexadecimal numbers are not read"),
            std::string::npos);
  EXPECT_NE(error_of("solver: diffusion\n", {"grid.nx=+64"}).find("(write it without '+')"), std::string::npos);
  EXPECT_EQ(load("solver: diffusion\ngrid:\n  nx: 64\ndiffusion:\n  alpha: .125\n").get_real("diffusion.alpha"), 0.125);
  EXPECT_EQ(load("solver: diffusion\ndiffusion:\n  alpha: 1.25e-1\n").get_real("diffusion.alpha"), 0.125);
}

// ---- Former names: the euler solver was called euler2d ----

// A case written for euler2d reads as the same case written for euler: the
// same resolved configuration, each former spelling named in a note with
// its place.
TEST(FormerNames, AnEuler2dCaseReadsAsTheEulerCase) {
  const Config old = load("solver: euler2d\neuler2d:\n  riemann: hllc\n  problem: blast\ngrid: {nx: 8, ny: 8}\n");
  const Config now = load("solver: euler\neuler:\n  riemann: hllc\n  problem: blast\ngrid: {nx: 8, ny: 8}\n");
  EXPECT_EQ(old.solver(), "euler");
  EXPECT_EQ(old.get_string("euler.riemann"), "hllc");
  EXPECT_TRUE(old.given("euler.problem"));
  EXPECT_EQ(old.location("euler.riemann"), "case.yaml:3:12");
  EXPECT_EQ(old.resolved_yaml(), now.resolved_yaml());
  ASSERT_EQ(old.warnings().size(), 2u);
  EXPECT_NE(old.warnings()[0].find("case.yaml:1:9: note: solver 'euler2d' is now called 'euler'"), std::string::npos)
      << old.warnings()[0];
  EXPECT_NE(old.warnings()[1].find("case.yaml:2:1: note: section 'euler2d' is now 'euler'"), std::string::npos)
      << old.warnings()[1];
  EXPECT_TRUE(now.warnings().empty());
}

TEST(FormerNames, AKeyUnderBothSpellingsIsRefused) {
  const std::string e = error_of("solver: euler\neuler: {riemann: hllc}\neuler2d: {riemann: llf}\n");
  EXPECT_NE(e.find("case.yaml:3:11: error: 'euler.riemann': given twice, as 'euler.riemann' and as 'euler2d.riemann'"),
            std::string::npos)
      << e;
  // Different keys under the two spellings are one section.
  const Config c = load("solver: euler\neuler: {riemann: hllc}\neuler2d: {integrator: rk3}\n");
  EXPECT_EQ(c.get_string("euler.riemann"), "hllc");
  EXPECT_EQ(c.get_string("euler.integrator"), "rk3");
}

TEST(FormerNames, ASetWinsUnderEitherSpelling) {
  const Config a = load("solver: euler\neuler: {riemann: hllc}\n", {"euler2d.riemann=llf"});
  EXPECT_EQ(a.get_string("euler.riemann"), "llf");
  EXPECT_EQ(a.location("euler.riemann"), "command line (--set euler2d.riemann)");
  const Config b = load("solver: euler2d\neuler2d: {riemann: hllc}\n", {"euler.riemann=llf"});
  EXPECT_EQ(b.get_string("euler.riemann"), "llf");
  const Config c = load("solver: euler\n", {"solver=euler2d", "euler2d.riemann=llf"});
  EXPECT_EQ(c.solver(), "euler");
  EXPECT_EQ(c.get_string("euler.riemann"), "llf");
}

TEST(FormerNames, AnUnknownKeyInTheFormerSectionNamesThePresentKeys) {
  const std::string e = error_of("solver: euler2d\neuler2d: {riemman: hllc}\n");
  EXPECT_NE(e.find("case.yaml:2:11: error: 'euler2d.riemman': unknown key (did you mean 'riemann'?); keys of 'euler'"),
            std::string::npos)
      << e;
}

TEST(FormerNames, ASolverNameWithADimensionPointsAtTheSolver) {
  for (const char* name : {"euler3d", "euler1d"}) {
    const std::string e = error_of(std::string("solver: ") + name + "\n");
    EXPECT_NE(e.find(std::string("unknown solver '") + name +
                     "' (did you mean 'euler'? the grid gives the dimension: grid.ny: 1 is 1D, grid.nz > 1 is 3D)"),
              std::string::npos)
        << e;
  }
}

// One spelling across solvers: <solver>.problem chooses the problem, and
// euler.kernels the kernels, as sod.kernels does; the former keys read.
TEST(FormerNames, InitialIsProblemAndFusedStageIsKernels) {
  const Config sod = load("solver: sod\nsod: {initial: expression}\n");
  EXPECT_EQ(sod.get_string("sod.problem"), "expression");
  ASSERT_EQ(sod.warnings().size(), 1u);
  EXPECT_NE(sod.warnings()[0].find("case.yaml:2:7: note: 'sod.initial' is now 'sod.problem'"), std::string::npos)
      << sod.warnings()[0];
  EXPECT_EQ(load("solver: diffusion\n", {"diffusion.initial=sine"}).get_string("diffusion.problem"), "sine");
  EXPECT_EQ(load("solver: euler2d\neuler2d: {fused_stage: false}\n").get_string("euler.kernels"), "split");
  EXPECT_EQ(load("solver: euler2d\neuler2d: {fused_stage: yes}\n").get_string("euler.kernels"), "fused");
  EXPECT_EQ(load("solver: euler\n", {"euler2d.fused_stage=false"}).get_string("euler.kernels"), "split");
  const std::string e = error_of("solver: euler2d\neuler2d: {fused_stage: fused}\n");
  EXPECT_NE(e.find("case.yaml:2:24: error: 'euler2d.fused_stage': expected true or false, got 'fused'"),
            std::string::npos)
      << e;
}

// One spelling of the gas across gas solvers: gas.gamma (was euler.gamma,
// so euler2d.gamma too) and viscosity.* (sod's were sod.viscosity and
// gas.mu0, gas.T0, gas.S). The former spellings read, each with a note.
TEST(FormerNames, TheGasKeysHaveOneSpelling) {
  const Config now = load("solver: euler\ngas: {gamma: 1.4}\n");
  for (const char* old : {"solver: euler\neuler: {gamma: 1.4}\n", "solver: euler2d\neuler2d: {gamma: 1.4}\n",
                          "solver: euler\neuler2d: {gamma: 1.4}\n"}) {
    const Config c = load(old);
    EXPECT_EQ(c.get_real("gas.gamma"), 1.4) << old;
    EXPECT_EQ(c.resolved_yaml(), now.resolved_yaml()) << old;
    bool noted = false;
    for (const auto& w : c.warnings()) noted = noted || w.find("gamma' is now 'gas.gamma'") != std::string::npos;
    EXPECT_TRUE(noted) << old;
  }
  EXPECT_TRUE(now.warnings().empty());
  const std::string both = error_of("solver: euler\ngas: {gamma: 1.4}\neuler2d: {gamma: 1.3}\n");
  EXPECT_NE(both.find("case.yaml:3:11: error: 'gas.gamma': given twice, as 'gas.gamma' and as 'euler2d.gamma'"),
            std::string::npos)
      << both;
  // A --set wins over the file under any spelling.
  EXPECT_EQ(load("solver: euler2d\neuler2d: {gamma: 1.3}\n", {"gas.gamma=1.2"}).get_real("gas.gamma"), 1.2);
  EXPECT_EQ(load("solver: euler\ngas: {gamma: 1.3}\n", {"euler.gamma=1.2"}).get_real("gas.gamma"), 1.2);
  EXPECT_EQ(load("solver: euler\n", {"euler2d.gamma=1.2"}).get_real("gas.gamma"), 1.2);
  // Two --set of one key under two spellings: refused, naming both.
  const std::string twice = error_of("solver: euler\n", {"euler.gamma=1.3", "gas.gamma=1.4"});
  EXPECT_NE(twice.find("'gas.gamma': given twice, as "), std::string::npos) << twice;
  EXPECT_NE(twice.find("'euler.gamma'"), std::string::npos) << twice;

  const Config sod = load("solver: sod\nsod: {viscosity: constant}\ngas: {mu0: 2.0e-5, T0: 300, S: 110}\n");
  EXPECT_EQ(sod.get_string("viscosity.law"), "constant");
  EXPECT_EQ(sod.get_real("viscosity.mu"), 2.0e-5);
  EXPECT_EQ(sod.get_real("viscosity.T0"), 300);
  EXPECT_EQ(sod.get_real("viscosity.S"), 110);
  std::string notes;
  for (const auto& w : sod.warnings()) notes += w + "\n";
  for (const char* n : {"case.yaml:2:7: note: 'sod.viscosity' is now 'viscosity.law'",
                        "case.yaml:3:7: note: 'gas.mu0' is now 'viscosity.mu'", "'gas.T0' is now 'viscosity.T0'",
                        "'gas.S' is now 'viscosity.S'"})
    EXPECT_NE(notes.find(n), std::string::npos) << n << "\n" << notes;
  // The same keys as navier_stokes, with sod's units and defaults.
  const Config ns = load("solver: navier_stokes\nviscosity: {law: sutherland, mu: 1.0e-3, T0: 2, S: 0.5}\n");
  const Config tube = load("solver: sod\nviscosity: {law: sutherland, mu: 1.0e-3, T0: 2, S: 0.5}\n");
  for (const char* k : {"viscosity.mu", "viscosity.T0", "viscosity.S"})
    EXPECT_EQ(ns.get_real(k), tube.get_real(k)) << k;
  EXPECT_TRUE(tube.warnings().empty());
}
