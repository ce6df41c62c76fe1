// The user's formula of x and y (no recompiling: docs/own-problem.md).
#include "core/case_formulas.hpp"
#include "physics/diffusion/problems/problem.hpp"

#include <memory>

namespace cfd::diffusion::problems_list {

extern const Problem expression{
    "expression", "the formula expression.u of the same x and y at the interior points (the edges hold 0)",
    [] {
      return std::vector<KeySpec>{
          {"expression.u", KeyType::string, "0", "u: a formula of x, y, the constants.* and pi"},
          constants_key("expression.u")};
    },
    [](const Config& c, const Setting& p) -> InitialU {
      // Shared: an Expression is not copyable, an InitialU is copied.
      const auto u = std::make_shared<const Expression>(case_formula(c, "expression.u", case_constants(c)));
      return [u, gx = double(p.nx - 1), gy = double(p.ny - 1)](long i, long j) { return (*u)(i / gx, j / gy); };
    },
    "the formula expression.u gives"};

}  // namespace cfd::diffusion::problems_list
