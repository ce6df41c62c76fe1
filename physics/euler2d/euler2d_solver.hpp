// The euler2d solver: conserved U(var, j, i) and primitives W(var, j, i) on a
// grid block with two ghost layers (x fastest in memory), one kernel per step
// of the method: primitives, ghost cells, x and y fluxes, update, new dt.
#pragma once

#include "core/grid.hpp"
#include "core/parallel.hpp"
#include "physics/euler2d/euler2d_params.hpp"
#include "physics/gas/ideal_gas.hpp"
#include "physics/gas/limiters.hpp"
#include "physics/gas/riemann_solvers.hpp"

#include <cmath>
#include <stdexcept>
#include <type_traits>
#include <vector>

namespace cfd::euler2d {

// Conserved components, then the primitives (W keeps e beside p).
enum { IDN = 0, IM1 = 1, IM2 = 2, IM3 = 3, IEN = 4, NCONS = 5 };
enum { IVX = 1, IVY = 2, IVZ = 3, IEI = 4, IPR = 5, NPRIM = 6 };
constexpr int ghost = 2;

template <class Real>
using Array3 = Kokkos::View<Real***, Kokkos::LayoutRight, MemSpace>;  // (var, j, i)
template <class Real>
using Array1 = Kokkos::View<Real*, MemSpace>;

template <class Real>
struct ComputePrimitives {
  Array3<Real> u, w;
  Real gamma;
  KOKKOS_FORCEINLINE_FUNCTION void operator()(const long j, const long i) const {
    const Real rho = u(IDN, j, i);
    const Real vx = u(IM1, j, i) / rho, vy = u(IM2, j, i) / rho, vz = u(IM3, j, i) / rho;
    const Real e = (u(IEN, j, i) - gas::kinetic_energy(rho, vx, vy, vz)) / rho;
    w(IDN, j, i) = rho, w(IVX, j, i) = vx, w(IVY, j, i) = vy, w(IVZ, j, i) = vz;
    w(IEI, j, i) = e;
    w(IPR, j, i) = (gamma - Real(1)) * rho * e;
  }
};

// Ghost cells of W along one direction: periodic, outflow (copy the edge
// cell) or reflecting (mirror, normal velocity negated). dir 0 fills x ghosts
// for every row, dir 1 y ghosts for every column (ghost columns included, so
// corners are filled too).
template <class Real>
struct GhostCells {
  Array3<Real> w;
  int dir, n;  // direction, interior cells along it
  Boundary lo, hi;
  KOKKOS_INLINE_FUNCTION void operator()(const int line, const int k) const {  // k: 0,1 low side; 2,3 high
    const bool low = k < 2;
    const int layer = low ? k : k - 2;  // 0 next to the interior
    const int g = low ? ghost - 1 - layer : n + ghost + layer;
    const Boundary b = low ? lo : hi;
    int src;
    if (b == Boundary::periodic)
      src = low ? n + ghost - 1 - layer : ghost + layer;
    else if (b == Boundary::outflow)
      src = low ? ghost : n + ghost - 1;
    else
      src = low ? ghost + layer : n + ghost - 1 - layer;
    const int normal = dir == 0 ? IVX : IVY;
    for (int v = 0; v < NPRIM; ++v) {
      Real value = dir == 0 ? w(v, line, src) : w(v, src, line);
      if (b == Boundary::reflecting && v == normal) value = -value;
      if (dir == 0)
        w(v, line, g) = value;
      else
        w(v, g, line) = value;
    }
  }
};

// The face scheme as types, so that each flux kernel is compiled with only
// its own reconstruction, limiter and Riemann solver: no run-time branches in
// the hot loop, fewer registers on GPUs, vector code on CPUs.
template <bool Plm, gas::Limiter L, gas::RiemannSolver S, bool Tutorial>
struct FaceScheme {
  static constexpr bool plm = Plm;  // false: donor cell (face value = cell value)
  static constexpr gas::Limiter limiter = L;
  static constexpr gas::RiemannSolver riemann = S;
  static constexpr bool tutorial = Tutorial;  // the OpenACC tutorial's HLLE with e faces
};

// Fluxes through the faces normal to Dir (0: x, face i between cells i-1
// and i; 1: y, face j between j-1 and j). The y direction rotates vy into the
// normal slot, so one Riemann solver serves both.
template <class Real, int Dir, class Scheme>
struct FaceFluxes {
  Array3<Real> w, flux;
  Real gamma;

  KOKKOS_FORCEINLINE_FUNCTION Real at(int v, long j, long i, int shift) const {
    if constexpr (Dir == 0)
      return w(v, j, i + shift);
    else
      return w(v, j + shift, i);
  }
  // Face value of primitive v of the cell at (j, i), on side -1 (its lower
  // face) or +1 (its upper face).
  KOKKOS_FORCEINLINE_FUNCTION Real face_value(int v, long j, long i, Real side) const {
    const Real c = at(v, j, i, 0);
    if constexpr (!Scheme::plm) return c;
    return c + side * Real(0.5) * gas::limited_slope<Scheme::limiter>(c - at(v, j, i, -1), at(v, j, i, 1) - c);
  }
  KOKKOS_FORCEINLINE_FUNCTION gas::Primitive<Real> face_state(long j, long i, Real side) const {
    constexpr int vn = Dir == 0 ? IVX : IVY, vt = Dir == 0 ? IVY : IVX;
    return {face_value(IDN, j, i, side), face_value(vn, j, i, side), face_value(vt, j, i, side),
            face_value(IVZ, j, i, side), face_value(IPR, j, i, side)};
  }
  KOKKOS_FORCEINLINE_FUNCTION void operator()(const long j, const long i) const {
    const long jm = Dir == 0 ? j : j - 1, im = Dir == 0 ? i - 1 : i;  // the cell below the face
    const gas::Primitive<Real> l = face_state(jm, im, Real(1)), r = face_state(j, i, Real(-1));
    gas::Conserved<Real> f;
    if constexpr (Scheme::tutorial)
      f = gas::hlle_flux_tutorial(l, face_value(IEI, jm, im, Real(1)), r, face_value(IEI, j, i, Real(-1)), gamma);
    else
      f = gas::riemann_flux<Scheme::riemann>(l, r, gamma);
    flux(IDN, j, i) = f.rho;
    flux(IM1, j, i) = Dir == 0 ? f.mx : f.my;
    flux(IM2, j, i) = Dir == 0 ? f.my : f.mx;
    flux(IM3, j, i) = f.mz;
    flux(IEN, j, i) = f.energy;
  }
};

// Calls launch(FaceScheme<...>{}) with the scheme the parameters ask for.
template <class Launch>
void with_face_scheme(const Params& p, Launch&& launch) {
  using gas::Limiter;
  using gas::RiemannSolver;
  auto with_solver = [&](auto plm, auto limiter) {
    constexpr bool P = decltype(plm)::value;
    constexpr Limiter L = decltype(limiter)::value;
    if (p.original_faces) return launch(FaceScheme<P, L, RiemannSolver::hlle, true>{});
    switch (p.riemann) {
      case RiemannSolver::hllc: return launch(FaceScheme<P, L, RiemannSolver::hllc, false>{});
      case RiemannSolver::llf: return launch(FaceScheme<P, L, RiemannSolver::llf, false>{});
      default: return launch(FaceScheme<P, L, RiemannSolver::hlle, false>{});
    }
  };
  using Vl = std::integral_constant<Limiter, Limiter::vanleer>;
  if (!p.plm) return with_solver(std::false_type{}, Vl{});
  switch (p.limiter) {
    case Limiter::minmod: return with_solver(std::true_type{}, std::integral_constant<Limiter, Limiter::minmod>{});
    case Limiter::mc: return with_solver(std::true_type{}, std::integral_constant<Limiter, Limiter::mc>{});
    default: return with_solver(std::true_type{}, Vl{});
  }
}

// u_out = a*u_base + b*(u_in + dt*((Fx_i - Fx_i+1)/dx_i + (Fy_j - Fy_j+1)/dy_j)):
// the stages of the SSP Runge-Kutta methods (Blend), or without the blend,
// a = 0 and b = 1, forward Euler and the first stage. A template argument,
// not a test of a in the loop, so that the loop has no branch to vectorize.
template <class Real, bool Blend>
struct Update {
  Array3<Real> u_base, u_in, u_out, fx, fy;
  Array1<Real> dx, dy;
  Real a, b, dt;
  KOKKOS_FORCEINLINE_FUNCTION void update(int v, long j, long i) const {
    const Real stage =
        u_in(v, j, i) + dt * ((fx(v, j, i) - fx(v, j, i + 1)) / dx(i) + (fy(v, j, i) - fy(v, j + 1, i)) / dy(j));
    if constexpr (Blend)
      u_out(v, j, i) = a * u_base(v, j, i) + b * stage;
    else
      u_out(v, j, i) = stage;
  }
  // Spelled out, not a loop over v: GCC then vectorizes along i.
  KOKKOS_FORCEINLINE_FUNCTION void operator()(const long j, const long i) const {
    update(IDN, j, i);
    update(IM1, j, i);
    update(IM2, j, i);
    update(IM3, j, i);
    update(IEN, j, i);
  }
};

// min over cells of min(dx/(|vx|+c), dy/(|vy|+c)); -1 where a cell is not
// physical (density or pressure not positive, or NaN).
template <class Real>
struct MaxStableDt {
  Array3<Real> w;
  Array1<Real> dx, dy;
  Real gamma;
  KOKKOS_FORCEINLINE_FUNCTION Real operator()(const long j, const long i) const {
    const Real rho = w(IDN, j, i), p = w(IPR, j, i);
    if (!(rho > Real(0)) || !(p > Real(0))) return Real(-1);
    const Real cs = gas::sound_speed(rho, p, gamma);
    const Real tx = dx(i) / (kmath::fabs(w(IVX, j, i)) + cs), ty = dy(j) / (kmath::fabs(w(IVY, j, i)) + cs);
    return tx < ty ? tx : ty;
  }
};

struct Totals {
  double mass = 0, mom_x = 0, mom_y = 0, energy = 0, kh_mode = 0;
};

template <class Real>
class Solver {
 public:
  explicit Solver(const Params& p)
      : p_(p),
        grid_(
            GridBlock::whole(2, Centering::cell, {p.nx, p.ny, 1}, ghost, {p.lo[0], p.lo[1], 0}, {p.hi[0], p.hi[1], 0})),
        u_("euler2d::u", NCONS, p.ny + 2 * ghost, p.nx + 2 * ghost),
        u_stage_("euler2d::u_stage", p.integrator == Integrator::euler ? 0 : NCONS,
                 p.integrator == Integrator::euler ? 0 : p.ny + 2 * ghost,
                 p.integrator == Integrator::euler ? 0 : p.nx + 2 * ghost),
        w_("euler2d::w", NPRIM, p.ny + 2 * ghost, p.nx + 2 * ghost),
        fx_("euler2d::flux_x", NCONS, p.ny + 2 * ghost, p.nx + 2 * ghost + 1),
        fy_("euler2d::flux_y", NCONS, p.ny + 2 * ghost + 1, p.nx + 2 * ghost),
        dx_("euler2d::dx", p.nx + 2 * ghost),
        dy_("euler2d::dy", p.ny + 2 * ghost) {
    // Widths as the tutorial takes them: differences of face coordinates
    // x_a(i) = lo + h*(i - first), so they may differ from h in the last bit.
    auto hx = Kokkos::create_mirror_view(dx_);
    auto hy = Kokkos::create_mirror_view(dy_);
    const double h0 = (p.hi[0] - p.lo[0]) / p.nx, h1 = (p.hi[1] - p.lo[1]) / p.ny;
    for (long i = 0; i < p.nx + 2 * ghost; ++i)
      hx(i) =
          Real(h0 * static_cast<double>(i + 1 - ghost) + p.lo[0]) - Real(h0 * static_cast<double>(i - ghost) + p.lo[0]);
    for (long j = 0; j < p.ny + 2 * ghost; ++j)
      hy(j) =
          Real(h1 * static_cast<double>(j + 1 - ghost) + p.lo[1]) - Real(h1 * static_cast<double>(j - ghost) + p.lo[1]);
    Kokkos::deep_copy(dx_, hx);
    Kokkos::deep_copy(dy_, hy);
  }

  // Cell centre as the tutorial takes it: the mean of its two faces.
  double centre(int d, long k) const {
    const double h = (p_.hi[d] - p_.lo[d]) / (d == 0 ? p_.nx : p_.ny);
    return 0.5 * ((h * static_cast<double>(k) + p_.lo[d]) + (h * static_cast<double>(k + 1) + p_.lo[d]));
  }

  void set_initial_state(double time = 0) {
    auto host = Kokkos::create_mirror_view(u_);
    const Real gamma = Real(p_.gamma);
    for (long j = 0; j < p_.ny; ++j)
      for (long i = 0; i < p_.nx; ++i) {
        const gas::Primitive<double> s = initial(centre(0, i), centre(1, j), time);
        const gas::Conserved<Real> c =
            gas::to_conserved(gas::Primitive<Real>{Real(s.rho), Real(s.vx), Real(s.vy), Real(s.vz), Real(s.p)}, gamma);
        host(IDN, j + ghost, i + ghost) = c.rho;
        host(IM1, j + ghost, i + ghost) = c.mx;
        host(IM2, j + ghost, i + ghost) = c.my;
        host(IM3, j + ghost, i + ghost) = c.mz;
        host(IEN, j + ghost, i + ghost) = c.energy;
      }
    Kokkos::deep_copy(u_, host);
    step_ = 0;
    time_ = 0;
    primitives_and_ghosts(u_);
  }

  // The problem's state at (x, y); for the vortex the exact solution at `time`.
  gas::Primitive<double> initial(double x, double y, double time) const {
    const double pi = 3.14159265358979323846;
    switch (p_.problem) {
      case Problem::kh_seed: {
        const double rho1 = 1, rho2 = 2, u1 = 0.5, u2 = -0.5, L = 0.025;
        const double rm = (rho1 - rho2) / 2, um = (u1 - u2) / 2;
        double rho, vx;
        if (y > 0.25)
          vx = u1 - um * std::exp(-(y - 0.25) / L), rho = rho1 - rm * std::exp(-(y - 0.25) / L);
        else if (y > 0)
          vx = u2 + um * std::exp(-(0.25 - y) / L), rho = rho2 + rm * std::exp(-(0.25 - y) / L);
        else if (y > -0.25)
          vx = u2 + um * std::exp(-(y + 0.25) / L), rho = rho2 + rm * std::exp(-(y + 0.25) / L);
        else
          vx = u1 - um * std::exp(-(-0.25 - y) / L), rho = rho1 - rm * std::exp(-(-0.25 - y) / L);
        return {rho, vx, 0.01 * std::sin(4 * pi * x), 0, 2.5};
      }
      case Problem::kh_mcnally: {  // McNally, Lyra & Passy 2012, eq. 1-4
        const double rho1 = 1, rho2 = 2, u1 = 0.5, u2 = -0.5, L = 0.025;
        const double rm = (rho1 - rho2) / 2, um = (u1 - u2) / 2;
        double rho, vx;
        if (y < 0.25)
          rho = rho1 - rm * std::exp((y - 0.25) / L), vx = u1 - um * std::exp((y - 0.25) / L);
        else if (y < 0.5)
          rho = rho2 + rm * std::exp((0.25 - y) / L), vx = u2 + um * std::exp((0.25 - y) / L);
        else if (y < 0.75)
          rho = rho2 + rm * std::exp((y - 0.75) / L), vx = u2 + um * std::exp((y - 0.75) / L);
        else
          rho = rho1 - rm * std::exp((0.75 - y) / L), vx = u1 - um * std::exp((0.75 - y) / L);
        return {rho, vx, 0.01 * std::sin(4 * pi * x), 0, 2.5};
      }
      case Problem::sod_x:
        return x < 0.5 ? gas::Primitive<double>{1, 0, 0, 0, 1} : gas::Primitive<double>{0.125, 0, 0, 0, 0.1};
      case Problem::sod_y:
        return y < 0.5 ? gas::Primitive<double>{1, 0, 0, 0, 1} : gas::Primitive<double>{0.125, 0, 0, 0, 0.1};
      case Problem::blast: {
        const double r2 = (x - 0.5) * (x - 0.5) + (y - 0.5) * (y - 0.5);
        return r2 < 0.01 ? gas::Primitive<double>{1, 0, 0, 0, 1} : gas::Primitive<double>{0.125, 0, 0, 0, 0.1};
      }
      case Problem::vortex: {
        // Yee, Sandham & Djomehri 1999: strength 5, advected at (1, 1) in a
        // periodic [-5,5]^2; the exact solution is the translated vortex.
        const double beta = 5, g = p_.gamma, L = 10;
        double dx = x - time, dy = y - time;
        dx -= L * std::floor((dx + 5) / L);
        dy -= L * std::floor((dy + 5) / L);
        const double r2 = dx * dx + dy * dy, f = beta / (2 * pi) * std::exp(0.5 * (1 - r2));
        const double T = 1 - (g - 1) * beta * beta / (8 * g * pi * pi) * std::exp(1 - r2);
        const double rho = std::pow(T, 1 / (g - 1));
        return {rho, 1 - f * dy, 1 + f * dx, 0, rho * T};
      }
    }
    return {1, 0, 0, 0, 1};
  }

  // dt = cfl * min over cells of min(dx/(|vx|+c), dy/(|vy|+c)); negative when
  // a cell is not physical.
  double stable_dt() const {
    const Real dt =
        min_2d<Kokkos::Iterate::Right, Real>("euler2d::new_dt", ghost, ghost + int(p_.ny), ghost, ghost + int(p_.nx), 1,
                                             MaxStableDt<Real>{w_, dx_, dy_, Real(p_.gamma)});
    return dt < Real(0) || !(dt == dt) ? -1.0 : p_.cfl * static_cast<double>(dt);
  }

  // First cell (i, j), 0-based interior indices, that is not physical.
  std::pair<long, long> bad_cell() const {
    auto w = w_;
    const long nx = p_.nx;
    long first = Kokkos::reduction_identity<long>::min();
    Kokkos::parallel_reduce(
        "euler2d::find_bad_cell", interior(),
        KOKKOS_LAMBDA(const int j, const int i, long& k) {
          const long flat = (j - ghost) * nx + (i - ghost);
          if ((!(w(IDN, j, i) > 0) || !(w(IPR, j, i) > 0)) && flat < k) k = flat;
        },
        Kokkos::Min<long>(first));
    if (first == Kokkos::reduction_identity<long>::min()) return {-1, -1};
    return {first % nx, first / nx};
  }

  void advance(double dt) {
    const Real h = Real(dt);
    switch (p_.integrator) {
      case Integrator::euler: stage(u_, u_, u_, Real(0), Real(1), h); break;
      // Shu & Osher. The first stage goes to u_stage_ and later stages read it,
      // so u_ itself is the base and no copy of the state is needed.
      case Integrator::rk2:  // u1 = u + dt L(u); u = u/2 + (u1 + dt L(u1))/2
        stage(u_, u_, u_stage_, Real(0), Real(1), h);
        stage(u_, u_stage_, u_, Real(0.5), Real(0.5), h);
        break;
      case Integrator::rk3:  // u1 = u + dt L(u); u2 = 3/4 u + 1/4 (u1 + dt L(u1)); u = 1/3 u + 2/3 (u2 + dt L(u2))
        stage(u_, u_, u_stage_, Real(0), Real(1), h);
        stage(u_, u_stage_, u_stage_, Real(0.75), Real(0.25), h);
        stage(u_, u_stage_, u_, Real(1) / Real(3), Real(2) / Real(3), h);
        break;
    }
    ++step_;
    time_ += dt;
  }

  Totals totals() const {
    auto u = u_;
    auto dx = dx_, dy = dy_;
    // McNally's amplitude is defined on the unit square; other boxes are scaled to it.
    const double hx = 1.0 / p_.nx, hy = 1.0 / p_.ny;
    double m = 0, mx = 0, my = 0, en = 0, s = 0, c = 0, d = 0;
    Kokkos::parallel_reduce(
        "euler2d::totals", interior(),
        KOKKOS_LAMBDA(const int j, const int i, double& am, double& amx, double& amy, double& aen, double& as,
                      double& ac, double& ad) {
          const double dv = static_cast<double>(dx(i)) * static_cast<double>(dy(j));
          am += u(IDN, j, i) * dv;
          amx += u(IM1, j, i) * dv;
          amy += u(IM2, j, i) * dv;
          aen += u(IEN, j, i) * dv;
          // McNally's mode amplitude, with x and y measured from the domain's corner.
          const double pi = 3.14159265358979323846;
          const double x = (i - ghost + 0.5) * hx, y = (j - ghost + 0.5) * hy;
          const double e =
              y < 0.5 ? kmath::exp(-4 * pi * kmath::fabs(y - 0.25)) : kmath::exp(-4 * pi * kmath::fabs((1 - y) - 0.25));
          const double vy = u(IM2, j, i) / u(IDN, j, i);
          as += vy * kmath::sin(4 * pi * x) * e * dv;
          ac += vy * kmath::cos(4 * pi * x) * e * dv;
          ad += e * dv;
        },
        m, mx, my, en, s, c, d);
    return {m, mx, my, en, 2 * std::sqrt((s / d) * (s / d) + (c / d) * (c / d))};
  }

  // Interior primitive fields on the host, x fastest: rho, vx, vy, vz, p.
  std::vector<std::vector<Real>> fields() const {
    auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), w_);
    std::vector<std::vector<Real>> out(5);
    const int vars[5] = {IDN, IVX, IVY, IVZ, IPR};
    for (int k = 0; k < 5; ++k) {
      out[k].reserve(p_.nx * p_.ny);
      for (long j = ghost; j < p_.ny + ghost; ++j)
        for (long i = ghost; i < p_.nx + ghost; ++i) out[k].push_back(host(vars[k], j, i));
    }
    return out;
  }

  // Conserved state on the host, for bit-for-bit comparisons.
  std::vector<Real> conserved() const {
    auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), u_);
    return std::vector<Real>(host.data(), host.data() + host.size());
  }

  void release() {
    u_ = u_stage_ = w_ = fx_ = fy_ = Array3<Real>();
    dx_ = dy_ = Array1<Real>();
  }

  long step() const { return step_; }
  double time() const { return time_; }
  const GridBlock& grid() const { return grid_; }
  long cells() const { return p_.nx * p_.ny; }

 private:
  Range2D<Kokkos::Iterate::Right> interior() const {
    return range_2d<Kokkos::Iterate::Right>(ghost, ghost + p_.ny, ghost, ghost + p_.nx);
  }

  void primitives_and_ghosts(const Array3<Real>& u) {
    for_each_2d<Kokkos::Iterate::Right>("euler2d::primitives", ghost, ghost + int(p_.ny), ghost, ghost + int(p_.nx), 1,
                                        ComputePrimitives<Real>{u, w_, Real(p_.gamma)});
    Kokkos::parallel_for("euler2d::ghosts_x",
                         Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<2>>({ghost, 0}, {ghost + int(p_.ny), 4}),
                         GhostCells<Real>{w_, 0, int(p_.nx), p_.boundary[0], p_.boundary[1]});
    Kokkos::parallel_for("euler2d::ghosts_y",
                         Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<2>>({0, 0}, {int(p_.nx) + 2 * ghost, 4}),
                         GhostCells<Real>{w_, 1, int(p_.ny), p_.boundary[2], p_.boundary[3]});
  }

  // One forward-Euler stage from the primitives of u_in (already in w_):
  // u_out = a*u_base + b*(u_in + dt*L(u_in)); then the new primitives.
  void stage(const Array3<Real>& u_base, const Array3<Real>& u_in, const Array3<Real>& u_out, Real a, Real b, Real dt) {
    const int nx = int(p_.nx), ny = int(p_.ny);
    // Index order (j, i) with i contiguous: the sweeps run along i.
    with_face_scheme(p_, [&](auto scheme) {
      using Scheme = decltype(scheme);
      for_each_2d<Kokkos::Iterate::Right>("euler2d::fluxes_x", ghost, ghost + ny, ghost, ghost + nx + 1, 1,
                                          FaceFluxes<Real, 0, Scheme>{w_, fx_, Real(p_.gamma)});
      for_each_2d<Kokkos::Iterate::Right>("euler2d::fluxes_y", ghost, ghost + ny + 1, ghost, ghost + nx, 1,
                                          FaceFluxes<Real, 1, Scheme>{w_, fy_, Real(p_.gamma)});
    });
    if (a == Real(0) && b == Real(1))
      for_each_2d<Kokkos::Iterate::Right>("euler2d::update", ghost, ghost + ny, ghost, ghost + nx, 1,
                                          Update<Real, false>{u_base, u_in, u_out, fx_, fy_, dx_, dy_, a, b, dt});
    else
      for_each_2d<Kokkos::Iterate::Right>("euler2d::update", ghost, ghost + ny, ghost, ghost + nx, 1,
                                          Update<Real, true>{u_base, u_in, u_out, fx_, fy_, dx_, dy_, a, b, dt});
    primitives_and_ghosts(u_out);
  }

  Params p_;
  GridBlock grid_;
  Array3<Real> u_, u_stage_, w_, fx_, fy_;
  Array1<Real> dx_, dy_;
  long step_ = 0;
  double time_ = 0;
};

}  // namespace cfd::euler2d
