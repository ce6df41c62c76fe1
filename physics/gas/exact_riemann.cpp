#include "physics/gas/exact_riemann.hpp"

#include "core/config.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace cfd::gas {

ExactRiemann::ExactRiemann(RiemannState left, RiemannState right, double gamma)
    : left_(left), right_(right), gamma_(gamma) {
  if (!(gamma > 1)) throw std::invalid_argument("gamma must be greater than 1, got " + format_real(gamma));
  for (const RiemannState* s : {&left_, &right_})
    if (!(s->rho > 0) || !(s->p > 0) || !std::isfinite(s->u))
      throw std::invalid_argument("a Riemann state needs positive density and pressure");
  cl_ = std::sqrt(gamma * left.p / left.rho);
  cr_ = std::sqrt(gamma * right.p / right.rho);
  if (2 * (cl_ + cr_) / (gamma - 1) <= right.u - left.u)
    throw std::invalid_argument("these states generate a vacuum (Toro eq. 4.40)");

  // Initial guess: the primitive-variable (PVRS) estimate, kept positive.
  const double pv = 0.5 * (left.p + right.p) - 0.125 * (right.u - left.u) * (left.rho + right.rho) * (cl_ + cr_);
  double p = std::max(1e-8 * std::min(left.p, right.p), pv);
  for (int it = 0; it < 100; ++it) {
    double dl = 0, dr = 0;
    const double f = pressure_function(p, left_, cl_, dl) + pressure_function(p, right_, cr_, dr) + (right.u - left.u);
    double next = p - f / (dl + dr);
    if (next < 0) next = 1e-8 * p;
    const double change = 2 * std::fabs(next - p) / (next + p);
    p = next;
    if (change < 1e-15) break;
  }
  double dl = 0, dr = 0;
  const double fl = pressure_function(p, left_, cl_, dl), fr = pressure_function(p, right_, cr_, dr);
  star_.p = p;
  star_.u = 0.5 * (left.u + right.u) + 0.5 * (fr - fl);
  const double g = (gamma - 1) / (gamma + 1);
  auto star_density = [&](const RiemannState& k) {
    const double ratio = p / k.p;
    return ratio > 1 ? k.rho * (ratio + g) / (g * ratio + 1) : k.rho * std::pow(ratio, 1 / gamma);
  };
  star_.rho_left = star_density(left_);
  star_.rho_right = star_density(right_);
}

double ExactRiemann::pressure_function(double p, const RiemannState& k, double c, double& derivative) const {
  const double g = gamma_;
  if (p > k.p) {  // shock
    const double a = 2 / ((g + 1) * k.rho), b = (g - 1) / (g + 1) * k.p;
    const double q = std::sqrt(a / (p + b));
    derivative = q * (1 - 0.5 * (p - k.p) / (b + p));
    return (p - k.p) * q;
  }
  const double ratio = p / k.p;  // rarefaction
  derivative = 1 / (k.rho * c) * std::pow(ratio, -(g + 1) / (2 * g));
  return 2 * c / (g - 1) * (std::pow(ratio, (g - 1) / (2 * g)) - 1);
}

double ExactRiemann::left_head_speed() const {
  if (star_.p > left_.p)
    return left_.u - cl_ * std::sqrt((gamma_ + 1) / (2 * gamma_) * star_.p / left_.p + (gamma_ - 1) / (2 * gamma_));
  return left_.u - cl_;
}
double ExactRiemann::left_tail_speed() const {
  if (star_.p > left_.p) return left_head_speed();
  return star_.u - cl_ * std::pow(star_.p / left_.p, (gamma_ - 1) / (2 * gamma_));
}
double ExactRiemann::right_head_speed() const {
  if (star_.p > right_.p)
    return right_.u + cr_ * std::sqrt((gamma_ + 1) / (2 * gamma_) * star_.p / right_.p + (gamma_ - 1) / (2 * gamma_));
  return right_.u + cr_;
}
double ExactRiemann::right_tail_speed() const {
  if (star_.p > right_.p) return right_head_speed();
  return star_.u + cr_ * std::pow(star_.p / right_.p, (gamma_ - 1) / (2 * gamma_));
}

RiemannState ExactRiemann::sample(double s) const {
  const double g = gamma_;
  if (s <= star_.u) {  // left of the contact
    if (s <= left_head_speed()) return left_;
    if (star_.p > left_.p || s >= left_tail_speed()) return {star_.rho_left, star_.u, star_.p};
    // inside the left fan (Toro 4.56)
    const double c = 2 / (g + 1) * (cl_ + (g - 1) / 2 * (left_.u - s));
    const double u = 2 / (g + 1) * (cl_ + (g - 1) / 2 * left_.u + s);
    const double rho = left_.rho * std::pow(c / cl_, 2 / (g - 1));
    return {rho, u, left_.p * std::pow(c / cl_, 2 * g / (g - 1))};
  }
  if (s >= right_head_speed()) return right_;
  if (star_.p > right_.p || s <= right_tail_speed()) return {star_.rho_right, star_.u, star_.p};
  const double c = 2 / (g + 1) * (cr_ - (g - 1) / 2 * (right_.u - s));
  const double u = 2 / (g + 1) * (-cr_ + (g - 1) / 2 * right_.u + s);
  const double rho = right_.rho * std::pow(c / cr_, 2 / (g - 1));
  return {rho, u, right_.p * std::pow(c / cr_, 2 * g / (g - 1))};
}

}  // namespace cfd::gas
