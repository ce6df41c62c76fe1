// The navier_stokes solver (physics/navier_stokes): the KEEP two-point flux
// is consistent and symmetric; the viscous operator converges to mu lap(v)
// at the scheme's order in 2D and 3D, the convective one on an exact
// density wave; KEEP's convective terms conserve kinetic energy to
// round-off and the kinetic energy's drift of the inviscid Taylor-Green
// vortex falls with the step at RK4's order; KEEP-PE keeps a uniform
// pressure uniform; the 2D vortex decays as exp(-4 nu t); Couette flow
// converges at second order; a 2D case extruded along z, walls included,
// gives the same bits.
#include "physics/navier_stokes/navier_stokes_solver.hpp"
#include "physics/sod/keep_flux.hpp"
#include "physics/solvers.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

using namespace cfd::navier_stokes;

namespace {

Params base(std::vector<std::string> keys) { return params(cfd::default_case("navier_stokes", keys)); }

std::string n(const char* key, long value) { return std::string(key) + "=" + std::to_string(value); }

template <class S>
void run_to(S& s, double end, double fixed_dt = 0) {
  while (s.time() < end * (1 - 1e-14)) {
    const double dt = fixed_dt > 0 ? fixed_dt : s.allowed_dt();
    ASSERT_GT(dt, 0);
    s.advance(std::min(dt, end - s.time()));
  }
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

double max_abs(const std::vector<double>& v) {
  double m = 0;
  for (double x : v) m = std::max(m, std::fabs(x));
  return m;
}

}  // namespace

// f(a, a) is the Euler flux of a (consistency), f(a, b) = f(b, a), for KEEP
// and KEEP-PE; the sod tube's flux is the same function.
TEST(NavierStokes, KeepPairFluxIsConsistentAndSymmetric) {
  using Node = cfd::gas::KeepNode<double, 3>;
  const double gamma = 1.4, R = 0.7;
  const Node a{1.3, {0.4, -0.2, 0.7}, 2.1, 2.1 / (1.3 * R)}, b{0.8, {-0.3, 0.5, 0.1}, 1.4, 1.4 / (0.8 * R)};
  for (bool pe : {false, true}) {
    const auto f = pe ? cfd::gas::keep_pair_flux<true>(a, a, R, gamma) : cfd::gas::keep_pair_flux(a, a, R, gamma);
    const double E = a.p / (gamma - 1) + 0.5 * a.rho * (0.16 + 0.04 + 0.49);
    EXPECT_NEAR(f.mass, a.rho * a.v[0], 1e-15);
    EXPECT_NEAR(f.momentum[0], a.rho * a.v[0] * a.v[0] + a.p, 1e-15);
    EXPECT_NEAR(f.momentum[1], a.rho * a.v[0] * a.v[1], 1e-15);
    EXPECT_NEAR(f.momentum[2], a.rho * a.v[0] * a.v[2], 1e-15);
    EXPECT_NEAR(f.energy, a.v[0] * (E + a.p), 1e-14);
    const auto ab = pe ? cfd::gas::keep_pair_flux<true>(a, b, R, gamma) : cfd::gas::keep_pair_flux(a, b, R, gamma);
    const auto ba = pe ? cfd::gas::keep_pair_flux<true>(b, a, R, gamma) : cfd::gas::keep_pair_flux(b, a, R, gamma);
    EXPECT_TRUE(same_bits(ab.mass, ba.mass));
    for (int k = 0; k < 3; ++k) EXPECT_TRUE(same_bits(ab.momentum[k], ba.momentum[k])) << k;
    // ((C/2) u_a) u_b and ((C/2) u_b) u_a may round apart.
    EXPECT_NEAR(ab.energy, ba.energy, 1e-15 * std::fabs(ab.energy));
  }
  // The wide stencils are consistent: 2 sum_l l a_l = 1; the face weights
  // interpolate a constant (2 sum_l b_l = 1) and differentiate a line
  // (sum_l c_l (2 l - 1) = 1); the viscous weights keep a uniform flux,
  // e_0 + 2 sum_k e_k = 1.
  using cfd::gas::FaceStencil;
  using cfd::gas::WideStencil;
  EXPECT_NEAR(2 * (1 * WideStencil<1>::a(1)), 1.0, 1e-15);
  EXPECT_NEAR(2 * (1 * WideStencil<2>::a(1) + 2 * WideStencil<2>::a(2)), 1.0, 1e-15);
  EXPECT_NEAR(2 * (1 * WideStencil<3>::a(1) + 2 * WideStencil<3>::a(2) + 3 * WideStencil<3>::a(3)), 1.0, 1e-15);
  EXPECT_NEAR(2 * (FaceStencil<2>::b(1) + FaceStencil<2>::b(2)), 1.0, 1e-15);
  EXPECT_NEAR(2 * (FaceStencil<3>::b(1) + FaceStencil<3>::b(2) + FaceStencil<3>::b(3)), 1.0, 1e-15);
  EXPECT_NEAR(FaceStencil<2>::c(1) + 3 * FaceStencil<2>::c(2), 1.0, 1e-15);
  EXPECT_NEAR(FaceStencil<3>::c(1) + 3 * FaceStencil<3>::c(2) + 5 * FaceStencil<3>::c(3), 1.0, 1e-15);
  using U4 = CellUpdate<double, 3, 2>;
  using U6 = CellUpdate<double, 3, 3>;
  EXPECT_NEAR(U4::deconvolution(0) + 2 * U4::deconvolution(1), 1.0, 1e-15);
  EXPECT_NEAR(U6::deconvolution(0) + 2 * (U6::deconvolution(1) + U6::deconvolution(2)), 1.0, 1e-15);
}

// The tube's KEEP flux goes through the shared two-point flux and keeps the
// original's bits: against the original CUDA Fortran study's formulas as
// they stood in physics/sod/keep_flux.hpp before (written out here), on
// random states, in FP64 and FP32.
template <class Real>
void expect_tube_flux_unchanged() {
  const cfd::sod::KeepGas<Real> g{
      Real(1.4),
      Real(287.03),
      Real(1.4 * 287.03 / 0.4),
      Real(0.72),
      {cfd::gas::ViscosityLaw::sutherland, Real(1.716e-5), Real(273.2), Real(111), Real(0)}};
  unsigned state = 12345;
  auto uniform = [&](double lo, double hi) {
    state = state * 1103515245u + 12345u;
    return Real(lo + (hi - lo) * ((state >> 8) & 0xffff) / 65535.0);
  };
  for (int n = 0; n < 1000; ++n) {
    cfd::sod::NodeState<Real> a{uniform(0.1, 2), uniform(-300, 300), uniform(1e4, 2e5), uniform(100, 400), Real(0)};
    cfd::sod::NodeState<Real> b{uniform(0.1, 2), uniform(-300, 300), uniform(1e4, 2e5), uniform(100, 400), Real(0)};
    a.mu = g.mu(a.T), b.mu = g.mu(b.T);
    const Real dx = uniform(1e-5, 1e-3);
    const auto f = cfd::sod::keep_flux(a, b, dx, g);
    const Real c = Real(0.25) * (a.rho + b.rho) * (a.u + b.u);
    const Real e2 = Real(0.5) * c * (a.u + b.u) + Real(0.5) * (a.p + b.p);
    const Real e3 = c * Real(0.5) * g.R * (a.T + b.T) / (g.gamma - Real(1)) + Real(0.5) * c * a.u * b.u +
                    Real(0.5) * (a.u * b.p + b.u * a.p);
    ASSERT_EQ(std::memcmp(&f.e1, &c, sizeof(Real)), 0) << n;
    ASSERT_EQ(std::memcmp(&f.e2, &e2, sizeof(Real)), 0) << n;
    ASSERT_EQ(std::memcmp(&f.e3, &e3, sizeof(Real)), 0) << n;
  }
}
TEST(NavierStokes, TubeKeepFluxKeepsTheOriginalsBits) {
  expect_tube_flux_unchanged<double>();
  expect_tube_flux_unchanged<float>();
}

// The viscous operator alone against mu lap(v) for the Taylor-Green
// velocity fields, which are divergence-free (lap v = -2 v in 2D, -3 v in
// 3D): the largest error falls at the scheme's order, 2, 4 and 6.
TEST(NavierStokes, ViscousOperatorConvergesAtTheSchemesOrderIn2dAnd3d) {
  for (const bool three_d : {false, true})
    for (const int order : {2, 4, 6}) {
      std::vector<double> errors;
      const std::vector<long> sizes = three_d ? std::vector<long>{12, 24} : std::vector<long>{16, 32, 64};
      for (const long cells : sizes) {
        const Params p = base({three_d ? "navier_stokes.problem=taylor_green" : "navier_stokes.problem=taylor_green_2d",
                               n("grid.nx", cells), n("grid.ny", cells), n("grid.nz", three_d ? cells : 1),
                               n("navier_stokes.order", order)});
        double error = 0;
        if (three_d) {
          Solver<double, 3> s(p);
          s.set_initial_state();
          const auto L = s.right_hand_side(viscous);
          const auto U = s.state();
          for (size_t c = 0; c < L[1].size(); ++c)
            for (int m = 0; m < 2; ++m) {
              const double v = U[1 + m].values[c] / U[0].values[c];
              error = std::max(error, std::fabs(L[1 + m][c] - p.viscosity.mu0 * -3 * v));
            }
        } else {
          Solver<double, 2> s(p);
          s.set_initial_state();
          const auto L = s.right_hand_side(viscous);
          const auto U = s.state();
          for (size_t c = 0; c < L[1].size(); ++c)
            for (int m = 0; m < 2; ++m)
              error = std::max(error, std::fabs(L[1 + m][c] - p.viscosity.mu0 * -2 * U[1 + m].values[c]));
        }
        errors.push_back(error);
      }
      for (size_t k = 1; k < errors.size(); ++k) {
        const double measured = std::log2(errors[k - 1] / errors[k]);
        EXPECT_GT(measured, order - 0.15)
            << (three_d ? "3D" : "2D") << " order " << order << ": errors " << errors[k - 1] << " -> " << errors[k];
      }
    }
}

// The convective operator on the exact density wave (inviscid, along
// (1, 0.5)): the L1 density error after t = 0.5 falls at the scheme's order.
TEST(NavierStokes, ConvectiveOperatorConvergesOnTheDensityWave) {
  for (const int order : {2, 4, 6}) {
    std::vector<double> errors;
    for (const long cells : {16L, 32L, 64L}) {
      const Params p = base({"navier_stokes.problem=density_wave", "viscosity.law=none", "navier_stokes.split=keep_pe",
                             "density_wave.amplitude=0.2", n("grid.nx", cells), n("grid.ny", cells), "grid.nz=1",
                             n("navier_stokes.order", order), "time.cfl=0.25"});
      Solver<double, 2> s(p);
      s.set_initial_state();
      run_to(s, 0.5);
      const auto rho = s.state()[0].values;
      double error = 0;
      for (long j = 0; j < cells; ++j)
        for (long i = 0; i < cells; ++i)
          error += std::fabs(rho[j * cells + i] - p.initial(s.centre(0, i), s.centre(1, j), 0, 0.5).rho);
      errors.push_back(error / (cells * cells));
    }
    for (size_t k = 1; k < errors.size(); ++k)
      EXPECT_GT(std::log2(errors[k - 1] / errors[k]), order - 0.3)
          << "order " << order << ": " << errors[k - 1] << " -> " << errors[k];
  }
}

// KEEP's convective terms conserve the kinetic energy: their dE_k/dt over
// the box is round-off at every state of the inviscid Taylor-Green vortex,
// while the pressure work is not; E_k(t = 2) with steps dt, dt/2, dt/4 (16^3,
// fourth order, RK4; dt = 0.01 is a Courant sum of 1.0) differs by amounts
// falling at RK4's order or faster (ratio 16 or more). The entropy total
// changes by 1.3e-11 of itself over t = 2 whatever the step: KEEP's
// semi-discrete entropy production (dS/dt = -3.5e-8 on S = 2647 at 16^3), a
// property of the spatial scheme, not the integrator.
TEST(NavierStokes, InviscidTaylorGreenKeepsKineticEnergyToTheIntegratorsOrder) {
  const Params p = base({"navier_stokes.problem=taylor_green", "viscosity.law=none", "grid.nx=16", "grid.ny=16",
                         "grid.nz=16", "navier_stokes.order=4", "navier_stokes.integrator=rk4"});
  std::vector<double> ke;
  for (const double dt : {0.01, 0.005, 0.0025}) {
    Solver<double, 3> s(p);
    s.set_initial_state();
    const Diagnostics d0 = s.diagnostics();
    EXPECT_LT(std::fabs(d0.ke_rate_convection), 1e-14);
    run_to(s, 2.0, dt);
    const Diagnostics d = s.diagnostics();
    std::printf(
        "dt %g: E_k %.17g (from %.17g), entropy %.17g (from %.17g), rates: convection %.3e pressure %.3e "
        "entropy %.3e\n",
        dt, d.kinetic_energy, d0.kinetic_energy, d.entropy, d0.entropy, d.ke_rate_convection, d.ke_rate_pressure,
        d.entropy_rate);
    EXPECT_LT(std::fabs(d.ke_rate_convection), 1e-14) << "dt " << dt;
    EXPECT_GT(std::fabs(d.ke_rate_pressure), 1e8 * std::fabs(d.ke_rate_convection));
    EXPECT_NEAR(d.energy, d0.energy, 1e-13 * d0.energy);  // total energy: conservative fluxes
    EXPECT_NEAR(d.entropy, d0.entropy, 1e-10 * std::fabs(d0.entropy));
    ke.push_back(d.kinetic_energy);
  }
  const double ke_ratio = (ke[0] - ke[1]) / (ke[1] - ke[2]);
  // RK4: at least fourth order (measured 22: the energy error of RK4 on a
  // conservative semi-discretisation starts above its asymptotic order).
  EXPECT_GT(std::log2(ke_ratio), 3.8) << ke[0] << " " << ke[1] << " " << ke[2];
  EXPECT_LT(std::log2(ke_ratio), 5.0) << ke[0] << " " << ke[1] << " " << ke[2];
}

// A density wave at uniform pressure and velocity: KEEP-PE keeps p uniform
// to round-off after 200 steps in 2D and 3D; KEEP lets it oscillate.
TEST(NavierStokes, PressureEquilibriumWithKeepPe) {
  for (const long nz : {1L, 12L}) {
    double spread[2];
    for (const bool pe : {true, false}) {
      const Params p =
          base({"navier_stokes.problem=density_wave", "viscosity.law=none", "grid.nx=16", "grid.ny=16",
                n("grid.nz", nz), std::string("navier_stokes.split=") + (pe ? "keep_pe" : "keep"), "time.steps=200"});
      std::vector<double> pressure;
      auto pressures = [&](const auto& fields) {
        for (const auto& f : fields)
          if (f.name == "p") pressure = f.values;
      };
      if (nz > 1) {
        Solver<double, 3> s(p);
        s.set_initial_state();
        for (int k = 0; k < 200; ++k) s.advance(s.allowed_dt());
        pressures(s.fields());
      } else {
        Solver<double, 2> s(p);
        s.set_initial_state();
        for (int k = 0; k < 200; ++k) s.advance(s.allowed_dt());
        pressures(s.fields());
      }
      const auto [lo, hi] = std::minmax_element(pressure.begin(), pressure.end());
      spread[pe ? 0 : 1] = *hi - *lo;
    }
    EXPECT_LT(spread[0], 1e-13) << "nz " << nz;
    EXPECT_GT(spread[1], 1e-6) << "nz " << nz;
  }
}

// The 2D Taylor-Green vortex at Re 100, M 0.05 (32^2, fourth order): the
// kinetic energy at t = 1 within 0.1% of exp(-4 nu t), and dE_k/dt of the
// operator within 0.5% of 2 nu <enstrophy>.
TEST(NavierStokes, TaylorGreen2dDecaysAtTheViscousRate) {
  const Params p = base({"navier_stokes.problem=taylor_green_2d", "grid.nx=32", "grid.ny=32", "grid.nz=1"});
  Solver<double, 2> s(p);
  s.set_initial_state();
  const double e0 = s.diagnostics().kinetic_energy;
  run_to(s, 1.0);
  const Diagnostics d = s.diagnostics();
  const double expected = e0 * std::exp(-4 * p.viscosity.mu0 * 1.0);
  EXPECT_NEAR(d.kinetic_energy / expected, 1.0, 1e-3);
  EXPECT_NEAR(d.dissipation_rate / d.viscous_dissipation, 1.0, 5e-3);
  EXPECT_LT(std::fabs(d.ke_rate_convection), 1e-13);
}

namespace {

// The steady Couette temperature error (max over the cells) at ny cells:
// walls at y = 0 (rest, T = 1) and y = 1 (vx = 1; T = 1, or adiabatic),
// from the linear profiles to t = 10 (about ten relaxation times).
double couette_error(long ny, int order, bool adiabatic = false, const std::string& flux = "keep") {
  const Params p =
      base({"navier_stokes.problem=couette", "boundary.y_lo=isothermal_wall",
            std::string("boundary.y_hi=") + (adiabatic ? "adiabatic_wall" : "isothermal_wall"), "wall_y_hi.vx=1",
            "viscosity.mu=0.1", "grid.nx=4", n("grid.ny", ny), "grid.nz=1", n("navier_stokes.order", order),
            "couette.start=linear", "navier_stokes.convective_flux=" + flux});
  Solver<double, 2> s(p);
  s.set_initial_state();
  run_to(s, adiabatic ? 20.0 : 10.0);
  double error = 0, velocity_error = 0;
  const double heating = p.Pr / p.cp();
  for (const auto& f : s.fields())
    for (long j = 0; j < ny; ++j) {
      const double y = s.centre(1, j);
      const double exact = adiabatic ? 1 + heating * (y - y * y / 2) : 1 + heating / 2 * y * (1 - y);
      for (long i = 0; i < 4; ++i) {
        if (f.name == "T") error = std::max(error, std::fabs(f.values[j * 4 + i] - exact));
        if (f.name == "vx") velocity_error = std::max(velocity_error, std::fabs(f.values[j * 4 + i] - y));
      }
    }
  // Linear: exact for the scheme, up to what is left of the transient (the
  // adiabatic wall's relaxes four times slower).
  if (!adiabatic) EXPECT_LT(velocity_error, 1e-8) << "ny " << ny;
  return error;
}

}  // namespace

// Couette flow between walls across x (2D, the walls moving along y) and
// across z (3D, moving along x) against the shipped orientation, walls
// across y: after 400 steps of the same dt the temperature and the
// along-wall velocity at each distance from the lower wall are the same
// bits (the directions along the walls add exact zeros). Walls are generic
// code for every side; this holds the x and z sides to the y sides' results.
TEST(NavierStokes, CouetteAcrossXAndZGivesTheProfileAcrossY) {
  const long cells = 24;
  const std::vector<std::string> common = {"navier_stokes.problem=couette", "viscosity.mu=0.1", "couette.start=linear",
                                           "time.dt=0.002"};
  const auto with = [&](std::vector<std::string> more) {
    more.insert(more.end(), common.begin(), common.end());
    return base(more);
  };
  const auto profile = [&](const auto& fields, const char* name, long stride) {
    std::vector<double> out;
    for (const auto& f : fields)
      if (f.name == name)
        for (long c = 0; c < cells; ++c) out.push_back(f.values[c * stride]);
    return out;
  };
  Solver<double, 2> y(with({"boundary.y_lo=isothermal_wall", "boundary.y_hi=isothermal_wall", "wall_y_hi.vx=1",
                            "wall_y_hi.T=1.5", "grid.nx=4", n("grid.ny", cells), "grid.nz=1"}));
  Solver<double, 2> x(with({"boundary.x_lo=isothermal_wall", "boundary.x_hi=isothermal_wall", "wall_x_hi.vy=1",
                            "wall_x_hi.T=1.5", n("grid.nx", cells), "grid.ny=4", "grid.nz=1"}));
  Solver<double, 3> z(with({"boundary.z_lo=isothermal_wall", "boundary.z_hi=isothermal_wall", "wall_z_hi.vx=1",
                            "wall_z_hi.T=1.5", "grid.nx=4", "grid.ny=4", n("grid.nz", cells)}));
  y.set_initial_state();
  x.set_initial_state();
  z.set_initial_state();
  for (int step = 0; step < 400; ++step) {
    y.advance(0.002);
    x.advance(0.002);
    z.advance(0.002);
  }
  const auto ty = profile(y.fields(), "T", 4), tx = profile(x.fields(), "T", 1), tz = profile(z.fields(), "T", 16);
  const auto uy = profile(y.fields(), "vx", 4), ux = profile(x.fields(), "vy", 1), uz = profile(z.fields(), "vx", 16);
  ASSERT_EQ(ty.size(), size_t(cells));
  ASSERT_EQ(tx.size(), size_t(cells));
  ASSERT_EQ(tz.size(), size_t(cells));
  long differ = 0;
  for (long c = 0; c < cells; ++c)
    differ += !same_bits(ty[c], tx[c]) + !same_bits(ty[c], tz[c]) + !same_bits(uy[c], ux[c]) + !same_bits(uy[c], uz[c]);
  EXPECT_EQ(differ, 0) << "T at the middle: " << ty[cells / 2] << " (y), " << tx[cells / 2] << " (x), " << tz[cells / 2]
                       << " (z)";
  // The flow has developed: the velocity profile is no longer the initial
  // linear one everywhere (viscous heating changed the density).
  EXPECT_GT(ty[cells / 2], 1.25 + 1e-6);
}

// Compressible Couette flow with viscous heating: the temperature profile
// converges to the exact parabola at second order (the walls' mirror
// ghosts), with the scheme of order 2 and of order 4, and with an adiabatic
// upper wall.
TEST(NavierStokes, CouetteConvergesAtSecondOrder) {
  for (const int order : {2, 4}) {
    const double e16 = couette_error(16, order), e32 = couette_error(32, order);
    EXPECT_GT(e16 / e32, 3.6) << "order " << order << ": " << e16 << " -> " << e32;
    EXPECT_LT(e32, 3e-5);
  }
  const double e16 = couette_error(16, 2, true), e32 = couette_error(32, 2, true);
  EXPECT_GT(e16 / e32, 3.6) << "adiabatic: " << e16 << " -> " << e32;
}

// The upwind flux (convective_flux: upwind, MUSCL + HLLC at every face but
// the walls') with the viscous terms: Couette flow's temperature converges
// at second order, and the 2D vortex (Re 100, M 0.05) decays at the viscous
// rate, its error in E_k(t = 1) falling at second order or faster (the
// limiter's dissipation, not the viscous terms, dominates it).
TEST(NavierStokes, CouetteAndTheVortexConvergeWithTheUpwindFlux) {
  const double c16 = couette_error(16, 2, false, "upwind"), c32 = couette_error(32, 2, false, "upwind");
  EXPECT_GT(c16 / c32, 3.6) << c16 << " -> " << c32;
  EXPECT_LT(c32, 3e-5);
  std::vector<double> error;
  for (const long cells : {32L, 64L, 128L}) {
    const Params p =
        base({"navier_stokes.problem=taylor_green_2d", n("grid.nx", cells), n("grid.ny", cells), "grid.nz=1",
              "navier_stokes.order=2", "navier_stokes.integrator=rk3", "navier_stokes.convective_flux=upwind"});
    Solver<double, 2> s(p);
    s.set_initial_state();
    const double e0 = s.diagnostics().kinetic_energy;
    run_to(s, 1.0);
    error.push_back(std::fabs(s.diagnostics().kinetic_energy / (e0 * std::exp(-4 * p.viscosity.mu0)) - 1));
  }
  std::printf("upwind vortex: E_k error %.3e, %.3e, %.3e\n", error[0], error[1], error[2]);
  EXPECT_GT(std::log2(error[0] / error[1]), 1.8);
  EXPECT_GT(std::log2(error[1] / error[2]), 1.8);
  EXPECT_LT(error[2], 2e-3);
}

// One source for 2D and 3D: the 2D vortex extruded over 4 planes along z
// gives the 2D state on every plane bit for bit (a fixed step: the 3D
// bound adds the z direction's).
TEST(NavierStokes, ExtrudedTwoDimensionalCaseEqualsTheTwoDimensionalBitForBit) {
  const std::vector<std::string> keys = {"navier_stokes.problem=taylor_green_2d", "grid.nx=24", "grid.ny=20",
                                         "navier_stokes.order=4"};
  std::vector<std::string> flat = keys, deep = keys;
  flat.push_back("grid.nz=1");
  deep.push_back("grid.nz=4");
  Solver<double, 2> two(base(flat));
  Solver<double, 3> three(base(deep));
  two.set_initial_state();
  three.set_initial_state();
  for (int k = 0; k < 20; ++k) two.advance(0.01), three.advance(0.01);
  const auto a = two.state(), b = three.state();
  const size_t plane = a[0].values.size();
  for (int v : {0, 1, 2, 4})
    for (size_t z = 0; z < 4; ++z)
      for (size_t c = 0; c < plane; ++c)
        ASSERT_TRUE(same_bits(a[v].values[c], b[v].values[z * plane + c])) << "component " << v << " plane " << z;
  for (size_t c = 0; c < 4 * plane; ++c) ASSERT_EQ(b[3].values[c], 0.0);
}

// Walls in any dimension: Couette flow between y walls extruded over 4
// planes along z gives the 2D state on every plane bit for bit.
TEST(NavierStokes, ExtrudedCouetteEqualsTheTwoDimensionalBitForBit) {
  const Params flat = base({"navier_stokes.problem=couette", "viscosity.mu=0.1", "boundary.y_lo=isothermal_wall",
                            "boundary.y_hi=isothermal_wall", "wall_y_hi.vx=1", "grid.nx=4", "grid.ny=16", "grid.nz=1",
                            "navier_stokes.order=4"});
  const Params deep = base({"navier_stokes.problem=couette", "viscosity.mu=0.1", "boundary.y_lo=isothermal_wall",
                            "boundary.y_hi=isothermal_wall", "wall_y_hi.vx=1", "grid.nx=4", "grid.ny=16", "grid.nz=4",
                            "navier_stokes.order=4"});
  Solver<double, 2> two(flat);
  Solver<double, 3> three(deep);
  two.set_initial_state();
  three.set_initial_state();
  for (int k = 0; k < 300; ++k) two.advance(1e-3), three.advance(1e-3);
  const auto a = two.state(), b = three.state();
  const size_t plane = a[0].values.size();
  for (int v = 0; v < 5; ++v)
    for (size_t z = 0; z < 4; ++z)
      for (size_t c = 0; c < plane; ++c)
        ASSERT_TRUE(same_bits(a[v].values[c], b[v].values[z * plane + c])) << "component " << v << " plane " << z;
}

// What the keys refuse, naming the key.
TEST(NavierStokes, KeysRefuseWhatDoesNotFit) {
  auto refused = [](std::vector<std::string> keys, const std::string& key) {
    try {
      base(keys);
    } catch (const cfd::ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find(key), std::string::npos) << e.what();
      return true;
    }
    return false;
  };
  EXPECT_TRUE(refused({"navier_stokes.problem=taylor_green", "grid.nz=1"}, "navier_stokes.problem"));
  EXPECT_TRUE(refused({"taylor_green.reynolds=1600", "viscosity.mu=0.01"}, "viscosity.mu"));
  EXPECT_TRUE(refused({"boundary.y_lo=isothermal_wall"}, "boundary.y_lo"));
  EXPECT_TRUE(
      refused({"boundary.x_lo=isothermal_wall", "boundary.x_hi=isothermal_wall", "wall_x_lo.vx=1"}, "wall_x_lo.vx"));
  EXPECT_TRUE(refused({"navier_stokes.problem=couette"}, "boundary.y_lo"));
  EXPECT_TRUE(refused({"viscosity.law=none", "viscosity.mu=0.1"}, "viscosity.mu"));
  EXPECT_FALSE(refused({"navier_stokes.problem=taylor_green_2d", "grid.nz=1"}, ""));
  // A fixed step too small to reach the end time in time.steps' 1e12 steps.
  EXPECT_TRUE(refused({"time.dt=1e-300", "time.end_time=1"},
                      "'time.dt': a step of 1e-300 up to time.end_time 1.0 is "
                      "more than 1e12 steps"));
  EXPECT_FALSE(refused({"time.dt=1e-11", "time.end_time=1"}, ""));
  // A domain whose volume overflows (the totals would be inf).
  EXPECT_TRUE(refused({"navier_stokes.problem=density_wave", "density_wave.x_max=1e200", "density_wave.y_max=1e200"},
                      "'density_wave.y_max': the domain's volume overflows"));
}

// A step far beyond the stable one drives the state non-physical; fault()
// names the step, time and the first bad cell in global (i, j, k) order,
// and is empty while the state is fine.
TEST(NavierStokes, NonPhysicalStateIsFoundWithItsThreeIndices) {
  Solver<double, 3> s(base({"navier_stokes.problem=taylor_green", "grid.nx=8", "grid.ny=8", "grid.nz=8"}));
  s.set_initial_state();
  EXPECT_EQ(s.fault(), "");
  std::string fault;
  for (int step = 0; step < 20 && fault.empty(); ++step) {
    s.advance(5.0);
    fault = s.fault();
  }
  ASSERT_FALSE(fault.empty()) << "twenty steps of dt = 5 (about 100 times the stable one) stayed physical";
  EXPECT_NE(fault.find("non-physical state at step "), std::string::npos) << fault;
  const size_t at = fault.find("cell (i, j, k) = (");
  ASSERT_NE(at, std::string::npos) << fault;
  long i = 0, j = 0, k = 0;
  ASSERT_EQ(std::sscanf(fault.c_str() + at, "cell (i, j, k) = (%ld, %ld, %ld)", &i, &j, &k), 3) << fault;
  EXPECT_TRUE(i >= 1 && i <= 8 && j >= 1 && j <= 8 && k >= 1 && k <= 8) << fault;
}
