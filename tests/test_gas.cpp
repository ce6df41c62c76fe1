// The gas dynamics sod and euler share (physics/gas/): the exact Riemann
// solver against Toro's tables, and the approximate Riemann solvers'
// consistency with the physical flux and the two forms of HLLC.
#include "physics/gas/exact_riemann.hpp"
#include "physics/gas/ideal_gas.hpp"
#include "physics/gas/riemann_solvers.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

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
