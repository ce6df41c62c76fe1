// The user's source terms (sources.* of euler, physics/gas/user_sources.hpp):
// uniform cooling dE/dt = -E/tau against exp(-t/tau), converging at the
// order of each integrator; a constant force against free fall, exact to
// rounding in 1D, 2D and 3D; sources.dt_bound bounding the step; and the
// keys' refusals, each at its key.
#include "physics/euler/euler_solver.hpp"
#include "physics/navier_stokes/navier_stokes_solver.hpp"
#include "physics/solvers.hpp"
#include "tests/config_error.hpp"
#include "tests/host_fields.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

using namespace cfd::euler;
using cfd::test::field;
using cfd::test::run_to;

namespace {

#ifdef CFDRUN_HAVE_MUPARSER_TESTS
constexpr bool have_muparser = true;
#else
constexpr bool have_muparser = false;
#endif

// A uniform gas at rest (rho = p = 1, gamma 1.4) on nx x ny x nz cells.
Params uniform(long nx, long ny, long nz, std::vector<std::string> more) {
  more.insert(more.begin(),
              {"euler.problem=expression", "grid.nx=" + std::to_string(nx), "grid.ny=" + std::to_string(ny),
               "grid.nz=" + std::to_string(nz), "gas.gamma=1.4", "constants.gm1=" + cfd::format_real(1.4 - 1)});
  if (nz > 1) more.push_back("time.cfl=0.3");
  return params(cfd::default_case("euler", more));
}

// The pressure at t = 1 of the gas cooled at dE/dt = -E/0.5 with steps of
// dt, over its exact value p0 exp(-2), less 1.
double cooling_error(const std::string& integrator, double dt) {
  const Params p =
      uniform(4, 1, 1,
              {"euler.integrator=" + integrator, "constants.tau=0.5", "constants.dt0=" + cfd::format_real(dt),
               "sources.energy=-p/(gm1*tau)", "sources.dt_bound=dt0"});
  Solver<double, 2> s(p);
  s.set_initial_state();
  run_to(s, 1.0);
  const auto f = s.fields();
  for (double v : field(f, "p")) EXPECT_EQ(v, field(f, "p")[0]) << "a uniform gas stays uniform";
  return field(f, "p")[0] / std::exp(-2.0) - 1;
}

// The same cooling under navier_stokes (a fixed step, time.dt), on 8 x 8
// cells.
double navier_stokes_cooling_error(const std::string& integrator, double dt) {
  namespace ns = cfd::navier_stokes;
  const ns::Params p = ns::params(cfd::default_case(
      "navier_stokes",
      {"navier_stokes.problem=expression", "grid.nx=8", "grid.ny=8", "grid.nz=1", "gas.gamma=1.4", "viscosity.law=none",
       "constants.gm1=" + cfd::format_real(1.4 - 1), "constants.tau=0.5", "navier_stokes.integrator=" + integrator,
       "sources.energy=-p/(gm1*tau)", "time.dt=" + cfd::format_real(dt)}));
  ns::Solver<double, 2> s(p);
  s.set_initial_state();
  run_to(s, 1.0);
  const auto f = s.fields();
  for (double v : field(f, "p")) EXPECT_EQ(v, field(f, "p")[0]) << "a uniform gas stays uniform";
  return field(f, "p")[0] / std::exp(-2.0) - 1;
}

}  // namespace

TEST(UserSources, NavierStokesCoolingConvergesAtRk3AndRk4sOrders) {
  if (!have_muparser) GTEST_SKIP() << "built without muparser";
  const struct {
    const char* name;
    int order;
  } methods[] = {{"rk3", 3}, {"rk4", 4}};
  for (const auto& m : methods) {
    const double coarse = navier_stokes_cooling_error(m.name, 0.05), fine = navier_stokes_cooling_error(m.name, 0.025);
    const double order = std::log2(std::fabs(coarse) / std::fabs(fine));
    EXPECT_NEAR(order, m.order, 0.15) << m.name << ": errors " << coarse << ", " << fine;
  }
}

TEST(UserSources, CoolingConvergesToTheExponentialAtEachIntegratorsOrder) {
  if (!have_muparser) GTEST_SKIP() << "built without muparser";
  const struct {
    const char* name;
    int order;
  } methods[] = {{"euler", 1}, {"rk2", 2}, {"rk3", 3}};
  for (const auto& m : methods) {
    const double coarse = cooling_error(m.name, 0.05), fine = cooling_error(m.name, 0.025);
    const double order = std::log2(std::fabs(coarse) / std::fabs(fine));
    EXPECT_NEAR(order, m.order, 0.15) << m.name << ": errors " << coarse << ", " << fine;
    EXPECT_LT(std::fabs(fine), 0.1) << m.name;
  }
}

// sources.dt_bound: the step is its value where it is below the gas's own.
TEST(UserSources, TheStepObeysTheSourcesBound) {
  if (!have_muparser) GTEST_SKIP() << "built without muparser";
  Solver<double, 2> bounded(uniform(4, 1, 1, {"sources.energy=-p", "sources.dt_bound=0.01 + 0*x"}));
  bounded.set_initial_state();
  EXPECT_EQ(bounded.allowed_dt(), 0.01);
  Solver<double, 2> free(uniform(4, 1, 1, {"sources.energy=-p"}));
  free.set_initial_state();
  EXPECT_GT(free.allowed_dt(), 0.05);  // 0.4 * 0.25 / sqrt(1.4)
  // A bound that is not positive is a fault that names the key.
  Solver<double, 2> broken(uniform(4, 1, 1, {"sources.energy=-p", "sources.dt_bound=x - 0.5"}));
  broken.set_initial_state();
  EXPECT_EQ(broken.allowed_dt(), -1.0);
  EXPECT_NE(broken.fault().find("sources.dt_bound gives -0.375"), std::string::npos) << broken.fault();
  // So is one that is not a number in some cell (a minimum would skip it).
  Solver<double, 2> nan(uniform(4, 1, 1, {"sources.energy=-p", "sources.dt_bound=sqrt(x - 0.5)"}));
  nan.set_initial_state();
  EXPECT_EQ(nan.allowed_dt(), -1.0);
  EXPECT_NE(nan.fault().find("sources.dt_bound gives nan or -inf"), std::string::npos) << nan.fault();
}

// A constant acceleration g given as a force rho g and its work rho v g: the
// velocity is g t and the internal energy unchanged, exact but for rounding
// (each stage is linear in t), along x in 1D, y in 2D and z in 3D.
TEST(UserSources, AConstantForceIsFreeFall) {
  if (!have_muparser) GTEST_SKIP() << "built without muparser";
  const double g = -0.75, end = 0.6;
  const std::vector<std::string> force = {"constants.g=" + cfd::format_real(g), "euler.integrator=rk3"};
  auto more = [&](const char* axis) {
    std::vector<std::string> m = force;
    m.push_back(std::string("sources.momentum_") + axis + "=rho*g");
    m.push_back(std::string("sources.energy=rho*v") + axis + "*g");
    return m;
  };
  const auto check = [&](const auto& f, const char* v) {
    for (double value : field(f, v)) EXPECT_NEAR(value, g * end, 1e-14) << v;
    for (double value : field(f, "p")) EXPECT_NEAR(value, 1.0, 1e-14);
    for (double value : field(f, "rho")) EXPECT_EQ(value, 1.0);
  };
  Solver<double, 2> line(uniform(8, 1, 1, more("x")));
  line.set_initial_state();
  run_to(line, end);
  check(line.fields(), "vx");
  Solver<double, 2> plane(uniform(4, 4, 1, more("y")));
  plane.set_initial_state();
  run_to(plane, end);
  check(plane.fields(), "vy");
  Solver<double, 3> volume(uniform(4, 4, 4, more("z")));
  volume.set_initial_state();
  run_to(volume, end);
  check(volume.fields(), "vz");
}

// A source that depends on x and t reaches each cell with its own centre and
// each stage's time: mass added at rest at the rate x t (the pressure stays
// uniform and HLLC keeps a contact at rest, so nothing moves but for
// rounding) makes rho = 1 + x/2 at t = 1, which RK2 integrates exactly.
TEST(UserSources, FormulasReadTheCellsCentreAndTheStagesTime) {
  if (!have_muparser) GTEST_SKIP() << "built without muparser";
  Solver<double, 2> s(
      uniform(8, 1, 1, {"sources.mass=x*t", "euler.integrator=rk2", "euler.riemann=hllc", "sources.dt_bound=0.125"}));
  s.set_initial_state();
  run_to(s, 1.0);
  const auto f = s.fields();
  const auto &rho = field(f, "rho"), &vx = field(f, "vx"), &p = field(f, "p");
  for (size_t i = 0; i < rho.size(); ++i) {
    const double x = (double(i) + 0.5) / 8;
    EXPECT_NEAR(rho[i], 1 + x / 2, 1e-14) << "cell " << i;
    EXPECT_NEAR(vx[i], 0.0, 1e-14) << "cell " << i;  // HLLC at rest, to rounding
    EXPECT_NEAR(p[i], 1.0, 1e-14) << "cell " << i;
  }
}

TEST(UserSources, KeysAreRefusedAtTheirPlace) {
  if (!have_muparser) GTEST_SKIP() << "built without muparser";
  const auto error = [](const std::string& text) {
    return cfd::test::config_error([](const cfd::Config& c) { params(c); }, "solver: euler\n" + text, "case.yaml");
  };
  EXPECT_NE(error("sources:\n  momentum_z: rho\n").find("case.yaml:3"), std::string::npos);
  EXPECT_NE(error("sources:\n  momentum_z: rho\n").find("no z faces"), std::string::npos);
  const std::string named = error("constants:\n  rho: 2\nsources:\n  energy: rho\n");
  EXPECT_NE(named.find("'rho' is a variable of the source formulas"), std::string::npos) << named;
  std::string longer = "x";
  for (int k = 0; k < 40; ++k) longer += "+x";
  const std::string too_long = error("sources:\n  energy: " + longer + "\n");
  EXPECT_NE(too_long.find("more than 64 operations"), std::string::npos) << too_long;
  EXPECT_NE(too_long.find("sources.energy"), std::string::npos) << too_long;
  const std::string column = error("sources:\n  mass: rho * q\n");
  EXPECT_NE(column.find("column 7"), std::string::npos) << column;
  // Scalars' sources belong to their scalars.
  EXPECT_NE(error("sources:\n  s1: rho\n").find("sources.s1"), std::string::npos);
  EXPECT_EQ(error("euler:\n  scalars: 1\nsources:\n  s1: rho*(1 - s1)\n"), "");
}
