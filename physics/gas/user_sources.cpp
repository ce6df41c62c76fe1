#include "physics/gas/user_sources.hpp"

#include "core/case_formulas.hpp"

namespace cfd::gas {

namespace {

struct SourceRow {
  const char* key;
  int row;
  const char* rate;
};
const SourceRow conserved_rows[] = {{"mass", slots::IDN, "mass density rho"},
                                    {"momentum_x", slots::IM1, "x momentum density rho vx (a force per volume)"},
                                    {"momentum_y", slots::IM2, "y momentum density rho vy"},
                                    {"momentum_z", slots::IM3, "z momentum density rho vz (3D cases)"},
                                    {"energy", slots::IEN, "total energy density E (heating minus cooling)"}};

const char* const of_what =
    ": a formula of x, y, z, t, the cell's rho, vx, vy, vz, p (and s1, s2, ... with scalars), the constants.* and "
    "pi, evaluated in a kernel at every cell and stage";

std::vector<std::string> variables(int scalars) {
  std::vector<std::string> v = {"rho", "vx", "vy", "vz", "p"};
  for (int k = 1; k <= max_source_scalars; ++k)
    if (k <= scalars) v.push_back("s" + std::to_string(k));
  return v;
}

}  // namespace

std::vector<KeySpec> source_keys(const std::string& scalars_key) {
  std::vector<KeySpec> keys;
  for (const SourceRow& r : conserved_rows)
    keys.push_back({std::string("sources.") + r.key, KeyType::string, "0",
                    std::string("source of the ") + r.rate + " per unit time" + of_what});
  if (!scalars_key.empty())
    for (int n = 1; n <= max_source_scalars; ++n) {
      KeySpec s{"sources.s" + std::to_string(n), KeyType::string, "0",
                "source of rho*s" + std::to_string(n) + " per unit volume and time" + of_what};
      s.belongs_to = scalars_key + "=";
      for (int m = n; m <= max_source_scalars; ++m) s.belongs_to += (m > n ? "|" : "") + std::to_string(m);
      keys.push_back(s);
    }
  keys.push_back({"sources.dt_bound", KeyType::string, "none",
                  "a bound on the time step from the sources, a formula as theirs whose minimum over the cells "
                  "the step may not exceed (no safety factor: e.g. 0.1*tau for a tenth of a cooling time); none: "
                  "the sources bound nothing"});
  return keys;
}

SourceTerms read_sources(const Config& c, int scalars, bool three_d) {
  SourceTerms s;
  // A source is on where its formula is not the default: a checkpoint's
  // stored configuration gives every key, 0 and none included.
  const auto on = [&](const std::string& key, const char* off) {
    if (!c.given(key)) return false;
    const std::string& text = c.get_string(key);
    const size_t a = text.find_first_not_of(" \t"), b = text.find_last_not_of(" \t");
    return a == std::string::npos || text.substr(a, b - a + 1) != off;
  };
  std::vector<std::pair<std::string, int>> given;
  for (const SourceRow& r : conserved_rows)
    if (on(std::string("sources.") + r.key, "0")) given.push_back({std::string("sources.") + r.key, r.row});
  for (int n = 1; n <= scalars; ++n)
    if (on("sources.s" + std::to_string(n), "0"))
      given.push_back({"sources.s" + std::to_string(n), slots::NCONS + n - 1});
  const bool bounded = on("sources.dt_bound", "none");
  if (given.empty() && !bounded) return s;
  if (!three_d && on("sources.momentum_z", "0"))
    c.reject("sources.momentum_z",
             "a 2D case (grid.nz: 1) has no z faces: a z force would add kinetic energy that no flux carries; give "
             "grid.nz > 1");
  const std::map<std::string, double> constants = case_constants(c);
  const std::vector<std::string> names = variables(scalars);
  for (const auto& name : names)
    if (constants.count(name))
      c.reject("constants." + name, "'" + name +
                                        "' is a variable of the source formulas (the cell's value): name "
                                        "the constant otherwise");
  const auto program_of = [&](const std::string& key) {
    const Expression e = case_formula(c, key, constants, names);
    try {
      return e.program();
    } catch (const ExpressionError& error) {
      c.reject(key, error.what());
    }
  };
  for (const auto& [key, row] : given) {
    s.rows.push_back(row);
    s.programs.push_back(program_of(key));
  }
  if (bounded) {
    s.bounded = true;
    s.dt_bound = program_of("sources.dt_bound");
  }
  return s;
}

}  // namespace cfd::gas
