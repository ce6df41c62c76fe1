// The table of navier_stokes' problems (navier_stokes.problem's choices,
// description and keys are made from it).
#include "core/problem_table.hpp"
#include "physics/navier_stokes/problems/problem.hpp"

namespace cfd::navier_stokes {

const std::vector<Problem>& problems() {
  using namespace problems_list;
  static const std::vector<Problem> table = {taylor_green, taylor_green_2d, density_wave, couette};
  return table;
}

const Problem* find_problem(const std::string& name) { return problem_table::find(problems(), name); }

std::vector<KeySpec> problem_keys() {
  std::vector<KeySpec> keys;
  for (const Problem& p : problems()) {
    const std::string section = p.name, lo = format_real(p.lo), hi = format_real(p.hi);
    std::vector<KeySpec> own;
    for (const char* axis : {"x", "y", "z"}) {
      own.push_back(
          {section + "." + axis + "_min", KeyType::real, lo, std::string("lower ") + axis + " edge of the domain"});
      own.push_back(
          {section + "." + axis + "_max", KeyType::real, hi, std::string("upper ") + axis + " edge of the domain"});
    }
    for (KeySpec& k : p.constants()) own.push_back(std::move(k));
    for (KeySpec& k : own) k.belongs_to = "navier_stokes.problem=" + section;
    keys.insert(keys.end(), own.begin(), own.end());
  }
  return keys;
}

std::string problems_description() {
  return problem_table::describe(problems()) +
         ". Each problem's constants and domain are keys of its own section (taylor_green.mach, ...)";
}

}  // namespace cfd::navier_stokes
