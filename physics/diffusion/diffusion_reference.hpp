// A plain serial host loop of problems.md section 1, written from the problem
// text alone: the yardstick every Kokkos variant must match bit for bit.
#pragma once

#include <vector>

namespace cfd::diffusion {

// Returns the field after `steps` steps, i fastest (x fastest).
template <class Real>
std::vector<Real> reference_solution(long nx, long ny, long steps, Real alpha) {
  std::vector<Real> u(nx * ny, Real(0)), v(nx * ny, Real(0));
  auto at = [nx](long i, long j) { return i + nx * j; };  // 0-based
  u[at((nx + 1) / 2 - 1, (ny + 1) / 2 - 1)] = Real(1);
  for (long s = 0; s < steps; ++s) {
    for (long j = 1; j < ny - 1; ++j)
      for (long i = 1; i < nx - 1; ++i)
        v[at(i, j)] = u[at(i, j)] + alpha * (u[at(i - 1, j)] + u[at(i + 1, j)] + u[at(i, j - 1)] + u[at(i, j + 1)] -
                                             Real(4) * u[at(i, j)]);
    u.swap(v);
  }
  return u;
}

}  // namespace cfd::diffusion
