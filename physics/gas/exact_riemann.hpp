// The exact solution of the Riemann problem for the 1D Euler equations of an
// ideal gas: E. F. Toro, "Riemann Solvers and Numerical Methods for Fluid
// Dynamics", 3rd ed., Springer 2009, chapter 4 (pressure function 4.5-4.7,
// Newton iteration 4.44, sampling section 4.5). Host code, used by the tests,
// by cfdcompare and by the Sod documentation.
#pragma once

#include <stdexcept>

namespace cfd::gas {

struct RiemannState {
  double rho, u, p;
};

struct StarRegion {
  double p, u;
  double rho_left, rho_right;  // densities either side of the contact
};

class ExactRiemann {
 public:
  // Throws std::invalid_argument for non-physical states or when the waves
  // would create a vacuum (the pressure positivity condition, Toro 4.40).
  ExactRiemann(RiemannState left, RiemannState right, double gamma);

  const StarRegion& star() const { return star_; }
  // The solution on the ray x/t = s (diaphragm at x = 0).
  RiemannState sample(double s) const;
  // Position at time t of the waves, diaphragm at x0: head and tail of a left
  // rarefaction (both equal the shock position if it is a shock), contact,
  // tail and head of the right wave.
  double left_head_speed() const;
  double left_tail_speed() const;
  double contact_speed() const { return star_.u; }
  double right_tail_speed() const;
  double right_head_speed() const;

 private:
  double pressure_function(double p, const RiemannState& k, double c, double& derivative) const;
  RiemannState left_, right_;
  double gamma_, cl_, cr_;
  StarRegion star_{};
};

}  // namespace cfd::gas
