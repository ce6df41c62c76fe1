// The table of euler's problems: the one list of them (euler.problem's
// choices and description, the keys of their sections, and the state the
// solver starts from are all made from it).
#include "core/problem_table.hpp"
#include "physics/euler/problems/problem.hpp"

namespace cfd::euler {

const std::vector<Problem>& problems() {
  using namespace problems_list;
  static const std::vector<Problem> table = {kh_mcnally, kh_seed, sod_x, sod_y,       sod_z,      sod_diagonal,
                                             vortex,     blast,   sedov, linear_wave, expression, file};
  return table;
}

const Problem* find_problem(const std::string& name) { return problem_table::find(problems(), name); }

std::vector<KeySpec> problem_keys() {
  std::vector<KeySpec> keys;
  for (const Problem& p : problems()) {
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
    for (KeySpec& k : own) k.belongs_to = "euler.problem=" + section;
    keys.insert(keys.end(), own.begin(), own.end());
  }
  return keys;
}

std::string problems_description() {
  // "[0,1]^2" rather than format_real's "[0.0,1.0]^2".
  auto edge = [](double v) {
    std::string t = format_real(v);
    if (t.size() > 2 && t.compare(t.size() - 2, 2, ".0") == 0) t.resize(t.size() - 2);
    return t;
  };
  std::string text;
  for (const Problem& p : problems())
    text += std::string(text.empty() ? "" : "; ") + p.name + ": " + p.summary + " on [" + edge(p.lo) + "," +
            edge(p.hi) + "]^2";
  return text +
         ". Each problem's constants and domain are keys of its own section (kh_mcnally.width, "
         "blast.radius, ...)";
}

}  // namespace cfd::euler
