// The sod solver: the original KEEP case (bit-for-bit variants, conservation,
// the post-shock plateau and shock position against the exact solution) and
// the shock-capturing scheme's convergence against the exact Riemann solution.
#include "physics/gas/exact_riemann.hpp"
#include "physics/sod/sod_solver.hpp"
#include "physics/solvers.hpp"
#include "tests/config_error.hpp"

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
    while (s.time() < end_time * (1 - 1e-12)) s.advance(std::min(s.allowed_dt(), end_time - s.time()));
  } else {
    for (long k = 0; k < p.steps; ++k) s.advance(s.allowed_dt());
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
  p.viscosity.law = cfd::gas::ViscosityLaw::none;
  p.nx = n;
  p.steps = 0;
  p.end_time = 0.2;
  p.cfl = 0.8;
  p.reconstruct = plm_rk2;
  p.integrator = plm_rk2 ? cfd::gas::Integrator::rk2 : cfd::gas::Integrator::euler;
  p.cfl = plm_rk2 ? 0.8 : 0.9;
  return p;
}

}  // namespace

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
  for (long k = 0; k < p.steps; ++k) s.advance(s.allowed_dt());
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
  auto error = [](const std::string& text) { return cfd::test::config_error(cfd::sod::params, text, "s.yaml"); };
  EXPECT_NE(error("solver: sod\nstate: {rho_left: -1}\n").find("'state.rho_left': density must be positive"),
            std::string::npos);
  EXPECT_NE(error("solver: sod\nstate: {p_right: 0}\n").find("'state.p_right': pressure must be positive"),
            std::string::npos);
  EXPECT_NE(error("solver: sod\ngas: {gamma: 1.0}\n").find("'gas.gamma': must be between"), std::string::npos);
  EXPECT_NE(error("solver: sod\nsod: {scheme: hllc, kernels: fused}\n").find("fused kernels exist for the keep"),
            std::string::npos);
  // time.end_time not given: said at the key that asks for it, with its line.
  EXPECT_NE(
      error("solver: sod\ntime: {steps: 0}\n")
          .find("s.yaml:2:15: error: 'time.steps' asks for 'time.end_time', which the case does not give: must be "
                "positive"),
      std::string::npos)
      << error("solver: sod\ntime: {steps: 0}\n");
}
