// The ghost layers of a block: exchange with the neighbour ranks and the
// physical boundaries of the global domain, one direction at a time, for
// every solver. Following Idefix (src/mpi.cpp): one kernel packs both faces
// of a direction into a buffer, the faces travel with non-blocking MPI
// (device buffers when the library is CUDA-aware, page-locked host buffers
// that the kernels write and read directly otherwise), one kernel unpacks
// them; the physical faces of that direction are filled meanwhile. A solver
// may split a direction into begin() and finish() and compute, in between,
// what reads no ghost from another rank, so that the transfer hides behind
// that work. A direction's slabs span the whole extent of the other
// directions, ghosts included, so each direction carries the edges and
// corners that the ones before it filled (x, then y, then z: a corner ghost
// ends up holding what lies diagonally across, with no messages to the
// diagonal neighbours, as in Idefix and AthenaK's face-only exchange). A periodic direction held by one rank is a copy
// from one side of the block to the other, without MPI.
#pragma once

#include "core/clock.hpp"
#include "core/decomposition.hpp"
#include "core/parallel.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <utility>

namespace cfd {

// How a solver's View maps (component, i, j, k) of its block, in local
// storage indices, to memory. The halo code is written once against these;
// fields of fewer dimensions ignore the indices they lack (always 0).
template <class View>
struct PointField {  // v(i, j): one value per point (diffusion)
  View v;
  int components() const { return 1; }
  KOKKOS_FORCEINLINE_FUNCTION typename View::reference_type operator()(int, long i, long j, long) const {
    return v(i, j);
  }
};
template <class View>
struct LineComponents {  // v(i, c): a 1D state of several components (sod)
  View v;
  int components() const { return static_cast<int>(v.extent(1)); }
  KOKKOS_FORCEINLINE_FUNCTION typename View::reference_type operator()(int c, long i, long, long) const {
    return v(i, c);
  }
};
template <class View>
struct PlaneComponents {  // v(c, j, i): a 2D state of several components, x fastest (euler)
  View v;
  int components() const { return static_cast<int>(v.extent(0)); }
  KOKKOS_FORCEINLINE_FUNCTION typename View::reference_type operator()(int c, long i, long j, long) const {
    return v(c, j, i);
  }
};
template <class View>
struct VolumeComponents {  // v(c, k, j, i): a 3D state of several components, x fastest
  View v;
  int components() const { return static_cast<int>(v.extent(0)); }
  KOKKOS_FORCEINLINE_FUNCTION typename View::reference_type operator()(int c, long i, long j, long k) const {
    return v(c, k, j, i);
  }
};

// The physical faces of the global domain, for fields of up to
// max_components components.
template <class Real>
struct FaceBoundaries {
  static constexpr int max_components = 16;
  // kind[d][side]; periodic faces must be periodic on both sides.
  std::array<std::array<BoundaryKind, 2>, 3> kind{{{BoundaryKind::none, BoundaryKind::none},
                                                   {BoundaryKind::none, BoundaryKind::none},
                                                   {BoundaryKind::none, BoundaryKind::none}}};
  // The component a reflecting face along d negates (the normal velocity or
  // momentum); -1: none.
  std::array<int, 3> normal_component{-1, -1, -1};
  // The state a fixed face holds, per direction and side.
  std::array<std::array<Kokkos::Array<Real, max_components>, 2>, 3> fixed{};
  // An inflow face's ghost values as its slab lays them out, (component,
  // layer, t), with one component more than the field: 1 where the values
  // apply, 0 where the face acts as elsewhere[d][side] (outflow or
  // reflecting). The solver owns them and refreshes them before each fill;
  // the halo only copies them in.
  std::array<std::array<Kokkos::View<Real***, MemSpace>, 2>, 3> inflow{};
  std::array<std::array<BoundaryKind, 2>, 3> elsewhere{{{BoundaryKind::outflow, BoundaryKind::outflow},
                                                        {BoundaryKind::outflow, BoundaryKind::outflow},
                                                        {BoundaryKind::outflow, BoundaryKind::outflow}}};

  std::array<bool, 3> periodic() const {
    return {kind[0][0] == BoundaryKind::periodic, kind[1][0] == BoundaryKind::periodic,
            kind[2][0] == BoundaryKind::periodic};
  }
};

// Where along one direction the slabs of a block lie, in local storage indices.
struct SlabGeometry {
  int dir;      // 0: x (i), 1: y (j), 2: z (k)
  long begin;   // first owned entry along dir
  long end;     // one past the last owned entry along dir
  int ghost;    // layers per side
  long across;  // entries across the slab: the other two directions' whole extents, multiplied
  long first;   // the whole extent of the lower of the other two directions (t = a + first * b)
  int components;
  KOKKOS_FORCEINLINE_FUNCTION long count() const {
    return static_cast<long>(components) * ghost * across;
  }  // values in one slab
  // Entry m of a slab buffer: component c, layer (0 at the slab's low
  // end), and t across; its buffers hold side 0's slab, then side 1's.
  struct Entry {
    int side, c;
    long layer, t;
  };
  KOKKOS_FORCEINLINE_FUNCTION Entry entry(long m) const {
    const long n = count(), r = m % n;
    return {static_cast<int>(m / n), static_cast<int>(r / (across * ghost)), r / across % ghost, r % across};
  }
  // (i, j, k) of layer `pos` along dir and entry t across: t runs over the
  // lower other direction first, so a 2D block's t is its one other index.
  KOKKOS_FORCEINLINE_FUNCTION void at(long pos, long t, long& i, long& j, long& k) const {
    at(pos, t % first, t / first, i, j, k);
  }
  // The same from the two other directions' indices, a (lower) and b.
  KOKKOS_FORCEINLINE_FUNCTION void at(long pos, long a, long b, long& i, long& j, long& k) const {
    if (dir == 0)
      i = pos, j = a, k = b;
    else if (dir == 1)
      i = a, j = pos, k = b;
    else
      i = a, j = b, k = pos;
  }
};

// The slabs of `components` components along d of block b (what a halo
// exchange sends, and the layout of an inflow face's values).
inline SlabGeometry slab_geometry(const GridBlock& b, int d, int components) {
  // The other two directions, lower first; a direction the block lacks has extent 1.
  const long lower = b.extent(d == 0 ? 1 : 0), upper = b.extent(d == 2 ? 1 : 2);
  return {d, b.begin(d), b.end(d), b.ghost, lower * upper, lower, components};
}

template <class Real>
class HaloExchange {
 public:
  using Buffer = Kokkos::View<Real*, MemSpace>;
  using HostBuffer = Kokkos::View<Real*, PinnedHostMemory>;

  HaloExchange() = default;
  HaloExchange(const Decomposition& dec, int components, const FaceBoundaries<Real>& faces)
      : dec_(dec), faces_(faces), components_(components) {
    if (components > FaceBoundaries<Real>::max_components) throw std::logic_error("HaloExchange: too many components");
    // Buffers only for directions with another rank across a face.
    for (int d = 0; d < dec.block.ndim; ++d) {
      if (!remote(d)) continue;
      const long count = geometry(d).count();
      if (staged()) {
        host_send_[d] = HostBuffer("halo::host_send", 2 * count);
        host_recv_[d] = HostBuffer("halo::host_recv", 2 * count);
      } else {
        send_[d] = Buffer("halo::send", 2 * count);
        recv_[d] = Buffer("halo::recv", 2 * count);
      }
    }
  }

  // Fills every ghost layer of `field`, one direction after the other:
  // neighbours and periodic faces by exchange, the physical faces by their kind.
  template <class Field>
  void fill(const Field& field) {
    for (int d = 0; d < dec_.block.ndim; ++d) {
      begin(field, d);
      finish(field, d);
    }
  }

  // fill() of one direction in two halves, so that a solver can compute what
  // needs no ghost from another rank while the faces travel: begin() packs
  // them and posts the messages, copies a periodic direction held by this
  // rank and fills the physical faces of d; finish() waits and unpacks.
  template <class Field>
  void begin(const Field& field, int d) {
    if (dec_.block.ghost == 0) return;
    const int self = dec_.comm.rank(), lo = dec_.neighbour[d][0], hi = dec_.neighbour[d][1];
    if (lo == self && hi == self) periodic_copy(field, d);
    for (int side = 0; side < 2; ++side)
      if (!dec_.has_neighbour(d, side)) fill_boundary(field, d, side);
    if (!remote(d)) return;
    // The device must be done with the last unpack, which reads the receive
    // buffer that the new messages overwrite; and what it was computing is
    // not halo time.
    Kokkos::fence();
    Stopwatch clock;
    pack(field, d);
    post(d);
    exchange_s_ += clock.seconds();
  }
  template <class Field>
  void finish(const Field& field, int d) {
    if (!remote(d)) return;
    Stopwatch clock;
    wait(d);
    exchange_s_ += clock.seconds();
    // Queued behind the work launched since begin(); nothing waits for it here.
    unpack(field, d);
  }

  // The part [a, b) of the range [first, last) along direction d whose
  // entries read no ghost that finish(d) fills, when entry e reads e - below
  // to e + above. [first, a) and [b, last) are the rest, to compute after
  // finish(d).
  std::pair<long, long> independent_of_neighbours(int d, long first, long last, int below, int above) const {
    const int self = dec_.comm.rank();
    long a = first, b = last;
    if (dec_.neighbour[d][0] >= 0 && dec_.neighbour[d][0] != self) a = std::max(first, dec_.block.begin(d) + below);
    if (dec_.neighbour[d][1] >= 0 && dec_.neighbour[d][1] != self) b = std::min(last, dec_.block.end(d) - above);
    a = std::min(a, last);
    return {a, std::max(a, b)};
  }

  // Whether another rank lies across a face of direction d.
  bool remote(int d) const {
    const int self = dec_.comm.rank(), lo = dec_.neighbour[d][0], hi = dec_.neighbour[d][1];
    return dec_.block.ghost > 0 && ((lo >= 0 && lo != self) || (hi >= 0 && hi != self));
  }

  // Wall time spent in exchanges between ranks since construction: packing
  // and posting, then waiting for the messages (which may overlap work the
  // solver launched in between); the unpacking kernel is queued, not timed.
  double exchange_seconds() const { return exchange_s_; }

  void release() {
    for (int d = 0; d < 3; ++d) send_[d] = recv_[d] = Buffer(), host_send_[d] = host_recv_[d] = {};
  }

  // Whether faces travel through host buffers: device memory and an MPI
  // library that cannot take device pointers.
  static bool staged() {
    return !Kokkos::SpaceAccessibility<Kokkos::HostSpace, MemSpace>::accessible && !Comm::device_aware();
  }

  // The steps of fill(), public only because nvcc refuses device lambdas in
  // private member functions.
  SlabGeometry geometry(int d) const { return slab_geometry(dec_.block, d, components_); }

  // Periodic and held whole by this rank: each side's ghosts are the other
  // side's owned layers.
  template <class Field>
  void periodic_copy(const Field& field, int d) {
    const SlabGeometry s = geometry(d);
    // Over (component and layer, the upper other direction, the lower one):
    // no division to find an entry's place (a 1D case's y halo, 20 ghost
    // values a cell, cost four times the stage when each entry was decoded
    // from one flat index by eight 64-bit divisions).
    const int layers = 2 * s.ghost;
    const long lower = s.first, upper = s.across / s.first;
    using Slab = Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<3>, Kokkos::IndexType<long>>;
    Kokkos::parallel_for(
        "halo::periodic_copy", Slab({0, 0, 0}, {static_cast<long>(s.components) * layers, upper, lower}),
        KOKKOS_LAMBDA(const long q, const long b, const long a) {
          const int c = static_cast<int>(q) / layers, side_layer = static_cast<int>(q) % layers;
          const int side = side_layer / s.ghost, layer = side_layer % s.ghost;
          const long pos = side == 0 ? s.begin - s.ghost + layer : s.end + layer;
          // The owned entry a period away: end - ghost + layer below, begin +
          // layer above, and on a block thinner than the halo (a 1D case's
          // one cell across) the entry as many periods away as it takes.
          const long n_owned = s.end - s.begin, offset = (pos - s.begin) % n_owned;
          const long source = s.begin + (offset < 0 ? offset + n_owned : offset);
          long i, j, k, si, sj, sk;
          s.at(pos, a, b, i, j, k);
          s.at(source, a, b, si, sj, sk);
          field(c, i, j, k) = field(c, si, sj, sk);
        });
  }

  // Side 0 sends its first owned layers down, side 1 its last ones up. When
  // MPI takes no device pointers the kernel writes straight into page-locked
  // host memory, which the GPU reaches without a separate copy.
  template <class Field>
  void pack(const Field& field, int d) {
    if (staged())
      pack_into(field, d, host_send_[d]);
    else
      pack_into(field, d, send_[d]);
    Kokkos::fence();
  }
  template <class Field, class View>
  void pack_into(const Field& field, int d, const View& send) {
    const SlabGeometry s = geometry(d);
    const long n = s.count();
    Kokkos::parallel_for(
        "halo::pack", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<long>>(0, 2 * n), KOKKOS_LAMBDA(const long m) {
          const auto e = s.entry(m);
          long i, j, k;
          s.at(e.side == 0 ? s.begin + e.layer : s.end - s.ghost + e.layer, e.t, i, j, k);
          send(m) = field(e.c, i, j, k);
        });
  }

  // Side 0's ghosts come from the low neighbour's last layers.
  template <class Field>
  void unpack(const Field& field, int d) {
    if (staged())
      unpack_from(field, d, host_recv_[d]);
    else
      unpack_from(field, d, recv_[d]);
  }
  template <class Field, class View>
  void unpack_from(const Field& field, int d, const View& recv) {
    const SlabGeometry s = geometry(d);
    const long n = s.count();
    const int lo = dec_.neighbour[d][0], hi = dec_.neighbour[d][1];
    Kokkos::parallel_for(
        "halo::unpack", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<long>>(0, 2 * n), KOKKOS_LAMBDA(const long m) {
          const auto e = s.entry(m);
          if ((e.side == 0 ? lo : hi) < 0) return;
          long i, j, k;
          s.at(e.side == 0 ? s.begin - s.ghost + e.layer : s.end + e.layer, e.t, i, j, k);
          field(e.c, i, j, k) = recv(m);
        });
  }

#ifdef CFDRUN_HAVE_MPI
  // Posts both packed faces of direction d and the receives of the
  // neighbours'. Messages travelling up (to the high neighbour) and down
  // carry different tags, so that two ranks that are each other's low and
  // high neighbours (periodic) match them.
  void post(int d) {
    const long n = geometry(d).count();
    const int lo = dec_.neighbour[d][0], hi = dec_.neighbour[d][1];
    Real* send = staged() ? host_send_[d].data() : send_[d].data();
    Real* recv = staged() ? host_recv_[d].data() : recv_[d].data();
    const MPI_Datatype type = sizeof(Real) == 8 ? MPI_DOUBLE : MPI_FLOAT;
    const int count = static_cast<int>(n), down = 2 * d, up = 2 * d + 1;
    MPI_Comm comm = dec_.comm.handle();
    int& m = pending_[d];
    m = 0;
    if (lo >= 0) MPI_Irecv(recv, count, type, lo, up, comm, &requests_[d][m++]);
    if (hi >= 0) MPI_Irecv(recv + n, count, type, hi, down, comm, &requests_[d][m++]);
    if (lo >= 0) MPI_Isend(send, count, type, lo, down, comm, &requests_[d][m++]);
    if (hi >= 0) MPI_Isend(send + n, count, type, hi, up, comm, &requests_[d][m++]);
  }
  void wait(int d) {
    if (MPI_Waitall(pending_[d], requests_[d], MPI_STATUSES_IGNORE) != MPI_SUCCESS)
      throw std::runtime_error("halo exchange: MPI_Waitall failed");
    pending_[d] = 0;
  }
#else
  // One process: every neighbour is this rank (a periodic copy).
  void post(int) {}
  void wait(int) {}
#endif

  // The ghost layers of face (d, side) from the physical boundary there.
  template <class Field>
  void fill_boundary(const Field& field, int d, int side) {
    const BoundaryKind given = faces_.kind[d][side];
    if (given == BoundaryKind::none || given == BoundaryKind::periodic) return;
    const SlabGeometry s = geometry(d);
    const int normal = faces_.normal_component[d];
    const Kokkos::Array<Real, FaceBoundaries<Real>::max_components> fixed = faces_.fixed[d][side];
    const bool inflow = given == BoundaryKind::inflow;
    const Kokkos::View<Real***, MemSpace> values = faces_.inflow[d][side];
    if (inflow && (values.extent(0) != size_t(s.components) + 1 || values.extent(1) != size_t(s.ghost) ||
                   values.extent(2) != size_t(s.across)))
      throw std::logic_error("HaloExchange: an inflow face without values of its slab's shape");
    const int applies = s.components;  // the component of `values` that says where they apply
    // Where an inflow face's values do not apply it acts as this kind.
    const BoundaryKind kind = inflow ? faces_.elsewhere[d][side] : given;
    const long n = s.count();
    Kokkos::parallel_for(
        "halo::physical_boundary", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<long>>(0, n),
        KOKKOS_LAMBDA(const long m) {
          const auto e = s.entry(m);            // one side's slab: e.side is 0
          const long t = e.t, layer = e.layer;  // layer 0 touches the interior
          const int c = e.c;
          long i, j, k, si, sj, sk;
          s.at(side == 0 ? s.begin - 1 - layer : s.end + layer, t, i, j, k);
          if (inflow && values(applies, layer, t) != Real(0)) {
            field(c, i, j, k) = values(c, layer, t);
            return;
          }
          if (kind == BoundaryKind::fixed) {
            field(c, i, j, k) = fixed[c];
            return;
          }
          // outflow copies the edge entry, reflecting mirrors the layer.
          const long src = kind == BoundaryKind::outflow ? (side == 0 ? s.begin : s.end - 1)
                                                         : (side == 0 ? s.begin + layer : s.end - 1 - layer);
          s.at(src, t, si, sj, sk);
          const Real value = field(c, si, sj, sk);
          field(c, i, j, k) = kind == BoundaryKind::reflecting && c == normal ? -value : value;
        });
  }

 private:
  Decomposition dec_;
  FaceBoundaries<Real> faces_;
  int components_ = 0;
  std::array<Buffer, 3> send_, recv_;
  std::array<HostBuffer, 3> host_send_, host_recv_;
#ifdef CFDRUN_HAVE_MPI
  MPI_Request requests_[3][4];
  int pending_[3] = {0, 0, 0};
#endif
  double exchange_s_ = 0;
};

}  // namespace cfd
