// The diffusion case: problems.md section 1, the 2D heat equation with the
// explicit 5-point stencil of the original Fortran/OpenACC study.
#pragma once

#include "core/config.hpp"
#include "core/parallel.hpp"
#include "physics/diffusion/problems/problem.hpp"

#include <functional>
#include <string>
#include <vector>

namespace cfd::diffusion {

// `baseline` sweeps every point and writes the fixed edges with a branch, as
// the original's first kernel; `interior` sweeps interior points only.
enum class Variant { baseline, interior };
enum class Precision { fp32, fp64 };
enum class Layout { left, right };  // left: x (i) contiguous, as in Fortran
// explicit: the original's stencil; the implicit schemes solve a linear
// system per step (implicit_heat.hpp) and take any alpha.
enum class Scheme { explicit_euler, backward_euler, crank_nicolson };
// How the implicit schemes apply their operator: a KokkosSparse::CrsMatrix
// (spmv) or a stencil kernel (matrix-free).
enum class ImplicitOperator { matrix, stencil };
enum class Preconditioner { none, jacobi, gauss_seidel };

// The grid (Setting, what a problem reads), then the rest.
struct Params : Setting {
  long steps = 100;
  double alpha = 0.1;  // D dt / dx^2, applied in the working precision
  Precision precision = Precision::fp64;
  Layout layout = Layout::left;
  IterationOrder order = IterationOrder::default_order;
  Variant variant = Variant::interior;
  Scheme scheme = Scheme::explicit_euler;
  // The initial state (diffusion.problem, problems/): u at the interior
  // points, from the problem's state function (params() sets it).
  const Problem* problem = &problems_list::spike;
  InitialU initial;
  ImplicitOperator implicit_operator = ImplicitOperator::stencil;
  Preconditioner preconditioner = Preconditioner::none;
  double cg_tolerance = 1e-10;  // relative residual |r|/|b| that ends a solve
  long cg_max_iterations = 10000;
  int fused_steps = 1;  // explicit steps per pass over memory (temporal blocking)
};

// mu, the eigenvalue of -L (5-point, units of dx^2) for the sine mode of an
// nx x ny grid with zero edges: 4 sin^2(pi/(2(nx-1))) + 4 sin^2(pi/(2(ny-1))).
double sine_mode_eigenvalue(long nx, long ny);
// The factor by which one step multiplies the sine mode:
// 1 - alpha mu (explicit), 1/(1 + alpha mu) (backward Euler),
// (1 - alpha mu/2)/(1 + alpha mu/2) (Crank-Nicolson).
double sine_mode_decay(const Params& p);

std::vector<KeySpec> keys();  // the diffusion case file's keys, output section included
Params params(const Config& config);

const char* name(Variant v);
const char* name(Precision p);
const char* name(Layout l);
const char* name(IterationOrder o);
const char* name(Scheme s);
const char* name(ImplicitOperator o);
const char* name(Preconditioner p);

}  // namespace cfd::diffusion
