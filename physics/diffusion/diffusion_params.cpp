#include "physics/diffusion/diffusion_params.hpp"

#include "core/problem_table.hpp"
#include "core/run/shared_keys.hpp"

#include <algorithm>
#include <cmath>
#include <memory>

namespace cfd::diffusion {

std::vector<KeySpec> keys() {
  std::vector<KeySpec> k = {
      {"solver", KeyType::choice, "", "which solver runs the case", {"diffusion"}},
      {"grid.nx", KeyType::integer, "256", "points along x (i), the two edge points included", {}, 5, 1e9},
      {"grid.ny", KeyType::integer, "256", "points along y (j), the two edge points included", {}, 5, 1e9},
      {"time.steps", KeyType::integer, "100", "number of time steps", {}, 1, 1e12},
      {"diffusion.alpha",
       KeyType::real,
       "0.1",
       "D*dt/dx^2, the time step in units of dx^2/D, in the working precision (0.1 in the original); the explicit "
       "scheme is stable up to 0.25, the implicit ones take any alpha > 0",
       {},
       0,
       1e12},
      {"diffusion.scheme",
       KeyType::choice,
       "explicit",
       "explicit: the original's 5-point stencil; backward_euler (order 1) or crank_nicolson (order 2): one linear "
       "system per step, solved by conjugate gradients (Kokkos Kernels)",
       {"explicit", "backward_euler", "crank_nicolson"}},
      {"diffusion.problem", KeyType::choice, "spike", problem_table::describe(problems()),
       problem_table::names(problems())},
      {"diffusion.operator",
       KeyType::choice,
       "stencil",
       "implicit schemes: how the operator I - theta*alpha*L is applied: stencil (matrix-free kernel, the faster) or "
       "matrix (KokkosSparse::CrsMatrix and spmv)",
       {"stencil", "matrix"}},
      {"diffusion.preconditioner",
       KeyType::choice,
       "none",
       "implicit schemes: none, jacobi (Kokkos Kernels' element-wise product; the diagonal is constant, so it changes "
       "nothing), or gauss_seidel (Kokkos Kernels' multicolour symmetric Gauss-Seidel, one sweep each way, per block)",
       {"none", "jacobi", "gauss_seidel"}},
      {"diffusion.cg_tolerance",
       KeyType::real,
       "1e-10",
       "implicit schemes: a solve ends when norm(r) <= cg_tolerance * norm(b), 2-norms of the residual and the "
       "right-hand side over the whole grid",
       {},
       1e-15,
       0.5},
      {"diffusion.cg_max_iterations",
       KeyType::integer,
       "10000",
       "implicit schemes: a solve that has not converged after this many iterations stops the run (exit 1)",
       {},
       1,
       1e9},
      {"diffusion.precision", KeyType::choice, "fp64", "working precision of fields and arithmetic", {"fp32", "fp64"}},
      {"diffusion.layout",
       KeyType::choice,
       "left",
       "memory layout of u(i,j): left = i contiguous (Fortran order), right = j contiguous",
       {"left", "right"}},
      {"diffusion.iteration",
       KeyType::choice,
       "default",
       "MDRange loop order: left = i fastest, right = j fastest, default = the backend's choice",
       {"left", "right", "default"}},
      {"diffusion.variant",
       KeyType::choice,
       "interior",
       "baseline: every point, edges written as 0 by a branch; interior: interior points only",
       {"baseline", "interior"}},
      {"diffusion.fused_steps",
       KeyType::integer,
       "1",
       "explicit scheme: steps per pass over memory (temporal blocking), with the same bits as one step at a time: "
       "on a CPU each tile takes this many steps in the cache before it is written back, on a GPU each column streams "
       "through that many levels held in registers (best 8 on an H200; 9 to 16 take tiles in shared memory, slower "
       "than one step); on several ranks the halo is this deep and is exchanged once per pass; a run with output or "
       "checkpoint times (rather than step counts) takes its steps one at a time; diffusion.iteration does not apply "
       "to a pass",
       {},
       1,
       16},
      {"diffusion.text_output", KeyType::boolean, "false",
       "also write the final field in the original's text format (diffusion_final.txt)"},
  };
  // Each problem's keys follow the key that chooses it.
  const auto after = std::find_if(k.begin(), k.end(), [](const KeySpec& s) { return s.path == "diffusion.problem"; });
  const std::vector<KeySpec> own = problem_keys();
  k.insert(after + 1, own.begin(), own.end());
  // Keys that act only with a choice of another: given otherwise, refused.
  for (auto& spec : k) {
    if (spec.path == "diffusion.operator")
      spec.belongs_to = "diffusion.scheme=backward_euler|crank_nicolson", spec.only_warn = true;
    if (spec.path == "diffusion.preconditioner")
      spec.belongs_to = "diffusion.scheme=backward_euler|crank_nicolson", spec.only_warn = true;
    if (spec.path == "diffusion.cg_tolerance")
      spec.belongs_to = "diffusion.scheme=backward_euler|crank_nicolson", spec.only_warn = true;
    if (spec.path == "diffusion.cg_max_iterations")
      spec.belongs_to = "diffusion.scheme=backward_euler|crank_nicolson", spec.only_warn = true;
  }
  // What --restart may change (everything else is fixed). A cap on CG's
  // iterations changes no converged solve; its tolerance changes the bits.
  mark_on_restart(k, {"time.steps", "diffusion.cg_max_iterations", "diffusion.fused_steps", "diffusion.text_output"},
                  OnRestart::same_bits);
  mark_on_restart(k, {"diffusion.cg_tolerance"}, OnRestart::branches);
  add_shared_keys(k, 2);
  // Every solver chooses its problem with <solver>.problem; diffusion.initial still reads.
  mark_former(k, "diffusion.problem", "diffusion.initial");
  return k;
}

Params params(const Config& c) {
  Params p;
  p.nx = c.get_int("grid.nx");
  p.ny = c.get_int("grid.ny");
  p.steps = c.get_int("time.steps");
  p.alpha = c.get_real("diffusion.alpha");
  p.precision = c.get_string("diffusion.precision") == "fp32" ? Precision::fp32 : Precision::fp64;
  p.layout = c.get_string("diffusion.layout") == "left" ? Layout::left : Layout::right;
  const std::string& order = c.get_string("diffusion.iteration");
  p.order = order == "left"    ? IterationOrder::left
            : order == "right" ? IterationOrder::right
                               : IterationOrder::default_order;
  p.variant = c.get_string("diffusion.variant") == "baseline" ? Variant::baseline : Variant::interior;
  const std::string& scheme = c.get_string("diffusion.scheme");
  p.scheme = scheme == "backward_euler"   ? Scheme::backward_euler
             : scheme == "crank_nicolson" ? Scheme::crank_nicolson
                                          : Scheme::explicit_euler;
  p.problem = find_problem(c.get_string("diffusion.problem"));
  p.initial = p.problem->state(c, p);  // with the grid set
  p.implicit_operator =
      c.get_string("diffusion.operator") == "matrix" ? ImplicitOperator::matrix : ImplicitOperator::stencil;
  const std::string& pc = c.get_string("diffusion.preconditioner");
  p.preconditioner = pc == "jacobi"         ? Preconditioner::jacobi
                     : pc == "gauss_seidel" ? Preconditioner::gauss_seidel
                                            : Preconditioner::none;
  p.cg_tolerance = c.get_real("diffusion.cg_tolerance");
  p.cg_max_iterations = c.get_int("diffusion.cg_max_iterations");
  p.fused_steps = static_cast<int>(c.get_int("diffusion.fused_steps"));
  if (p.fused_steps > 1 && p.variant == Variant::baseline)
    c.reject("diffusion.fused_steps", "fused steps update the interior only; they need diffusion.variant: interior");

  if (p.scheme == Scheme::explicit_euler) {
    if (p.alpha > 0.25)
      c.reject("diffusion.alpha", "the explicit scheme is unstable above 0.25, got " + format_real(p.alpha) +
                                      "; choose diffusion.scheme: backward_euler or crank_nicolson for larger steps");
  } else {
#ifndef CFDRUN_HAVE_KOKKOSKERNELS
    c.reject("diffusion.scheme",
             "the implicit schemes need Kokkos Kernels, and this build has none "
             "(configure with -DCFDRUN_ENABLE_KOKKOSKERNELS=ON)");
#endif
    if (!(p.alpha > 0)) c.reject("diffusion.alpha", "the implicit schemes need alpha > 0, got " + format_real(p.alpha));
    if (p.variant == Variant::baseline)
      c.reject("diffusion.variant", "the baseline variant is the explicit scheme's kernel; leave it at interior");
    if (p.fused_steps > 1)
      c.reject("diffusion.fused_steps", "fused steps are for the explicit scheme; an implicit step is one solve");
    // FP32 sums carry about 7 digits: a tighter tolerance is never reached.
    if (p.precision == Precision::fp32 && p.cg_tolerance < 1e-5)
      c.reject("diffusion.cg_tolerance", "fp32 cannot reach a relative residual of " + format_real(p.cg_tolerance) +
                                             "; use at least 1e-5 with fp32, or fp64");
  }
  return p;
}

double sine_mode_eigenvalue(long nx, long ny) {
  const double sx = std::sin(M_PI / (2.0 * (nx - 1))), sy = std::sin(M_PI / (2.0 * (ny - 1)));
  return 4 * sx * sx + 4 * sy * sy;
}

double sine_mode_decay(const Params& p) {
  const double mu = sine_mode_eigenvalue(p.nx, p.ny), a = p.alpha;
  switch (p.scheme) {
    case Scheme::backward_euler: return 1 / (1 + a * mu);
    case Scheme::crank_nicolson: return (1 - a * mu / 2) / (1 + a * mu / 2);
    case Scheme::explicit_euler: break;
  }
  return 1 - a * mu;
}

const char* name(Variant v) { return v == Variant::baseline ? "baseline" : "interior"; }
const char* name(Precision p) { return p == Precision::fp32 ? "fp32" : "fp64"; }
const char* name(Layout l) { return l == Layout::left ? "left" : "right"; }
const char* name(Scheme s) {
  return s == Scheme::backward_euler ? "backward_euler" : s == Scheme::crank_nicolson ? "crank_nicolson" : "explicit";
}
const char* name(ImplicitOperator o) { return o == ImplicitOperator::matrix ? "matrix" : "stencil"; }
const char* name(Preconditioner p) {
  return p == Preconditioner::jacobi ? "jacobi" : p == Preconditioner::gauss_seidel ? "gauss_seidel" : "none";
}
const char* name(IterationOrder o) {
  return o == IterationOrder::left ? "left" : o == IterationOrder::right ? "right" : "default";
}

}  // namespace cfd::diffusion
