// The named slots of a gas solver's state arrays, one layout for euler (1D,
// 2D and 3D) and navier_stokes: U(var, ...) holds the conserved components,
// W(var, ...) the primitives, density, velocity and pressure first, in the
// same slots as U's density, momentum and energy (a wall or a reflecting
// side negates the normal component of either alike). A solver's W may keep
// one quantity more after the pressure, in slot NPRIM_BASE: euler's 2D split
// kernels the specific internal energy (IEI, for the tutorial's faces),
// navier_stokes the temperature (ITM).
#pragma once

namespace cfd::gas::slots {

enum { IDN = 0, IM1 = 1, IM2 = 2, IM3 = 3, IEN = 4, NCONS = 5 };
enum { IVX = 1, IVY = 2, IVZ = 3, IPR = 4, NPRIM_BASE = 5 };

}  // namespace cfd::gas::slots
