// The state of the navier_stokes solver: conserved U(var, k, j, i) and
// primitives W(var, k, j, i) on a block of cells with ghost layers in each
// direction (navier_stokes_params.hpp, ghost_width) (a 2D block has one plane, k = 0, and no z ghosts), the
// gas, and the primitives of a cell.
#pragma once

#include "core/parallel.hpp"
#include "physics/gas/gas_model.hpp"
#include "physics/gas/slots.hpp"

namespace cfd::navier_stokes {

// U's and W's slots (physics/gas/slots.hpp, as euler's); W keeps the
// temperature after the pressure.
using namespace gas::slots;
enum { ITM = NPRIM_BASE, NPRIM = NPRIM_BASE + 1 };

template <class Real>
using Array4 = Kokkos::View<Real****, Kokkos::LayoutRight, MemSpace>;  // (var, k, j, i)

// The gas of every gas solver (physics/gas/gas_model.hpp), with the one
// choice of the convective flux the kernels read beside it.
template <class Real>
struct GasModel : gas::GasModel<Real> {
  bool pressure_equilibrium;  // KEEP-PE's internal energy flux
};

// A cell's primitives: the gas solvers' W from U (physics/gas/gas_model.hpp).
template <class Real>
using CellState = gas::GasState<Real, 3>;

template <class Real>
KOKKOS_FORCEINLINE_FUNCTION CellState<Real> cell_state(Real rho, Real mx, Real my, Real mz, Real energy,
                                                       const GasModel<Real>& gas) {
  const Real momentum[3] = {mx, my, mz};
  return gas::gas_state(rho, momentum, energy, gas);
}

template <class Real, class U>
KOKKOS_FORCEINLINE_FUNCTION CellState<Real> cell_state(const U& u, long k, long j, long i, const GasModel<Real>& gas) {
  return cell_state(u(IDN, k, j, i), u(IM1, k, j, i), u(IM2, k, j, i), u(IM3, k, j, i), u(IEN, k, j, i), gas);
}

// W of the owned cells from U.
template <class Real>
struct Primitives {
  Array4<Real> u, w;
  GasModel<Real> gas;
  KOKKOS_FORCEINLINE_FUNCTION void operator()(const long k, const long j, const long i) const {
    const CellState<Real> s = cell_state(u, k, j, i, gas);
    w(IDN, k, j, i) = s.rho;
    w(IVX, k, j, i) = s.v[0];
    w(IVY, k, j, i) = s.v[1];
    w(IVZ, k, j, i) = s.v[2];
    w(ITM, k, j, i) = s.T;
    w(IPR, k, j, i) = s.p;
  }
};

// w(v, ...) shifted by s along direction D.
template <int D, class W>
KOKKOS_FORCEINLINE_FUNCTION auto shifted(const W& w, int v, long k, long j, long i, long s) {
  if constexpr (D == 0)
    return w(v, k, j, i + s);
  else if constexpr (D == 1)
    return w(v, k, j + s, i);
  else
    return w(v, k + s, j, i);
}

}  // namespace cfd::navier_stokes
