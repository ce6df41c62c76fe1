// The euler solver on 3D grids (Solver<Real, 3>): the 3D kernels on one plane and
// a 2D problem extruded along z give the 2D split kernels' state bit for
// bit; Sod's tube along x, y and z gives one profile bit for bit and the 2D
// solver's error against the exact solution; mass, momentum and energy are
// conserved in a periodic box; a spherical blast keeps the cube's mirror
// symmetries; a sound wave along an oblique direction converges at second
// order; Sod's tube along the diagonal keeps its symmetry and the exact
// solution; the Sedov-Taylor shock follows its similarity radius; the keys of
// 3D and what 3D refuses; the 3D fused stage gives the split kernels' bits;
// gravity along the three axes (free fall, energy with the potential in a
// closed box, a 2D case with gravity extruded along z); passive scalars;
// inflow sides on all six sides (the tube's ends held at their states are
// outflow's bits, a 2D case with three inflow sides extruded along z, each
// stage's time, where each side's values land, a state that is not
// physical).
#include "physics/euler/euler_solver.hpp"
#include "physics/gas/exact_riemann.hpp"
#include "physics/solvers.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <memory>
#include <vector>

using namespace cfd::euler;

namespace {

Params base(const std::string& problem, long nx, long ny, long nz, std::vector<std::string> more = {}) {
  // CFL 0.3 on 3D grids (at most 1/3 there); the 2D solver's 0.4 is
  // compared with by the tests that run both at nz = 1.
  if (nz > 1) more.insert(more.begin(), "time.cfl=0.3");
  more.insert(more.begin(), {"euler.problem=" + problem, "grid.nx=" + std::to_string(nx),
                             "grid.ny=" + std::to_string(ny), "grid.nz=" + std::to_string(nz)});
  return params(cfd::default_case("euler", more));
}

// `keys` and outflow on all six sides.
std::vector<std::string> with_outflow_sides(std::vector<std::string> keys) {
  for (const char* side : {"x_lo", "x_hi", "y_lo", "y_hi", "z_lo", "z_hi"})
    keys.push_back(std::string("boundary.") + side + "=outflow");
  return keys;
}

template <class S>
void run_to(S& s, double end) {
  s.set_initial_state();
  while (s.time() < end * (1 - 1e-14)) {
    const double dt = s.allowed_dt();
    ASSERT_GT(dt, 0);
    s.advance(std::min(dt, end - s.time()));
  }
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// Sod's tube along x, y and z in turn: n cells along it, 4 x 4 across,
// outflow at its ends, keys_of(axis) and adjust(p, axis), run to `end`.
// Returns each axis's fields; cell m along the tube is at m * tube_stride[axis].
constexpr long tube_stride[3] = {1, 4, 16};
template <class Keys, class Adjust>
std::vector<std::vector<cfd::HostField<double>>> tube_along_axes(long n, double end, Keys keys_of, Adjust adjust) {
  std::vector<std::vector<cfd::HostField<double>>> fields;
  for (int axis = 0; axis < 3; ++axis) {
    const long nx = axis == 0 ? n : 4, ny = axis == 1 ? n : 4, nz = axis == 2 ? n : 4;
    Params p = base(std::string("sod_") + "xyz"[axis], nx, ny, nz, keys_of(axis));
    if (axis == 0) p.boundary[0] = p.boundary[1] = cfd::BoundaryKind::outflow;
    if (axis == 1) p.boundary[2] = p.boundary[3] = cfd::BoundaryKind::outflow;
    if (axis == 2) p.boundary_z = {cfd::BoundaryKind::outflow, cfd::BoundaryKind::outflow};
    adjust(p, axis);
    Solver<double, 3> s(p);
    run_to(s, end);
    fields.push_back(s.fields());
  }
  return fields;
}
std::vector<std::string> sod_keys(int) { return {"gas.gamma=1.4", "euler.riemann=hllc"}; }
void as_given(Params&, int) {}

// Runs p (nz planes) through the 3D kernels and the same case on one plane
// through the 2D solver, `steps` steps of the 2D solver's dt (each step's dt
// of the two the same bits, else a failure); returns how many values of
// the 3D state differ from the 2D state on any plane (vz must stay 0).
long extruded_differences(const Params& p, long nz, int steps) {
  Params flat = p;
  flat.nz = 1;
  flat.fused_stage = false;
  Solver<double> two(flat);
  Solver<double, 3> three(p);
  two.set_initial_state();
  three.set_initial_state();
  for (int step = 0; step < steps; ++step) {
    const double dt = two.allowed_dt();
    EXPECT_TRUE(same_bits(dt, three.allowed_dt())) << "step " << step;
    two.advance(dt);
    three.advance(dt);
  }
  const auto a = two.state(), b = three.state();  // the gas's rows, then the scalars' (rho s_k)
  const size_t plane = a[0].values.size();
  EXPECT_EQ(b.size(), a.size());
  EXPECT_EQ(b[0].values.size(), plane * nz);
  if (b.size() != a.size() || b[0].values.size() != plane * nz) return -1;
  long differ = 0;
  for (size_t v = 0; v < a.size(); ++v)
    for (long k = 0; k < nz; ++k)
      for (size_t c = 0; c < plane; ++c)
        differ += v == 3 ? b[v].values[k * plane + c] != 0 : !same_bits(a[v].values[c], b[v].values[k * plane + c]);
  return differ;
}

}  // namespace

// The 3D kernels with one plane (nz = 1, periodic in z), and a KH case
// extruded over 4 planes, against the 2D split kernels: every conserved value
// of every plane the same bits after 30 steps of plm + hllc + rk3. The z
// fluxes of a state that does not vary along z cancel exactly, and dz is no
// smaller than dx, so that dt is the 2D one.
TEST(Euler3d, OnePlaneAndAnExtrudedCaseEqualTheTwoDimensionalKernelsBitForBit) {
  for (const long nz : {1L, 4L}) {
    Params p = base(
        "kh_mcnally", 32, 24, nz,
        {"kh_mcnally.z_max=" + std::to_string(nz), "euler.riemann=hllc", "euler.integrator=rk3", "euler.limiter=mc"});
    p.nz = nz;  // nz = 1 also through the 3D kernels
    EXPECT_EQ(extruded_differences(p, nz, 30), 0) << "nz " << nz;
  }
}

// The fused stage of 3D (columns of tiles, each face's flux once, in one kernel)
// against the split kernels (flux arrays in memory): the same bits after
// 12 steps of a blast between reflecting, outflow and periodic sides, for
// every Riemann solver, limiter kind and integrator, FP64 and FP32. Each
// step's dt too: the fused stage's bound (found by the last stage from the
// values it wrote) against the split kernels' (a kernel over U); a step whose
// dt differs gives -1 - step.
template <class Real>
long fused_split_differences(const std::vector<std::string>& keys, long nx = 14, long ny = 12, long nz = 10,
                             int steps = 12) {
  Params p = base("blast", nx, ny, nz, keys);
  Params split = p;
  p.fused_stage = true;
  split.fused_stage = false;
  Solver<Real, 3> fused(p), apart(split);
  fused.set_initial_state();
  apart.set_initial_state();
  for (int step = 0; step < steps; ++step) {
    const double dt = fused.allowed_dt();
    if (!same_bits(dt, apart.allowed_dt())) return -1 - step;
    fused.advance(dt);
    apart.advance(dt);
  }
  const auto a = fused.conserved(), b = apart.conserved();
  long differ = a.size() == b.size() ? 0 : -1;
  for (size_t c = 0; differ >= 0 && c < a.size(); ++c) differ += std::memcmp(&a[c], &b[c], sizeof(Real)) != 0;
  return differ;
}

TEST(Euler3d, FusedStageGivesTheSplitKernelsBitsForEverySchemeAndSide) {
  const std::vector<std::string> sides = {"boundary.x_lo=reflecting", "boundary.x_hi=outflow",
                                          "boundary.y_lo=outflow",    "boundary.y_hi=reflecting",
                                          "boundary.z_lo=periodic",   "boundary.z_hi=periodic"};
  for (const char* riemann : {"hlle", "hllc", "llf"})
    for (const char* more : {"euler.integrator=rk2", "euler.integrator=rk3", "euler.integrator=euler",
                             "euler.limiter=mc", "euler.reconstruction=dc"}) {
      std::vector<std::string> keys = sides;
      keys.push_back(std::string("euler.riemann=") + riemann);
      keys.push_back(more);
      EXPECT_EQ(fused_split_differences<double>(keys), 0) << riemann << ", " << more << ", fp64";
      if (std::string(more) == "euler.integrator=rk2")
        EXPECT_EQ(fused_split_differences<float>(keys), 0) << riemann << ", " << more << ", fp32";
    }
}

// The fused stage walks its block in columns of tiles (64 x 8 cells on a
// CPU, 32 x 8 on a GPU) over 32 planes at a time: on 70 x 19 x 71 cells the
// last tile along x, y and z is a partial one, and columns start at planes
// 0, 32 and 64 (each computing the z face below its first cell). Fused and
// split give the same bits over 3 steps.
TEST(Euler3d, FusedStageGivesTheSplitKernelsBitsAcrossItsTilesAndColumns) {
  const std::vector<std::string> sides = {"boundary.x_lo=reflecting", "boundary.x_hi=outflow",
                                          "boundary.y_lo=periodic",   "boundary.y_hi=periodic",
                                          "boundary.z_lo=outflow",    "boundary.z_hi=reflecting"};
  for (const char* riemann : {"hlle", "hllc"}) {
    std::vector<std::string> keys = sides;
    keys.push_back(std::string("euler.riemann=") + riemann);
    EXPECT_EQ(fused_split_differences<double>(keys, 70, 19, 71, 3), 0) << riemann << ", fp64";
  }
  std::vector<std::string> keys = sides;
  keys.push_back("euler.reconstruction=dc");
  EXPECT_EQ(fused_split_differences<float>(keys, 70, 19, 71, 3), 0) << "dc, fp32";
}

// The tubes along y and z of tube_along_axes hold the tube along x, bit for
// bit: density, pressure and the normal velocity at each cell m along the
// tube (x fastest, then y, then z).
template <class Fields>
void expect_one_profile(const Fields& fields, long n) {
  const int normal[3] = {1, 2, 3};
  for (int axis = 1; axis < 3; ++axis)
    for (long m = 0; m < n; ++m) {
      const long at = m * tube_stride[axis];
      ASSERT_TRUE(same_bits(fields[0][0].values[m], fields[axis][0].values[at])) << "rho, axis " << axis << ", " << m;
      ASSERT_TRUE(same_bits(fields[0][4].values[m], fields[axis][4].values[at])) << "p, axis " << axis << ", " << m;
      ASSERT_TRUE(same_bits(fields[0][1].values[m], fields[axis][normal[axis]].values[at])) << "v, axis " << axis;
    }
}

// sod_x, sod_y and sod_z on 128 x 4 x 4 cells and its rotations, hllc, to
// t = 0.2: the density, pressure and normal velocity along each tube are
// the same bits (the two directions without a gradient add exact zeros in
// either order), and the L1 error of the density against the exact
// solution is the 2D solver's bound (tests/test_euler2d.cpp).
TEST(Euler3d, SodAlongXYAndZIsOneProfileBitForBitAndMatchesTheExactSolution) {
  const long n = 128;
  const auto fields = tube_along_axes(n, 0.2, sod_keys, as_given);
  expect_one_profile(fields, n);
  const cfd::gas::ExactRiemann exact({1, 0, 1}, {0.125, 0, 0.1}, 1.4);
  double l1 = 0;
  for (long m = 0; m < n; ++m) l1 += std::fabs(fields[0][0].values[m] - exact.sample(((m + 0.5) / n - 0.5) / 0.2).rho);
  l1 /= n;
  EXPECT_LE(l1, 6.5e-3) << "128 cells; 400 cells reach 3.4e-3 (test_euler2d.cpp)";
  EXPECT_GT(l1, 1e-4) << "a profile, not the initial state";
}

// sod_diagonal on 48^3 cells with outflow sides, hllc, to t = 0.1: a tube
// that no grid direction follows. The density keeps the swaps x <-> y <-> z
// to round-off, and near the box's diagonal (within 0.1 of it, |s| <= 0.25,
// where the sides' disturbances have not reached) its L1 error against the
// exact solution at s / t is below 2.5e-2 (measured 2026-12-04: 1.54e-2
// over 1694 cells; the axis-aligned tube's bound at 128 cells: 6.5e-3).
TEST(Euler3d, SodAlongTheDiagonalKeepsItsSymmetryAndMatchesTheExactSolution) {
  const long n = 48;
  Params p = base("sod_diagonal", n, n, n, with_outflow_sides({"gas.gamma=1.4", "euler.riemann=hllc"}));
  Solver<double, 3> s(p);
  const double t = 0.1;
  run_to(s, t);
  const auto f = s.fields();
  const auto rho = [&](long i, long j, long k) { return f[0].values[(k * n + j) * n + i]; };
  const cfd::gas::ExactRiemann exact({1, 0, 1}, {0.125, 0, 0.1}, 1.4);
  double l1 = 0, worst = 0;
  long cells = 0;
  for (long k = 0; k < n; ++k)
    for (long j = 0; j < n; ++j)
      for (long i = 0; i < n; ++i) {
        worst = std::max({worst, std::fabs(rho(i, j, k) - rho(j, i, k)), std::fabs(rho(i, j, k) - rho(k, j, i))});
        const double x = s.centre(0, i) - 0.5, y = s.centre(1, j) - 0.5, z = s.centre(2, k) - 0.5;
        const double along = (x + y + z) / std::sqrt(3.0);
        const double across2 = x * x + y * y + z * z - along * along;
        if (std::fabs(along) > 0.25 || across2 > 0.01) continue;
        l1 += std::fabs(rho(i, j, k) - exact.sample(along / t).rho);
        ++cells;
      }
  l1 /= cells;
  std::printf("diagonal Sod at 48^3: L1 density error %.4e over %ld cells near the diagonal\n", l1, cells);
  EXPECT_LT(worst, 1e-12) << "the swaps of x, y and z";
  EXPECT_LT(l1, 2.5e-2);
  EXPECT_GT(l1, 1e-4) << "a profile, not the initial state";
}

TEST(Euler3d, PeriodicBoxConservesMassMomentumAndEnergy) {
  Params p = base("blast", 16, 12, 10, {"euler.riemann=hllc", "blast.radius=0.3", "blast.x_centre=0.4"});
  Solver<double, 3> s(p);
  s.set_initial_state();
  const Totals a = s.totals();
  for (int k = 0; k < 20; ++k) s.advance(s.allowed_dt());
  const Totals b = s.totals();
  EXPECT_GT(std::fabs(b.kh_mode - a.kh_mode) + std::fabs(b.mom_x - a.mom_x), 0) << "the gas moved";
  // Round-off of the sums over 1920 cells and of 20 steps (as test_euler2d.cpp).
  EXPECT_LT(std::fabs(b.mass - a.mass) / a.mass, 1e-13);
  EXPECT_LT(std::fabs(b.energy - a.energy) / a.energy, 1e-13);
  EXPECT_LT(std::fabs(b.mom_x - a.mom_x) / a.mass, 1e-13);
  EXPECT_LT(std::fabs(b.mom_y - a.mom_y) / a.mass, 1e-13);
  EXPECT_LT(std::fabs(b.mom_z - a.mom_z) / a.mass, 1e-13);
}

// A sphere at the centre of a cube with outflow sides: the density keeps
// the mirrors x -> -x, y -> -y, z -> -z and the swaps x <-> y <-> z to
// round-off (the flux sums differ in order between directions).
TEST(Euler3d, SphericalBlastKeepsTheCubesSymmetries) {
  const long n = 20;
  Params p = base("blast", n, n, n, with_outflow_sides({"gas.gamma=1.4", "blast.radius=0.25"}));
  Solver<double, 3> s(p);
  s.set_initial_state();
  for (int k = 0; k < 25; ++k) s.advance(s.allowed_dt());
  const auto f = s.fields();
  const auto rho = [&](long i, long j, long k) { return f[0].values[(k * n + j) * n + i]; };
  for (long k = 0; k < n; ++k)
    for (long j = 0; j < n; ++j)
      for (long i = 0; i < n; ++i) {
        const double r = rho(i, j, k);
        ASSERT_NEAR(r, rho(n - 1 - i, j, k), 1e-13);
        ASSERT_NEAR(r, rho(i, n - 1 - j, k), 1e-13);
        ASSERT_NEAR(r, rho(i, j, n - 1 - k), 1e-13);
        ASSERT_NEAR(r, rho(j, i, k), 1e-13);
        ASSERT_NEAR(r, rho(k, j, i), 1e-13);
      }
  EXPECT_LT(rho(n / 2, n / 2, n / 2), 0.9) << "the blast has expanded (the sphere starts at density 1)";
}

// linear_wave along (1, 1, 1) in the periodic unit cube, amplitude 1e-6,
// plm (van Leer) + hllc + rk3, CFL 0.3, half a period (t = 1/(2 sqrt 3),
// sound speed 1): the L1 error of the density against the moved wave falls
// by at least 3.6 per doubling over 32^3, 64^3, 128^3 (second order;
// measured 2026-12-04). Coarser grids are not yet asymptotic: the limiter
// clips the extrema (24, 48, 96: ratios 3.3 and 3.8; van Leer + rk2 over
// 16, 32, 64: 2.6 and 3.55).
TEST(Euler3d, ObliqueLinearWaveConvergesAtSecondOrder) {
  std::vector<double> errors;
  for (const long n : {32L, 64L, 128L}) {
    Params p = base("linear_wave", n, n, n, {"euler.riemann=hllc", "gas.gamma=1.4", "euler.integrator=rk3"});
    Solver<double, 3> s(p);
    const double period = 1 / std::sqrt(3.0);
    run_to(s, 0.5 * period);
    const auto f = s.fields();
    double l1 = 0;
    for (long k = 0; k < n; ++k)
      for (long j = 0; j < n; ++j)
        for (long i = 0; i < n; ++i)
          l1 += std::fabs(f[0].values[(k * n + j) * n + i] -
                          p.initial(s.centre(0, i), s.centre(1, j), s.centre(2, k), s.time()).rho);
    errors.push_back(l1 / double(n * n * n));
  }
  std::printf("linear wave L1 errors of rho at 32^3, 64^3, 128^3: %.4e %.4e %.4e\n", errors[0], errors[1], errors[2]);
  for (size_t r = 1; r < errors.size(); ++r)
    EXPECT_GE(errors[r - 1] / errors[r], 3.6) << "L1 errors " << errors[0] << ", " << errors[1] << ", " << errors[2];
  EXPECT_LT(errors.back(), 1e-7) << "an error against the wave's amplitude, 1e-6";
}

namespace {

// The shock radius of a spherical explosion at the cube's centre: the
// density averaged over shells one cell wide, and the radius outside the
// densest shell where the average falls through the midpoint between its
// peak and the ambient density (interpolated between shells).
double shock_radius(const std::vector<double>& rho, long n, double ambient) {
  const double h = 1.0 / n;
  std::vector<double> sum(n, 0), count(n, 0);
  for (long k = 0; k < n; ++k)
    for (long j = 0; j < n; ++j)
      for (long i = 0; i < n; ++i) {
        const double x = (i + 0.5) * h - 0.5, y = (j + 0.5) * h - 0.5, z = (k + 0.5) * h - 0.5;
        const long shell = static_cast<long>(std::sqrt(x * x + y * y + z * z) / h);
        if (shell < n) sum[shell] += rho[(k * n + j) * n + i], count[shell] += 1;
      }
  std::vector<double> mean(n / 2);
  for (long b = 0; b < n / 2; ++b) mean[b] = sum[b] / count[b];
  const long peak = std::max_element(mean.begin(), mean.end()) - mean.begin();
  const double half = 0.5 * (mean[peak] + ambient);
  for (long b = peak; b + 1 < n / 2; ++b)
    if (mean[b + 1] < half) return h * (b + 0.5 + (mean[b] - half) / (mean[b] - mean[b + 1]));
  return -1;
}

}  // namespace

// sedov in the periodic unit cube (gamma 1.4, E = 1, rho = 1, CFL 0.3):
// the box holds E plus the ambient gas's energy at t = 0 and keeps it (to
// the round-off of sums over 1e5 cells); at t = 0.067 the shock radius is
// xi (E t^2 / rho)^(1/5), xi = 1.0328 (alpha = 0.851072, Kamm & Timmes
// 2007), within 5% at 48^3 and closer at 48^3 than at 32^3. The measured
// ratio falls as 1/n: 1.043 at 48^3, 1.037 at 64^3, 1.023 at 96^3
// (apps/verify_sedov.py on config/sedov3d.yaml; 256^3: docs/kh.md).
TEST(Euler3d, SedovShockRadiusFollowsTheSimilaritySolution) {
  const double t = 0.067, expected = 1.0328 * std::pow(t * t, 0.2);
  std::vector<double> ratios;
  for (const long n : {32L, 48L}) {
    Params p = base("sedov", n, n, n, {"euler.riemann=hllc", "gas.gamma=1.4"});
    Solver<double, 3> s(p);
    s.set_initial_state();
    const double ambient_energy = 1e-5 / 0.4;  // p / (gamma - 1) over the unit box
    const double start = s.totals().energy;
    EXPECT_NEAR(start, 1 + ambient_energy, 1e-10);
    run_to(s, t);
    EXPECT_NEAR(s.totals().energy, start, 1e-11);
    ratios.push_back(shock_radius(s.fields()[0].values, n, 1.0) / expected);
  }
  std::printf("Sedov shock radius / similarity at 32^3, 48^3: %.4f %.4f\n", ratios[0], ratios[1]);
  EXPECT_NEAR(ratios[1], 1, 0.05);
  EXPECT_LT(std::fabs(ratios[1] - 1), std::fabs(ratios[0] - 1)) << "closer at the finer grid";
}

TEST(Euler3d, NonPhysicalStateIsFoundWithItsThreeIndices) {
  Params p = base("blast", 8, 8, 8);
  Solver<double, 3> s(p);
  s.set_initial_state();
  EXPECT_EQ(s.fault(), "");
  auto state = s.state();
  state[4].values[(5 * 8 + 3) * 8 + 2] = -1;  // energy of cell (i, j, k) = (3, 4, 6), 1-based
  s.restore(state, s.clock());
  EXPECT_LT(s.allowed_dt(), 0);
  EXPECT_NE(s.fault().find("cell (i, j, k) = (3, 4, 6)"), std::string::npos) << s.fault();
}

// kh_mcnally.z_amplitude: the seed vy = A sin(4 pi x) (1 + a sin(2 pi n z))
// at the cell centres, and with a = 0 the 2D seed's bits on every plane.
TEST(Euler3d, KelvinHelmholtzSeedVariesAlongZWhenAsked) {
  const long n = 8;
  for (const double a : {0.0, 0.5}) {
    Params p = base("kh_mcnally", n, n, n, {"kh_mcnally.z_amplitude=" + std::to_string(a), "kh_mcnally.z_waves=2"});
    Solver<double, 3> s(p);
    s.set_initial_state();
    const auto f = s.fields();
    const double pi = 3.14159265358979323846;
    for (long k = 0; k < n; ++k)
      for (long j = 0; j < n; ++j)
        for (long i = 0; i < n; ++i) {
          const double x = s.centre(0, i), z = s.centre(2, k), vy = f[2].values[(k * n + j) * n + i];
          const double seed = 0.01 * std::sin(4 * pi * x);
          if (a == 0)  // every plane the bits of the first
            ASSERT_TRUE(same_bits(vy, f[2].values[j * n + i])) << i << " " << j << " " << k;
          ASSERT_NEAR(vy, seed * (1 + a * std::sin(2 * pi * 2 * z)), 1e-15);
        }
  }
}

TEST(Euler3dConfig, WhatThreeDimensionsDoNotHaveIsRefusedAtItsKey) {
  const auto refused = [](std::vector<std::string> keys, const std::string& key) {
    keys.insert(keys.begin(), {"grid.nz=8", "time.cfl=0.3"});
    try {
      params(cfd::default_case("euler", keys));
      ADD_FAILURE() << "accepted: " << key;
    } catch (const cfd::ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find(key), std::string::npos) << e.what();
    }
  };
  refused({"euler.original_faces=true"}, "euler.original_faces");
  refused({"boundary.z_lo=outflow"}, "boundary.z_lo");  // periodic in pairs
  refused({"euler.problem=sod_z", "sod_z.z_max=-1"}, "sod_z.z_max");
  refused({"time.cfl=0.34"}, "time.cfl");  // the three Courant numbers add up
  refused({"euler.problem=linear_wave", "linear_wave.x_waves=0", "linear_wave.y_waves=0", "linear_wave.z_waves=0"},
          "linear_wave.x_waves");
  // A 2D case has no z faces to fall through.
  try {
    params(cfd::default_case("euler", {"gravity.z=-1"}));
    ADD_FAILURE() << "accepted gravity.z on a 2D grid";
  } catch (const cfd::ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("gravity.z"), std::string::npos) << e.what();
  }
  // Nor z sides for the gas to flow in through.
  try {
    params(cfd::default_case("euler", {"boundary.z_lo=inflow", "boundary.z_hi=outflow"}));
    ADD_FAILURE() << "accepted an inflow z side on a 2D grid";
  } catch (const cfd::ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("boundary.z_lo"), std::string::npos) << e.what();
  }
  // The seed's z modulation needs a z.
  try {
    params(cfd::default_case("euler", {"kh_mcnally.z_amplitude=0.5"}));
    ADD_FAILURE() << "accepted kh_mcnally.z_amplitude on a 2D grid";
  } catch (const cfd::ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("kh_mcnally.z_amplitude"), std::string::npos) << e.what();
  }
  // 2D and 3D cases run their fused stage unless asked for the split kernels.
  EXPECT_TRUE(params(cfd::default_case("euler", {"grid.nz=8", "time.cfl=0.3"})).fused_stage);
  EXPECT_FALSE(params(cfd::default_case("euler", {"grid.nz=8", "time.cfl=0.3", "euler.kernels=split"})).fused_stage);
  EXPECT_TRUE(params(cfd::default_case("euler", {})).fused_stage);
  EXPECT_EQ(params(cfd::default_case("euler", {})).nz, 1);
}

// ---- Gravity (GravitySource, the 2D one with its z part) ----

// A uniform gas at rest falls freely along g = (gx, gy, gz): every face flux
// is the same, so only the source acts, and the SSP Runge-Kutta methods of
// order 2 and 3 integrate v = g t and the energy's 1/2 rho |g t|^2 exactly
// (quadratics in t), to round-off in every cell.
TEST(Euler3dGravity, AUniformGasFallsFreelyAlongAllThreeAxes) {
  const double gx = 0.25, gy = -0.5, gz = 0.75;
  for (const std::string integrator : {"rk2", "rk3"}) {
    const Params p = base("vortex", 8, 6, 5,
                          {"vortex.strength=0", "vortex.vx=0", "vortex.vy=0", "gravity.x=0.25", "gravity.y=-0.5",
                           "gravity.z=0.75", "euler.integrator=" + integrator});
    EXPECT_FALSE(p.fused_stage);  // gravity runs the split kernels
    Solver<double, 3> s(p);
    s.set_initial_state();
    const auto u0 = s.state();
    for (int k = 0; k < 40; ++k) s.advance(0.01);
    const double t = s.time();
    const auto u = s.state();  // rho, mom_x, mom_y, mom_z, energy
    ASSERT_EQ(u[0].values.size(), size_t(8 * 6 * 5));
    const double rho = u0[0].values[0], energy = u0[4].values[0] + 0.5 * rho * (gx * gx + gy * gy + gz * gz) * t * t;
    for (size_t c = 0; c < u[0].values.size(); ++c) {
      ASSERT_NEAR(u[0].values[c], rho, 1e-15) << integrator << " cell " << c;
      ASSERT_NEAR(u[1].values[c], rho * gx * t, 1e-13) << integrator << " cell " << c;
      ASSERT_NEAR(u[2].values[c], rho * gy * t, 1e-13) << integrator << " cell " << c;
      ASSERT_NEAR(u[3].values[c], rho * gz * t, 1e-13) << integrator << " cell " << c;
      ASSERT_NEAR(u[4].values[c], energy, 1e-13) << integrator << " cell " << c;
    }
  }
}

// In a closed box (six reflecting walls) with gravity along all three axes,
// mass and the gas's energy plus its potential rho*phi, phi = -g.x, are
// conserved to round-off: the energy source is each direction's mean mass
// flux times g along it, whose sum over the cells is what the potential
// loses.
TEST(Euler3dGravity, MassAndEnergyWithPotentialConservedInAClosedBox) {
  const double g[3] = {0.3, -1.0, 0.5};
  for (const std::string riemann : {"hlle", "hllc", "llf"}) {
    Params p = base("blast", 14, 12, 10,
                    {"gravity.x=0.3", "gravity.y=-1", "gravity.z=0.5", "blast.x_centre=0.4", "blast.radius=0.3",
                     "euler.riemann=" + riemann, "euler.integrator=rk3"});
    using cfd::BoundaryKind;
    p.boundary = {BoundaryKind::reflecting, BoundaryKind::reflecting, BoundaryKind::reflecting,
                  BoundaryKind::reflecting};
    p.boundary_z = {BoundaryKind::reflecting, BoundaryKind::reflecting};
    Solver<double, 3> s(p);
    const auto total = [&] {
      const auto u = s.state();
      const double dv = (p.hi[0] - p.lo[0]) / p.nx * ((p.hi[1] - p.lo[1]) / p.ny) * ((p.hi[2] - p.lo[2]) / p.nz);
      double mass = 0, energy = 0;
      size_t c = 0;
      for (long k = 0; k < p.nz; ++k)
        for (long j = 0; j < p.ny; ++j)
          for (long i = 0; i < p.nx; ++i, ++c) {
            const double phi = -(g[0] * s.centre(0, i) + g[1] * s.centre(1, j) + g[2] * s.centre(2, k));
            mass += u[0].values[c] * dv;
            energy += (u[4].values[c] + u[0].values[c] * phi) * dv;
          }
      return std::pair{mass, energy};
    };
    // The potential of the z acceleration, sum of rho (-gz z) dV: the energy
    // it exchanges with the gas is what the test weighs.
    const auto potential_z = [&] {
      const auto u = s.state();
      const double dv = (p.hi[0] - p.lo[0]) / p.nx * ((p.hi[1] - p.lo[1]) / p.ny) * ((p.hi[2] - p.lo[2]) / p.nz);
      double sum = 0;
      for (size_t c = 0; c < u[0].values.size(); ++c)
        sum += u[0].values[c] * -(g[2] * s.centre(2, long(c) / (p.nx * p.ny))) * dv;
      return sum;
    };
    s.set_initial_state();
    const auto start = total();
    const double start_z = potential_z();
    for (int k = 0; k < 40; ++k) s.advance(s.allowed_dt());
    const auto end = total();
    // The z potential has changed by far more than the tolerance below: the
    // gas has fallen along z, and the test measures the z source's energy.
    EXPECT_GT(std::abs(potential_z() - start_z), 1e5 * 1e-13 * std::abs(start.second)) << riemann;
    EXPECT_NEAR(end.first, start.first, 1e-13 * start.first) << riemann;
    EXPECT_NEAR(end.second, start.second, 1e-13 * std::abs(start.second)) << riemann;
  }
}

// A 2D case with gravity (x and y) extruded over 4 planes runs the 2D
// case's bits on every plane: GravitySource's z part adds an exact zero.
TEST(Euler3dGravity, ExtrudedTwoDimensionalCaseWithGravityIsItsBitsOnEveryPlane) {
  const long nz = 4;
  Params p =
      base("kh_mcnally", 24, 20, nz,
           {"kh_mcnally.z_max=4", "gravity.x=0.2", "gravity.y=-0.5", "euler.riemann=hllc", "euler.integrator=rk2"});
  ASSERT_FALSE(p.fused_stage);
  EXPECT_EQ(extruded_differences(p, nz, 20), 0);
}

// Sod's tube along x, y and z with gravity along the tube (outflow ends), 64
// cells to t = 0.1: the density, pressure and normal velocity along each are
// the same bits, so the source's x, y and z parts (momentum and energy) are
// one computation in three orientations, and the gas has moved under it.
TEST(Euler3dGravity, SodFallingAlongXYAndZIsOneProfileBitForBit) {
  const long n = 64;
  const auto keys = [](int axis) {
    auto k = sod_keys(axis);
    k.push_back(std::string("gravity.") + "xyz"[axis] + "=-3");
    return k;
  };
  const auto fields = tube_along_axes(n, 0.1, keys, [](Params& p, int) { ASSERT_FALSE(p.fused_stage); });
  expect_one_profile(fields, n);
  // Without gravity the tube's gas at its low end stays at rest until the
  // rarefaction arrives (t = 0.5 / 1.18 > 0.1); with it, it falls.
  EXPECT_LT(fields[0][1].values[0], -0.2);
}

// ---- Passive scalars in 3D: the split kernels' ScalarPrimitives,
// ScalarFluxes and ScalarUpdate, one source for 2D and 3D blocks ----

namespace {

Params with_scalars(Params p, std::vector<std::function<double(double, double, double)>> initial) {
  p.fused_stage = false;
  p.scalars = int(initial.size());
  p.scalar_initial = std::move(initial);
  return p;
}

}  // namespace

// A 2D case with two scalars extruded over 4 planes: the gas's and the
// scalars' densities on every plane the bits of the 2D solver's (the z
// scalar fluxes of a z-independent state cancel exactly).
TEST(Euler3dScalars, ExtrudedTwoDimensionalCaseWithScalarsIsItsBitsOnEveryPlane) {
  const long nz = 4;
  const auto band = [](double, double y, double) { return std::fabs(y - 0.5) < 0.25 ? 1.0 : 0.0; };
  const auto wave = [](double x, double, double) { return 0.5 + 0.5 * std::sin(2 * M_PI * x); };
  const Params p =
      with_scalars(base("kh_mcnally", 24, 20, nz, {"kh_mcnally.z_max=4", "euler.riemann=hllc", "euler.integrator=rk3"}),
                   {band, wave});
  EXPECT_EQ(extruded_differences(p, nz, 20), 0);
}

// A scalar of concentration 1 is the density itself, bit for bit, in a
// blast between walls, outflow and periodic sides, and scalars leave the
// gas alone: its state is that of the run without them, bit for bit.
TEST(Euler3dScalars, AScalarOfOneIsTheDensityAndTheGasIsUntouched) {
  // Forward Euler too: its snapshot primitives go to an array of their own.
  for (const char* integrator : {"euler.integrator=euler", "euler.integrator=rk3"}) {
    const std::vector<std::string> keys = {"boundary.x_lo=reflecting", "boundary.x_hi=reflecting",
                                           "boundary.y_lo=outflow",    "boundary.y_hi=outflow",
                                           "euler.riemann=hllc",       integrator,
                                           "blast.radius=0.3"};
    const auto one = [](double, double, double) { return 1.0; };
    const auto low = [](double, double, double z) { return z < 0.4 ? 1.0 : 0.0; };
    Solver<double, 3> with(with_scalars(base("blast", 14, 12, 10, keys), {one, low}));
    Solver<double, 3> without(with_scalars(base("blast", 14, 12, 10, keys), {}));
    run_to(with, 0.03);
    run_to(without, 0.03);
    const auto a = with.state(), b = without.state();
    ASSERT_EQ(a.size(), NCONS + 2u);
    ASSERT_EQ(b.size(), size_t(NCONS));
    const size_t n = a[0].values.size();
    for (int v = 0; v < NCONS; ++v)
      EXPECT_EQ(std::memcmp(a[v].values.data(), b[v].values.data(), n * sizeof(double)), 0)
          << integrator << ", variable " << v;
    EXPECT_EQ(std::memcmp(a[NCONS].values.data(), a[IDN].values.data(), n * sizeof(double)), 0)
        << integrator << ": rho * 1 is not rho";
    EXPECT_EQ(a[NCONS].name, "scalar_1");
    const auto f = with.fields();  // rho, vx, vy, vz, p, s1, s2
    ASSERT_EQ(f.size(), 7u);
    EXPECT_EQ(f[5].name, "s1");
    for (double c : f[5].values) ASSERT_EQ(c, 1.0) << integrator;
    const auto g = without.fields();
    for (int v = 0; v < 5; ++v)
      EXPECT_EQ(std::memcmp(f[v].values.data(), g[v].values.data(), n * sizeof(double)), 0)
          << integrator << ", field " << f[v].name;
  }
}

// In a periodic box each scalar's total is conserved to round-off while the
// blast stirs it along all three directions, and a concentration between 0
// and 1 stays there (the limited reconstruction makes no new extrema).
TEST(Euler3dScalars, TotalsConservedAndBoundsKeptInAPeriodicBox) {
  const auto layer = [](double, double, double z) { return std::fabs(z - 0.5) < 0.2 ? 1.0 : 0.0; };
  const auto wave = [](double x, double y, double z) { return 0.5 + 0.5 * std::sin(2 * M_PI * (x + y - z)); };
  Solver<double, 3> s(
      with_scalars(base("blast", 12, 10, 8, {"blast.radius=0.3", "euler.integrator=rk3"}), {layer, wave}));
  s.set_initial_state();
  const auto start = s.scalar_totals();
  ASSERT_EQ(start.size(), 2u);
  for (int k = 0; k < 40; ++k) s.advance(s.allowed_dt());
  const auto end = s.scalar_totals();
  // 1e-13 relative: the round-off of sums over 960 cells, whose order
  // depends on the thread count (1.3e-14 seen on 12^3 with one thread).
  for (int k = 0; k < 2; ++k) EXPECT_NEAR(end[k], start[k], 1e-13 * start[k]) << "scalar " << k + 1;
  const auto f = s.fields();
  bool moved = false;
  const auto f0 = [&] {
    Solver<double, 3> t(with_scalars(base("blast", 12, 10, 8, {"blast.radius=0.3"}), {layer, wave}));
    t.set_initial_state();
    return t.fields();
  }();
  for (int k = 5; k < 7; ++k)
    for (size_t c = 0; c < f[k].values.size(); ++c) {
      ASSERT_GE(f[k].values[c], -1e-14) << f[k].name;
      ASSERT_LE(f[k].values[c], 1 + 1e-14) << f[k].name;
      moved = moved || std::fabs(f[k].values[c] - f0[k].values[c]) > 1e-3;
    }
  EXPECT_TRUE(moved) << "the blast did not move the scalars";
}

// Sod's tube along x, y and z carrying a scalar that is 1 on the tube's
// left half: its concentration along each axis is the same bits (the
// scalar fluxes' x, y and z kernels one computation in three orientations),
// and the contact has carried it to the right of the diaphragm.
TEST(Euler3dScalars, SodAlongXYAndZCarriesTheScalarAsOneProfileBitForBit) {
  const long n = 64;
  const auto fields = tube_along_axes(n, 0.1, sod_keys, [](Params& p, int axis) {
    const auto left = [axis](double x, double y, double z) { return (axis == 0 ? x : axis == 1 ? y : z) < 0.5; };
    p = with_scalars(p, {[left](double x, double y, double z) { return left(x, y, z) ? 1.0 : 0.0; }});
  });
  for (int axis = 1; axis < 3; ++axis)
    for (long m = 0; m < n; ++m)
      ASSERT_TRUE(same_bits(fields[0][5].values[m], fields[axis][5].values[m * tube_stride[axis]]))
          << "s1, axis " << axis << ", cell " << m;
  // The contact (speed 0.93 for Sod's states) is near x = 0.59 at t = 0.1.
  EXPECT_GT(fields[0][5].values[36], 0.9);  // x = 0.57
  EXPECT_LT(fields[0][5].values[40], 0.1);  // x = 0.63
}

// ---- Inflow sides (inflow_ghosts.hpp): C++ states, as in test_euler2d.cpp,
// so that a build without muparser runs them ----

namespace {

// Side s of the box held at (rho, 0, 0, 0, p) everywhere on it.
void hold_side(Params& p, int s, double rho, double pressure) {
  (s < 4 ? p.boundary[s] : p.boundary_z[s - 4]) = cfd::BoundaryKind::inflow;
  p.inflow[s].state = [=](double, double, double, double) {
    return cfd::gas::Primitive<double>{rho, 0, 0, 0, pressure};
  };
  p.inflow[s].applies = [](double, double, double, double) { return true; };
}

}  // namespace

// Sod's tube along x, y and z with both ends held at the tube's end states:
// before the waves reach the ends, outflow copies those states there, so
// the ghosts (U as a cell holds it) give outflow's bits, in the fused stage
// and in the split kernels, along each axis (sides x, y and z).
TEST(Euler3dInflow, TubeEndsHeldAtTheirStatesAreOutflowBitForBitAlongXYAndZ) {
  const long n = 48;
  for (const bool fused : {true, false}) {
    const auto split = [fused](Params& p, int) { p.fused_stage = fused; };
    const auto outflow = tube_along_axes(n, 0.08, sod_keys, split);
    const auto held = tube_along_axes(n, 0.08, sod_keys, [&](Params& p, int axis) {
      split(p, axis);
      hold_side(p, 2 * axis, 1, 1);
      hold_side(p, 2 * axis + 1, 0.125, 0.1);
    });
    for (int axis = 0; axis < 3; ++axis)
      for (size_t v = 0; v < outflow[axis].size(); ++v) {
        const auto& a = outflow[axis][v].values;
        const auto& b = held[axis][v].values;
        ASSERT_EQ(a.size(), b.size());
        EXPECT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(double)), 0)
            << "axis " << axis << ", field " << v << (fused ? ", fused" : ", split");
      }
    // The waves moved (the comparison is not of two initial states).
    EXPECT_NE(outflow[2][0].values[(n / 2) * tube_stride[2]], 0.125);
  }
}

// A 2D case with three inflow sides (a steady x_lo, a y_lo that holds its
// state left of x = 0.3 and reflects right of it, a y_hi whose state moves
// with t) extruded over 4 planes: every plane the 2D split kernels' bits
// after 20 RK3 steps, through the 3D fused stage and the 3D split kernels.
TEST(Euler3dInflow, ExtrudedTwoDimensionalCaseWithInflowSidesIsItsBitsOnEveryPlane) {
  const long nz = 4;
  for (const bool fused : {true, false}) {
    Params p = base("kh_mcnally", 24, 20, nz, {"kh_mcnally.z_max=4", "euler.riemann=hllc", "euler.integrator=rk3"});
    p.fused_stage = fused;
    p.boundary[1] = cfd::BoundaryKind::outflow;
    hold_side(p, 0, 1.5, 2.5);
    p.inflow[0].state = [](double, double y, double, double) {
      return cfd::gas::Primitive<double>{1.5, 0.4, 0.1 * y, 0, 2.5};
    };
    hold_side(p, 2, 2, 3);
    p.inflow[2].applies = [](double x, double, double, double) { return x < 0.3; };
    p.inflow[2].elsewhere = cfd::BoundaryKind::reflecting;
    hold_side(p, 3, 1, 2.5);
    p.inflow[3].steady = false;
    p.inflow[3].state = [](double x, double, double, double t) {
      return cfd::gas::Primitive<double>{1 + 0.5 * std::sin(2 * M_PI * (x - 3 * t)), -0.2, 0, 0, 2.5};
    };
    EXPECT_EQ(extruded_differences(p, nz, 20), 0) << (fused ? "fused" : "split");
  }
}

// A z side whose state reads t is evaluated at each stage's time (t; t + dt
// for RK2; t, t + dt, t + dt/2 for SSP-RK3), and a steady z side once.
TEST(Euler3dInflow, EvaluatedAtEachStagesTimeOrOnceWhenSteady) {
  for (const char* integrator : {"euler", "rk2", "rk3"})
    for (const bool fused : {true, false}) {
      Params p = base("sod_z", 4, 4, 16, {std::string("euler.integrator=") + integrator});
      p.fused_stage = fused;
      hold_side(p, 4, 1, 1);
      hold_side(p, 5, 0.125, 0.1);
      auto times = std::make_shared<std::vector<double>>();
      p.inflow[4].steady = false;
      p.inflow[4].state = [times](double x, double y, double, double t) {
        if (x < 0.25 && y < 0.25 && (times->empty() || times->back() != t)) times->push_back(t);  // one column's
        return cfd::gas::Primitive<double>{1, 0, 0, 0, 1};
      };
      auto steady_calls = std::make_shared<long>(0);
      const auto steady = p.inflow[5].state;
      p.inflow[5].state = [steady, steady_calls](double x, double y, double z, double t) {
        ++*steady_calls;
        return steady(x, y, z, t);
      };
      Solver<double, 3> s(p);
      s.set_initial_state();
      const long ghosts = 2 * (4 + 4) * (4 + 4);  // two layers of the 4 x 4 side and its margins of 2
      EXPECT_EQ(*steady_calls, ghosts);
      times->clear();
      const double dt = 1e-3;
      s.advance(dt);
      s.advance(dt);
      const std::vector<double> stages = integrator == std::string("euler") ? std::vector<double>{0}
                                         : integrator == std::string("rk2") ? std::vector<double>{0, 1}
                                                                            : std::vector<double>{0, 1, 0.5};
      std::vector<double> expected;
      for (double t0 : {0.0, dt})
        for (double stage : stages) expected.push_back(t0 + stage * dt);
      expected.erase(std::unique(expected.begin(), expected.end()), expected.end());
      EXPECT_EQ(*times, expected) << integrator << (fused ? " fused" : " split");
      EXPECT_EQ(*steady_calls, ghosts) << "a steady side is computed once";
    }
}

// An inflow state that is not physical is refused at the start with the
// side's key and the ghost cell's (x, y, z).
TEST(Euler3dInflow, AStateThatIsNotPhysicalIsRefusedWithTheKeyAndThePosition) {
  Params p = base("sod_z", 4, 4, 16, {});
  hold_side(p, 4, 1, 1);
  hold_side(p, 5, 0.125, 0.1);
  p.inflow[5].state = [](double, double, double, double) { return cfd::gas::Primitive<double>{-1, 0, 0, 0, 1}; };
  Solver<double, 3> s(p);
  try {
    s.set_initial_state();
    FAIL() << "a negative inflow density was taken";
  } catch (const cfd::ConfigError& e) {
    EXPECT_NE(
        std::string(e.what()).find("boundary.z_hi (inflow_z_hi.rho) is not physical: the ghost cell at (x, y, z) = ("),
        std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("has density -1.0"), std::string::npos) << e.what();
  }
}

// Where each side's values land: a uniform gas at rest in a box of walls,
// one side inflow where its first other axis is below 0.5 (a wall
// elsewhere), its ghosts' density varying along its second other axis at a
// pressure above the gas's. After one forward Euler step only the cells
// beside that part of the side have changed (the walls and the uniform gas
// give exact zeros), each row along the first axis the same bits and the
// rows along the second different: a side whose values did not reach the
// halo, or whose slab were read transposed, fails. All six sides, the
// fused stage and the split kernels.
TEST(Euler3dInflow, EachSidesValuesLandOnItsGhostCellsOnlyWhereTheyApply) {
  const long n = 8;
  for (int s = 0; s < 6; ++s)
    for (const bool fused : {true, false}) {
      Params p = base("blast", n, n, n, {"euler.integrator=euler", "euler.riemann=hllc"});
      p.initial = [](double, double, double, double) { return cfd::gas::Primitive<double>{1, 0, 0, 0, 1}; };
      p.fused_stage = fused;
      for (auto& b : p.boundary) b = cfd::BoundaryKind::reflecting;
      p.boundary_z = {cfd::BoundaryKind::reflecting, cfd::BoundaryKind::reflecting};
      const int d = s / 2, first = d == 0 ? 1 : 0, second = d == 2 ? 1 : 2;  // the side's other axes, lower first
      hold_side(p, s, 1, 2);
      p.inflow[s].state = [second](double x, double y, double z, double) {
        const double at[3] = {x, y, z};
        return cfd::gas::Primitive<double>{2 + at[second], 0, 0, 0, 2};
      };
      p.inflow[s].applies = [first](double x, double y, double z, double) {
        const double at[3] = {x, y, z};
        return at[first] < 0.5;
      };
      p.inflow[s].elsewhere = cfd::BoundaryKind::reflecting;
      Solver<double, 3> solver(p);
      solver.set_initial_state();
      solver.advance(1e-3);
      const auto fields = solver.fields();
      const auto rho = [&](const long(&c)[3]) { return fields[0].values[(c[2] * n + c[1]) * n + c[0]]; };
      const std::string where = "side " + std::to_string(s) + (fused ? ", fused" : ", split");
      for (long k = 0; k < n; ++k)
        for (long j = 0; j < n; ++j)
          for (long i = 0; i < n; ++i) {
            const long index[3] = {i, j, k};
            const bool beside = index[d] == (s % 2 == 0 ? 0 : n - 1);
            const double value = rho(index);
            if (!beside || index[first] >= n / 2) {
              ASSERT_EQ(value, 1.0) << where << ": cell " << i << " " << j << " " << k;
              continue;
            }
            ASSERT_GT(value, 1.0) << where << ": cell " << i << " " << j << " " << k;
            long other[3] = {i, j, k};
            other[first] = 0;  // the row's first cell along the first axis
            ASSERT_TRUE(same_bits(value, rho(other))) << where;
          }
      // Along the second axis the ghosts' density differs, and so do the cells.
      long low[3] = {0, 0, 0}, high[3] = {0, 0, 0};
      low[d] = high[d] = s % 2 == 0 ? 0 : n - 1;
      high[second] = n - 1;
      EXPECT_NE(rho(low), rho(high)) << where;
    }
}
