// What a solver on (var, k, j, i) arrays, or a plane's (var, j, i), does
// with its block's owned cells apart from the physics: copy a component out
// in snapshot order (x fastest), put a checkpoint's components back, and
// find the first cell that a test flags, first in the global x-fastest
// order, so that every rank count names the same cell. Shared by euler
// (2D and 3D grids) and navier_stokes.
#pragma once

#include "core/comm.hpp"
#include "core/global_file.hpp"  // HostField
#include "core/grid.hpp"
#include "core/parallel.hpp"

#include <array>
#include <vector>

namespace cfd {

// Element (v, k, j, i) of an array (var, k, j, i), or (v, j, i) of a
// plane's array (var, j, i), where k is 0.
template <class Array>
KOKKOS_FORCEINLINE_FUNCTION decltype(auto) element(const Array& a, int v, long k, long j, long i) {
  static_assert(unsigned(Array::rank) == 3u || unsigned(Array::rank) == 4u, "an array (var, j, i) or (var, k, j, i)");
  if constexpr (unsigned(Array::rank) == 3u) {
    (void)k;
    return a(v, j, i);
  } else {
    return a(v, k, j, i);
  }
}

// Component v of the owned cells of a host array (var, k, j, i) or (var, j, i), x fastest.
template <class HostArray>
std::vector<typename HostArray::non_const_value_type> owned_cells(const HostArray& host, int v, const GridBlock& g) {
  std::vector<typename HostArray::non_const_value_type> values;
  values.reserve(g.owned_count());
  for (long k = g.begin(2); k < g.end(2); ++k)
    for (long j = g.begin(1); j < g.end(1); ++j)
      for (long i = g.begin(0); i < g.end(0); ++i) values.push_back(element(host, v, k, j, i));
  return values;
}

// The inverse: components 0 .. count-1 of the owned cells from fields[v].values.
template <class HostArray, class Fields>
void set_owned_cells(const HostArray& host, const Fields& fields, int count, const GridBlock& g) {
  for (int v = 0; v < count; ++v) {
    size_t n = 0;
    for (long k = g.begin(2); k < g.end(2); ++k)
      for (long j = g.begin(1); j < g.end(1); ++j)
        for (long i = g.begin(0); i < g.end(0); ++i) element(host, v, k, j, i) = fields.at(v).values.at(n++);
  }
}

// Components 0 .. fields.size()-1 of a device array (var, k, j, i) or (var, j, i) into
// the fields' values (names and units as given): a snapshot's or a
// checkpoint's fields.
template <class Array, class Real>
std::vector<HostField<Real>> owned_fields(const Array& u, std::vector<HostField<Real>> fields, const GridBlock& g) {
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), u);
  for (size_t v = 0; v < fields.size(); ++v) fields[v].values = owned_cells(host, int(v), g);
  return fields;
}

// A checkpoint's components 0 .. count-1 back into the owned cells of a
// device array (var, k, j, i) or (var, j, i); its ghosts are left to the next halo.
template <class Array, class Fields>
void restore_owned_cells(const Array& u, const Fields& fields, int count, const GridBlock& g) {
  auto host = Kokkos::create_mirror_view(u);
  set_owned_cells(host, fields, count, g);
  Kokkos::deep_copy(u, host);
}

// Global index (i, j, k) of the first owned cell over all ranks for which
// flagged(k, j, i) (a device functor on local indices) is true, as i + nx
// (j + ny k); -1 when no cell is. Collective: every rank calls it.
template <class Flagged>
long first_flagged_cell(const char* label, const GridBlock& g, const Comm& comm, const Flagged& flagged) {
  const long nx = g.global_n[0], ny = g.global_n[1];
  const long x0 = g.offset[0] - g.begin(0), y0 = g.offset[1] - g.begin(1), z0 = g.offset[2] - g.begin(2);
  long first = Kokkos::reduction_identity<long>::min();
  using Policy = Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<3>, Kokkos::IndexType<long>>;
  Kokkos::parallel_reduce(
      label, Policy({g.begin(2), g.begin(1), g.begin(0)}, {g.end(2), g.end(1), g.end(0)}),
      KOKKOS_LAMBDA(const long k, const long j, const long i, long& m) {
        const long flat = ((z0 + k) * ny + (y0 + j)) * nx + (x0 + i);
        if (flat < m && flagged(k, j, i)) m = flat;
      },
      Kokkos::Min<long>(first));
  first = comm.min(first);
  return first == Kokkos::reduction_identity<long>::min() ? -1 : first;
}

// The global (i, j, k) of a cell from first_flagged_cell's index i + nx (j + ny k).
inline std::array<long, 3> global_cell(long flat, const GridBlock& g) {
  const long nx = g.global_n[0], ny = g.global_n[1];
  return {flat % nx, flat / nx % ny, flat / (nx * ny)};
}

}  // namespace cfd
