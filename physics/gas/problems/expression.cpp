// problem: expression: the primitives rho, vx, vy, vz and p given as formulas
// of x, y, z (3D cases) and the user's constants.* (core/expression.hpp), parsed when the
// case is read, so that an error names the key's place in the case file and
// the column inside the formula, and evaluated once per cell at the start.
#include "core/case_formulas.hpp"
#include "physics/gas/problems/problem.hpp"

#include <memory>

namespace cfd::gas {

namespace {

struct Formulas {
  Expression rho, vx, vy, vz, p;
};

std::vector<KeySpec> formula_keys() {
  return {{"expression.rho", KeyType::string, "1", "density: a formula of x, y (z in 3D), the constants.* and pi"},
          {"expression.vx", KeyType::string, "0", "x velocity: a formula of x, y (z in 3D), the constants.* and pi"},
          {"expression.vy", KeyType::string, "0", "y velocity: a formula of x, y (z in 3D), the constants.* and pi"},
          {"expression.vz", KeyType::string, "0",
           "z velocity: a formula of x, y (z in 3D), the constants.* and pi (in 2D advected with the gas)"},
          {"expression.p", KeyType::string, "1", "pressure: a formula of x, y (z in 3D), the constants.* and pi"},
          // A section of its own, named by the user; it belongs to this problem
          // as its formulas do (problems.cpp).
          constants_key("expression.*")};
}

StateAt formula_state(const Config& c, Setting&) {
  const auto constants = case_constants(c);
  auto formula = [&](const char* key) { return case_formula(c, std::string("expression.") + key, constants); };
  // Shared: a StateAt is copied with the Params that hold it, an Expression
  // is not copyable.
  auto f = std::make_shared<const Formulas>(
      Formulas{formula("rho"), formula("vx"), formula("vy"), formula("vz"), formula("p")});
  return [f](double x, double y, double z, double time) {
    return gas::Primitive<double>{f->rho(x, y, z, time), f->vx(x, y, z, time), f->vy(x, y, z, time),
                                  f->vz(x, y, z, time), f->p(x, y, z, time)};
  };
}

}  // namespace

namespace problems_list {
extern const Problem expression{
    "expression", "rho, vx, vy, vz and p given as formulas (keys expression.*, constants.*)", 0, 1, formula_keys,
    formula_state};
}  // namespace problems_list

}  // namespace cfd::gas
