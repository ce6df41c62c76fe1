// The user's formulas of x for rho, u and p (no recompiling:
// docs/own-problem.md).
#include "core/case_formulas.hpp"
#include "physics/sod/problems/problem.hpp"

#include <cmath>
#include <memory>

namespace cfd::sod::problems_list {

extern const Problem expression{
    "expression",
    "rho, u and p as formulas of x, the position as a fraction of the tube, in Sod units (keys expression.*, "
    "constants.*); the ends' fixed states are the formulas' at x = 0 and 1",
    [] {
      return std::vector<KeySpec>{
          {"expression.rho", KeyType::string, "1", "density: a formula of x, the constants.* and pi"},
          {"expression.u", KeyType::string, "0", "velocity: a formula of x, the constants.* and pi"},
          {"expression.p", KeyType::string, "1", "pressure: a formula of x, the constants.* and pi"},
          constants_key("expression.*")};
    },
    [](const Config& c, Setting& p) {
      struct Formulas {
        Expression rho, u, p;
      };
      const auto constants = case_constants(c);
      auto formula = [&](const char* key) { return case_formula(c, std::string("expression.") + key, constants); };
      // Shared: a Setting is copied, an Expression is not copyable.
      const auto f = std::make_shared<const Formulas>(Formulas{formula("rho"), formula("u"), formula("p")});
      p.initial = [f](double x) { return gas::RiemannState{f->rho(x), f->u(x), f->p(x)}; };
      p.left = p.initial(0);
      p.right = p.initial(1);
      // The ends' states are the fixed ghost cells of hllc with frozen ends:
      // refused here. Every other state the solver checks, with the node or
      // cell (keep's end nodes sit at x = 0 and 1 themselves).
      if (!(p.scheme == Scheme::hllc && p.boundary == BoundaryKind::fixed)) return;
      for (const auto& [x, s] : {std::pair{0, p.left}, std::pair{1, p.right}}) {
        const std::string at =
            " at x = " + std::to_string(x) + " (the end of the tube, the state a fixed boundary keeps)";
        if (!(s.rho > 0) || !std::isfinite(s.rho))
          c.reject("expression.rho", "gives density " + format_real(s.rho) + at + "; it must be positive");
        if (!(s.p > 0) || !std::isfinite(s.p))
          c.reject("expression.p", "gives pressure " + format_real(s.p) + at + "; it must be positive");
        if (!std::isfinite(s.u)) c.reject("expression.u", "gives velocity " + format_real(s.u) + at);
      }
    },
    "the formulas expression.*"};

}  // namespace cfd::sod::problems_list
