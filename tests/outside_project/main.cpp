// Uses the installed cfdrun as a library: a case parsed from a YAML string
// with the solvers' own keys (cfd::Config), the exact Riemann solver of
// physics/gas on Sod's tube, and a Kokkos reduction in this executable.
#include "core/config.hpp"
#include "core/version.hpp"
#include "physics/gas/exact_riemann.hpp"
#include "physics/solvers.hpp"

#include <Kokkos_Core.hpp>

#include <cstdio>

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  const cfd::Config config = cfd::Config::from_string("solver: diffusion\ngrid:\n  nx: 31\n  ny: 27\n", "outside.yaml",
                                                      {"time.steps=32"}, cfd::solver_keys);
  const cfd::gas::ExactRiemann sod({1.0, 0.0, 1.0}, {0.125, 0.0, 0.1}, 1.4);
  long sum = 0;
  Kokkos::parallel_reduce(
      "outside_sum", 100, KOKKOS_LAMBDA(int i, long& s) { s += i; }, sum);
  std::printf("cfdrun %s: %s %ld x %ld, %ld steps; sod p* = %.5f, u* = %.5f; sum %ld\n", cfd::version,
              config.solver().c_str(), config.get_int("grid.nx"), config.get_int("grid.ny"),
              config.get_int("time.steps"), sod.star().p, sod.star().u, sum);
  return 0;
}
