// The gas dynamics sod, euler and navier_stokes share (physics/gas/): the
// exact Riemann solver against Toro's tables, the approximate Riemann
// solvers' consistency with the physical flux and the two forms of HLLC
// (each test over every solver of the list), and the integrators' table.
#include "physics/gas/exact_riemann.hpp"
#include "physics/gas/ideal_gas.hpp"
#include "physics/gas/integrators.hpp"
#include "physics/gas/riemann_solvers.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

using cfd::gas::ExactRiemann;

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

// Every solver of the list (riemann_solvers), so that one added is tested.
TEST(RiemannSolvers, ConsistentWithThePhysicalFlux) {
  const cfd::gas::Primitive<double> w{1.3, 0.4, -0.2, 0.1, 2.5};
  const auto f = cfd::gas::flux_x(w, 5.0 / 3.0);
  for (auto solver : cfd::gas::riemann_solvers) {
    SCOPED_TRACE(cfd::gas::riemann_solver_name(solver));
    const auto r = cfd::gas::riemann_flux(solver, w, w, 5.0 / 3.0);
    EXPECT_NEAR(r.rho, f.rho, 1e-14);
    EXPECT_NEAR(r.mx, f.mx, 1e-14);
    EXPECT_NEAR(r.my, f.my, 1e-14);
    EXPECT_NEAR(r.mz, f.mz, 1e-14);
    EXPECT_NEAR(r.energy, f.energy, 1e-14);
  }
}

// Each solver is upwind for a supersonic face: the flux is the upwind
// side's physical flux, whichever way the gas goes.
TEST(RiemannSolvers, SupersonicFacesTakeTheUpwindFlux) {
  using P = cfd::gas::Primitive<double>;
  const double gamma = 1.4;
  for (auto solver : cfd::gas::riemann_solvers) {
    SCOPED_TRACE(cfd::gas::riemann_solver_name(solver));
    if (solver == cfd::gas::RiemannSolver::llf) continue;  // LLF adds dissipation at every speed, by design
    for (double sign : {1.0, -1.0}) {
      const P l{1.0, 5.0 * sign, 0.1, -0.2, 1.0}, r{0.5, 4.5 * sign, -0.3, 0.2, 0.8};
      const auto up = cfd::gas::flux_x(sign > 0 ? l : r, gamma);
      const auto f = cfd::gas::riemann_flux(solver, l, r, gamma);
      EXPECT_NEAR(f.rho, up.rho, 1e-13 * std::fabs(up.rho));
      EXPECT_NEAR(f.mx, up.mx, 1e-13 * std::fabs(up.mx));
      EXPECT_NEAR(f.energy, up.energy, 1e-13 * std::fabs(up.energy));
    }
  }
}

// The names are the choices of euler.riemann, one per solver, and lead
// back to their solver.
TEST(RiemannSolvers, EachNameLeadsBackToItsSolver) {
  const auto names = cfd::gas::riemann_solver_names();
  ASSERT_EQ(names.size(), static_cast<size_t>(cfd::gas::riemann_solver_count));
  for (auto solver : cfd::gas::riemann_solvers)
    EXPECT_EQ(cfd::gas::riemann_solver_named(cfd::gas::riemann_solver_name(solver)), solver);
  EXPECT_THROW(cfd::gas::riemann_solver_named("roe"), std::invalid_argument);
}

// HLLC by shared reciprocals (euler's modern schemes) is HLLC by
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

// ---- The integrators' table (physics/gas/integrators.hpp) ----

namespace {
// One step of `m` for y' = f(t, y) from (t, y), as the solvers take it:
// the convex stages, or the classical RK4 form, with each stage's time.
template <class F>
double integrator_step(const cfd::gas::IntegratorMethod& m, const F& f, double t, double y, double dt) {
  double in = y, acc = 0;
  for (int s = 0; s < m.stages; ++s) {
    const cfd::gas::IntegratorStage& c = m.stage[s];
    const double L = f(t + c.time.value() * dt, in);
    const bool last = s == m.stages - 1;
    if (m.convex) {
      in = c.a.as<double>() * y + c.b.as<double>() * (in + dt * L);
    } else if (last) {
      in = y + c.w_out.scaled(dt) * (acc + L);
    } else {
      acc = s == 0 ? L : acc + c.w_acc.as<double>() * L;
      in = y + c.w_out.scaled(dt) * L;
    }
  }
  return in;
}
}  // namespace

// Every method of the table reaches its stated order on a non-autonomous
// equation, y' = y cos t (y = exp(sin t)), which holds the stages' times to
// account too: the error at t = 1 falls by 2^order when dt halves.
TEST(Integrators, EachMethodHasItsOrderWithItsStagesTimes) {
  const auto f = [](double t, double y) { return y * std::cos(t); };
  for (const auto& m : cfd::gas::integrator_methods) {
    SCOPED_TRACE(m.name);
    double error[2];
    for (int r = 0; r < 2; ++r) {
      const int n = 40 << r;
      double y = 1;
      for (int k = 0; k < n; ++k) y = integrator_step(m, f, double(k) / n, y, 1.0 / n);
      error[r] = std::fabs(y - std::exp(std::sin(1.0)));
    }
    const double order = std::log2(error[0] / error[1]);
    EXPECT_NEAR(order, m.order, 0.15) << error[0] << " " << error[1];
  }
}

// The convex stages are consistent (a + b = 1), each input's time is where
// the stage before put it (b (time + 1)), and the names lead back.
TEST(Integrators, ConvexStagesAreConsistentAndNamesLeadBack) {
  for (const auto& m : cfd::gas::integrator_methods) {
    SCOPED_TRACE(m.name);
    EXPECT_EQ(cfd::gas::integrator_named(m.name), m.id);
    EXPECT_EQ(&cfd::gas::integrator_method(m.id), &m);
    if (!m.convex) continue;
    EXPECT_EQ(m.stage[0].time.value(), 0.0);
    for (int s = 0; s < m.stages; ++s) {
      EXPECT_EQ(m.stage[s].a.value() + m.stage[s].b.value(), 1.0);
      if (s + 1 < m.stages)
        EXPECT_DOUBLE_EQ(m.stage[s + 1].time.value(), m.stage[s].b.value() * (m.stage[s].time.value() + 1));
    }
  }
  EXPECT_THROW(cfd::gas::integrator_named("rk5"), std::invalid_argument);
  EXPECT_EQ(cfd::gas::integrator_names({cfd::gas::Integrator::rk4, cfd::gas::Integrator::rk3}),
            (std::vector<std::string>{"rk3", "rk4"}));
}
