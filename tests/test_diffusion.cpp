// The diffusion solver against problems.md section 1: bit-for-bit agreement
// with the serial reference in every variant, the published FP32-vs-FP64
// numbers, fixed edges, bounded and non-growing total, symmetry and the exact
// growth of the second moment.
#include "core/field_compare.hpp"
#include "core/memory_meter.hpp"
#include "physics/diffusion/diffusion_reference.hpp"
#include "physics/diffusion/diffusion_solver.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <tuple>

using namespace cfd::diffusion;
using cfd::IterationOrder;

namespace {

// streamed: passes of fused steps the GPU's way (StreamedSteps) or the CPU's
// (TiledSteps); the backend's own choice when not said.
template <class Real, class Layout>
std::vector<Real> solve(const Params& p, int streamed = -1) {
  Solver<Real, Layout> solver(p);
  if (streamed >= 0) solver.set_streamed_passes(streamed == 1);
  solver.set_initial_state();
  solver.advance_steps(p.steps);
  return solver.to_host();
}

template <class Real>
std::vector<Real> solve_any(const Params& p, int streamed = -1) {
  return p.layout == Layout::left ? solve<Real, Kokkos::LayoutLeft>(p, streamed)
                                  : solve<Real, Kokkos::LayoutRight>(p, streamed);
}

template <class Real>
bool bitwise_equal(const std::vector<Real>& a, const std::vector<Real>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(Real)) == 0;
}

Params seed_params(long steps) {
  Params p;
  p.nx = 31;
  p.ny = 27;
  p.steps = steps;
  return p;
}

template <class Real>
double total(const std::vector<Real>& u) {
  return std::accumulate(u.begin(), u.end(), 0.0);
}

}  // namespace

TEST(HeatStencil, UpdateFollowsTheFormula) {
  EXPECT_EQ(heat_update(1.0, 0.0, 0.0, 0.0, 0.0, 0.1), 1.0 + 0.1 * (0.0 - 4.0));
  EXPECT_EQ(heat_update(0.0, 1.0, 2.0, 3.0, 4.0, 0.1), 0.1 * 10.0);
  // A uniform field is a fixed point.
  EXPECT_EQ(heat_update(0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.1f), 0.5f);
}

// The original check: FP32/FP64 x 7/8/31/32 steps x baseline/contiguous/strided
// on 31 x 27, each against the serial reference bit for bit. Every layout and
// loop order is run as well, since each must give the same bits.
class VariantsMatchReference
    : public ::testing::TestWithParam<std::tuple<bool, long, Variant, Layout, IterationOrder>> {};

TEST_P(VariantsMatchReference, BitForBit) {
  const auto [fp32, steps, variant, layout, order] = GetParam();
  Params p = seed_params(steps);
  p.variant = variant;
  p.layout = layout;
  p.order = order;
  if (fp32) {
    p.precision = Precision::fp32;
    EXPECT_TRUE(bitwise_equal(solve_any<float>(p), reference_solution<float>(p.nx, p.ny, p.steps, 0.1f)));
  } else {
    EXPECT_TRUE(bitwise_equal(solve_any<double>(p), reference_solution<double>(p.nx, p.ny, p.steps, 0.1)));
  }
}

INSTANTIATE_TEST_SUITE_P(SeedGrid, VariantsMatchReference,
                         ::testing::Combine(::testing::Bool(), ::testing::Values(7L, 8L, 31L, 32L),
                                            ::testing::Values(Variant::baseline, Variant::interior),
                                            ::testing::Values(Layout::left, Layout::right),
                                            ::testing::Values(IterationOrder::left, IterationOrder::right,
                                                              IterationOrder::default_order)));

TEST(Diffusion, PublishedFp32AgainstFp64Numbers) {
  Params p = seed_params(32);
  const std::vector<double> ref = solve<double, Kokkos::LayoutLeft>(p);
  p.precision = Precision::fp32;
  const std::vector<float> single = solve<float, Kokkos::LayoutLeft>(p);
  const cfd::Comparison c =
      cfd::compare_fields(ref, std::vector<double>(single.begin(), single.end()), cfd::default_tolerance(8, 4));
  // problems.md: 837 cells, max abs 3.949045e-9, relative L2 1.138846e-7,
  // mass difference 1.036993e-7, no cell over atol 1e-6 rtol 1e-4; 7 significant digits.
  auto same7 = [](double value, double published) { return std::fabs(value - published) <= 0.5e-6 * published; };
  EXPECT_EQ(c.count, 837);
  EXPECT_PRED2(same7, c.max_abs, 3.949045e-9);
  EXPECT_PRED2(same7, c.rel_l2, 1.138846e-7);
  EXPECT_PRED2(same7, c.mass_diff, 1.036993e-7);
  EXPECT_EQ(c.failures, 0);
}

TEST(Diffusion, EdgesStayZeroAndTotalIsBoundedAndNeverGrows) {
  for (Variant variant : {Variant::baseline, Variant::interior}) {
    Params p = seed_params(1);
    p.nx = 15;
    p.ny = 12;
    p.variant = variant;
    Solver<double, Kokkos::LayoutRight> solver(p);
    solver.set_initial_state();
    double previous = 1.0;
    for (int s = 1; s <= 300; ++s) {
      solver.advance_steps(1);
      const std::vector<double> u = solver.to_host();
      for (long i = 0; i < p.nx; ++i) {
        ASSERT_EQ(u[i], 0.0) << "edge j=1, step " << s;
        ASSERT_EQ(u[i + p.nx * (p.ny - 1)], 0.0) << "edge j=ny, step " << s;
      }
      for (long j = 0; j < p.ny; ++j) {
        ASSERT_EQ(u[p.nx * j], 0.0) << "edge i=1, step " << s;
        ASSERT_EQ(u[p.nx - 1 + p.nx * j], 0.0) << "edge i=nx, step " << s;
      }
      const double sum = total(u);
      // Heat only leaves through the cold edges; a few ulps of round-off allowed.
      ASSERT_GE(sum, 0.0);
      ASSERT_LE(sum, 1.0 + 8 * std::numeric_limits<double>::epsilon());
      ASSERT_LE(sum, previous * (1 + 8 * std::numeric_limits<double>::epsilon())) << "step " << s;
      previous = sum;
    }
    EXPECT_LT(previous, 0.5);  // after 300 steps on this small grid, most heat has left
  }
}

TEST(Diffusion, SecondMomentGrowsByTwoAlphaPerStep) {
  // While the spike has not reached the edges the scheme conserves the total
  // exactly and each step adds 2*alpha to the variance in each direction.
  Params p;
  p.nx = 121;
  p.ny = 101;
  p.steps = 40;
  p.alpha = 0.2;
  const std::vector<double> u = solve<double, Kokkos::LayoutLeft>(p);
  const long ci = (p.nx + 1) / 2 - 1, cj = (p.ny + 1) / 2 - 1;
  double mass = 0, mx = 0, my = 0;
  for (long j = 0; j < p.ny; ++j)
    for (long i = 0; i < p.nx; ++i) {
      const double v = u[i + p.nx * j];
      mass += v;
      mx += v * (i - ci) * (i - ci);
      my += v * (j - cj) * (j - cj);
    }
  EXPECT_NEAR(mass, 1.0, 1e-13);
  EXPECT_NEAR(mx, 2 * p.alpha * p.steps, 1e-12);
  EXPECT_NEAR(my, 2 * p.alpha * p.steps, 1e-12);
}

TEST(Diffusion, MirrorSymmetry) {
  // The spike sits in the middle of an odd grid: u(i,j) = u(nx+1-i, j) bit for
  // bit (the stencil adds west and east first, which commutes) and
  // u(i,j) = u(i, ny+1-j) to round-off.
  Params p = seed_params(32);
  const std::vector<double> u = solve<double, Kokkos::LayoutLeft>(p);
  for (long j = 0; j < p.ny; ++j)
    for (long i = 0; i < p.nx; ++i) {
      ASSERT_EQ(u[i + p.nx * j], u[(p.nx - 1 - i) + p.nx * j]);
      ASSERT_NEAR(u[i + p.nx * j], u[i + p.nx * (p.ny - 1 - j)], 1e-17);
    }
}

TEST(Diffusion, TimeAndUpdateCount) {
  Params p = seed_params(10);
  p.variant = Variant::baseline;
  Solver<float, Kokkos::LayoutLeft> solver(p);
  solver.set_initial_state();
  solver.advance_steps(10);
  EXPECT_EQ(solver.step(), 10);
  EXPECT_DOUBLE_EQ(solver.time(), 10 * 0.1);
  EXPECT_EQ(solver.updates_per_step(), 31 * 27);
}

// The GPU's strip sweep, run here on the host: bit for bit the reference, in
// both layouts, on a grid whose strips of 8 do not divide the interior.
template <class Real, class Layout>
std::vector<Real> solve_in_strips(long nx, long ny, long steps, Real alpha) {
  Field<Real, Layout> u("u", nx, ny), v("v", nx, ny);
  auto host = Kokkos::create_mirror_view(u);
  Kokkos::deep_copy(host, Real(0));
  host((nx + 1) / 2 - 1, (ny + 1) / 2 - 1) = Real(1);
  Kokkos::deep_copy(u, host);
  for (long s = 0; s < steps; ++s) {
    step_interior_in_strips<Real, Layout>(u, v, alpha, 1, int(nx - 1), 1, int(ny - 1));
    std::swap(u, v);
  }
  Kokkos::deep_copy(host, u);
  std::vector<Real> out;
  for (long j = 0; j < ny; ++j)
    for (long i = 0; i < nx; ++i) out.push_back(host(i, j));
  return out;
}

TEST(Diffusion, StripSweepMatchesReferenceBitForBit) {
  for (long steps : {1L, 7L, 32L}) {
    EXPECT_TRUE(bitwise_equal(solve_in_strips<double, Kokkos::LayoutLeft>(31, 27, steps, 0.1),
                              reference_solution<double>(31, 27, steps, 0.1)));
    EXPECT_TRUE(bitwise_equal(solve_in_strips<double, Kokkos::LayoutRight>(31, 27, steps, 0.1),
                              reference_solution<double>(31, 27, steps, 0.1)));
    EXPECT_TRUE(bitwise_equal(solve_in_strips<float, Kokkos::LayoutLeft>(27, 40, steps, 0.1f),
                              reference_solution<float>(27, 40, steps, 0.1f)));
    EXPECT_TRUE(bitwise_equal(solve_in_strips<float, Kokkos::LayoutRight>(27, 40, steps, 0.1f),
                              reference_solution<float>(27, 40, steps, 0.1f)));
  }
}

// Temporal blocking (diffusion.fused_steps): k steps per pass give the
// serial reference's bits, for step counts that are and are not multiples of
// k, on the seed grid (one tile) and on a grid of several tiles each way (a
// CPU tile is 256 x 64 points, the contiguous index first) far enough for the
// spike to cross tile boundaries; both ways of taking a pass (tiles in a
// buffer, the CPU's; columns streamed through registers, the GPU's, here with
// teams of 24 columns and 40 rows; more than 8 steps always take tiles).
TEST(Diffusion, FusedStepsMatchReferenceBitForBit) {
  for (const auto [nx, ny, steps] : {std::tuple{31L, 27L, 1L}, std::tuple{31L, 27L, 32L}, std::tuple{300L, 290L, 121L}})
    for (int k : {2, 3, 5, 8, 16})
      for (Layout layout : {Layout::left, Layout::right})
        for (int streamed : {0, 1}) {
          Params p = seed_params(steps);
          p.nx = nx;
          p.ny = ny;
          p.fused_steps = k;
          p.layout = layout;
          SCOPED_TRACE(testing::Message() << nx << " x " << ny << ", " << steps << " steps, " << k << " fused, layout "
                                          << name(layout) << (streamed ? ", streamed" : ", tiled"));
          EXPECT_TRUE(bitwise_equal(solve_any<double>(p, streamed), reference_solution<double>(nx, ny, steps, 0.1)));
          p.precision = Precision::fp32;
          EXPECT_TRUE(bitwise_equal(solve_any<float>(p, streamed), reference_solution<float>(nx, ny, steps, 0.1f)));
        }
}

namespace {
// `steps` single steps of the updatable points [u0, u1) of a field held as
// field[i + nx*j], every other point fixed, as a rank's fused pass must give
// them (its halo is updated too, its edge points are not).
std::vector<double> single_steps(std::vector<double> field, int nx, int ny, int steps, double alpha, const int (&u0)[2],
                                 const int (&u1)[2]) {
  std::vector<double> next = field;
  for (int s = 0; s < steps; ++s) {
    for (int j = u0[1]; j < u1[1]; ++j)
      for (int i = u0[0]; i < u1[0]; ++i) {
        const auto at = [&](int ii, int jj) { return field[ii + size_t(nx) * jj]; };
        next[i + size_t(nx) * j] = heat_update(at(i, j), at(i - 1, j), at(i + 1, j), at(i, j - 1), at(i, j + 1), alpha);
      }
    std::swap(field, next);
  }
  return field;
}

// streamed_steps on one block of nx x ny points against single_steps: the
// points of [w0, w1) bit for bit, every other point of `next` untouched.
// halo_at_edge: the pass may update the whole allocation (its edge rows and
// columns are then the outer layer of a halo, updated with neighbours it
// lacks); single_steps updates [u0, u1) all the same, as the written points
// are at least `steps` inside.
template <class Layout>
void expect_streamed_pass_exact(int nx, int ny, int steps, const int (&w0)[2], const int (&w1)[2], const int (&u0)[2],
                                const int (&u1)[2], int columns, int rows, bool halo_at_edge = false) {
  std::vector<double> start(size_t(nx) * ny);
  for (size_t k = 0; k < start.size(); ++k) start[k] = double((k * 7919) % 1009) / 1009.0;  // a rough field
  const double sentinel = -12345.0;
  Field<double, Layout> now("now", nx, ny), next("next", nx, ny);
  auto host_now = Kokkos::create_mirror_view(now);
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) host_now(i, j) = start[i + size_t(nx) * j];
  Kokkos::deep_copy(now, host_now);
  Kokkos::deep_copy(next, sentinel);
  const int whole0[2] = {0, 0}, whole1[2] = {nx, ny};
  if (halo_at_edge)
    streamed_steps<double, Layout>(now, next, 0.1, steps, w0, w1, whole0, whole1, columns, rows);
  else
    streamed_steps<double, Layout>(now, next, 0.1, steps, w0, w1, u0, u1, columns, rows);
  auto result = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), next);
  const std::vector<double> expected = single_steps(start, nx, ny, steps, 0.1, u0, u1);
  long wrong = 0, touched = 0;
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      const bool written = i >= w0[0] && i < w1[0] && j >= w0[1] && j < w1[1];
      if (written && std::memcmp(&result(i, j), &expected[i + size_t(nx) * j], sizeof(double)) != 0) ++wrong;
      if (!written && result(i, j) != sentinel) ++touched;
    }
  EXPECT_EQ(wrong, 0);
  EXPECT_EQ(touched, 0);
}
}  // namespace

// The GPU's pass of fused steps (StreamedSteps) on one rank's block: with
// updated points that are not written (a halo), with the owned points at
// the global edge, with a halo at the allocation's edge (as deep as the
// steps, and deeper), with an updatable region well inside the allocation (and a written ring
// around it that is not updated), teams of one written column up to many and the
// backend's own (0), rows a team from one up; and on tiny blocks, narrower
// than the steps. Each written point is bit for bit `steps` single steps.
TEST(Diffusion, StreamedPassesAreSingleSteps) {
  const int nx = 70, ny = 53;
  const int u0[2] = {1, 1}, u1[2] = {nx - 1, ny - 1};
  for (int steps : {1, 2, 3, 4, 5, 6, 7, 8}) {
    const auto teams = {std::pair{2 * steps + 1, 1}, std::pair{24, 40}, std::pair{64, 7}, std::pair{0, 0}};
    for (const auto [w0x, w0y, w1x, w1y] : {std::tuple{1, 1, nx - 1, ny - 1}, std::tuple{9, 9, 61, 44},
                                            std::tuple{1, 12, 40, ny - 1}, std::tuple{30, 2, 31, 50}})
      for (const auto [columns, rows] : teams) {
        const int w0[2] = {w0x, w0y}, w1[2] = {w1x, w1y};
        SCOPED_TRACE(testing::Message() << steps << " steps, written [" << w0x << ", " << w1x << ") x [" << w0y << ", "
                                        << w1y << "), teams of " << columns << " columns and " << rows << " rows");
        expect_streamed_pass_exact<Kokkos::LayoutLeft>(nx, ny, steps, w0, w1, u0, u1, columns, rows);
        expect_streamed_pass_exact<Kokkos::LayoutRight>(nx, ny, steps, w0, w1, u0, u1, columns, rows);
      }
    for (int depth : {steps, 8})
      for (const auto [columns, rows] : teams) {
        const int w0[2] = {depth, depth}, w1[2] = {nx - depth, ny - depth};
        SCOPED_TRACE(testing::Message() << steps << " steps, a halo " << depth
                                        << " deep at the allocation's edge, teams of " << columns << " columns and "
                                        << rows << " rows");
        expect_streamed_pass_exact<Kokkos::LayoutLeft>(nx, ny, steps, w0, w1, u0, u1, columns, rows, true);
        expect_streamed_pass_exact<Kokkos::LayoutRight>(nx, ny, steps, w0, w1, u0, u1, columns, rows, true);
      }
    // An updatable region well inside the allocation, written with a ring
    // of points around it that are not updated (they keep their values at
    // every level): the rows without checks must start and stop where the
    // updatable rows do.
    for (const auto [columns, rows] : teams) {
      const int v0[2] = {4, 5}, v1[2] = {nx - 9, ny - 8}, w0[2] = {2, 2}, w1[2] = {nx - 6, ny - 5};
      SCOPED_TRACE(testing::Message() << steps << " steps, updatable [4, " << nx - 9 << ") x [5, " << ny - 8
                                      << "), teams of " << columns << " columns and " << rows << " rows");
      expect_streamed_pass_exact<Kokkos::LayoutLeft>(nx, ny, steps, w0, w1, v0, v1, columns, rows);
      expect_streamed_pass_exact<Kokkos::LayoutRight>(nx, ny, steps, w0, w1, v0, v1, columns, rows);
    }
    // Teams of 256 columns (a GPU's own width, its compile-time path there)
    // wholly inside the updatable columns, so that they take the rows
    // without checks.
    for (const int rows : {40, 0}) {
      const int wide0[2] = {1, 1}, wide1[2] = {599, 79};
      SCOPED_TRACE(testing::Message() << steps << " steps on 600 x 80 points, teams of 256 columns and " << rows
                                      << " rows");
      expect_streamed_pass_exact<Kokkos::LayoutLeft>(600, 80, steps, wide0, wide1, wide0, wide1, 256, rows);
      expect_streamed_pass_exact<Kokkos::LayoutRight>(600, 80, steps, wide0, wide1, wide0, wide1, 256, rows);
    }
    for (const auto [tx, ty] : {std::pair{3, 4}, std::pair{9, 5}}) {
      const int w0[2] = {1, 1}, w1[2] = {tx - 1, ty - 1};
      SCOPED_TRACE(testing::Message() << steps << " steps on " << tx << " x " << ty << " points");
      expect_streamed_pass_exact<Kokkos::LayoutLeft>(tx, ty, steps, w0, w1, w0, w1, 2 * steps + 1, 1);
      expect_streamed_pass_exact<Kokkos::LayoutRight>(tx, ty, steps, w0, w1, w0, w1, 0, 0);
    }
  }
}

// Memory, from Kokkos' own allocation events: the solver holds its two
// fields and nothing else of full size.
TEST(Diffusion, HoldsTwoFieldsAndNothingElse) {
  for (long n : {64L, 256L}) {
    Params p = seed_params(3);
    p.nx = p.ny = n;
    cfd::AllocationMeter meter;
    {
      Solver<double, Kokkos::LayoutLeft> solver(p);
      solver.set_initial_state();
      solver.advance_steps(p.steps);
      solver.to_host();
      EXPECT_GE(meter.current_bytes(), 2 * 8 * n * n);
    }
    Kokkos::fence();
    EXPECT_GE(meter.peak_bytes(), 2 * 8 * n * n);
    EXPECT_LE(meter.peak_bytes(), 2 * 8 * n * n + 4096 + 64 * n);
    EXPECT_EQ(meter.current_bytes(), 0);  // all freed
  }
}
