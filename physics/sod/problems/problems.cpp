// The table of the sod problems: the one list of them (sod.problem's
// choices and description, the keys of each, and the state the solver starts from are all
// made from it, by core/problem_table.hpp).
#include "core/problem_table.hpp"
#include "physics/sod/problems/problem.hpp"

namespace cfd::sod {

const std::vector<Problem>& problems() {
  using namespace problems_list;
  static const std::vector<Problem> table = {tube, expression, file};
  return table;
}

const Problem* find_problem(const std::string& name) { return problem_table::find(problems(), name); }

std::vector<KeySpec> problem_keys() { return problem_table::keys(problems(), "sod.problem"); }

}  // namespace cfd::sod
