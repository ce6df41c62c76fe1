// The sod solver: the original KEEP case (bit-for-bit variants, conservation,
// the post-shock plateau and shock position against the exact solution) and
// the shock-capturing scheme's convergence against the exact Riemann solution.
#include "physics/gas/exact_riemann.hpp"
#include "physics/gas/riemann_solvers.hpp"
#include "physics/sod/sod_solver.hpp"
#include "physics/solvers.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

using namespace cfd::sod;
using cfd::gas::ExactRiemann;
using cfd::gas::RiemannState;

namespace {

Params seed() { return Params{}; }  // the defaults are the original case

template <class Real, class Layout>
Solver<Real, Layout> run(const Params& p, double end_time = 0) {
  Solver<Real, Layout> s(p);
  s.set_initial_state();
  if (end_time > 0) {
    while (s.time() < end_time * (1 - 1e-12)) s.advance(std::min(s.stable_dt(), end_time - s.time()));
  } else {
    for (long k = 0; k < p.steps; ++k) s.advance(s.stable_dt());
  }
  return s;
}

template <class Real>
std::vector<Real> final_state(Params p, StateLayout layout, Kernels kernels) {
  p.layout = layout;
  p.kernels = kernels;
  if (layout == StateLayout::aos) return run<Real, Kokkos::LayoutRight>(p).conserved();
  return run<Real, Kokkos::LayoutLeft>(p).conserved();
}

template <class Real>
void expect_variants_identical(const Params& p) {
  const std::vector<Real> ref = final_state<Real>(p, StateLayout::aos, Kernels::split);
  for (auto layout : {StateLayout::aos, StateLayout::soa})
    for (auto kernels : {Kernels::split, Kernels::fused}) {
      const std::vector<Real> v = final_state<Real>(p, layout, kernels);
      ASSERT_EQ(v.size(), ref.size());
      EXPECT_EQ(std::memcmp(v.data(), ref.data(), v.size() * sizeof(Real)), 0)
          << "layout " << int(layout) << " kernels " << int(kernels);
    }
}

// L1 error of density against the exact solution, Sod units, cells of width 1/N.
double density_l1(const Profiles& prof, const ExactRiemann& exact, double t, double x0) {
  double sum = 0;
  for (size_t k = 0; k < prof.x.size(); ++k) sum += std::fabs(prof.rho[k] - exact.sample((prof.x[k] - x0) / t).rho);
  return sum / prof.x.size();
}

Params fv(long n, bool plm_rk2) {
  Params p;
  p.scheme = Scheme::hllc;
  p.viscosity = Viscosity::none;
  p.nx = n;
  p.steps = 0;
  p.end_time = 0.2;
  p.cfl = 0.8;
  p.reconstruct = plm_rk2;
  p.rk2 = plm_rk2;
  p.cfl = plm_rk2 ? 0.8 : 0.9;
  return p;
}

}  // namespace

TEST(ExactRiemann, SodStarStateAndWavesMatchToro) {
  const ExactRiemann sod({1, 0, 1}, {0.125, 0, 0.1}, 1.4);
  EXPECT_NEAR(sod.star().p, 0.303130, 5e-7);
  EXPECT_NEAR(sod.star().u, 0.927453, 5e-7);
  EXPECT_NEAR(sod.star().rho_left, 0.426319, 5e-7);
  EXPECT_NEAR(sod.star().rho_right, 0.265574, 5e-7);
  EXPECT_NEAR(sod.right_head_speed(), 1.752156, 5e-7);
  const double t = 0.2;
  EXPECT_NEAR(0.5 + sod.left_head_speed() * t, 0.26336, 5e-6);
  EXPECT_NEAR(0.5 + sod.left_tail_speed() * t, 0.48595, 5e-6);
  EXPECT_NEAR(0.5 + sod.contact_speed() * t, 0.68549, 5e-6);
  EXPECT_NEAR(0.5 + sod.right_head_speed() * t, 0.85043, 5e-6);
  // Sampling: left state, fan, star regions, right state.
  EXPECT_EQ(sod.sample(-2).rho, 1.0);
  EXPECT_EQ(sod.sample(2).p, 0.1);
  EXPECT_NEAR(sod.sample(1.0).rho, 0.265574, 5e-7);
  EXPECT_NEAR(sod.sample(0.5).rho, 0.426319, 5e-7);
}

TEST(ExactRiemann, ToroTestsTwoAndThree) {
  const ExactRiemann t2({1, -2, 0.4}, {1, 2, 0.4}, 1.4);  // the 123 problem
  EXPECT_NEAR(t2.star().p, 0.00189, 5e-6);
  EXPECT_NEAR(t2.star().u, 0.0, 1e-12);
  const ExactRiemann t3({1, 0, 1000}, {1, 0, 0.01}, 1.4);
  EXPECT_NEAR(t3.star().p, 460.894, 5e-4);
  EXPECT_NEAR(t3.star().u, 19.5975, 5e-5);
}

TEST(ExactRiemann, RejectsBadStates) {
  EXPECT_THROW(ExactRiemann({-1, 0, 1}, {1, 0, 1}, 1.4), std::invalid_argument);
  EXPECT_THROW(ExactRiemann({1, 0, 0}, {1, 0, 1}, 1.4), std::invalid_argument);
  EXPECT_THROW(ExactRiemann({1, 0, 1}, {1, 0, 1}, 1.0), std::invalid_argument);
  EXPECT_THROW(ExactRiemann({1, -20, 1}, {1, 20, 1}, 1.4), std::invalid_argument);  // vacuum
}

TEST(RiemannSolvers, ConsistentWithThePhysicalFlux) {
  const cfd::gas::Primitive<double> w{1.3, 0.4, -0.2, 0.1, 2.5};
  const auto f = cfd::gas::flux_x(w, 5.0 / 3.0);
  for (auto solver : {cfd::gas::RiemannSolver::hlle, cfd::gas::RiemannSolver::hllc, cfd::gas::RiemannSolver::llf}) {
    const auto r = cfd::gas::riemann_flux(solver, w, w, 5.0 / 3.0);
    EXPECT_NEAR(r.rho, f.rho, 1e-14);
    EXPECT_NEAR(r.mx, f.mx, 1e-14);
    EXPECT_NEAR(r.my, f.my, 1e-14);
    EXPECT_NEAR(r.energy, f.energy, 1e-14);
  }
}

// HLLC by shared reciprocals (euler2d's modern schemes) is HLLC by
// divisions to within rounding: each component within 64 ulps of the flux's
// scale, over pairs of states covering both star regions and both
// supersonic sides, in both precisions.
template <class Real>
void expect_hllc_by_reciprocals_is_hllc_by_divisions() {
  using P = cfd::gas::Primitive<Real>;
  const Real gamma = Real(1.4);
  const P states[] = {{1, 0, 0, 0, 1},
                      {Real(0.125), 0, 0, 0, Real(0.1)},
                      {1, Real(0.75), Real(-0.3), Real(0.2), 1},
                      {1, -2, Real(0.5), 0, Real(0.4)},
                      {1, 2, 0, Real(0.1), Real(0.4)},
                      {Real(5.99924), Real(19.5975), 0, 0, Real(460.894)},
                      {Real(5.99242), Real(-6.19633), 0, 0, Real(46.095)},
                      {Real(1e-3), Real(0.1), 0, 0, Real(1e-3)},
                      {2, 8, 1, 0, 1},
                      {2, -8, 1, 0, 1}};
  int subsonic = 0;
  for (const P& l : states)
    for (const P& r : states) {
      const auto exact = cfd::gas::hllc_flux<false>(l, r, gamma);
      const auto shared = cfd::gas::hllc_flux<true>(l, r, gamma);
      const double scale =
          std::abs(exact.rho) + std::abs(exact.mx) + std::abs(exact.my) + std::abs(exact.mz) + std::abs(exact.energy);
      const double tol = 64 * double(std::numeric_limits<Real>::epsilon()) * scale;
      EXPECT_NEAR(shared.rho, exact.rho, tol);
      EXPECT_NEAR(shared.mx, exact.mx, tol);
      EXPECT_NEAR(shared.my, exact.my, tol);
      EXPECT_NEAR(shared.mz, exact.mz, tol);
      EXPECT_NEAR(shared.energy, exact.energy, tol);
      const Real cl = std::sqrt(gamma * l.p / l.rho), cr = std::sqrt(gamma * r.p / r.rho);
      if (std::min(l.vx - cl, r.vx - cr) < 0 && std::max(l.vx + cl, r.vx + cr) > 0) ++subsonic;
    }
  EXPECT_GT(subsonic, 50);  // most pairs take a star state, not a supersonic side
}
TEST(RiemannSolvers, HllcByReciprocalsIsHllcByDivisions) {
  expect_hllc_by_reciprocals_is_hllc_by_divisions<double>();
  expect_hllc_by_reciprocals_is_hllc_by_divisions<float>();
}

TEST(SodKeep, AllVariantsBitForBitFp64) { expect_variants_identical<double>(seed()); }
TEST(SodKeep, AllVariantsBitForBitFp32) { expect_variants_identical<float>(seed()); }

// Several steps per launch (sod.fused_steps) against one step at a time:
// the same bits for k = 2, 5 and 32, both layouts and precisions, every end
// rule, a tile stepped the CPU's way and the GPU's (both run on any
// backend), on tubes of one tile and of several (CPU tiles are 2048 nodes, GPU
// tiles 32 to 256), with a last pass shorter than k.
template <class Real, class Layout>
std::vector<Real> keep_steps(Params p, int k, bool node_per_thread) {
  p.fused_steps = k;
  Solver<Real, Layout> s(p);
  s.set_node_per_thread_tiles(node_per_thread);
  s.set_initial_state();
  s.advance_steps(p.steps);
  EXPECT_EQ(s.step(), p.steps);
  EXPECT_EQ(s.time(), p.steps * (p.cfl / (p.nx - 1)));
  return s.conserved();
}

template <class Real, class Layout>
void expect_fused_steps_identical(Params p) {
  const std::vector<Real> ref = final_state<Real>(
      p, std::is_same_v<Layout, Kokkos::LayoutRight> ? StateLayout::aos : StateLayout::soa, Kernels::fused);
  for (bool node_per_thread : {false, true})
    for (int k : {2, 5, 32}) {
      const std::vector<Real> v = keep_steps<Real, Layout>(p, k, node_per_thread);
      ASSERT_EQ(v.size(), ref.size());
      long differ = 0;
      for (size_t i = 0; i < v.size(); ++i) differ += std::memcmp(&v[i], &ref[i], sizeof(Real)) != 0;
      EXPECT_EQ(differ, 0) << k << " steps per launch, " << p.nx << " nodes, boundary " << int(p.boundary)
                           << (node_per_thread ? ", a thread a node (the GPU's tiles)" : ", a thread a tile");
    }
}

TEST(SodKeep, FusedStepsEqualOneStepAtATimeBitForBit) {
  // 2049 and 4097: a last CPU tile of one end node; 257, 2049 and 4097 the
  // same in the GPU's way (tiles of 32 nodes), 8193 with tiles of 64.
  for (long nx : {301L, 257L, 2049L, 4097L, 8193L})
    for (cfd::BoundaryKind boundary :
         {cfd::BoundaryKind::fixed, cfd::BoundaryKind::outflow, cfd::BoundaryKind::reflecting}) {
      Params p = seed();
      p.nx = nx;
      p.steps = 203;
      p.boundary = boundary;
      // A velocity towards each end, and on the short tube the diaphragm
      // near the low end, so that the end rules act within the steps.
      p.left = {1, -0.3, 1};
      p.right = {0.125, 0.4, 0.1};
      if (nx < 1000) p.diaphragm = 0.03;
      expect_fused_steps_identical<double, Kokkos::LayoutRight>(p);
      expect_fused_steps_identical<double, Kokkos::LayoutLeft>(p);
      expect_fused_steps_identical<float, Kokkos::LayoutRight>(p);
    }
}

// The GPU's tiles: 128 teams where the tube allows, within a block's shared
// memory (Kokkos 4.6 leaves 40936 bytes on an H100 or H200).
TEST(SodKeep, GpuTilesSpreadOverTheMultiprocessorsAndFitSharedMemory) {
  using Fp64 = cfd::sod::KeepTiledSteps<double, Kokkos::LayoutRight, true>;
  using Fp32 = cfd::sod::KeepTiledSteps<float, Kokkos::LayoutRight, true>;
  const size_t limit = 40936;
  EXPECT_EQ(Fp64::tile_for(4096, 32, limit), 32);  // the original case: 128 tiles
  EXPECT_EQ(Fp64::tiles(4096, 32), 128);
  EXPECT_EQ(Fp64::tile_for(8193, 8, limit), 64);
  EXPECT_EQ(Fp64::tile_for(1 << 20, 8, limit), 256);
  EXPECT_EQ(Fp64::tile_for(1 << 20, 32, limit), 128);  // 256 would need 41120 bytes
  EXPECT_GT(Fp64::scratch_bytes(256, 32), limit);
  EXPECT_EQ(Fp32::tile_for(1 << 20, 32, limit), 256);
  EXPECT_EQ(Fp64::tile_for(100, 1, limit), 32);  // fewer nodes than a tile
  for (int k = 1; k <= 32; ++k)
    for (int nodes : {100, 4096, 1 << 16, 1 << 22}) {
      const int tile = Fp64::tile_for(nodes, k, limit);
      EXPECT_LE(Fp64::scratch_bytes(tile, k), limit) << nodes << " nodes, " << k << " steps";
      EXPECT_LE(Fp64::team_threads(tile, k), 1024);
    }
}

TEST(SodKeep, OriginalCaseConservesAndMatchesTheExactPlateauAndShock) {
  const Params p = seed();
  Solver<double, Kokkos::LayoutRight> s(p);
  s.set_initial_state();
  const auto [m0, e0] = s.interior_totals();
  for (long k = 0; k < p.steps; ++k) s.advance(s.stable_dt());
  const auto [m1, e1] = s.interior_totals();
  EXPECT_LT(std::fabs(m1 - m0) / m0, 1e-13);
  EXPECT_LT(std::fabs(e1 - e0) / e0, 1e-13);

  const double t = s.time();
  EXPECT_NEAR(t, 2500 * 0.1 / 4095, 1e-15);  // t* = nt*CFL/(nx-1)
  const ExactRiemann exact({1, 0, 1}, {0.125, 0, 0.1}, 1.4);
  const double contact = 0.5 + exact.contact_speed() * t, shock = 0.5 + exact.right_head_speed() * t;
  const Profiles prof = s.profiles();
  // The middle half of the plateau between contact and shock.
  int samples = 0;
  for (size_t k = 0; k < prof.x.size(); ++k) {
    const double x = prof.x[k];
    if (x < contact + 0.25 * (shock - contact) || x > shock - 0.25 * (shock - contact)) continue;
    ++samples;
    EXPECT_NEAR(prof.p[k], 0.30313, 1e-3) << "x = " << x;
    EXPECT_NEAR(prof.u[k], 0.92745, 1e-3) << "x = " << x;
    EXPECT_NEAR(prof.rho[k], 0.26557, 1e-3) << "x = " << x;
  }
  EXPECT_GT(samples, 20);
  // The shock: where p crosses halfway between the plateau and the right state.
  const double half = 0.5 * (exact.star().p + 0.1);
  double found = -1;
  for (size_t k = 0; k + 1 < prof.x.size(); ++k)
    if (prof.p[k] > half && prof.p[k + 1] <= half && prof.x[k] > contact)
      found = prof.x[k] + (prof.p[k] - half) / (prof.p[k] - prof.p[k + 1]) * (prof.x[k + 1] - prof.x[k]);
  EXPECT_LT(std::fabs(found - shock), 2.0 / 4095) << "shock at " << found << ", exact " << shock;
}

TEST(SodHllc, LayoutsBitForBit) {
  Params p = fv(200, true);
  const auto a = run<double, Kokkos::LayoutRight>(p, 0.2).conserved();
  const auto b = run<double, Kokkos::LayoutLeft>(p, 0.2).conserved();
  EXPECT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(double)), 0);
}

TEST(SodHllc, DensityErrorFallsUnderRefinementAndBeatsFirstOrderGodunov) {
  const ExactRiemann exact({1, 0, 1}, {0.125, 0, 0.1}, 1.4);
  double previous = 1e9;
  for (long n : {100L, 200L, 400L, 800L}) {
    const auto s = run<double, Kokkos::LayoutRight>(fv(n, true), 0.2);
    EXPECT_NEAR(s.time(), 0.2, 1e-14);
    const double l1 = density_l1(s.profiles(), exact, s.time(), 0.5);
    EXPECT_LT(l1, previous) << "N = " << n;
    previous = l1;
    if (n == 400) {
      const auto g = run<double, Kokkos::LayoutRight>(fv(400, false), 0.2);
      const double godunov = density_l1(g.profiles(), exact, g.time(), 0.5);
      EXPECT_NEAR(godunov, 6.8e-3, 1.5e-3);  // problems' figure for first-order Godunov
      EXPECT_LE(l1, 0.5 * godunov) << "plm " << l1 << " godunov " << godunov;
      EXPECT_LE(l1, 3.4e-3);
    }
  }
}

TEST(SodConfig, BadStatesAreRejected) {
  auto error = [](const std::string& text) -> std::string {
    try {
      cfd::sod::params(cfd::Config::from_string(text, "s.yaml", {}, cfd::solver_keys));
    } catch (const cfd::ConfigError& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_NE(error("solver: sod\nstate: {rho_left: -1}\n").find("'state.rho_left': density must be positive"),
            std::string::npos);
  EXPECT_NE(error("solver: sod\nstate: {p_right: 0}\n").find("'state.p_right': pressure must be positive"),
            std::string::npos);
  EXPECT_NE(error("solver: sod\ngas: {gamma: 1.0}\n").find("'gas.gamma': must be between"), std::string::npos);
  EXPECT_NE(error("solver: sod\nsod: {scheme: hllc, kernels: fused}\n").find("fused kernels exist for the keep"),
            std::string::npos);
  EXPECT_NE(error("solver: sod\ntime: {steps: 0}\n").find("'time.end_time': must be positive"), std::string::npos);
}
