// The table of the diffusion problems: the one list of them (diffusion.problem's
// choices and description, the keys of each, and the u the solver starts from are all
// made from it, by core/problem_table.hpp).
#include "core/problem_table.hpp"
#include "physics/diffusion/problems/problem.hpp"

namespace cfd::diffusion {

const std::vector<Problem>& problems() {
  using namespace problems_list;
  static const std::vector<Problem> table = {spike, sine, expression, file};
  return table;
}

const Problem* find_problem(const std::string& name) { return problem_table::find(problems(), name); }

std::vector<KeySpec> problem_keys() { return problem_table::keys(problems(), "diffusion.problem"); }

}  // namespace cfd::diffusion
