// The problem tables of sod and diffusion (physics/<solver>/problems/): the
// choice key, its description and every problem's keys are made from the
// table; a problem's keys are refused with another; the shipped initial
// states from the table are the originals bit for bit. (euler's table:
// tests/test_expression.cpp, Euler2dProblems.)
#include "core/config.hpp"
#include "physics/diffusion/diffusion_solver.hpp"
#include "physics/sod/sod_solver.hpp"
#include "physics/solvers.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

namespace {

cfd::KeySpec key_of(const std::string& solver, const std::string& path) {
  for (const auto& k : cfd::solver_keys(solver))
    if (k.path == path) return k;
  throw std::runtime_error("no key " + path);
}

std::string config_error(const std::string& solver, const std::string& text) {
  try {
    const cfd::Config c = cfd::Config::from_string(text, "case.yaml", {}, cfd::solver_keys);
    if (solver == "sod") cfd::sod::params(c);
    if (solver == "diffusion") cfd::diffusion::params(c);
  } catch (const cfd::ConfigError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no ConfigError for:\n" << text;
  return "";
}

// The table's names, in order; the choice key's choices must be these.
template <class Table>
std::vector<std::string> names_of(const Table& table) {
  std::vector<std::string> names;
  for (const auto& p : table) names.emplace_back(p.name);
  return names;
}

}  // namespace

TEST(SodProblems, TheChoiceAndItsKeysAreMadeFromTheTable) {
  const cfd::KeySpec initial = key_of("sod", "sod.problem");
  EXPECT_EQ(initial.choices, (std::vector<std::string>{"tube", "expression", "file"}));
  EXPECT_EQ(initial.choices, names_of(cfd::sod::problems()));
  EXPECT_EQ(initial.default_value, "tube");
  for (const auto& p : cfd::sod::problems()) {
    EXPECT_NE(initial.help.find(std::string(p.name) + ": " + p.summary), std::string::npos) << p.name;
    EXPECT_EQ(cfd::sod::find_problem(p.name), &p);
    for (const auto& k : p.keys())
      EXPECT_EQ(key_of("sod", k.path).belongs_to, std::string("sod.problem=") + p.name) << k.path;
  }
  EXPECT_THROW(cfd::sod::find_problem("nosuch"), std::logic_error);
  EXPECT_EQ(key_of("sod", "state.diaphragm").default_value, "0.5");
}

TEST(SodProblems, TheTubeFromTheTableIsTheOriginal) {
  const auto p = cfd::sod::params(cfd::default_case("sod", {"state.diaphragm=0.25", "state.u_right=0.5"}));
  EXPECT_EQ(p.problem, cfd::sod::find_problem("tube"));
  EXPECT_STREQ(p.problem->name, cfd::sod::problems_list::tube.name);
  EXPECT_EQ(p.diaphragm, 0.25);
  ASSERT_TRUE(p.initial);
  // x < diaphragm: the left state, else the right one; the ends' states are the two.
  const cfd::gas::RiemannState below = p.initial(0.2499999), at = p.initial(0.25);
  EXPECT_EQ(below.rho, 1.0);
  EXPECT_EQ(below.p, 1.0);
  EXPECT_EQ(at.rho, 0.125);
  EXPECT_EQ(at.u, 0.5);
  EXPECT_EQ(at.p, 0.1);
  EXPECT_EQ(p.left.rho, 1.0);
  EXPECT_EQ(p.right.u, 0.5);
  // The tube as the table sets it and as hand-made Params (no initial
  // function: the solver's own tube) give the same state bit for bit.
  cfd::sod::Params hand = p;
  hand.initial = nullptr;
  cfd::sod::Solver<double, Kokkos::LayoutRight> a(p), b(hand);
  a.set_initial_state();
  b.set_initial_state();
  const auto fa = a.fields(), fb = b.fields();
  ASSERT_EQ(fa.size(), fb.size());
  for (size_t f = 0; f < fa.size(); ++f) EXPECT_EQ(fa[f].values, fb[f].values) << fa[f].name;
}

TEST(SodProblems, RefusesKeysOfAnotherProblem) {
  const std::string e = config_error("sod",
                                     "solver: sod\nsod: {problem: file}\nfile: {path: x.h5}\nstate:\n"
                                     "  rho_left: 2\n");
  EXPECT_NE(e.find("case.yaml:5:13: error: 'state.rho_left': has no effect with sod.problem: file"), std::string::npos)
      << e;
  const std::string n = config_error("sod", "solver: sod\nstate: {p_right: 0}\n");
  EXPECT_NE(n.find("'state.p_right': pressure must be positive, got 0"), std::string::npos) << n;
}

TEST(DiffusionProblems, TheChoiceAndItsKeysAreMadeFromTheTable) {
  const cfd::KeySpec initial = key_of("diffusion", "diffusion.problem");
  EXPECT_EQ(initial.choices, (std::vector<std::string>{"spike", "sine", "expression", "file"}));
  EXPECT_EQ(initial.choices, names_of(cfd::diffusion::problems()));
  EXPECT_EQ(initial.default_value, "spike");
  for (const auto& p : cfd::diffusion::problems()) {
    EXPECT_NE(initial.help.find(std::string(p.name) + ": " + p.summary), std::string::npos) << p.name;
    for (const auto& k : p.keys())
      EXPECT_EQ(key_of("diffusion", k.path).belongs_to, std::string("diffusion.problem=") + p.name) << k.path;
  }
  const std::string e = config_error("diffusion", "solver: diffusion\nfile: {path: u.h5}\n");
  EXPECT_NE(e.find("'file.path': has no effect with diffusion.problem: spike"), std::string::npos) << e;
}

TEST(DiffusionProblems, SpikeAndSineAreTheOriginalsAtEveryPoint) {
  // 9 x 7 points: the spike at 1-based ((9+1)/2, (7+1)/2) = (5, 4), 0-based (4, 3).
  const auto spike = cfd::diffusion::centre_spike(9, 7);
  const auto sine = cfd::diffusion::sine_mode(9, 7);
  for (long j = 1; j < 6; ++j)
    for (long i = 1; i < 8; ++i) {
      EXPECT_EQ(spike(i, j), i == 4 && j == 3 ? 1.0 : 0.0) << i << "," << j;
      EXPECT_EQ(sine(i, j), std::sin(M_PI * i / 8.0) * std::sin(M_PI * j / 6.0)) << i << "," << j;
    }
  // From a case, through the table, on a grid of even sizes: the solver's
  // field is the same bits as from the hand-made Params the tests use.
  const auto p =
      cfd::diffusion::params(cfd::default_case("diffusion", {"grid.nx=12", "grid.ny=10", "diffusion.problem=sine"}));
  EXPECT_STREQ(p.problem->name, "sine");
  cfd::diffusion::Params hand = p;
  hand.initial = cfd::diffusion::sine_mode(12, 10);
  cfd::diffusion::Solver<double, Kokkos::LayoutLeft> a(p), b(hand);
  a.set_initial_state();
  b.set_initial_state();
  const auto ua = a.to_host(), ub = b.to_host();
  EXPECT_EQ(std::vector<double>(ua.begin(), ua.end()), std::vector<double>(ub.begin(), ub.end()));
  // Hand-made Params without an initial function start from the spike.
  cfd::diffusion::Params bare;
  bare.nx = 9, bare.ny = 7;
  cfd::diffusion::Solver<double, Kokkos::LayoutLeft> c(bare);
  c.set_initial_state();
  const auto uc = c.to_host();
  double total = 0;
  for (double v : uc) total += v;
  EXPECT_EQ(total, 1.0);
  // but a problem chosen without its state is refused, not run as the spike.
  cfd::diffusion::Params chosen = p;
  chosen.initial = nullptr;
  using Solver = cfd::diffusion::Solver<double, Kokkos::LayoutLeft>;
  EXPECT_THROW(Solver{chosen}, std::logic_error);
}
