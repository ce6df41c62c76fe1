// The table of the gas problems: the one list of them (each gas solver's
// <solver>.problem choices and description, the keys of their sections, and
// the state a solver starts from are all made from it).
#include "core/problem_table.hpp"
#include "physics/gas/problems/problem.hpp"

namespace cfd::gas {

const std::vector<Problem>& problems() {
  using namespace problems_list;
  static const std::vector<Problem> table = {
      kh_mcnally, kh_seed,     sod_x,        sod_y,           sod_z,        sod_diagonal, vortex,     blast,
      sedov,      linear_wave, taylor_green, taylor_green_2d, density_wave, couette,      expression, file};
  return table;
}

std::vector<Problem> problems_for(bool has_walls) {
  std::vector<Problem> out;
  for (const Problem& p : problems())
    if (p.needs != Needs::walls || has_walls) out.push_back(p);
  return out;
}

const Problem* find_problem(const std::string& name) { return problem_table::find(problems(), name); }

std::vector<KeySpec> problem_keys(const std::vector<Problem>& table, const std::string& choice) {
  std::vector<KeySpec> keys;
  for (const Problem& p : table) {
    const std::string section = p.name, lo = format_real(p.lo), hi = format_real(p.hi);
    std::vector<KeySpec> own = {{section + ".x_min", KeyType::real, lo, "lower x edge of the domain"},
                                {section + ".x_max", KeyType::real, hi, "upper x edge of the domain"},
                                {section + ".y_min", KeyType::real, lo, "lower y edge of the domain"},
                                {section + ".y_max", KeyType::real, hi, "upper y edge of the domain"},
                                {section + ".z_min", KeyType::real, lo, "lower z edge of the domain (3D grids)"},
                                {section + ".z_max", KeyType::real, hi, "upper z edge of the domain (3D grids)"}};
    for (KeySpec& k : p.constants()) own.push_back(std::move(k));
    // Each key goes with its problem's choice (constants.* too): the resolved
    // configuration shows the chosen problem's only, and another problem's
    // keys are refused with their place.
    for (KeySpec& k : own) k.belongs_to = choice + "=" + section;
    keys.insert(keys.end(), own.begin(), own.end());
  }
  return keys;
}

std::string problems_description(const std::vector<Problem>& table) {
  return problem_table::describe(table) +
         ". Each problem's domain and constants are keys of its own section (kh_mcnally.width, taylor_green.mach, "
         "...)";
}

}  // namespace cfd::gas
