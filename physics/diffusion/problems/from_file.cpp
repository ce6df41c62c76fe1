// u of every point from an HDF5 file: a cfdrun snapshot of the same grid
// continues a study, or another code's field starts one.
#include "core/initial_file.hpp"
#include "physics/diffusion/problems/problem.hpp"

#include <memory>

namespace cfd::diffusion::problems_list {

extern const Problem file{
    "file", "u of every point from an HDF5 file (key file.path; the edges hold 0 whatever it says)",
    [] {
      return std::vector<KeySpec>{initial_file_key(
          "dataset u of shape (ny, nx) at its root or in /fields (a cfdrun snapshot of the same grid)")};
    },
    [](const Config& c, const Setting& p) -> InitialU {
      auto u = std::make_shared<const std::vector<double>>(
          std::move(read_initial_file(c, "file.path", {"u"}, {}, {p.ny, p.nx}, "(ny, nx)")[0]));
      return [u, nx = p.nx](long i, long j) { return (*u)[size_t(j * nx + i)]; };
    },
    "the file's u (file.path) holds"};

}  // namespace cfd::diffusion::problems_list
