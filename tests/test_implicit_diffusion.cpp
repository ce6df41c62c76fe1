// Implicit diffusion (backward Euler, Crank-Nicolson; physics/diffusion/
// implicit_heat.hpp): the sine mode decays per step by the factor its
// discrete eigenvalue predicts, at alpha far beyond the explicit limit; the
// temporal order of each scheme on the spike; the matrix and the stencil
// operator and every preconditioner give the same solution to the solver's
// tolerance; a solve that cannot converge is reported; the explicit scheme
// is untouched by the new keys.
#include "core/conjugate_gradient.hpp"
#include "physics/diffusion/diffusion_reference.hpp"
#include "physics/diffusion/diffusion_solver.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

using namespace cfd::diffusion;

namespace {

Params implicit_params(Scheme scheme, double alpha, long nx, long ny, long steps) {
  Params p;
  p.nx = nx, p.ny = ny, p.steps = steps;
  p.alpha = alpha;
  p.scheme = scheme;
  p.cg_tolerance = 1e-12;
  return p;
}

// The field after each step, x fastest, with the solves' results.
struct History {
  std::vector<std::vector<double>> fields;
  std::vector<cfd::CgResult> solves;
};

template <class Layout = Kokkos::LayoutLeft>
History run(const Params& p) {
  Solver<double, Layout> solver(p);
  solver.set_initial_state();
  History h;
  h.fields.push_back(solver.to_host());
  for (long s = 0; s < p.steps; ++s) {
    solver.advance_steps(1);
    h.fields.push_back(solver.to_host());
    h.solves.push_back(solver.last_solve());
  }
  return h;
}

double dot(const std::vector<double>& a, const std::vector<double>& b) {
  return std::inner_product(a.begin(), a.end(), b.begin(), 0.0);
}
double norm(const std::vector<double>& a) { return std::sqrt(dot(a, a)); }
double distance(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0;
  for (size_t k = 0; k < a.size(); ++k) s += (a[k] - b[k]) * (a[k] - b[k]);
  return std::sqrt(s);
}

}  // namespace

#ifdef CFDRUN_HAVE_KOKKOSKERNELS

// The discrete eigenvalue itself: -L applied to the sine mode on the host.
TEST(ImplicitDiffusion, SineModeIsAnEigenvectorWithMu) {
  const long nx = 37, ny = 29;
  const double mu = sine_mode_eigenvalue(nx, ny);
  double worst = 0;
  auto s = [&](long i, long j) { return std::sin(M_PI * i / (nx - 1)) * std::sin(M_PI * j / (ny - 1)); };
  for (long j = 1; j < ny - 1; ++j)
    for (long i = 1; i < nx - 1; ++i) {
      const double minus_laplacian = 4 * s(i, j) - s(i - 1, j) - s(i + 1, j) - s(i, j - 1) - s(i, j + 1);
      worst = std::max(worst, std::abs(minus_laplacian - mu * s(i, j)));
    }
  EXPECT_LT(worst, 1e-14);
  EXPECT_NEAR(mu, 4 * std::pow(std::sin(M_PI / 72), 2) + 4 * std::pow(std::sin(M_PI / 56), 2), 1e-16);
}

// Every step multiplies the mode by the predicted factor, to the solver's
// tolerance, and the field stays the mode (its shape does not change).
class SineDecay : public ::testing::TestWithParam<std::tuple<Scheme, double>> {};

TEST_P(SineDecay, EveryStepMultipliesTheModeByThePredictedFactor) {
  const auto [scheme, alpha] = GetParam();
  Params p = implicit_params(scheme, alpha, 41, 33, 4);
  p.problem = &problems_list::sine, p.initial = sine_mode(p.nx, p.ny);
  const double factor = sine_mode_decay(p);
  if (scheme == Scheme::backward_euler) EXPECT_DOUBLE_EQ(factor, 1 / (1 + alpha * sine_mode_eigenvalue(41, 33)));
  const History h = run(p);
  for (long n = 1; n <= p.steps; ++n) {
    const auto& before = h.fields[n - 1];
    const auto& after = h.fields[n];
    const double ratio = dot(after, before) / dot(before, before);
    EXPECT_NEAR(ratio / factor, 1.0, 1e-10) << "step " << n << ", factor " << factor;
    // The whole field, not only its projection: after = factor * before.
    std::vector<double> predicted(before);
    for (double& v : predicted) v *= factor;
    EXPECT_LT(distance(after, predicted), 1e-10 * norm(predicted)) << "step " << n;
    EXPECT_TRUE(h.solves[n - 1].converged);
    EXPECT_LE(h.solves[n - 1].relative_residual, 1e-12);
  }
  // The mode after four steps against the analytic amplitude.
  const double expected_peak = std::pow(factor, 4) * std::sin(M_PI * 20 / 40) * std::sin(M_PI * 16 / 32);
  EXPECT_NEAR(h.fields[4][16 * 41 + 20], expected_peak, 1e-10 * std::abs(expected_peak));
}

INSTANTIATE_TEST_SUITE_P(AlphaFarBeyondTheExplicitLimit, SineDecay,
                         ::testing::Combine(::testing::Values(Scheme::backward_euler, Scheme::crank_nicolson),
                                            ::testing::Values(0.1, 10.0, 1000.0)));

// The explicit scheme's factor 1 - alpha mu, through the same check (the
// explicit update is not a solve: its factor holds to rounding).
TEST(ImplicitDiffusion, ExplicitSineModeDecaysBy1MinusAlphaMu) {
  Params p;
  p.nx = 41, p.ny = 33, p.steps = 4, p.alpha = 0.2, p.problem = &problems_list::sine, p.initial = sine_mode(p.nx, p.ny);
  const double factor = sine_mode_decay(p);
  EXPECT_DOUBLE_EQ(factor, 1 - 0.2 * sine_mode_eigenvalue(41, 33));
  const History h = run(p);
  for (long n = 1; n <= p.steps; ++n)
    EXPECT_NEAR(dot(h.fields[n], h.fields[n - 1]) / dot(h.fields[n - 1], h.fields[n - 1]) / factor, 1.0, 1e-13);
}

// Temporal order on the spike: the differences between runs to the same end
// time with dt, dt/2 and dt/4 shrink by 2^order.
double measured_order(Scheme scheme, double alpha) {
  std::vector<std::vector<double>> finals;
  const double end_time = 4.0;
  for (int k = 0; k < 3; ++k) {
    const double a = alpha / (1 << k);
    Params p = implicit_params(scheme, a, 33, 33, std::lround(end_time / a));
    finals.push_back(run(p).fields.back());
  }
  return std::log2(distance(finals[0], finals[1]) / distance(finals[1], finals[2]));
}

TEST(ImplicitDiffusion, BackwardEulerIsFirstOrderInTime) {
  const double order = measured_order(Scheme::backward_euler, 0.25);
  std::printf("backward Euler: measured order %.4f\n", order);
  EXPECT_NEAR(order, 1.0, 0.1);
}

TEST(ImplicitDiffusion, CrankNicolsonIsSecondOrderInTime) {
  const double order = measured_order(Scheme::crank_nicolson, 0.25);
  std::printf("Crank-Nicolson: measured order %.4f\n", order);
  EXPECT_NEAR(order, 2.0, 0.1);
}

// The operator as a CrsMatrix or a stencil, each preconditioner, and both
// layouts: one solution to the solver's tolerance, and the same iterations
// where the preconditioner is the same linear map.
TEST(ImplicitDiffusion, OperatorsPreconditionersAndLayoutsAgree) {
  Params p = implicit_params(Scheme::crank_nicolson, 20, 45, 39, 3);
  const History reference = run(p);
  for (auto op : {ImplicitOperator::stencil, ImplicitOperator::matrix})
    for (auto pc : {Preconditioner::none, Preconditioner::jacobi, Preconditioner::gauss_seidel})
      for (bool right : {false, true}) {
        Params q = p;
        q.implicit_operator = op;
        q.preconditioner = pc;
        const History h = right ? run<Kokkos::LayoutRight>(q) : run(q);
        const std::string what = std::string(name(op)) + " " + name(pc) + (right ? " right" : " left");
        EXPECT_LT(distance(h.fields.back(), reference.fields.back()), 1e-9 * norm(reference.fields.back())) << what;
        for (size_t s = 0; s < h.solves.size(); ++s) {
          EXPECT_TRUE(h.solves[s].converged) << what;
          // Jacobi's diagonal is constant: the iterates are CG's own.
          if (pc != Preconditioner::gauss_seidel)
            EXPECT_NEAR(h.solves[s].iterations, reference.solves[s].iterations, 1) << what;
          else  // symmetric Gauss-Seidel must save iterations to be worth a sweep
            EXPECT_LT(h.solves[s].iterations, 0.75 * reference.solves[s].iterations) << what;
        }
      }
}

// The solution satisfies (I - theta alpha L) u_new = rhs to the tolerance,
// checked on the host against the plain stencil.
TEST(ImplicitDiffusion, SolutionSatisfiesTheSystem) {
  for (Scheme scheme : {Scheme::backward_euler, Scheme::crank_nicolson}) {
    const long nx = 31, ny = 27;
    Params p = implicit_params(scheme, 50, nx, ny, 2);
    const History h = run(p);
    const auto& u0 = h.fields[1];
    const auto& u1 = h.fields[2];
    const double th = scheme == Scheme::crank_nicolson ? 0.5 : 1.0;
    auto at = [&](const std::vector<double>& u, long i, long j) { return u[j * nx + i]; };
    auto lap = [&](const std::vector<double>& u, long i, long j) {
      return at(u, i - 1, j) + at(u, i + 1, j) + at(u, i, j - 1) + at(u, i, j + 1) - 4 * at(u, i, j);
    };
    double residual = 0, rhs_norm = 0;
    for (long j = 1; j < ny - 1; ++j)
      for (long i = 1; i < nx - 1; ++i) {
        const double rhs = at(u0, i, j) + (1 - th) * 50 * lap(u0, i, j);
        const double r = rhs - (at(u1, i, j) - th * 50 * lap(u1, i, j));
        residual += r * r;
        rhs_norm += rhs * rhs;
      }
    EXPECT_LT(std::sqrt(residual / rhs_norm), 2e-12) << name(scheme);
    for (long i = 0; i < nx; ++i) EXPECT_EQ(at(u1, i, 0), 0.0);  // the edges stay fixed
  }
}

// An iteration cap that cannot be met is a reported failure, not a silent
// wrong answer: the step is taken, allowed_dt() turns negative (the driver's
// fault path) and fault() names the solve.
TEST(ImplicitDiffusion, UnconvergedSolveIsAFault) {
  Params p = implicit_params(Scheme::backward_euler, 1000, 65, 65, 1);
  p.cg_max_iterations = 3;
  Solver<double, Kokkos::LayoutLeft> solver(p);
  solver.set_initial_state();
  EXPECT_GT(solver.allowed_dt(), 0);
  solver.advance_steps(1);
  EXPECT_FALSE(solver.last_solve().converged);
  EXPECT_EQ(solver.last_solve().iterations, 3);
  EXPECT_LT(solver.allowed_dt(), 0);
  const std::string why = solver.fault();
  EXPECT_NE(why.find("did not converge"), std::string::npos) << why;
  EXPECT_NE(why.find("after 3 iterations"), std::string::npos) << why;
}

// FP32 works too, at an FP32 tolerance.
TEST(ImplicitDiffusion, Fp32SineDecay) {
  Params p = implicit_params(Scheme::backward_euler, 10, 33, 33, 3);
  p.precision = Precision::fp32;
  p.problem = &problems_list::sine, p.initial = sine_mode(p.nx, p.ny);
  p.cg_tolerance = 1e-6;
  Solver<float, Kokkos::LayoutLeft> solver(p);
  solver.set_initial_state();
  const std::vector<float> u0 = solver.to_host();
  solver.advance_steps(3);
  const std::vector<float> u3 = solver.to_host();
  const double expected = std::pow(sine_mode_decay(p), 3);
  double num = 0, den = 0;
  for (size_t k = 0; k < u0.size(); ++k) num += double(u3[k]) * u0[k], den += double(u0[k]) * u0[k];
  EXPECT_NEAR(num / den / expected, 1.0, 2e-5);
}

#endif  // CFDRUN_HAVE_KOKKOSKERNELS

// The new keys leave the explicit scheme as it was: the seed's reference
// loop, bit for bit.
TEST(ImplicitDiffusion, ExplicitSchemeUnchangedBitForBit) {
  Params p;
  p.nx = 64, p.ny = 48, p.steps = 50;
  Solver<double, Kokkos::LayoutLeft> solver(p);
  solver.set_initial_state();
  solver.advance_steps(p.steps);
  const std::vector<double> u = solver.to_host();
  const std::vector<double> ref = reference_solution<double>(p.nx, p.ny, p.steps, p.alpha);
  ASSERT_EQ(u.size(), ref.size());
  EXPECT_EQ(std::memcmp(u.data(), ref.data(), u.size() * sizeof(double)), 0);
}
