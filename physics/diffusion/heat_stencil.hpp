// The explicit 5-point update of the heat equation (problems.md section 1):
//   v(i,j) = u(i,j) + alpha*(u(i-1,j) + u(i+1,j) + u(i,j-1) + u(i,j+1) - 4*u(i,j))
// The sum is evaluated left to right exactly as written, so every variant,
// layout and loop order, and the serial reference, round identically.
#pragma once

#include "core/kokkos_compat.hpp"
#include "core/parallel.hpp"

#include <stdexcept>
#include <string>

namespace cfd::diffusion {

template <class Real>
KOKKOS_INLINE_FUNCTION Real heat_update(Real centre, Real west, Real east, Real south, Real north, Real alpha) {
  // 4*centre is exact, so only the product with alpha must stay unfused for
  // every backend to round alike.
  return centre + mul_unfused(alpha, west + east + south + north - Real(4) * centre);
}

template <class Real, class Layout>
using Field = Kokkos::View<Real**, Layout, MemSpace>;

// Interior points only; the edges of `next` keep the zeros they were born with.
template <class Real, class Layout>
struct InteriorStep {
  Field<Real, Layout> now, next;
  Real alpha;
  KOKKOS_FORCEINLINE_FUNCTION void operator()(const long i, const long j) const {
    next(i, j) = heat_update(now(i, j), now(i - 1, j), now(i + 1, j), now(i, j - 1), now(i, j + 1), alpha);
  }
};

// Every owned point; points on the global edge are written as 0 by a branch,
// as in the original's baseline kernel. `first_*` is the global index of local
// index 0 and `last_*` the global index of the far edge.
template <class Real, class Layout>
struct BaselineStep {
  Field<Real, Layout> now, next;
  Real alpha;
  long first_x, first_y, last_x, last_y;
  KOKKOS_FORCEINLINE_FUNCTION void operator()(const long i, const long j) const {
    const long gi = first_x + i, gj = first_y + j;
    if (gi == 0 || gj == 0 || gi == last_x || gj == last_y) {
      next(i, j) = Real(0);
    } else {
      next(i, j) = heat_update(now(i, j), now(i - 1, j), now(i + 1, j), now(i, j - 1), now(i, j + 1), alpha);
    }
  }
};

// The two fields of a step addressed by (c, s): c the contiguous index (i in
// LayoutLeft, j in LayoutRight), s the other, as the kernels that give each
// thread a line of the contiguous index walk them.
template <class Real, class Layout>
struct ColumnsAndRows {
  Field<Real, Layout> now, next;
  Real alpha;
  static constexpr bool c_is_i = std::is_same_v<Layout, Kokkos::LayoutLeft>;

  KOKKOS_FORCEINLINE_FUNCTION Real at(long c, long s) const {
    if constexpr (c_is_i)
      return now(c, s);
    else
      return now(s, c);
  }
  KOKKOS_FORCEINLINE_FUNCTION void write(long c, long s, Real value) const {
    if constexpr (c_is_i)
      next(c, s) = value;
    else
      next(s, c) = value;
  }
  // heat_update with the neighbours named by c and s rather than by x and y.
  KOKKOS_FORCEINLINE_FUNCTION Real update(Real centre, Real c_minus, Real c_plus, Real s_minus, Real s_plus) const {
    if constexpr (c_is_i)
      return heat_update(centre, c_minus, c_plus, s_minus, s_plus, alpha);
    else
      return heat_update(centre, s_minus, s_plus, c_minus, c_plus, alpha);
  }
};

// Interior points in strips: one point of the contiguous index c per thread,
// each thread owning K consecutive points of the other index s. A thread
// loads all 3K + 2 values its strip reads before it writes any, so it keeps
// that many loads in flight. With one point per thread the GPU idles between
// each load and its use, far below the copy bandwidth, where strips of 8
// come close to it (docs/data/diary.md, "diffusion at 8192^2 and
// 16384^2"). Each point's arithmetic is heat_update's, so the results are
// bit for bit those of InteriorStep.
template <class Real, class Layout, int K = 8>
struct InteriorStripStep : ColumnsAndRows<Real, Layout> {
  using ColumnsAndRows<Real, Layout>::at;
  using ColumnsAndRows<Real, Layout>::write;
  using ColumnsAndRows<Real, Layout>::update;
  long s_begin, s_end;  // interior range of the strip index s

  KOKKOS_INLINE_FUNCTION void operator()(const long c, const long strip) const {
    const long s0 = s_begin + strip * K;
    if (s0 + K <= s_end) {
      Real line[K + 2], lower[K], upper[K];
      CFD_UNROLL
      for (int k = 0; k < K + 2; ++k) line[k] = at(c, s0 - 1 + k);
      CFD_UNROLL
      for (int k = 0; k < K; ++k) lower[k] = at(c - 1, s0 + k);
      CFD_UNROLL
      for (int k = 0; k < K; ++k) upper[k] = at(c + 1, s0 + k);
      CFD_UNROLL
      for (int k = 0; k < K; ++k) write(c, s0 + k, update(line[k + 1], lower[k], upper[k], line[k], line[k + 2]));
    } else {
      for (long s = s0; s < s_end; ++s)
        write(c, s, update(at(c, s), at(c - 1, s), at(c + 1, s), at(c, s - 1), at(c, s + 1)));
    }
  }
};

// Runs InteriorStripStep over [i0,i1) x [j0,j1): threads along the contiguous
// index (a tile of 128), strips along the other.
template <class Real, class Layout>
void step_interior_in_strips(const Field<Real, Layout>& now, const Field<Real, Layout>& next, Real alpha, int i0,
                             int i1, int j0, int j1) {
  constexpr int K = 8;
  constexpr bool c_is_i = std::is_same_v<Layout, Kokkos::LayoutLeft>;
  const int c0 = c_is_i ? i0 : j0, c1 = c_is_i ? i1 : j1, s0 = c_is_i ? j0 : i0, s1 = c_is_i ? j1 : i1;
  if (c0 >= c1 || s0 >= s1) return;
  const int strips = (s1 - s0 + K - 1) / K;
  using Policy = Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<2, Kokkos::Iterate::Left, Kokkos::Iterate::Left>>;
  Kokkos::parallel_for("diffusion::heat_step_interior", Policy({c0, 0}, {c1, strips}, {128, 1}),
                       InteriorStripStep<Real, Layout, K>{{now, next, alpha}, s0, s1});
}

// Temporal blocking: `steps` updates of the interior in one pass over memory.
// Each team takes a tile of owned points, loads it with a margin of `steps`
// points on every side into team scratch (shared memory on a GPU, a cache
// sized buffer on a CPU), updates that copy `steps` times and writes the
// tile back. After sub-step s only the points within steps - s of the tile
// are still exact (the rest would need points beyond the margin), and those
// are all that sub-step s + 1 reads; the margin's points are computed by
// both tiles that overlap there. Every point is heat_update of the same
// values as in InteriorStep, so k fused steps are bit for bit k single
// steps. Points that are not updated (the global edges) hold their fixed
// value in both buffers; across a rank face the margin is the halo, which
// is therefore `steps` deep (diffusion_solver.hpp).
template <class Real, class Layout>
struct TiledSteps {
  using Scratch = Kokkos::View<Real**, Layout, typename ExecSpace::scratch_memory_space, Kokkos::MemoryUnmanaged>;
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  static constexpr bool i_contiguous = std::is_same_v<Layout, Kokkos::LayoutLeft>;

  Field<Real, Layout> now, next;
  Real alpha;
  int steps;
  int tile[2];                         // owned points per tile along i and j
  int tiles_i;                         // tiles along i
  int write_begin[2], write_end[2];    // the owned interior: what the pass writes
  int update_begin[2], update_end[2];  // every point it may update, halo included
  int extent[2];                       // the allocation

  static size_t scratch_bytes(int tile_i, int tile_j, int steps) {
    return 2 * Scratch::shmem_size(tile_i + 2 * steps, tile_j + 2 * steps);
  }

  // f(i, j) over [i0, i1) x [j0, j1): team threads across the lines, vector
  // lanes along the contiguous index (coalesced on a GPU). On a CPU a line is
  // a plain loop marked independent: Kokkos' ThreadVectorRange does not say
  // so to GCC, which then cannot vectorise through the scratch Views.
  template <class F>
  KOKKOS_INLINE_FUNCTION static void for_points(const Member& team, int i0, int i1, int j0, int j1, const F& f) {
    const int line0 = i_contiguous ? j0 : i0, line1 = i_contiguous ? j1 : i1;
    const int along0 = i_contiguous ? i0 : j0, along1 = i_contiguous ? i1 : j1;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, line0, line1), [&](const int line) {
      const auto point = [&](const int along) {
        if constexpr (i_contiguous)
          f(along, line);
        else
          f(line, along);
      };
      if constexpr (host_backend) {
        CFD_SIMD
        for (int along = along0; along < along1; ++along) point(along);
      } else {
        Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, along0, along1), point);
      }
    });
  }

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    const int ti = team.league_rank() % tiles_i, tj = team.league_rank() / tiles_i;
    const int w0[2] = {write_begin[0] + ti * tile[0], write_begin[1] + tj * tile[1]};
    const int w1[2] = {w0[0] + tile[0] < write_end[0] ? w0[0] + tile[0] : write_end[0],
                       w0[1] + tile[1] < write_end[1] ? w0[1] + tile[1] : write_end[1]};
    // The loaded region: the tile and its margin, within the allocation.
    const int l0[2] = {w0[0] - steps > 0 ? w0[0] - steps : 0, w0[1] - steps > 0 ? w0[1] - steps : 0};
    const int l1[2] = {w1[0] + steps < extent[0] ? w1[0] + steps : extent[0],
                       w1[1] + steps < extent[1] ? w1[1] + steps : extent[1]};
    const int si = tile[0] + 2 * steps, sj = tile[1] + 2 * steps;
    Scratch a(team.team_scratch(0), si, sj), b(team.team_scratch(0), si, sj);
    for_points(team, l0[0], l1[0], l0[1], l1[1],
               [&](int i, int j) { a(i - l0[0], j - l0[1]) = b(i - l0[0], j - l0[1]) = now(i, j); });
    team.team_barrier();
    for (int s = 1; s <= steps; ++s) {
      const Scratch& from = s % 2 ? a : b;
      const Scratch& to = s % 2 ? b : a;
      const int reach = steps - s;  // the margin still exact after this sub-step
      int c0[2], c1[2];
      for (int d = 0; d < 2; ++d) {
        c0[d] = w0[d] - reach > update_begin[d] ? w0[d] - reach : update_begin[d];
        c1[d] = w1[d] + reach < update_end[d] ? w1[d] + reach : update_end[d];
      }
      // Through raw pointers: the host compiler then sees that the writes
      // cannot change the Views' own pointers and keeps the loop vectorised.
      const Real* const src = from.data();
      Real* const dst = to.data();
      // Unit stride along the contiguous index as a constant, so that a line
      // is read with plain vector loads.
      const long sx = i_contiguous ? 1 : from.stride(0), sy = i_contiguous ? from.stride(1) : 1;
      const Real coefficient = alpha;
      const int ox = l0[0], oy = l0[1];
      for_points(team, c0[0], c1[0], c0[1], c1[1], [=](int i, int j) {
        const long c = (i - ox) * sx + (j - oy) * sy;
        dst[c] = heat_update(src[c], src[c - sx], src[c + sx], src[c - sy], src[c + sy], coefficient);
      });
      team.team_barrier();
    }
    const Scratch& result = steps % 2 ? b : a;
    for_points(team, w0[0], w1[0], w0[1], w1[1], [&](int i, int j) { next(i, j) = result(i - l0[0], j - l0[1]); });
  }
};

// Runs TiledSteps over the owned interior [w0, w1) with updates allowed in
// [u0, u1) (the interior plus the halo), in tiles of the backend's size.
template <class Real, class Layout>
void tiled_steps(const Field<Real, Layout>& now, const Field<Real, Layout>& next, Real alpha, int steps,
                 const int (&w0)[2], const int (&w1)[2], const int (&u0)[2], const int (&u1)[2]) {
  using Steps = TiledSteps<Real, Layout>;
  if (w0[0] >= w1[0] || w0[1] >= w1[1]) return;
  // GPU: 64 x 32 points (the contiguous index first), 32 vector lanes and 8
  // lines at a time; CPU: 256 x 64, a few hundred KB, in the core's L2.
  // Deep fusion on a GPU halves the tile (across to 8, along to 32, then
  // across to 2: 16 FP64 steps) until the two buffers fit the shared memory
  // a block may have (team_scratch_limit).
  int along = host_backend ? 256 : 64, across = host_backend ? 64 : 32;
  const auto bytes = [&] {
    return Steps::scratch_bytes(Steps::i_contiguous ? along : across, Steps::i_contiguous ? across : along, steps);
  };
  while (bytes() > team_scratch_limit() && (across > 2 || along > 32))
    (across > 8 || along == 32 ? across : along) /= 2;
  if (bytes() > team_scratch_limit())
    throw std::runtime_error("diffusion: " + std::to_string(steps) +
                             " fused steps need more shared memory than a GPU block has, even on the smallest "
                             "tile; choose fewer diffusion.fused_steps");
  const int tile_i = Steps::i_contiguous ? along : across, tile_j = Steps::i_contiguous ? across : along;
  Steps f{now,
          next,
          alpha,
          steps,
          {tile_i, tile_j},
          (w1[0] - w0[0] + tile_i - 1) / tile_i,
          {w0[0], w0[1]},
          {w1[0], w1[1]},
          {u0[0], u0[1]},
          {u1[0], u1[1]},
          {static_cast<int>(now.extent(0)), static_cast<int>(now.extent(1))}};
  const int tiles = f.tiles_i * ((w1[1] - w0[1] + tile_j - 1) / tile_j);
  Kokkos::TeamPolicy<ExecSpace> policy =
      host_backend ? Kokkos::TeamPolicy<ExecSpace>(tiles, 1, 1) : Kokkos::TeamPolicy<ExecSpace>(tiles, 8, 32);
  policy.set_scratch_size(0, Kokkos::PerTeam(Steps::scratch_bytes(tile_i, tile_j, steps)));
  Kokkos::parallel_for("diffusion::heat_steps_tiled", policy, f);
}

// The most steps a streamed pass takes: 8 keeps three rows of 8 levels in a
// thread's registers (FP64: 48 of them); passes of more take TiledSteps.
constexpr int max_streamed_steps = 8;

// Temporal blocking for GPUs, streamed along one index ("2.5D" blocking).
// TiledSteps passes over its tile in shared memory once per sub-step, with a
// barrier each time and a margin that grows with the steps: on a GPU that is
// slower than plain steps (docs/data/diary.md, "Temporal blocking"). Here each thread of a team
// owns one column of the contiguous index c, and the team marches along the
// other index s a row at a time. Level 0 is the field as read, level t the
// field t steps later. When row r is read, level t computes its row r - t
// from level t - 1's rows r - t - 1, r - t and r - t + 1, which the thread
// keeps in registers (three values a level), and from the neighbouring
// columns' values of level t - 1 at row r - t, which each thread puts in
// shared memory at the start of the row. Those are all values of the
// previous row, so a row needs one barrier; two buffers alternate, so that a
// row's values never overwrite ones that a slower thread still reads. The
// last level is written out. Memory sees each point read about once (the
// 2 x Steps columns and rows where teams meet are read by both) and written
// once per pass; shared memory one write and two reads per point and step.
//
// Exactness, as in TiledSteps: after t levels only the points at least t
// columns and rows inside what the team has read can be exact, so a team of
// T columns writes the T - 2 x Steps columns in its middle, and its rows
// start Steps before its first written row. Where that is before the
// allocation's first row, or a team's columns reach past the allocation,
// the missing neighbours read as 0: the points that use them are within t
// points of the allocation's edge at level t, which is either the global
// edge (never updated: exact) or a halo Steps deep (updated inexactly,
// never written). Points outside the updatable region keep their value at
// every level. Every updated point is heat_update of the same values as in
// InteriorStep, so the result is bit for bit that of Steps single steps.
//
// The pass is bound by the instructions it issues, not by memory, so its
// count of steps is a template argument (no test of it per level), and the
// rows of a team whose every level is inside the updatable region, whose
// read-ahead exists and whose last level is written (all but a few at its
// ends, on all teams but those at the edges of the updatable columns) take
// a path without the checks, in turns of three rows (see Column).
// On a CPU a team is one thread that takes its columns in turn (the tests
// run it there); the CPU's passes use TiledSteps, which suits its caches.
template <class Real, class Layout, int Steps>
struct StreamedSteps : ColumnsAndRows<Real, Layout> {
  using ColumnsAndRows<Real, Layout>::update;
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using Scratch = typename ExecSpace::scratch_memory_space;
  // (buffer, level, column): the values a row shares with its neighbours.
  using Exchange = Kokkos::View<Real***, Kokkos::LayoutRight, Scratch, Kokkos::MemoryUnmanaged>;
  // A GPU team's columns (its threads): with the width a constant, each
  // level's shared values are a fixed offset from a thread's address.
  static constexpr int gpu_columns = 256;

  // Rows read ahead of the one that enters level 0: a row's read is used
  // `ahead` rows later, so that the memory's latency (about a microsecond)
  // is not waited for at every row.
  static constexpr int ahead = 3;
  // What a column keeps from row to row: the last three rows of each level
  // below the last, and the rows read ahead. Both are rings of three slots
  // rather than queues that shift: level t's row x is in slot
  // (x + t - r0) % 3 and the read row x in slot (x - r0) % 3, so that row r
  // puts its new values, at every level, into the slots of its phase
  // (r - r0) % 3. A GPU thread takes the rows in turns of three, each
  // with its phase a constant, and the rows then rotate through registers
  // by renaming; shifting queues cost two moves per level and row.
  struct Column {
    Real rows[Steps][3];
    Real read[ahead];
  };
  // On a CPU the team's columns live in scratch; a GPU thread's in registers.
  using Columns = Kokkos::View<Column*, Scratch, Kokkos::MemoryUnmanaged>;

  int columns;  // columns of a team (its threads on a GPU)
  int rows;     // rows a team writes
  int tiles_c;  // teams along c
  // In (c, s) order: the points written, the points that may be updated
  // (the owned interior and the halo) and the allocation.
  int write_begin[2], write_end[2], update_begin[2], update_end[2], extent[2];
  long now_row, next_row;  // the distance in memory from row s to row s + 1 of now and of next

  static size_t scratch_bytes(int columns) {
    return Exchange::shmem_size(2, Steps, columns) + (host_backend ? Columns::shmem_size(columns) : 0);
  }

  // The team's part: written columns [c0, c1) and rows [s0, s1); rows
  // [r0, r1) enter level 0, those below `readable` from memory; rows
  // [f0, f1) take the path without checks (f0 - r0 and f1 - f0 multiples
  // of three; f0 = f1 where no row may).
  struct Part {
    int c0, c1, s0, s1, r0, r1, readable, f0, f1;
  };
  // What a column of the team needs to know about itself, worked out once
  // per team on a GPU (per row and column on a CPU, where it is cheap).
  struct Lane {
    int q, west, east;            // its place in the team, and its neighbours' (an edge's own)
    bool updated, read, written;  // whether its points may be updated, exist, are the team's to write
    const Real* source;           // its point of row 0 in now
    Real* target;                 // and in next
  };
  KOKKOS_FORCEINLINE_FUNCTION Lane lane(const Part& part, int q) const {
    const int c = part.c0 - Steps + q;
    Lane l;
    l.q = q;
    l.west = q > 0 ? q - 1 : q;  // the edge columns' results are not used
    l.east = q + 1 < columns ? q + 1 : q;
    l.updated = c >= update_begin[0] && c < update_end[0];
    l.read = c >= 0 && c < extent[0];
    l.written = c >= part.c0 && c < part.c1;
    l.source = this->now.data() + (l.read ? c : 0);  // c is the unit-stride index
    l.target = this->next.data() + (l.read ? c : 0);
    return l;
  }
  // Row s of the column; 0 beyond what exists (never read by a written point).
  KOKKOS_FORCEINLINE_FUNCTION Real load(const Lane& l, const Part& part, int s) const {
    return l.read && s < part.readable ? l.source[s * now_row] : Real(0);
  }
  // Columns between levels in the shared buffer: Width when it is known at
  // compile time, otherwise (Width 0) the team's.
  template <int Width>
  KOKKOS_FORCEINLINE_FUNCTION int level_stride() const {
    return Width > 0 ? Width : columns;
  }
  // The half of the shared buffer that row r uses.
  template <int Width>
  KOKKOS_FORCEINLINE_FUNCTION Real* row_buffer(Real* shared, int r) const {
    return shared + (r & 1) * Steps * level_stride<Width>();
  }

  // Before the first row: read rows r0 .. r0 + ahead - 1 of the column.
  KOKKOS_FORCEINLINE_FUNCTION void start(Column& col, const Lane& l, const Part& part) const {
    col = Column{};
    CFD_UNROLL
    for (int a = 0; a < ahead; ++a) col.read[a] = load(l, part, part.r0 + a);
  }
  // Start of row r (of phase Phase): share the newest row of each level
  // below the last, row r - 1 - t of level t.
  template <int Width, int Phase>
  KOKKOS_FORCEINLINE_FUNCTION void share(const Column& col, const Lane& l, Real* buffer) const {
    constexpr int newest = (Phase + 2) % 3;
    CFD_UNROLL
    for (int t = 0; t < Steps; ++t) buffer[t * level_stride<Width>() + l.q] = col.rows[t][newest];
  }
  // The rest of row r: level 0 takes the point of row r and `incoming`, row
  // r + ahead, goes into the ring; level t computes its row r - t. Returns
  // the last level's row r - Steps. Checked: only where the row's updatable
  // region says; otherwise every level updates (the fast rows).
  template <int Width, bool Checked, int Phase>
  KOKKOS_FORCEINLINE_FUNCTION Real advance(Column& col, const Lane& l, const Real* buffer, int r, Real incoming) const {
    // Slots of level t - 1's rows r - t + 1, r - t and r - t - 1.
    constexpr int upper = Phase, centre = (Phase + 2) % 3, lower = (Phase + 1) % 3;
    col.rows[0][upper] = col.read[Phase];
    col.read[Phase] = incoming;
    Real value = Real(0);
    CFD_UNROLL
    for (int t = 1; t <= Steps; ++t) {
      const Real(&below)[3] = col.rows[t - 1];
      const int s = r - t;
      value = below[centre];
      if (!Checked || (l.updated && s >= update_begin[1] && s < update_end[1])) {
        const Real* level = buffer + (t - 1) * level_stride<Width>();
        value = update(below[centre], level[l.west], level[l.east], below[lower], below[upper]);
      }
      if (t < Steps) col.rows[t < Steps ? t : Steps - 1][upper] = value;  // the bound is for the compiler
    }
    return value;
  }
  // The phase as a constant, for the rows whose phase is not (the host's
  // and the checked rows at a team's ends).
  template <int Width>
  KOKKOS_FORCEINLINE_FUNCTION void share_at(const Column& col, const Lane& l, Real* buffer, int phase) const {
    if (phase == 0)
      share<Width, 0>(col, l, buffer);
    else if (phase == 1)
      share<Width, 1>(col, l, buffer);
    else
      share<Width, 2>(col, l, buffer);
  }
  template <int Width, bool Checked>
  KOKKOS_FORCEINLINE_FUNCTION Real advance_at(Column& col, const Lane& l, const Real* buffer, int r, int phase,
                                              Real incoming) const {
    if (phase == 0) return advance<Width, Checked, 0>(col, l, buffer, r, incoming);
    if (phase == 1) return advance<Width, Checked, 1>(col, l, buffer, r, incoming);
    return advance<Width, Checked, 2>(col, l, buffer, r, incoming);
  }
  // The checked rest of row r, its read and its write included.
  template <int Width>
  KOKKOS_FORCEINLINE_FUNCTION void checked_row(Column& col, const Lane& l, const Part& part, const Real* buffer,
                                               int r) const {
    const Real value = advance_at<Width, true>(col, l, buffer, r, (r - part.r0) % 3, load(l, part, r + ahead));
    const int s = r - Steps;
    if (l.written && s >= part.s0 && s < part.s1) l.target[s * next_row] = value;
  }

  // A GPU thread's column through the team's rows (stream), one barrier a
  // row: here the checked rows [r, end); the fast rows by fast_row.
  template <int Width>
  KOKKOS_FORCEINLINE_FUNCTION void checked_rows(const Member& team, Column& col, const Lane& l, const Part& part,
                                                Real* shared, int r, int end) const {
    for (; r < end; ++r) {
      share_at<Width>(col, l, row_buffer<Width>(shared, r), (r - part.r0) % 3);
      team.team_barrier();
      checked_row<Width>(col, l, part, row_buffer<Width>(shared, r), r);
    }
  }
  // A fast row: `from` steps to row r + ahead before it reads (stepping after
  // would leave it past the allocation at the end), `to` is row r - Steps.
  template <int Width, int Phase>
  KOKKOS_FORCEINLINE_FUNCTION void fast_row(const Member& team, Column& col, const Lane& l, Real* shared, int r,
                                            const Real*& from, Real*& to) const {
    Real* const buffer = row_buffer<Width>(shared, r);
    share<Width, Phase>(col, l, buffer);
    team.team_barrier();
    from += now_row;
    const Real value = advance<Width, false, Phase>(col, l, buffer, r, *from);
    if (l.written) *to = value;
    to += next_row;
  }
  template <int Width>
  KOKKOS_FORCEINLINE_FUNCTION void stream(const Member& team, const Part& part, Real* shared) const {
    const Lane l = lane(part, team.team_rank());
    Column mine;
    start(mine, l, part);
    checked_rows<Width>(team, mine, l, part, shared, part.r0, part.f0);
    if (part.f0 < part.f1) {
      const Real* from = l.source + long(part.f0 + ahead - 1) * now_row;
      Real* to = l.target + long(part.f0 - Steps) * next_row;
      for (int r = part.f0; r < part.f1; r += 3) {
        fast_row<Width, 0>(team, mine, l, shared, r, from, to);
        fast_row<Width, 1>(team, mine, l, shared, r + 1, from, to);
        fast_row<Width, 2>(team, mine, l, shared, r + 2, from, to);
      }
    }
    checked_rows<Width>(team, mine, l, part, shared, part.f1, part.r1);
  }

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    const int tc = team.league_rank() % tiles_c, ts = team.league_rank() / tiles_c;
    const int width = columns - 2 * Steps;
    Part part;
    part.c0 = write_begin[0] + tc * width;
    part.c1 = part.c0 + width < write_end[0] ? part.c0 + width : write_end[0];
    part.s0 = write_begin[1] + ts * rows;
    part.s1 = part.s0 + rows < write_end[1] ? part.s0 + rows : write_end[1];
    // The last level ends at row s1 - 1 when row s1 - 1 + Steps enters.
    part.r0 = part.s0 - Steps > 0 ? part.s0 - Steps : 0;
    part.r1 = part.s1 + Steps;
    part.readable = part.r1 < extent[1] ? part.r1 : extent[1];
    // The fast rows: every level's row updatable (r - Steps >= update_begin,
    // r - 1 < update_end), the last level's written (r - Steps >= s0; r < r1
    // keeps it below s1), the read-ahead in the allocation; and every column
    // of the team updatable (so also read).
    const int first = part.c0 - Steps;
    const bool all_columns = first >= update_begin[0] && first + columns <= update_end[0];
    int f0 = part.r0, f1 = part.r1;
    f0 = f0 > update_begin[1] + Steps ? f0 : update_begin[1] + Steps;
    f0 = f0 > part.s0 + Steps ? f0 : part.s0 + Steps;
    f1 = f1 < update_end[1] + 1 ? f1 : update_end[1] + 1;
    f1 = f1 < part.readable - ahead ? f1 : part.readable - ahead;
    f0 = part.r0 + (f0 - part.r0 + 2) / 3 * 3;
    part.f0 = part.f1 = part.r0;
    if (all_columns && f1 - f0 >= 3) part.f0 = f0, part.f1 = f0 + (f1 - f0) / 3 * 3;
    const Exchange exchange(team.team_scratch(0), 2, Steps, columns);
    Real* const shared = exchange.data();
    if constexpr (host_backend) {
      const Columns state(team.team_scratch(0), columns);
      // The columns in an order a GPU's threads may take too: the even ones
      // finish a row and share the next before the odd ones finish the row.
      // With one buffer instead of two, the odd columns would then read the
      // next row's values (the tests would fail).
      for (int q = 0; q < columns; ++q) start(state(q), lane(part, q), part);
      for (int q = 0; q < columns; ++q) share_at<0>(state(q), lane(part, q), row_buffer<0>(shared, part.r0), 0);
      for (int r = part.r0; r < part.r1; ++r)
        for (int odd = 0; odd < 2; ++odd)
          for (int q = odd; q < columns; q += 2) {
            const Lane l = lane(part, q);
            const Real* buffer = row_buffer<0>(shared, r);
            const int phase = (r - part.r0) % 3, s = r - Steps;
            if (r >= part.f0 && r < part.f1) {  // the GPU's fast rows, their loads and writes as there
              const Real value = advance_at<0, false>(state(q), l, buffer, r, phase, l.source[(r + ahead) * now_row]);
              if (l.written) l.target[s * next_row] = value;
            } else {
              checked_row<0>(state(q), l, part, buffer, r);
            }
            if (r + 1 < part.r1) share_at<0>(state(q), l, row_buffer<0>(shared, r + 1), (r + 1 - part.r0) % 3);
          }
    } else if (columns == gpu_columns) {
      stream<gpu_columns>(team, part, shared);
    } else {
      stream<0>(team, part, shared);  // other widths (the tests')
    }
  }
};

// Runs StreamedSteps over the owned interior [w0, w1) with updates allowed in
// [u0, u1) ((i, j) order, as tiled_steps), 1 <= steps <= 8, each count its
// own kernel. A team has `columns` columns and writes `rows` rows; 0 picks
// the backend's choice: on a GPU 256 columns (a thread each) and rows
// enough for about a thousand teams, at least 64, on a CPU small teams that
// cross many team edges (tests only).
template <class Real, class Layout>
void streamed_steps(const Field<Real, Layout>& now, const Field<Real, Layout>& next, Real alpha, int steps,
                    const int (&w0)[2], const int (&w1)[2], const int (&u0)[2], const int (&u1)[2], int columns = 0,
                    int rows = 0) {
  if (steps > max_streamed_steps) throw std::logic_error("diffusion: too many steps for a streamed pass");
  if (w0[0] >= w1[0] || w0[1] >= w1[1] || steps < 1) return;
  constexpr int c = std::is_same_v<Layout, Kokkos::LayoutLeft> ? 0 : 1, s = 1 - c;
  if (columns == 0) columns = host_backend ? 24 : StreamedSteps<Real, Layout, 1>::gpu_columns;
  if (now.stride(c) != 1 || next.stride(c) != 1)
    throw std::logic_error("diffusion: a streamed pass needs the contiguous index at unit stride");
  if (columns <= 2 * steps) throw std::logic_error("diffusion: a streamed team needs more than 2 x steps columns");
  const int width = columns - 2 * steps, tiles_c = (w1[c] - w0[c] + width - 1) / width, length = w1[s] - w0[s];
  if (rows == 0) {
    rows = host_backend ? 40 : 512;
    while (!host_backend && rows > 64 && long(tiles_c) * ((length + rows - 1) / rows) < 1024) rows /= 2;
  }
  const int teams = tiles_c * ((length + rows - 1) / rows);
  const auto launch = [&](auto count) {
    using Steps = StreamedSteps<Real, Layout, decltype(count)::value>;
    const Steps f{{now, next, alpha},
                  columns,
                  rows,
                  tiles_c,
                  {w0[c], w0[s]},
                  {w1[c], w1[s]},
                  {u0[c], u0[s]},
                  {u1[c], u1[s]},
                  {static_cast<int>(now.extent(c)), static_cast<int>(now.extent(s))},
                  static_cast<long>(now.stride(s)),
                  static_cast<long>(next.stride(s))};
    // Shared memory: 2 x 8 levels x 256 columns, 32 KB in FP64.
    const size_t bytes = Steps::scratch_bytes(columns);
    if (bytes > team_scratch_limit())
      throw std::runtime_error("diffusion: a streamed pass needs " + std::to_string(bytes) +
                               " bytes of shared memory per block, more than this GPU gives");
    Kokkos::TeamPolicy<ExecSpace> policy(teams, host_backend ? 1 : columns);
    policy.set_scratch_size(0, Kokkos::PerTeam(bytes));
    Kokkos::parallel_for("diffusion::heat_steps_streamed", policy, f);
  };
  using std::integral_constant;
  switch (steps) {
    case 1: return launch(integral_constant<int, 1>{});
    case 2: return launch(integral_constant<int, 2>{});
    case 3: return launch(integral_constant<int, 3>{});
    case 4: return launch(integral_constant<int, 4>{});
    case 5: return launch(integral_constant<int, 5>{});
    case 6: return launch(integral_constant<int, 6>{});
    case 7: return launch(integral_constant<int, 7>{});
    default: return launch(integral_constant<int, max_streamed_steps>{});
  }
}

}  // namespace cfd::diffusion
