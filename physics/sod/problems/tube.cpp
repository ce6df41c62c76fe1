// The original: Sod's shock tube (Sod 1978), two states either side of a
// diaphragm.
#include "physics/sod/problems/problem.hpp"

#include <limits>

namespace cfd::sod::problems_list {

extern const Problem tube{
    "tube", "the states state.*_left and state.*_right either side of state.diaphragm (the original)",
    [] {
      const double inf = std::numeric_limits<double>::infinity();
      return std::vector<KeySpec>{
          {"state.rho_left", KeyType::real, "1", "left density, Sod units (rho/rho_ref)", {}, -inf, inf},
          {"state.u_left", KeyType::real, "0", "left velocity, Sod units (u/a)", {}, -inf, inf},
          {"state.p_left", KeyType::real, "1", "left pressure, Sod units (p/(rho_ref*R*T_ref))", {}, -inf, inf},
          {"state.rho_right", KeyType::real, "0.125", "right density, Sod units", {}, -inf, inf},
          {"state.u_right", KeyType::real, "0", "right velocity, Sod units", {}, -inf, inf},
          {"state.p_right", KeyType::real, "0.1", "right pressure, Sod units", {}, -inf, inf},
          {"state.diaphragm", KeyType::real, "0.5", "diaphragm position as a fraction of the tube", {}, 0, 1}};
    },
    [](const Config& c, Setting& p) {
      p.left = {c.get_real("state.rho_left"), c.get_real("state.u_left"), c.get_real("state.p_left")};
      p.right = {c.get_real("state.rho_right"), c.get_real("state.u_right"), c.get_real("state.p_right")};
      p.diaphragm = c.get_real("state.diaphragm");
      for (const auto& [side, s] : {std::pair{"left", p.left}, std::pair{"right", p.right}}) {
        if (!(s.rho > 0))
          c.reject(std::string("state.rho_") + side, "density must be positive, got " + format_real(s.rho));
        if (!(s.p > 0)) c.reject(std::string("state.p_") + side, "pressure must be positive, got " + format_real(s.p));
      }
      p.initial = [left = p.left, right = p.right, d = p.diaphragm](double x) { return x < d ? left : right; };
    },
    "the tube's states state.*"};

}  // namespace cfd::sod::problems_list
