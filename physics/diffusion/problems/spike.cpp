// The original's initial state: u = 1 at the centre point, 0 elsewhere.
#include "physics/diffusion/problems/problem.hpp"

namespace cfd::diffusion {

InitialU centre_spike(long nx, long ny) {
  // 1-based (nx+1)/2 in integer division, as the original; grid.nx >= 5
  // keeps it off the edges.
  const long ci = (nx + 1) / 2 - 1, cj = (ny + 1) / 2 - 1;
  return [ci, cj](long i, long j) { return i == ci && j == cj ? 1.0 : 0.0; };
}

namespace problems_list {
extern const Problem spike{"spike", "u = 1 at the centre point ((nx+1)/2, (ny+1)/2), 0 elsewhere (the original)",
                           [] { return std::vector<KeySpec>{}; },
                           [](const Config&, const Setting& p) { return centre_spike(p.nx, p.ny); }, "the spike"};
}  // namespace problems_list

}  // namespace cfd::diffusion
