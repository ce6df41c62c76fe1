// cfdbench: throughput of the solvers' kernels against the memory system's
// own limit, measured in the same process (a large deep_copy and a plain copy
// kernel). Warm-up, fences and the median of repeats; a table on screen,
// optionally CSV and JSON.
#include "core/comm.hpp"
#include "core/command_line.hpp"
#include "core/config.hpp"
#include "core/memory_meter.hpp"
#include "core/parallel.hpp"
#include "core/run/time_loop.hpp"
#include "core/timing.hpp"
#include "core/version.hpp"
#include "physics/diffusion/diffusion_reference.hpp"
#include "physics/diffusion/diffusion_solver.hpp"
#include "physics/euler/euler_solver.hpp"
#include "physics/sod/sod_solver.hpp"
#include "physics/solvers.hpp"

#ifdef CFDBENCH_HAVE_JSON
#include <nlohmann/json.hpp>
#endif

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <new>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace {

const char* usage_text = R"(usage: cfdbench [options]

Runs a matrix of solver x variant x precision x size and reports, per case,
the median over repeats (after one warm-up) of:
  TOTAL_S   allocation, host-to-device copy, time loop, copy back, release
  LOOP_S    the time loop alone
  cell-updates per second (points written per step x steps / LOOP_S)
  GB/s      by the minimal-bytes model: each updated point reads its own
            value once and writes one value (2 x sizeof(real) bytes)
  %copy     GB/s as a share of the copy bandwidth measured in this run
            (the better of a large Kokkos::deep_copy and a copy kernel,
            also counted as 2 x sizeof(real) bytes per element)
  B/cell    the solver's memory footprint: the most bytes Kokkos held in
            the device (or host) memory space during the untimed warm-up
            solve, from Kokkos' own allocation events, per cell (per node
            for sod)

Options:
  --solver LIST       of diffusion (default), sod (the original KEEP case),
                      euler2d (the euler solver on the McNally Kelvin-Helmholtz
                      problem, n x n cells) and
                      euler3d (the euler solver's spherical blast on n x n x n cells),
                      e.g. diffusion,sod,euler2d for the whole matrix in one run
  --sizes LIST        grid points per side, e.g. 1024,4096 (default 1024,4096;
                      for sod the number of nodes), for every listed solver
  --steps N           time steps per run (default 400)
  --precision LIST    fp32,fp64 (default both)
  --variants LIST     variants to run (below); each solver runs those of the
                      list that are its own (default: diffusion baseline,
                      contiguous,strided; sod and euler2d all of theirs)
  --repeats N         timed repeats after the warm-up (default 5)
  --alpha X           D dt/dx^2 of the implicit diffusion variants (default 100)
  --per-rank          under mpirun: each size is per rank (weak scaling), the
                      global grid that many points per rank along each
                      dimension of the process grid; without it the sizes
                      are global (strong scaling)
  --csv FILE          write the rows as CSV
  --json FILE         write the rows as JSON
  --version           version, git revision, Kokkos version, execution spaces
  --help, -h          this text
Each option that takes a value also takes it as --option=VALUE (--steps=100).
Kokkos options (--kokkos-threads=N, --kokkos-num-threads=N) pass through.

Variants of sod: aos-split, aos-fused, soa-split, soa-fused (layout of the
state, and primitives/fluxes/update as three kernels or one), aos-fused8,
aos-fused16 and aos-fused32 (sod.fused_steps 8, 16 or 32: that many steps per
kernel launch, on tiles in fast memory); its bytes model is 6 x sizeof(real) per node update
(read and write rho, rho*u, E).

Variants of euler2d: plm-hlle-rk2, plm-hllc-rk2, tutorial (the OpenACC
tutorial's scheme), each with one fused kernel per stage, and the same with
-split (euler.kernels: split, a kernel for each part of a stage); bytes
model 10 x sizeof(real) per cell update (read and write the five conserved
values once per step).

Variants of euler3d: plm-hlle-rk2, plm-hllc-rk2 (the blast problem of
config/blast3d.yaml, periodic sides, n^3 cells, CFL 0.3; the 3D fused stage,
as cfdrun runs grid.nz > 1), and the same with -split (a kernel each for the
x, y and z fluxes and the update); the same bytes model per cell update.

Variants of diffusion (layout left: x contiguous, as in Fortran):
  baseline    every point, edges by a branch, loop order along memory
  contiguous  interior points, x fastest (along memory): vectorised lines on
              CPUs, strips of 8 points a thread on GPUs
  strided     interior points, MDRange iterating y fastest (across memory)
  default     interior points, Kokkos' default iteration order
  serial      the plain serial host loop of physics/diffusion/diffusion_reference.hpp
  fused2, fused4, fused8
              interior points, 2, 4 or 8 steps per pass over memory
              (diffusion.fused_steps, temporal blocking: tiles in the cache
              on a CPU, columns streamed through registers on a GPU); the
              same bits as contiguous. GB/s and %copy count 2 x sizeof(real)
              per point and step as for the others, so above 100% the pass
              beats the one-step copy bound
Implicit diffusion (diffusion.scheme, built with Kokkos Kernels), from the
spike, at the --alpha given (default 100):
  be-stencil, be-matrix, cn-stencil, cn-matrix
              backward Euler or Crank-Nicolson, the operator applied as a
              stencil kernel or as a CrsMatrix with KokkosSparse::spmv,
              conjugate gradients without preconditioner; add -jacobi or -gs
              (e.g. be-matrix-gs) for Jacobi or symmetric Gauss-Seidel
  For these rows GB/s and %copy are those of one operator application (the
  spmv or the stencil, timed alone over 20 applications): bytes = for the
  matrix its values, column indices and row offsets plus the input and
  output vectors; for the stencil the two vectors. it/step is the mean
  number of CG iterations per step; LOOP_S / steps is the time per step.

Under mpirun every rank takes one block of the grid (one GPU each on GPU
builds; see docs/parallel.md). LOOP_S is then the slowest rank's, the rates
count the whole grid, %copy compares with the copy bandwidth of all ranks
together, B/cell is per cell of a rank's block, and two more columns say:
  ranks     the rank count
  halo_ms   wall time of the halo exchange per step, the slowest rank's:
            packing and posting the faces, then waiting for the neighbours'
            (partly hidden behind the solver's interior work); 0 where no
            face is shared with another rank

Exit status: 0 when every case ran; 1 when one could not: memory that cannot
be allocated ("out of memory", what and how much, and the machine's memory,
as cfdrun reports it; on a CPU build a case that needs more than the memory
available is refused before it starts, rather than being killed by the
system), a failed implicit solve, or a CSV or JSON file that cannot be
written; 2 for a bad command line, nothing run (a size below 5, or one whose
points, n x n or cell updates over the steps do not fit a 64-bit count).

Example, the whole matrix in one process:
  cfdbench --solver diffusion,sod,euler2d --sizes 1024,4096 --steps 50 --csv all.csv
Weak scaling of euler2d, 4096^2 cells per GPU on 2 GPUs:
  mpirun -np 2 cfdbench --solver euler2d --variants plm-hlle-rk2 --precision fp64 --sizes 4096 --per-rank
)";

// The ranks of the run, and whether sizes are per rank.
cfd::Comm world = cfd::Comm::world();
bool per_rank = false;

// Global points (cells) along each dimension for a size n: n itself, or
// under --per-rank n times the ranks the default process grid puts there.
std::array<long, 3> global_size(long n, int ndim) {
  if (!per_rank) return {n, ndim > 1 ? n : 1, ndim > 2 ? n : 1};
  const long m = n * world.size();
  const cfd::GridBlock trial = cfd::GridBlock::whole(
      ndim, cfd::Centering::cell, {m, ndim > 1 ? m : 1, ndim > 2 ? m : 1}, 0, {0, 0, 0}, {1, 1, ndim > 2 ? 1.0 : 0.0});
  const cfd::Decomposition d = cfd::decompose(trial, {false, false, false}, {0, 0, 0}, world);
  return {n * d.ranks[0], ndim > 1 ? n * d.ranks[1] : 1, ndim > 2 ? n * d.ranks[2] : 1};
}

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

struct Row {
  std::string solver, variant, precision;
  long n = 0, steps = 0;
  double total_s = 0, loop_s = 0, updates_per_s = 0, gbps = 0, pct_copy = 0, bytes_per_cell = 0;
  int ranks = 1;
  double halo_ms = 0;              // halo exchange per step, the slowest rank
  double iterations_per_step = 0;  // implicit diffusion: CG iterations per step
};

bool contains(const std::vector<std::string>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

double implicit_alpha = 100;

// A variant is a named set of ordinary key overrides of its solver's default
// case (the keys of cfdrun --list-keys), made and checked as a case file is
// (cfd::default_case): a variant means what the same keys mean to cfdrun.
struct VariantKeys {
  const char* name;
  std::vector<std::string> keys;
};

const std::vector<VariantKeys>& variants_of(const std::string& solver) {
  static const std::vector<VariantKeys> diffusion = {
      {"baseline", {"diffusion.variant=baseline", "diffusion.iteration=left"}},
      {"contiguous", {"diffusion.iteration=left"}},
      {"strided", {"diffusion.iteration=right"}},
      {"default", {"diffusion.iteration=default"}},
      {"serial", {}},  // the serial host loop (diffusion_reference.hpp) on the same case
      {"be-stencil", {"diffusion.scheme=backward_euler", "diffusion.iteration=left"}},
      {"be-matrix", {"diffusion.scheme=backward_euler", "diffusion.operator=matrix", "diffusion.iteration=left"}},
      {"cn-stencil", {"diffusion.scheme=crank_nicolson", "diffusion.iteration=left"}},
      {"cn-matrix", {"diffusion.scheme=crank_nicolson", "diffusion.operator=matrix", "diffusion.iteration=left"}},
      {"be-stencil-gs",
       {"diffusion.scheme=backward_euler", "diffusion.preconditioner=gauss_seidel", "diffusion.iteration=left"}},
      {"be-matrix-gs",
       {"diffusion.scheme=backward_euler", "diffusion.operator=matrix", "diffusion.preconditioner=gauss_seidel",
        "diffusion.iteration=left"}},
      {"cn-stencil-gs",
       {"diffusion.scheme=crank_nicolson", "diffusion.preconditioner=gauss_seidel", "diffusion.iteration=left"}},
      {"cn-matrix-gs",
       {"diffusion.scheme=crank_nicolson", "diffusion.operator=matrix", "diffusion.preconditioner=gauss_seidel",
        "diffusion.iteration=left"}},
      {"be-stencil-jacobi",
       {"diffusion.scheme=backward_euler", "diffusion.preconditioner=jacobi", "diffusion.iteration=left"}},
      {"be-matrix-jacobi",
       {"diffusion.scheme=backward_euler", "diffusion.operator=matrix", "diffusion.preconditioner=jacobi",
        "diffusion.iteration=left"}},
      {"fused2", {"diffusion.fused_steps=2", "diffusion.iteration=left"}},
      {"fused4", {"diffusion.fused_steps=4", "diffusion.iteration=left"}},
      {"fused8", {"diffusion.fused_steps=8", "diffusion.iteration=left"}}};
  static const std::vector<VariantKeys> sod = {
      {"aos-split", {"sod.layout=aos", "sod.kernels=split"}},
      {"aos-fused", {"sod.layout=aos", "sod.kernels=fused"}},
      {"soa-split", {"sod.layout=soa", "sod.kernels=split"}},
      {"soa-fused", {"sod.layout=soa", "sod.kernels=fused"}},
      {"aos-fused8", {"sod.layout=aos", "sod.kernels=fused", "sod.fused_steps=8"}},
      {"aos-fused16", {"sod.layout=aos", "sod.kernels=fused", "sod.fused_steps=16"}},
      {"aos-fused32", {"sod.layout=aos", "sod.kernels=fused", "sod.fused_steps=32"}}};
  static const std::vector<VariantKeys> euler2d = {
      {"plm-hlle-rk2", {"euler.riemann=hlle"}},
      {"plm-hllc-rk2", {"euler.riemann=hllc"}},
      {"tutorial", {"euler.integrator=euler", "euler.original_faces=true", "time.cfl=0.05"}},
      {"plm-hlle-rk2-split", {"euler.riemann=hlle", "euler.kernels=split"}},
      {"plm-hllc-rk2-split", {"euler.riemann=hllc", "euler.kernels=split"}},
      {"tutorial-split",
       {"euler.integrator=euler", "euler.original_faces=true", "time.cfl=0.05", "euler.kernels=split"}}};
  static const std::vector<VariantKeys> euler3d = {
      {"plm-hlle-rk2", {"euler.problem=blast", "euler.riemann=hlle", "time.cfl=0.3"}},
      {"plm-hllc-rk2", {"euler.problem=blast", "euler.riemann=hllc", "time.cfl=0.3"}},
      {"plm-hlle-rk2-split", {"euler.problem=blast", "euler.riemann=hlle", "time.cfl=0.3", "euler.kernels=split"}},
      {"plm-hllc-rk2-split", {"euler.problem=blast", "euler.riemann=hllc", "time.cfl=0.3", "euler.kernels=split"}}};
  return solver == "sod" ? sod : solver == "euler2d" ? euler2d : solver == "euler3d" ? euler3d : diffusion;
}

const VariantKeys* find_variant(const std::string& solver, const std::string& name) {
  for (const VariantKeys& v : variants_of(solver))
    if (name == v.name) return &v;
  return nullptr;
}

// The case of a variant: its keys, then the size, steps and precision of the
// row; a case the schema refuses ends cfdbench with its message (exit 2).
cfd::Config variant_case(const std::string& solver, const std::string& variant, std::vector<std::string> more) {
  std::vector<std::string> keys = find_variant(solver, variant)->keys;
  keys.insert(keys.end(), more.begin(), more.end());
  try {
    return cfd::default_case(solver == "euler3d" || solver == "euler2d" ? "euler" : solver, keys);
  } catch (const cfd::ConfigError& e) {
    std::fprintf(stderr, "cfdbench: error: %s %s: %s\n", solver.c_str(), variant.c_str(), e.what());
    std::exit(2);
  }
}

// Implicit diffusion variants: those that choose diffusion.scheme.
bool is_implicit(const std::string& variant) {
  const VariantKeys* v = find_variant("diffusion", variant);
  if (v == nullptr) return false;
  for (const auto& key : v->keys)
    if (key.rfind("diffusion.scheme=", 0) == 0) return true;
  return false;
}

std::string precision_of(size_t real_bytes) { return real_bytes == 4 ? "fp32" : "fp64"; }

// The halo time per step of the last solve, ms (set by timed_solve).
double last_halo_ms = 0;

// Copy bandwidth for `count` elements of Real, in GB/s counting read + write.
template <class Real>
double copy_bandwidth(long count, int repeats) {
  using V = Kokkos::View<Real*, cfd::MemSpace>;
  V a("bench::copy_src", count), b("bench::copy_dst", count);
  Kokkos::deep_copy(a, Real(1));
  const double bytes = 2.0 * sizeof(Real) * count;
  std::vector<double> deep, kernel;
  for (int r = 0; r <= repeats; ++r) {
    Kokkos::fence();
    cfd::Stopwatch t;
    Kokkos::deep_copy(b, a);
    Kokkos::fence();
    if (r > 0) deep.push_back(t.seconds());
    t.restart();
    Kokkos::parallel_for(
        "bench::copy_kernel", Kokkos::RangePolicy<cfd::ExecSpace>(0, count), KOKKOS_LAMBDA(long k) { b(k) = a(k); });
    Kokkos::fence();
    if (r > 0) kernel.push_back(t.seconds());
  }
  const double best = std::min(median(deep), median(kernel));
  std::printf("copy bandwidth (%zu-byte elements, %ld of them): deep_copy %.1f GB/s, copy kernel %.1f GB/s\n",
              sizeof(Real), count, bytes / median(deep) * 1e-9, bytes / median(kernel) * 1e-9);
  return bytes / best * 1e-9;
}

// Runs `once` (which does one whole solve and returns its loop seconds) once
// to warm up and `repeats` times more; fills the row's medians and rates.
// `bytes_per_update` is the minimal-bytes model of the solver. The footprint
// is taken in the untimed warm-up: the most bytes Kokkos held in the memory
// space during it, per cell (`cells`, nodes for sod).
template <class Once>
void measure(Row& row, int repeats, long updates, double bytes_per_update, double copy_gbps, double cells, Once once) {
  std::vector<double> totals, loops, halos;
  for (int r = 0; r <= repeats; ++r) {
    Kokkos::fence();
    if (r == 0) {
      cfd::AllocationMeter meter;
      once();
      Kokkos::fence();
      // Per cell of this rank's block.
      row.bytes_per_cell = static_cast<double>(meter.peak_bytes()) / (cells / world.size());
      continue;
    }
    world.barrier();
    cfd::Stopwatch total;
    const double loop = once();
    Kokkos::fence();
    totals.push_back(world.max(total.seconds()));
    loops.push_back(loop);
    halos.push_back(last_halo_ms);
  }
  row.ranks = world.size();
  row.total_s = median(totals);
  row.loop_s = median(loops);
  row.halo_ms = median(halos);
  row.updates_per_s = updates / row.loop_s;
  row.gbps = row.updates_per_s * bytes_per_update * 1e-9;
  row.pct_copy = 100.0 * row.gbps / (copy_gbps * world.size());
}

// One timed solve of `steps` CFL-limited steps with a solver of the common
// interface (set_initial_state, allowed_dt, advance, release); `read_back`
// brings the result to the host, as a run would. Returns the loop seconds.
template <class Solver, class ReadBack>
double timed_solve(Solver& solver, long steps, ReadBack read_back) {
  solver.set_initial_state();
  Kokkos::fence();
  world.barrier();
  const double halo0 = solver.halo().exchange_seconds();
  cfd::Stopwatch t;
  // A solver that fuses steps takes them all in one call, as the time loop
  // would hand them to it between outputs.
  if constexpr (cfd::detail::fuses_steps<Solver>::value)
    solver.advance_steps(steps);
  else
    for (long s = 0; s < steps; ++s) solver.advance(solver.allowed_dt());
  Kokkos::fence();
  const double loop = world.max(t.seconds());
  last_halo_ms = world.max(solver.halo().exchange_seconds() - halo0) / steps * 1e3;
  read_back(solver);
  solver.release();
  return loop;
}

template <class Real>
Row bench_diffusion(const std::string& variant, long n, long steps, int repeats, double copy_gbps) {
  using namespace cfd::diffusion;
  const std::array<long, 3> size = global_size(n, 2);
  const long nx = size[0], ny = size[1];  // not a structured binding: a lambda below captures them
  const bool implicit = is_implicit(variant);
  std::vector<std::string> more = {"grid.nx=" + std::to_string(nx), "grid.ny=" + std::to_string(ny),
                                   "time.steps=" + std::to_string(steps),
                                   "diffusion.precision=" + precision_of(sizeof(Real))};
  if (implicit) {
    more.push_back("diffusion.alpha=" + cfd::format_real(implicit_alpha));
    // FP32 sums carry about 7 digits: the default tolerance is out of reach.
    if (sizeof(Real) == 4) more.push_back("diffusion.cg_tolerance=1e-5");
  }
  const Params p = params(variant_case("diffusion", variant, more));

  Row row{"diffusion", variant, sizeof(Real) == 4 ? "fp32" : "fp64", n, steps};
  const bool serial = variant == "serial";
  const long updates = (serial || p.variant == Variant::interior ? (nx - 2) * (ny - 2) : nx * ny) * steps;
  measure(row, repeats, updates, 2.0 * sizeof(Real), copy_gbps, double(nx) * ny, [&] {
    if (serial) {
      cfd::Stopwatch t;
      const std::vector<Real> u = reference_solution<Real>(nx, ny, steps, static_cast<Real>(p.alpha));
      return world.max(t.seconds());
    }
    Solver<Real, Kokkos::LayoutLeft> solver(p);
    return timed_solve(solver, steps, [&](const auto& s) {
      s.to_host();
      row.iterations_per_step = static_cast<double>(s.total_iterations()) / steps;
      // A failed solve ends the steps' work early: its timing would mean nothing.
      if (implicit && !s.fault().empty()) {
        std::fprintf(stderr, "cfdbench: error: %s at n = %ld, alpha %g: %s\n", variant.c_str(), n, p.alpha,
                     s.fault().c_str());
        std::exit(1);
      }
    });
  });
#ifdef CFDRUN_HAVE_KOKKOSKERNELS
  if (implicit) {  // the operator alone
    Solver<Real, Kokkos::LayoutLeft> solver(p);
    const double seconds = world.max(solver.implicit()->seconds_per_application(20));
    row.gbps = world.sum(solver.operator_bytes()) / seconds * 1e-9;
    row.pct_copy = 100.0 * row.gbps / (copy_gbps * world.size());
  }
#endif
  return row;
}

// The sod original case (KEEP, frozen ends) at nx nodes: variants are
// aos-split, aos-fused, soa-split, soa-fused. Bytes model: each updated node
// reads and writes its three conserved values, 6 x sizeof(real).
template <class Real, class Layout>
Row bench_sod_layout(const std::string& variant, long n, long steps, int repeats, double copy_gbps) {
  const cfd::sod::Params p = cfd::sod::params(
      variant_case("sod", variant,
                   {"grid.nx=" + std::to_string(global_size(n, 1)[0]), "time.steps=" + std::to_string(steps),
                    "sod.precision=" + precision_of(sizeof(Real))}));
  Row row{"sod", variant, sizeof(Real) == 4 ? "fp32" : "fp64", n, steps};
  measure(row, repeats, (p.nx - 2) * steps, 6.0 * sizeof(Real), copy_gbps, double(p.nx), [&] {
    cfd::sod::Solver<Real, Layout> solver(p);
    return timed_solve(solver, steps, [](const auto& s) { s.profiles(); });
  });
  return row;
}

template <class Real>
Row bench_sod(const std::string& variant, long n, long steps, int repeats, double copy_gbps) {
  if (contains(find_variant("sod", variant)->keys, "sod.layout=aos"))
    return bench_sod_layout<Real, Kokkos::LayoutRight>(variant, n, steps, repeats, copy_gbps);
  return bench_sod_layout<Real, Kokkos::LayoutLeft>(variant, n, steps, repeats, copy_gbps);
}

// euler2d: the euler solver on the McNally KH problem, n x n cells: variants plm-hlle-rk2,
// plm-hllc-rk2 and tutorial (the OpenACC tutorial's scheme: plm on six
// primitives, its HLLE, forward Euler), with -split the split kernels. Bytes model: an ideal step reads and
// writes the five conserved values once, 10 x sizeof(real) per cell update.
template <class Real>
Row bench_euler2d(const std::string& variant, long n, long steps, int repeats, double copy_gbps) {
  const auto [nx, ny, nz] = global_size(n, 2);
  const cfd::euler::Params p = cfd::euler::params(
      variant_case("euler2d", variant,
                   {"grid.nx=" + std::to_string(nx), "grid.ny=" + std::to_string(ny),
                    "time.steps=" + std::to_string(steps), "euler.precision=" + precision_of(sizeof(Real))}));
  Row row{"euler2d", variant, sizeof(Real) == 4 ? "fp32" : "fp64", n, steps};
  measure(row, repeats, nx * ny * steps, 10.0 * sizeof(Real), copy_gbps, double(nx) * ny, [&] {
    cfd::euler::Solver<Real> solver(p);
    return timed_solve(solver, steps, [](const auto& s) { s.fields(); });
  });
  return row;
}

// euler3d: the euler solver on n x n x n cells (Solver<Real, 3>, which
// cfdrun runs for grid.nz > 1), the spherical blast; the same bytes model.
template <class Real>
Row bench_euler3d(const std::string& variant, long n, long steps, int repeats, double copy_gbps) {
  const auto [nx, ny, nz] = global_size(n, 3);
  const cfd::euler::Params p = cfd::euler::params(
      variant_case("euler3d", variant,
                   {"grid.nx=" + std::to_string(nx), "grid.ny=" + std::to_string(ny), "grid.nz=" + std::to_string(nz),
                    "time.steps=" + std::to_string(steps), "euler.precision=" + precision_of(sizeof(Real))}));
  Row row{"euler3d", variant, sizeof(Real) == 4 ? "fp32" : "fp64", n, steps};
  measure(row, repeats, nx * ny * nz * steps, 10.0 * sizeof(Real), copy_gbps, double(nx) * ny * nz, [&] {
    cfd::euler::Solver<Real, 3> solver(p);
    return timed_solve(solver, steps, [](const auto& s) { s.fields(); });
  });
  return row;
}

}  // namespace

// The variants' names of a solver, its defaults first.
std::vector<std::string> known_variants(const std::string& solver) {
  std::vector<std::string> names;
  for (const VariantKeys& v : variants_of(solver)) names.push_back(v.name);
  return names;
}

std::vector<std::string> default_variants(const std::string& solver) {
  if (solver == "diffusion") return {"baseline", "contiguous", "strided"};
  return known_variants(solver);
}

// A whole positive integer, or exit 2 naming the option: "3x" and "1e4" are
// refused rather than read as 3 and 1.
long positive_integer(const std::string& option, const std::string& text) {
  const auto value = cfd::whole_number(text);
  if (!value || *value < 1) {
    std::fprintf(stderr, "cfdbench: error: %s expects a positive whole number, got '%s'\n", option.c_str(),
                 text.c_str());
    std::exit(2);
  }
  return *value;
}

constexpr double gib = 1024.0 * 1024.0 * 1024.0;

// The dimensions of a solver's grid: a size n is n points (sod), n x n
// (diffusion, euler2d) or n x n x n (euler3d).
int dimensions(const std::string& solver) { return solver == "sod" ? 1 : solver == "euler3d" ? 3 : 2; }
// The points of a grid of `side` points along each dimension, in double (the
// 64-bit checks below must not wrap around while they check).
double grid_points(const std::string& solver, double side) {
  double points = 1;
  for (int d = 0; d < dimensions(solver); ++d) points *= side;
  return points;
}

// The fewest bytes a solver's case of n points per side holds at once on
// one rank, per cell of sizeof(Real) bytes: the copy-bandwidth arrays (two
// of a field, or of a state) and the solver's own state and its update (the
// B/cell measured in performance.md: diffusion 2, euler2d 10 and more, sod
// 6 per node). A lower bound: a case above it cannot run.
double least_bytes(const std::string& solver, double cells, int real_bytes) {
  const double arrays = solver == "sod" ? 6 : solver == "euler2d" || solver == "euler3d" ? 10 : 2;
  return arrays * real_bytes * cells;
}

int main(int argc, char* argv[]) {
  cfd::MpiSession mpi(argc, argv);
  world = cfd::Comm::world();
  // The tables come from rank 0.
  [[maybe_unused]] const std::FILE* silenced = world.is_root() ? nullptr : std::freopen("/dev/null", "w", stdout);
  std::vector<std::string> sizes = {"1024", "4096"}, precisions = {"fp32", "fp64"}, variants, solvers = {"diffusion"};
  std::string csv, json;
  long steps = 400;
  int repeats = 5;
  std::vector<char*> kokkos_args{argv[0]};
  std::vector<std::string> kokkos_options;  // the strings kokkos_args points into
  try {
    cfd::cli::Parser parser("cfdbench");
    parser.stop_flag("--help", "-h")
        .stop_flag("--version")
        .option("--solver")
        .option("--sizes")
        .option("--steps")
        .option("--precision")
        .option("--variants")
        .option("--repeats")
        .option("--alpha")
        .flag("--per-rank")
        .option("--csv")
        .option("--json")
        .passthrough("--kokkos-");
    const cfd::cli::Arguments args = parser.parse(argc, argv);
    if (args.stopped_at == "--help") {
      std::fputs(usage_text, stdout);
      return 0;
    }
    if (args.stopped_at == "--version") {
      std::printf("cfdbench %s (git %s)\nKokkos %s, execution spaces:", cfd::version, cfd::git_revision,
                  cfd::kokkos_version_string().c_str());
      for (const auto& s : cfd::enabled_execution_spaces()) std::printf(" %s", s.c_str());
      std::printf(" (default first)\n");
      return 0;
    }
    if (!args.positional.empty())
      throw cfd::cli::UsageError("cfdbench takes no file or other argument, got '" + args.positional[0] + "'");
    for (const auto& given : args.options) {
      const std::string& option = given.option;
      const std::string& v = given.value;
      if (option == "--solver")
        solvers = split(v);
      else if (option == "--sizes")
        sizes = split(v);
      else if (option == "--steps")
        steps = positive_integer("--steps", v);
      else if (option == "--precision")
        precisions = split(v);
      else if (option == "--variants")
        variants = split(v);
      else if (option == "--repeats")
        repeats = static_cast<int>(std::min(positive_integer("--repeats", v), 1000000L));
      else if (option == "--alpha") {
        const auto alpha = cfd::finite_number(v);
        if (!alpha || !(*alpha > 0)) {
          std::fprintf(stderr, "cfdbench: error: --alpha expects a positive number, got '%s'\n", v.c_str());
          return 2;
        }
        implicit_alpha = *alpha;
      } else if (option == "--per-rank")
        per_rank = true;
      else if (option == "--csv")
        csv = v;
      else if (option == "--json") {
#ifndef CFDBENCH_HAVE_JSON
        std::fprintf(stderr,
                     "cfdbench: error: --json needs a cfdbench built with nlohmann-json (Debian: apt-get "
                     "install nlohmann-json3-dev, then build again); --csv writes the same rows\n");
        return 2;
#endif
        json = v;
      }
    }
    kokkos_options = args.passthrough;
    for (auto& a : kokkos_options) kokkos_args.push_back(a.data());
  } catch (const cfd::cli::UsageError& e) {
    std::fprintf(stderr, "cfdbench: error: %s\nRun 'cfdbench --help' for usage.\n", e.what());
    return 2;
  }
  for (const auto& solver : solvers)
    if (solver != "diffusion" && solver != "sod" && solver != "euler2d" && solver != "euler3d") {
      std::fprintf(stderr, "cfdbench: error: unknown solver '%s' (known: diffusion, sod, euler2d, euler3d)\n",
                   solver.c_str());
      return 2;
    }
  for (const auto& v : variants) {
    bool known = false;
    for (const auto& solver : solvers) known = known || contains(known_variants(solver), v);
    if (!known) {
      std::fprintf(stderr, "cfdbench: error: unknown variant '%s' (see cfdbench --help)\n", v.c_str());
      return 2;
    }
  }
  // The matrix: for each solver, the listed variants it knows (or its defaults).
  std::vector<std::pair<std::string, std::vector<std::string>>> matrix;
  for (const auto& solver : solvers) {
    std::vector<std::string> own;
    for (const auto& v : variants)
      if (contains(known_variants(solver), v)) own.push_back(v);
    if (variants.empty()) own = default_variants(solver);
    if (own.empty()) {
      std::fprintf(stderr, "cfdbench: error: none of the --variants is a variant of %s\n", solver.c_str());
      return 2;
    }
    matrix.push_back({solver, own});
  }
  for (const auto& p : precisions)
    if (p != "fp32" && p != "fp64") {
      std::fprintf(stderr, "cfdbench: error: unknown precision '%s'\n", p.c_str());
      return 2;
    }
#ifndef CFDRUN_HAVE_KOKKOSKERNELS
  for (const auto& v : variants)
    if (is_implicit(v)) {
      std::fprintf(stderr, "cfdbench: error: variant '%s' needs a build with Kokkos Kernels\n", v.c_str());
      return 2;
    }
#endif
  if (world.size() > 1 && contains(variants, "serial")) {
    std::fprintf(stderr, "cfdbench: error: the serial variant runs on one rank only\n");
    return 2;
  }
  if (sizes.empty()) {
    std::fprintf(stderr, "cfdbench: error: --sizes lists no size\n");
    return 2;
  }
  for (const auto& size : sizes) {
    const long n = positive_integer("--sizes", size);
    if (n < 5) {
      std::fprintf(stderr, "cfdbench: error: size %s is below 5\n", size.c_str());
      return 2;
    }
    // The counts are 64-bit integers: the global points along a side, their
    // square (times the five values of euler2d's state) and the cell updates
    // of all steps must fit one, or they wrap around (negative extents,
    // SIGFPE and SIGSEGV before). In double, exact enough for the test.
    const double side = static_cast<double>(n) * (per_rank ? world.size() : 1);
    for (const auto& [solver, solver_variants] : matrix) {
      const double cells = grid_points(solver, side);
      if (5 * cells > 0x1p62 || cells * static_cast<double>(steps) > 0x1p62) {
        const int dims = dimensions(solver);
        std::fprintf(stderr,
                     "cfdbench: error: size %s: %s of %.4g points%s for %ld steps are more than a 64-bit count "
                     "holds\n",
                     size.c_str(), solver.c_str(), cells,
                     dims == 1   ? ""
                     : dims == 3 ? " (n x n x n)"
                                 : " (n x n)",
                     steps);
        return 2;
      }
    }
  }
  // An allocation the host cannot give stops with the message below; one it
  // gives on paper (Linux overcommits) but cannot back is a kill by the
  // out-of-memory killer instead, with nothing said. So a case that cannot
  // fit in the memory available, by the least it needs, is refused first,
  // with cfdrun's status for memory that cannot be allocated (1).
  if (std::is_same_v<cfd::MemSpace, Kokkos::HostSpace>) {
    const double available = cfd::memory_gib("MemAvailable");
    for (const auto& size : sizes)
      for (const auto& [solver, solver_variants] : matrix)
        for (const auto& prec : precisions) {
          const double side = static_cast<double>(positive_integer("--sizes", size)) * (per_rank ? world.size() : 1);
          const double cells = grid_points(solver, side) / world.size();
          const double need = least_bytes(solver, cells, prec == "fp32" ? 4 : 8) / gib;
          if (available > 0 && need > available) {
            std::fprintf(stderr,
                         "cfdbench: error: out of memory: %s %s at n = %s needs at least %.1f GiB per process; this "
                         "machine has %.1f GiB of memory, %.1f GiB available. Smaller --sizes%s, or more ranks "
                         "(mpirun) need less per process\n",
                         solver.c_str(), prec.c_str(), size.c_str(), need, cfd::memory_gib("MemTotal"), available,
                         prec == "fp32" ? "" : ", --precision fp32");
            return 1;
          }
        }
  }

  std::vector<Row> rows;
  int kargc = static_cast<int>(kokkos_args.size());
  try {
    cfd::KokkosSession kokkos(kargc, kokkos_args.data());
    std::printf("cfdbench: cfdrun %s (git %s), Kokkos %s, %s with %d thread(s)/concurrency, %d rank(s)%s\n",
                cfd::version, cfd::git_revision, cfd::kokkos_version_string().c_str(), cfd::ExecSpace::name(),
                cfd::ExecSpace().concurrency(), world.size(), per_rank ? ", sizes per rank" : "");
    // Each row as soon as it is measured: a long series shows where it is, and
    // what was measured is not lost when the series is stopped.
    const auto report = [](const Row& r) {
      std::string cg;
      if (r.iterations_per_step > 0) cg = ", " + cfd::format_real(r.iterations_per_step) + " CG iterations per step";
      std::printf("  %s %s %s n = %ld: %.6f s for %ld steps%s\n", r.solver.c_str(), r.variant.c_str(),
                  r.precision.c_str(), r.n, r.loop_s, r.steps, cg.c_str());
      std::fflush(stdout);
    };
    for (const auto& [solver, solver_variants] : matrix) {
      const bool sod = solver == "sod", euler2d = solver == "euler2d", euler3d = solver == "euler3d";
      for (const auto& size : sizes) {
        const long n = positive_integer("--sizes", size);
        for (const auto& prec : precisions) {
          // The copy moves as many elements as one field (diffusion) or one state (sod, euler2d).
          // (per rank: the copy runs on every rank's own memory)
          const long values = sod ? 3 : euler2d || euler3d ? 5 : 1;  // a point's
          const long elements =
              values * static_cast<long>(grid_points(solver, double(n))) / (per_rank ? 1 : world.size());
          const double copy =
              prec == "fp32" ? copy_bandwidth<float>(elements, repeats) : copy_bandwidth<double>(elements, repeats);
          for (const auto& v : solver_variants) {
            if (sod)
              rows.push_back(prec == "fp32" ? bench_sod<float>(v, n, steps, repeats, copy)
                                            : bench_sod<double>(v, n, steps, repeats, copy));
            else if (euler2d)
              rows.push_back(prec == "fp32" ? bench_euler2d<float>(v, n, steps, repeats, copy)
                                            : bench_euler2d<double>(v, n, steps, repeats, copy));
            else if (euler3d)
              rows.push_back(prec == "fp32" ? bench_euler3d<float>(v, n, steps, repeats, copy)
                                            : bench_euler3d<double>(v, n, steps, repeats, copy));
            else
              rows.push_back(prec == "fp32" ? bench_diffusion<float>(v, n, steps, repeats, copy)
                                            : bench_diffusion<double>(v, n, steps, repeats, copy));
            report(rows.back());
          }
        }
      }
    }
  } catch (const std::exception& e) {
    // A failed allocation (Kokkos throws) ended the matrix; cfdrun's words
    // and status (1) for it. The rows measured before were printed already.
    std::fflush(stdout);
    std::fprintf(stderr, "cfdbench: error: %s\n",
                 cfd::describe_failure(e, "Smaller --sizes, --precision fp32").c_str());
    return 1;
  }

  bool any_implicit = false;
  for (const auto& r : rows) any_implicit = any_implicit || is_implicit(r.variant);
  std::printf("\n%-10s %-14s %-5s %7s %6s %11s %11s %13s %8s %7s %8s %5s %9s%s\n", "solver", "variant", "prec", "n",
              "steps", "TOTAL_S", "LOOP_S", "updates/s", "GB/s", "%copy", "B/cell", "ranks", "halo_ms",
              any_implicit ? "  it/step" : "");
  for (const auto& r : rows) {
    std::printf("%-10s %-14s %-5s %7ld %6ld %11.5f %11.5f %13.4e %8.2f %7.1f %8.1f %5d %9.4f", r.solver.c_str(),
                r.variant.c_str(), r.precision.c_str(), r.n, r.steps, r.total_s, r.loop_s, r.updates_per_s, r.gbps,
                r.pct_copy, r.bytes_per_cell, r.ranks, r.halo_ms);
    if (any_implicit) std::printf(" %8.1f", r.iterations_per_step);
    std::printf("\n");
  }
  if (!world.is_root()) return 0;  // the files, like the tables, come from rank 0
  if (!csv.empty()) {
    std::FILE* f = std::fopen(csv.c_str(), "w");
    if (!f) return std::fprintf(stderr, "cfdbench: error: %s: cannot write\n", csv.c_str()), 1;
    std::fprintf(f,
                 "solver,variant,precision,n,steps,total_s,loop_s,updates_per_s,gbps,pct_copy,bytes_per_cell,ranks,"
                 "halo_ms,cg_iterations_per_step\n");
    for (const auto& r : rows)
      std::fprintf(f, "%s,%s,%s,%ld,%ld,%.6e,%.6e,%.6e,%.4f,%.2f,%.2f,%d,%.6f,%.2f\n", r.solver.c_str(),
                   r.variant.c_str(), r.precision.c_str(), r.n, r.steps, r.total_s, r.loop_s, r.updates_per_s, r.gbps,
                   r.pct_copy, r.bytes_per_cell, r.ranks, r.halo_ms, r.iterations_per_step);
    std::fclose(f);
  }
#ifdef CFDBENCH_HAVE_JSON
  if (!json.empty()) {
    // nlohmann-json: strings escaped, a NaN or an infinity written as null
    // (JSON has no such numbers), doubles to their shortest exact digits.
    nlohmann::json out = {{"cfdrun", cfd::version},
                          {"git", cfd::git_revision},
                          {"kokkos", cfd::kokkos_version_string()},
                          {"execution_space", cfd::ExecSpace::name()},
                          {"rows", nlohmann::json::array()}};
    for (const Row& r : rows)
      out["rows"].push_back({{"solver", r.solver},
                             {"variant", r.variant},
                             {"precision", r.precision},
                             {"n", r.n},
                             {"steps", r.steps},
                             {"total_s", r.total_s},
                             {"loop_s", r.loop_s},
                             {"updates_per_s", r.updates_per_s},
                             {"gbps", r.gbps},
                             {"pct_copy", r.pct_copy},
                             {"bytes_per_cell", r.bytes_per_cell},
                             {"ranks", r.ranks},
                             {"halo_ms", r.halo_ms},
                             {"cg_iterations_per_step", r.iterations_per_step}});
    std::ofstream f(json);
    f << out.dump(2) << "\n";
    if (!f.flush()) return std::fprintf(stderr, "cfdbench: error: %s: cannot write\n", json.c_str()), 1;
  }
#endif
  return 0;
}
