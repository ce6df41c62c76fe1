// Formulas of initial states (core/expression.hpp, core/case_formulas.hpp)
// and the euler problem keys: values as the same C++ gives them, bit for
// bit; the shipped initial states of sod and diffusion spelled as formulas,
// bit for bit; errors with the column inside the formula or the cell; the
// problems' constants as keys.
#include "core/config.hpp"
#include "core/expression.hpp"
#include "physics/diffusion/diffusion_solver.hpp"
#include "physics/euler/euler_params.hpp"
#include "physics/sod/sod_solver.hpp"
#include "physics/solvers.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

using cfd::Expression;
using cfd::ExpressionError;

namespace {

#ifdef CFDRUN_HAVE_MUPARSER_TESTS
constexpr bool have_muparser = true;
#else
constexpr bool have_muparser = false;
#endif

// The column and message of a formula that must be refused.
std::pair<int, std::string> error_of(const std::string& text) {
  try {
    Expression e(text, {{"y0", 0.5}, {"w", 0.1}});
  } catch (const ExpressionError& e) {
    return {e.column, e.what()};
  }
  ADD_FAILURE() << "no error for " << text;
  return {0, ""};
}

cfd::Config load(const std::string& text, const std::vector<std::string>& overrides = {}) {
  return cfd::Config::from_string(text, "case.yaml", overrides, cfd::solver_keys);
}

std::string config_error(const std::string& text, const std::vector<std::string>& overrides = {}) {
  try {
    cfd::euler::params(load(text, overrides));
  } catch (const cfd::ConfigError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no ConfigError for:\n" << text;
  return "";
}

}  // namespace

TEST(Expression, SameBitsAsTheSameCxx) {
  if (!have_muparser) GTEST_SKIP() << "built without muparser";
  const double y0 = 0.5, w = 0.1, L = 0.025;
  const Expression e("1 + 0.5*tanh((y - y0)/w) - (-0.5)*exp((y - 0.25)/L)", {{"y0", y0}, {"w", w}, {"L", L}});
  for (double y : {0.0, 0.1234567, 0.25, 0.5000001, 0.99}) {
    const double expected = 1 + 0.5 * std::tanh((y - y0) / w) - (-0.5) * std::exp((y - 0.25) / L);
    EXPECT_EQ(e(0.3, y), expected) << "y = " << y;  // exact: evaluated as written
  }
  const Expression piecewise("x < 0.5 ? 1 : 0.125", {});
  EXPECT_EQ(piecewise(0.49), 1.0);
  EXPECT_EQ(piecewise(0.5), 0.125);
  const Expression trig("sin(4*pi*x) + t*z", {});
  EXPECT_EQ(trig(0.1, 0, 2, 3), std::sin(4 * 3.141592653589793 * 0.1) + 3.0 * 2.0);
  EXPECT_EQ(Expression("2^10", {})(0), 1024.0);
  EXPECT_TRUE(std::isnan(Expression("sqrt(x)", {})(-1)));
}

TEST(Expression, ErrorsNameTheColumn) {
  if (!have_muparser) GTEST_SKIP() << "built without muparser";
  EXPECT_EQ(error_of("foo + 1"), std::make_pair(1, std::string("'foo' is not a constant, a coordinate (x, y, z, t) "
                                                               "or a function")));
  EXPECT_EQ(error_of("1 + y0 + bar").first, 10);
  EXPECT_EQ(error_of("1 +* 2").first, 4);
  EXPECT_EQ(error_of("sin(x").first, 6);
  EXPECT_EQ(error_of("").second, "the formula is empty");
  EXPECT_EQ(error_of("x = 3"), std::make_pair(3, std::string("'=' is not an operator of a formula (compare with ==)")));
  EXPECT_EQ(error_of("1, 2").first, 2);
  // Comparisons are operators, not assignments.
  EXPECT_EQ(Expression("x <= 1", {})(1), 1.0);
  EXPECT_EQ(Expression("x == 1", {})(2), 0.0);
}

TEST(Expression, ConstantNames) {
  std::string why;
  EXPECT_TRUE(cfd::is_constant_name("y0"));
  EXPECT_TRUE(cfd::is_constant_name("rho_top"));
  EXPECT_FALSE(cfd::is_constant_name("x", &why));
  EXPECT_NE(why.find("coordinate"), std::string::npos);
  EXPECT_FALSE(cfd::is_constant_name("sin"));
  EXPECT_FALSE(cfd::is_constant_name("pi"));
  EXPECT_FALSE(cfd::is_constant_name("2w"));
  EXPECT_FALSE(cfd::is_constant_name("a-b"));
}

TEST(Euler2dProblems, ConstantsAreKeysWithTodaysValues) {
  // The blast's defaults: rho 1, p 1 within r < 0.1 of (0.5, 0.5), rho 0.125, p 0.1 outside.
  const auto p = cfd::euler::params(load("solver: euler\neuler: {problem: blast}\n"));
  EXPECT_STREQ(p.problem->name, "blast");
  EXPECT_EQ(p.initial(0.5 + 0.099, 0.5, 0, 0).rho, 1.0);
  EXPECT_EQ(p.initial(0.5, 0.5 + 0.099, 0, 0).p, 1.0);
  EXPECT_EQ(p.initial(0.5 + 0.101, 0.5, 0, 0).rho, 0.125);
  EXPECT_EQ(p.initial(0.5, 0.5 - 0.101, 0, 0).p, 0.1);
  EXPECT_EQ(p.lo[0], 0.0);
  // The vortex's strength: vy = vy_0 + beta / (2 pi) at unit distance right of the centre.
  const auto v = cfd::euler::params(load("solver: euler\neuler: {problem: vortex}\nvortex: {strength: 3}\n"));
  EXPECT_DOUBLE_EQ(v.initial(1, 0, 0, 0).vy, 1 + 3 / (2 * 3.14159265358979323846));
  EXPECT_EQ(v.lo[0], -5.0);
  EXPECT_EQ(v.hi[1], 5.0);
  // kh_seed: the tutorial's box and interfaces at y = -0.25 and 0.25
  // (the middle layer's density 2 between them, the outer layers' 1 beyond).
  const auto s = cfd::euler::params(load("solver: euler\neuler: {problem: kh_seed}\n"));
  EXPECT_EQ(s.lo[1], -0.5);
  EXPECT_NEAR(s.initial(0, 0, 0, 0).rho, 2.0, 1e-4);
  EXPECT_NEAR(s.initial(0, -0.49, 0, 0).rho, 1.0, 1e-4);
  EXPECT_DOUBLE_EQ(s.initial(0, -0.25, 0, 0).rho, 1.5);
}

TEST(Euler2dProblems, RefusesKeysOfAnotherProblem) {
  const std::string e = config_error("solver: euler\neuler: {problem: kh_mcnally}\nblast:\n  radius: 0.2\n");
  EXPECT_NE(e.find("case.yaml:4:11: error: 'blast.radius': has no effect with euler.problem: kh_mcnally"),
            std::string::npos)
      << e;
  const std::string c = config_error("solver: euler\nconstants: {a: 1}\n");
  EXPECT_NE(c.find("case.yaml:2:"), std::string::npos) << c;
  EXPECT_NE(c.find("'constants.a': no formula of this case reads the constants"), std::string::npos) << c;
  // Read by a source term, they go with any problem.
  if (have_muparser)
    EXPECT_NO_THROW(cfd::euler::params(load("solver: euler\nconstants: {a: 1}\nsources: {energy: -a*p}\n")));
  const std::string d = config_error("solver: euler\neuler: {problem: blast}\nblast: {x_min: 1, x_max: 0}\n");
  EXPECT_NE(d.find("'blast.x_max': the domain's upper edge must be above its lower one"), std::string::npos) << d;
  // A width or a volume that overflows would end a run with mass = inf.
  const std::string w = config_error("solver: euler\neuler: {problem: blast}\nblast: {x_min: -1e308, x_max: 1e308}\n");
  EXPECT_NE(w.find(":3:31: error: 'blast.x_max': the domain's width along x (x_max - x_min) overflows"),
            std::string::npos)
      << w;
  const std::string v = config_error("solver: euler\neuler: {problem: blast}\nblast: {x_max: 1e200, y_max: 1e200}\n");
  EXPECT_NE(v.find("'blast.y_max': the domain's volume overflows"), std::string::npos) << v;
}

TEST(Euler2dProblems, FormulaErrorsNameFileLineAndColumn) {
  if (!have_muparser) GTEST_SKIP() << "built without muparser";
  const std::string e = config_error(
      "solver: euler\neuler: {problem: expression}\nconstants: {y0: 0.5}\nexpression:\n  rho: \"1 + tanh(y - "
      "y1)\"\n");
  EXPECT_NE(e.find("case.yaml:5:8: error: 'expression.rho': column 14 of the formula: 'y1' is not a constant"),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("1 + tanh(y - y1)\n" + std::string(15, ' ') + "^"), std::string::npos) << e;
  // A long formula with an error near its end: the message shows 60
  // characters either side of the column, not the whole formula; one of
  // 40 KB (beyond muparser's length) is refused in a short message too.
  std::string sum = "1";
  while (sum.size() < 3000) sum += " + 1";
  const std::string long_one =
      config_error("solver: euler\neuler: {problem: expression}\nexpression:\n  rho: \"" + sum + " + q\"\n");
  EXPECT_NE(long_one.find("'q' is not a constant"), std::string::npos) << long_one.substr(0, 300);
  EXPECT_LT(long_one.size(), 600u) << long_one;
  EXPECT_NE(long_one.find("\n  ..."), std::string::npos) << long_one;
  EXPECT_NE(long_one.find(" + q\n" + std::string(2 + 3 + 60, ' ') + "^"), std::string::npos) << long_one;
  while (sum.size() < 40000) sum += " + 1";
  const std::string huge =
      config_error("solver: euler\neuler: {problem: expression}\nexpression:\n  rho: \"" + sum + "\"\n");
  EXPECT_NE(huge.find("'expression.rho': column "), std::string::npos) << huge.substr(0, 300);
  EXPECT_LT(huge.size(), 600u) << huge.substr(0, 300);
  const std::string bad_name = config_error("solver: euler\neuler: {problem: expression}\nconstants: {x: 1}\n");
  EXPECT_NE(bad_name.find("'constants.x': 'x' is a coordinate"), std::string::npos) << bad_name;
  const std::string not_real = config_error("solver: euler\neuler: {problem: expression}\nconstants: {w: wide}\n");
  EXPECT_NE(not_real.find("'constants.w': expected a finite real number, got 'wide'"), std::string::npos) << not_real;
}

// The formulas read z, and vz is one of them: a 3D case's state at a point
// is the formulas' values there (vz defaults to 0, as a 2D case's).
TEST(Euler2dProblems, FormulasGiveTheZVelocityAndReadZ) {
  if (!have_muparser) GTEST_SKIP() << "built without muparser";
  const auto p = cfd::euler::params(
      load("solver: euler\ngrid: {nx: 8, ny: 8, nz: 8}\ntime: {cfl: 0.3}\neuler: {problem: expression}\n"
           "expression:\n  rho: \"1 + 0.5*z\"\n  vz: \"0.25*sin(2*pi*z) + x\"\n  p: \"2 - y*z\"\n"));
  const auto w = p.initial(0.125, 0.5, 0.75, 0);
  EXPECT_EQ(w.rho, 1 + 0.5 * 0.75);
  EXPECT_DOUBLE_EQ(w.vz, 0.25 * std::sin(2 * 3.14159265358979323846 * 0.75) + 0.125);
  EXPECT_EQ(w.p, 2 - 0.5 * 0.75);
  EXPECT_EQ(w.vx, 0.0);
  const auto flat = cfd::euler::params(load("solver: euler\neuler: {problem: expression}\n"));
  EXPECT_EQ(flat.initial(0.3, 0.4, 0, 0).vz, 0.0);
}

TEST(Euler2dProblems, ResolvedConfigurationShowsTheChosenProblemOnly) {
  const auto c = load("solver: euler\neuler: {problem: expression}\nconstants: {y0: 0.5}\n");
  const std::string yaml = c.resolved_yaml();
  EXPECT_NE(yaml.find("expression:\n  x_min: 0"), std::string::npos) << yaml;
  EXPECT_NE(yaml.find("constants:\n  y0: 0.5"), std::string::npos) << yaml;
  EXPECT_EQ(yaml.find("blast:"), std::string::npos) << yaml;
  EXPECT_EQ(yaml.find("kh_mcnally:"), std::string::npos) << yaml;
  // ... and reads back as the same case.
  EXPECT_EQ(load(yaml).resolved_yaml(), yaml);
}

namespace {

// A solver's case from overrides of its default, through the case schema.
cfd::Config case_of(const std::string& solver, const std::vector<std::string>& overrides) {
  return cfd::default_case(solver, overrides);
}

std::string error_of_case(const std::string& solver, const std::vector<std::string>& overrides) {
  try {
    const cfd::Config c = case_of(solver, overrides);
    if (solver == "sod") {
      cfd::sod::Solver<double, Kokkos::LayoutRight> s(cfd::sod::params(c));
      s.set_initial_state();
    } else {
      cfd::diffusion::Solver<double, Kokkos::LayoutLeft> s(cfd::diffusion::params(c));
      s.set_initial_state();
    }
  } catch (const cfd::ConfigError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no ConfigError for " << solver;
  return "";
}

template <class Layout>
std::vector<double> sod_density(const cfd::sod::Params& p, long steps) {
  cfd::sod::Solver<double, Layout> s(p);
  s.set_initial_state();
  for (long k = 0; k < steps; ++k) s.advance(s.allowed_dt());
  return s.profiles().rho;
}

std::vector<double> diffusion_field(const cfd::diffusion::Params& p, long steps) {
  cfd::diffusion::Solver<double, Kokkos::LayoutLeft> s(p);
  s.set_initial_state();
  s.advance_steps(steps);
  const auto u = s.to_host();
  return std::vector<double>(u.begin(), u.end());
}

}  // namespace

// Sod's tube spelled as formulas is the tube, bit for bit, after steps of
// both schemes (the ends' fixed states come from the formulas at x = 0, 1).
TEST(SodFormulas, TheTubeAsFormulasIsTheTubeBitForBit) {
  if (!have_muparser) GTEST_SKIP() << "built without muparser";
  const std::vector<std::string> formulas = {"sod.problem=expression", "expression.rho=x < 0.5 ? 1 : 0.125",
                                             "expression.p=x < 0.5 ? 1 : 0.1"};
  for (const std::string scheme : {"keep", "hllc"}) {
    std::vector<std::string> base = {"grid.nx=201", "time.steps=60", "sod.scheme=" + scheme};
    if (scheme == "hllc") base.push_back("viscosity.law=none");
    std::vector<std::string> with = base;
    with.insert(with.end(), formulas.begin(), formulas.end());
    const auto tube = sod_density<Kokkos::LayoutRight>(cfd::sod::params(case_of("sod", base)), 60);
    const auto spelled = sod_density<Kokkos::LayoutRight>(cfd::sod::params(case_of("sod", with)), 60);
    ASSERT_EQ(tube.size(), spelled.size());
    EXPECT_EQ(std::memcmp(tube.data(), spelled.data(), tube.size() * sizeof(double)), 0) << scheme;
    EXPECT_NE(tube.front(), tube.back());  // a tube, not a uniform state
  }
}

TEST(SodFormulas, ANonPhysicalStateIsRefusedWithTheNode) {
  if (!have_muparser) GTEST_SKIP() << "built without muparser";
  const std::string e =
      error_of_case("sod", {"grid.nx=101", "sod.problem=expression", "expression.p=x > 0.3 && x < 0.4 ? -1 : 1"});
  // Node 31 is x = 0.3 (not inside), node 32 x = 0.31.
  EXPECT_NE(e.find("node 32 at x = 0.31 has pressure -1.0"), std::string::npos) << e;
  // keep's last node is x = 1: the solver names it.
  const std::string node = error_of_case("sod", {"grid.nx=101", "sod.problem=expression", "expression.rho=1 - x"});
  EXPECT_NE(node.find("node 101 at x = 1.0 has density 0.0"), std::string::npos) << node;
  // hllc with frozen ends keeps the state at x = 1 in its ghost cells: the
  // key is refused; with outflow ends the cells' centres (x < 1) are all
  // that is used, and the case runs.
  const std::vector<std::string> hllc = {"sod.scheme=hllc", "viscosity.law=none", "sod.problem=expression",
                                         "expression.rho=1 - x"};
  const std::string end = error_of_case("sod", hllc);
  EXPECT_NE(end.find("'expression.rho': gives density 0.0 at x = 1 (the end of the tube"), std::string::npos) << end;
  std::vector<std::string> outflow = hllc;
  outflow.push_back("sod.boundary=outflow");
  const auto density = sod_density<Kokkos::LayoutRight>(cfd::sod::params(case_of("sod", outflow)), 0);
  EXPECT_GT(density.back(), 0.0);
  const std::string unused = error_of_case("sod", {"expression.rho=2"});
  EXPECT_NE(unused.find("'expression.rho': has no effect with sod.problem: tube"), std::string::npos) << unused;
}

// The original spike spelled as a formula is the spike, bit for bit after
// steps (odd sizes put the centre point at x = y = 0.5 exactly); the sine
// mode as a formula is within rounding of the built-in one, which divides
// last (sin(pi i/(nx-1)) rather than sin(pi (i/(nx-1)))).
TEST(DiffusionFormulas, TheSpikeAsAFormulaIsTheSpikeBitForBit) {
  if (!have_muparser) GTEST_SKIP() << "built without muparser";
  const std::vector<std::string> base = {"grid.nx=33", "grid.ny=17", "time.steps=20"};
  std::vector<std::string> with = base;
  with.insert(with.end(), {"diffusion.problem=expression", "expression.u=x == 0.5 && y == 0.5 ? 1 : 0"});
  const auto spike = diffusion_field(cfd::diffusion::params(case_of("diffusion", base)), 20);
  const auto spelled = diffusion_field(cfd::diffusion::params(case_of("diffusion", with)), 20);
  ASSERT_EQ(spike.size(), spelled.size());
  EXPECT_EQ(std::memcmp(spike.data(), spelled.data(), spike.size() * sizeof(double)), 0);

  std::vector<std::string> sine = base, sine_formula = base;
  sine.push_back("diffusion.problem=sine");
  sine_formula.insert(sine_formula.end(), {"diffusion.problem=expression", "expression.u=sin(pi*x)*sin(pi*y)"});
  const auto a = diffusion_field(cfd::diffusion::params(case_of("diffusion", sine)), 0);
  const auto b = diffusion_field(cfd::diffusion::params(case_of("diffusion", sine_formula)), 0);
  double worst = 0;
  for (size_t k = 0; k < a.size(); ++k) worst = std::max(worst, std::abs(a[k] - b[k]));
  EXPECT_LE(worst, 4 * std::numeric_limits<double>::epsilon());
  EXPECT_GT(*std::max_element(b.begin(), b.end()), 0.99);
}

TEST(DiffusionFormulas, AValueThatIsNotFiniteIsRefusedWithThePoint) {
  if (!have_muparser) GTEST_SKIP() << "built without muparser";
  const std::string e = error_of_case(
      "diffusion", {"grid.nx=11", "grid.ny=11", "diffusion.problem=expression", "expression.u=1/(x - 0.3)"});
  EXPECT_NE(e.find("expression.u gives inf at point (i, j) = (4, 2), (x, y) = (0.3, 0.1)"), std::string::npos) << e;
  const std::string parse =
      error_of_case("diffusion", {"diffusion.problem=expression", "expression.u=sin(x", "constants.a=1"});
  EXPECT_NE(parse.find("'expression.u': column"), std::string::npos) << parse;
}

// A formula's value is checked as the working precision holds it: 1e39 is
// finite in fp64 and infinite in fp32; a density of 1e-50 is positive in
// fp64 and zero in fp32.
TEST(Formulas, CheckedInTheWorkingPrecision) {
  if (!have_muparser) GTEST_SKIP() << "built without muparser";
  auto refusal = [](auto&& build) {
    try {
      build();
    } catch (const cfd::ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  const cfd::diffusion::Params heat = cfd::diffusion::params(
      case_of("diffusion", {"grid.nx=11", "grid.ny=11", "diffusion.problem=expression", "expression.u=1e39"}));
  EXPECT_EQ(refusal([&] { cfd::diffusion::Solver<double, Kokkos::LayoutLeft>(heat).set_initial_state(); }),
            "(accepted)");
  const std::string heat32 =
      refusal([&] { cfd::diffusion::Solver<float, Kokkos::LayoutLeft>(heat).set_initial_state(); });
  EXPECT_NE(heat32.find("expression.u gives 1e+39 at point (i, j) = (2, 2)"), std::string::npos) << heat32;
  EXPECT_NE(heat32.find("finite in the working precision (fp32)"), std::string::npos) << heat32;

  const cfd::sod::Params tube =
      cfd::sod::params(case_of("sod", {"grid.nx=101", "sod.problem=expression", "expression.rho=x > 0.5 ? 1e-50 : 1"}));
  EXPECT_EQ(refusal([&] { cfd::sod::Solver<double, Kokkos::LayoutRight>(tube).set_initial_state(); }), "(accepted)");
  const std::string tube32 = refusal([&] { cfd::sod::Solver<float, Kokkos::LayoutRight>(tube).set_initial_state(); });
  EXPECT_NE(tube32.find("node 52 at x = 0.51 has density"), std::string::npos) << tube32;
  EXPECT_NE(tube32.find("(fp32)"), std::string::npos) << tube32;
}
