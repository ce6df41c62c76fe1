// The slowest discrete eigenmode of the 5-point Laplacian with zero edges:
// each step multiplies it by a known factor (sine_mode_decay), which the
// implicit schemes' tests check.
#include "physics/diffusion/problems/problem.hpp"

#include <cmath>

namespace cfd::diffusion {

InitialU sine_mode(long nx, long ny) {
  return [gx = double(nx - 1), gy = double(ny - 1)](long i, long j) {
    return std::sin(M_PI * i / gx) * std::sin(M_PI * j / gy);
  };
}

namespace problems_list {
extern const Problem sine{"sine", "sin(pi x) sin(pi y) with x = (i-1)/(nx-1), y = (j-1)/(ny-1), one discrete eigenmode",
                          [] { return std::vector<KeySpec>{}; },
                          [](const Config&, const Setting& p) { return sine_mode(p.nx, p.ny); }, "the sine mode"};
}  // namespace problems_list

}  // namespace cfd::diffusion
