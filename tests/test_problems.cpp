// The problem tables of sod and diffusion (physics/<solver>/problems/) and
// of the gas solvers (physics/gas/problems/, at the end): the
// choice key, its description and every problem's keys are made from the
// table; a problem's keys are refused with another; the shipped initial
// states from the table are the originals bit for bit. (euler's table:
// tests/test_expression.cpp, Euler2dProblems.)
#include "core/config.hpp"
#include "core/hdf5_file.hpp"
#include "physics/diffusion/diffusion_solver.hpp"
#include "physics/euler/euler_params.hpp"
#include "physics/gas/problems/problem.hpp"
#include "physics/navier_stokes/navier_stokes_params.hpp"
#include "physics/sod/sod_solver.hpp"
#include "physics/solvers.hpp"

#include <gtest/gtest.h>
#include <hdf5.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
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

// A NaN in a sod initial file is reported as NaN, at its node (it was
// reported as density 0.0).
TEST(SodProblems, ANaNDensityFromAFileIsSaidToBeNaN) {
  const std::string path =
      std::filesystem::temp_directory_path() / ("cfdrun_test_sod_nan_" + std::to_string(getpid()) + ".h5");
  {
    std::vector<double> rho(100, 1.0), u(100, 0.0), p(100, 1.0);
    rho[37] = std::nan("");
    cfd::H5Writer w(path);
    w.dataset("rho", rho.data(), {100});
    w.dataset("u", u.data(), {100});
    w.dataset("p", p.data(), {100});
    w.commit();
  }
  const auto params = cfd::sod::params(
      cfd::Config::from_string("solver: sod\ngrid: {nx: 100}\nsod: {problem: file}\nfile: {path: " + path + "}\n",
                               "s.yaml", {}, cfd::solver_keys));
  cfd::sod::Solver<double, Kokkos::LayoutRight> s(params);
  try {
    s.set_initial_state();
    ADD_FAILURE() << "a NaN density was taken";
  } catch (const cfd::ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("node 38 at x = 0.37373737373737376 has density nan"), std::string::npos)
        << e.what();
  }
  std::filesystem::remove(path);
}

// ---- The gas problems (physics/gas/problems/): one table, run by euler
// and navier_stokes ----

namespace {

cfd::Config gas_case(const std::string& text) {
  return cfd::Config::from_string(text, "case.yaml", {}, cfd::solver_keys);
}

}  // namespace

TEST(GasProblems, EulerAndNavierStokesChooseFromOneTable) {
  const std::vector<std::string> all = names_of(cfd::gas::problems());
  std::vector<std::string> without_walls;
  for (const auto& p : cfd::gas::problems())
    if (p.needs != cfd::gas::Needs::walls) without_walls.emplace_back(p.name);
  EXPECT_EQ(key_of("navier_stokes", "navier_stokes.problem").choices, all);
  EXPECT_EQ(key_of("euler", "euler.problem").choices, without_walls);
  EXPECT_EQ(all.size(), without_walls.size() + 1);  // couette: no-slip walls
  // Every problem's keys belong to each solver's choice of it, but the
  // user's constants.*, which every formula of a case reads (source terms
  // with any problem).
  for (const auto& p : cfd::gas::problems())
    for (const auto& k : p.constants()) {
      if (k.path == "constants.*") {
        EXPECT_EQ(key_of("navier_stokes", k.path).belongs_to, "");
        EXPECT_EQ(key_of("euler", k.path).belongs_to, "");
        continue;
      }
      EXPECT_EQ(key_of("navier_stokes", k.path).belongs_to, std::string("navier_stokes.problem=") + p.name);
      if (p.needs != cfd::gas::Needs::walls)
        EXPECT_EQ(key_of("euler", k.path).belongs_to, std::string("euler.problem=") + p.name);
    }
}

// Kelvin-Helmholtz under navier_stokes and Taylor-Green under euler: the
// same state at every point as under the problem's first solver.
TEST(GasProblems, KelvinHelmholtzUnderNavierStokesAndTaylorGreenUnderEuler) {
  const auto kh_euler = cfd::euler::params(gas_case("solver: euler\ngrid: {nx: 16, ny: 16}\n"));
  const auto kh_ns = cfd::navier_stokes::params(
      gas_case("solver: navier_stokes\ngrid: {nx: 16, ny: 16, nz: 1}\nnavier_stokes: {problem: kh_mcnally}\n"
               "gas: {gamma: 1.6666666666666667}\nviscosity: {mu: 1e-4}\n"));
  const auto tg_ns = cfd::navier_stokes::params(
      gas_case("solver: navier_stokes\ngrid: {nx: 8, ny: 8, nz: 1}\nnavier_stokes: {problem: taylor_green_2d}\n"));
  const auto tg_euler = cfd::euler::params(
      gas_case("solver: euler\ngrid: {nx: 8, ny: 8}\neuler: {problem: taylor_green_2d}\ngas: {gamma: 1.4}\n"));
  EXPECT_STREQ(kh_ns.problem->name, "kh_mcnally");
  EXPECT_EQ(kh_ns.lo, kh_euler.lo);
  EXPECT_EQ(kh_ns.hi, kh_euler.hi);
  for (double x : {0.1, 0.37, 0.8})
    for (double y : {0.05, 0.25, 0.5, 0.74}) {
      const auto a = kh_euler.initial(x, y, 0, 0), b = kh_ns.initial(x, y, 0, 0);
      EXPECT_EQ(a.rho, b.rho);
      EXPECT_EQ(a.vx, b.vx);
      EXPECT_EQ(a.vy, b.vy);
      EXPECT_EQ(a.p, b.p);
      // Inviscid under euler, the 2D vortex does not decay; at t = 0 it is navier_stokes' state.
      const auto c = tg_ns.initial(6 * x, 6 * y, 0, 0), d = tg_euler.initial(6 * x, 6 * y, 0, 0);
      EXPECT_EQ(c.vx, d.vx);
      EXPECT_EQ(c.p, d.p);
    }
  // couette needs walls: euler does not offer it, and says where it runs.
  const cfd::KeySpec choice = key_of("euler", "euler.problem");
  EXPECT_NE(choice.help.find("couette, with its no-slip walls, runs under navier_stokes"), std::string::npos);
}

// An initial file whose header declares a dataset far larger than the grid
// (16000 x 16000 doubles, 2 GB, in a file of a few KB: chunked, never
// written) is refused from its header, before anything is read.
TEST(GasProblems, InitialFileDeclaringAHugeDatasetIsRefusedFromItsHeader) {
  const std::string path =
      std::filesystem::temp_directory_path() / ("cfdrun_test_huge_" + std::to_string(getpid()) + ".h5");
  {
    const hid_t file = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    const hsize_t dims[2] = {16000, 16000}, chunk[2] = {100, 100};
    const hid_t space = H5Screate_simple(2, dims, nullptr);
    const hid_t plist = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_chunk(plist, 2, chunk);
    for (const char* name : {"rho", "p"}) {
      const hid_t set = H5Dcreate2(file, name, H5T_NATIVE_DOUBLE, space, H5P_DEFAULT, plist, H5P_DEFAULT);
      H5Dclose(set);
    }
    H5Pclose(plist);
    H5Sclose(space);
    H5Fclose(file);
  }
  ASSERT_LT(std::filesystem::file_size(path), 100000u);
  try {
    cfd::euler::params(
        gas_case("solver: euler\ngrid: {nx: 8, ny: 6}\neuler: {problem: file}\nfile: {path: " + path + "}\n"));
    ADD_FAILURE() << "a 16000 x 16000 dataset was taken for an 8 x 6 grid";
  } catch (const cfd::ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("has shape (16000, 16000); the grid needs (ny, nx) = (6, 8)"),
              std::string::npos)
        << e.what();
  }
  std::filesystem::remove(path);
}

// Datasets of integers are read, as docs/own-problem.md says (any floating
// or integer type, as double).
TEST(GasProblems, InitialFileOfIntegersIsRead) {
  const std::string path =
      std::filesystem::temp_directory_path() / ("cfdrun_test_ints_" + std::to_string(getpid()) + ".h5");
  {
    std::vector<long> rho(6 * 8), p(6 * 8, 3);
    for (size_t n = 0; n < rho.size(); ++n) rho[n] = long(1 + n % 5);
    cfd::H5Writer w(path);
    w.dataset("rho", rho.data(), {6, 8});
    w.dataset("p", p.data(), {6, 8});
    w.commit();
  }
  const auto params = cfd::euler::params(
      gas_case("solver: euler\ngrid: {nx: 8, ny: 6}\neuler: {problem: file}\nfile: {path: " + path + "}\n"));
  // Cell (i, j) = (3, 2) is entry 2 * 8 + 3 = 19: rho 1 + 19 % 5 = 5.
  const auto s = params.initial((3 + 0.5) / 8, (2 + 0.5) / 6, 0, 0);
  EXPECT_EQ(s.rho, 5.0);
  EXPECT_EQ(s.p, 3.0);
  EXPECT_EQ(s.vx, 0.0);
  std::filesystem::remove(path);
}
