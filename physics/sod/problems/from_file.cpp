// rho, u and p of each node (keep) or cell (hllc) from an HDF5 file: a
// cfdrun snapshot continues a study, or another code's profile starts one.
#include "core/initial_file.hpp"
#include "physics/sod/problems/problem.hpp"

#include <algorithm>
#include <cmath>
#include <memory>

namespace cfd::sod::problems_list {

extern const Problem file{
    "file", "rho, u and p (Sod units) of each node (keep) or cell (hllc) from an HDF5 file (key file.path)",
    [] {
      return std::vector<KeySpec>{
          initial_file_key("datasets rho, u, p of shape (nx) in Sod units, at its root or in /fields")};
    },
    [](const Config& c, Setting& p) {
      // Node k (keep) or cell k (hllc) of the tube: the solver asks at
      // x = k/(nx-1) or (k + 0.5)/nx, and the ends at x = 0 and 1.
      auto f = std::make_shared<const std::vector<std::vector<double>>>(
          read_initial_file(c, "file.path", {"rho", "u", "p"}, {"u"}, {p.nx}, "(nx)"));
      p.initial = [f, nx = p.nx, keep = p.scheme == Scheme::keep](double x) {
        const long k =
            std::clamp(keep ? std::lround(x * double(nx - 1)) : std::lround(x * double(nx) - 0.5), 0L, nx - 1);
        return gas::RiemannState{(*f)[0][size_t(k)], (*f)[1][size_t(k)], (*f)[2][size_t(k)]};
      };
      p.left = p.initial(0);
      p.right = p.initial(1);
    },
    "the file file.path"};

}  // namespace cfd::sod::problems_list
