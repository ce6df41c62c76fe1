#include "core/decomposition.hpp"

#include "core/parallel.hpp"

#include <algorithm>
#include <functional>
#include <stdexcept>

namespace cfd {

const char* name(BoundaryKind kind) {
  switch (kind) {
    case BoundaryKind::periodic: return "periodic";
    case BoundaryKind::outflow: return "outflow";
    case BoundaryKind::reflecting: return "reflecting";
    case BoundaryKind::fixed: return "fixed";
    case BoundaryKind::none: return "none";
    case BoundaryKind::inflow: return "inflow";
  }
  return "?";
}

namespace {

const char* axis_key[3] = {"parallel.ranks_x", "parallel.ranks_y", "parallel.ranks_z"};

// Rank of grid coordinates as MPI_Cart_rank numbers them (the last
// dimension varies fastest).
int rank_of(const std::array<int, 3>& ranks, const std::array<int, 3>& c) {
  return (c[0] * ranks[1] + c[1]) * ranks[2] + c[2];
}
std::array<int, 3> coords_of(const std::array<int, 3>& ranks, int rank) {
  return {rank / (ranks[1] * ranks[2]), rank / ranks[2] % ranks[1], rank % ranks[2]};
}

// MPI_Dims_create's factorisation (balanced, largest first), computed here so
// that a build without MPI and the unit tests choose the same grids.
std::vector<int> balanced_factors(int count, int parts) {
  std::vector<int> f(parts, 1);
  // Prime factors, largest first, each to the smallest part so far.
  std::vector<int> primes;
  for (int p = 2, n = count; n > 1; ++p)
    while (n % p == 0) primes.push_back(p), n /= p;
  std::sort(primes.rbegin(), primes.rend());
  for (int p : primes) *std::min_element(f.begin(), f.end()) *= p;
  std::sort(f.rbegin(), f.rend());
  return f;
}

}  // namespace

GridBlock Decomposition::block_of(int rank) const {
  const std::array<int, 3> c = coords_of(ranks, rank);
  GridBlock b = block;
  for (int d = 0; d < 3; ++d) split_evenly(block.global_n[d], ranks[d], c[d], b.offset[d], b.n[d]);
  return b;
}

std::string Decomposition::process_grid() const {
  std::string s = std::to_string(ranks[0]);
  for (int d = 1; d < block.ndim; ++d) s += " x " + std::to_string(ranks[d]);
  return s;
}

Decomposition decompose(const GridBlock& whole, std::array<bool, 3> periodic, std::array<int, 3> requested,
                        const Comm& comm) {
  const int ndim = whole.ndim, size = comm.size();
  Decomposition dec;
  dec.block = whole;

  // The process grid: fixed counts first, the rest balanced over the free
  // dimensions. A dimension too thin for two blocks (a 1D case's one cell
  // across) is not free: one rank along it unless asked otherwise.
  const long min_n = std::max(whole.ghost, 2);
  int fixed = 1, thin = -1;
  std::vector<int> free_dims;
  for (int d = 0; d < ndim; ++d) {
    if (requested[d] < 0) throw DecompositionError(axis_key[d], "must be 0 (automatic) or positive");
    if (requested[d] > 0)
      fixed *= requested[d];
    else if (whole.global_n[d] >= 2 * min_n)
      free_dims.push_back(d);
    else if (thin < 0)
      thin = d;
  }
  for (int d = ndim; d < 3; ++d)
    if (requested[d] > 1) throw DecompositionError(axis_key[d], "this solver is " + std::to_string(ndim) + "D");
  // Ranks left over with only thin directions to take them: say why.
  if (size % fixed == 0 && free_dims.empty() && fixed != size && thin >= 0)
    throw DecompositionError(
        axis_key[thin], "no direction left to split over " + std::to_string(size / fixed) + " ranks: " + "xyz"[thin] +
                            " has " + std::to_string(whole.global_n[thin]) + " " +
                            (whole.centering == Centering::cell ? "cells" : "points") + ", too few for two blocks of " +
                            std::to_string(min_n) + "; use fewer ranks or a larger grid");
  if (size % fixed != 0 || (free_dims.empty() && fixed != size)) {
    std::string asked;
    for (int d = 0; d < ndim; ++d) asked += (d ? " x " : "") + std::to_string(requested[d] ? requested[d] : 0);
    throw DecompositionError(axis_key[0], "the process grid " + asked + " does not fit " + std::to_string(size) +
                                              " ranks (0 means automatic)");
  }
  for (int d = 0; d < ndim; ++d) dec.ranks[d] = requested[d] > 0 ? requested[d] : 1;
  if (!free_dims.empty()) {
    const std::vector<int> f = balanced_factors(size / fixed, static_cast<int>(free_dims.size()));
    // Largest count along the slowest free dimension.
    for (size_t k = 0; k < free_dims.size(); ++k) dec.ranks[free_dims[free_dims.size() - 1 - k]] = f[k];
  }

  for (int d = 0; d < ndim; ++d)
    if (dec.ranks[d] > 1 && whole.global_n[d] / dec.ranks[d] < min_n)
      throw DecompositionError(
          axis_key[d],
          std::to_string(dec.ranks[d]) + " ranks along " + "xyz"[d] + " leave blocks of fewer than " +
              std::to_string(min_n) + " of its " + std::to_string(whole.global_n[d]) + " " +
              (whole.centering == Centering::cell ? "cells" : "points") +
              (whole.ghost > 2 ? " (the halo is " + std::to_string(whole.ghost) + " deep)" : std::string()) +
              "; use fewer ranks or a larger grid");

#ifdef CFDRUN_HAVE_MPI
  if (size > 1 || comm.handle() != MPI_COMM_SELF) {
    int dims[3] = {dec.ranks[0], dec.ranks[1], dec.ranks[2]};
    int periods[3] = {periodic[0], periodic[1], periodic[2]};
    MPI_Comm cart;
    // No reordering: ranks keep their numbers, so rank 0 stays the writer.
    if (MPI_Cart_create(comm.handle(), 3, dims, periods, 0, &cart) != MPI_SUCCESS)
      throw std::runtime_error("MPI_Cart_create failed");
    dec.comm = Comm(cart);
  }
#endif
  dec.coords = coords_of(dec.ranks, dec.comm.rank());
  for (int d = 0; d < 3; ++d) {
    split_evenly(whole.global_n[d], dec.ranks[d], dec.coords[d], dec.block.offset[d], dec.block.n[d]);
    for (int side = 0; side < 2; ++side) {
      std::array<int, 3> c = dec.coords;
      c[d] += side == 0 ? -1 : 1;
      if (c[d] < 0 || c[d] >= dec.ranks[d]) {
        if (!periodic[d] || d >= ndim) continue;
        c[d] = (c[d] + dec.ranks[d]) % dec.ranks[d];
      }
      dec.neighbour[d][side] = rank_of(dec.ranks, c);
    }
  }
  return dec;
}

std::string describe_ranks(const Decomposition& dec) {
  const std::vector<long> devices = dec.comm.gather(std::vector<long>{device_id()});
  if (dec.comm.size() == 1 && devices.front() < 0) return "";
  std::string s = std::to_string(dec.comm.size()) + (dec.comm.size() == 1 ? " rank" : " ranks") + ", process grid " +
                  dec.process_grid();
  if (!devices.empty() && devices.front() >= 0) {
    s += "; GPU of each rank:";
    for (long d : devices) s += " " + std::to_string(d);
    if (dec.comm.size() > 1)
      s += Comm::device_aware() ? "; halos from device memory (CUDA-aware MPI)"
                                : "; halos through pinned host buffers (MPI is not CUDA-aware)";
  }
  return s + "\n";
}

std::vector<KeySpec> parallel_keys(int ndim) {
  std::vector<KeySpec> k;
  for (int d = 0; d < ndim; ++d)
    k.push_back({axis_key[d],
                 KeyType::integer,
                 "0",
                 std::string("ranks along ") + "xyz"[d] + " under mpirun (0: chosen by MPI_Dims_create, " +
                     (d == 2     ? "on 3D grids; 1 on 2D ones"
                      : ndim > 1 ? "the most along y"
                                 : "all of them") +
                     ")",
                 {},
                 0,
                 1e6});
  mark_on_restart(k, {"parallel.*"}, OnRestart::same_bits);  // the same bits on any rank count
  return k;
}

Decomposition decompose_case(const Config& config, const GridBlock& whole, std::array<bool, 3> periodic,
                             const Comm& comm) {
  std::array<int, 3> requested{0, 0, 0};
  for (int d = 0; d < whole.ndim; ++d) requested[d] = static_cast<int>(config.get_int(axis_key[d]));
  try {
    return decompose(whole, periodic, requested, comm);
  } catch (const DecompositionError& e) {
    config.reject(e.key, e.what());
  }
}

}  // namespace cfd
