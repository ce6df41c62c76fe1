// The diffusion case: problems.md section 1, the 2D heat equation with the
// explicit 5-point stencil of the original Fortran/OpenACC study.
#pragma once

#include "core/config.hpp"
#include "core/parallel.hpp"

#include <string>
#include <vector>

namespace cfd::diffusion {

// `baseline` sweeps every point and writes the fixed edges with a branch, as
// the original's first kernel; `interior` sweeps interior points only.
enum class Variant { baseline, interior };
enum class Precision { fp32, fp64 };
enum class Layout { left, right };  // left: x (i) contiguous, as in Fortran

struct Params {
  long nx = 256, ny = 256;  // points, edges included
  long steps = 100;
  double alpha = 0.1;  // D dt / dx^2, applied in the working precision
  Precision precision = Precision::fp64;
  Layout layout = Layout::left;
  IterationOrder order = IterationOrder::default_order;
  Variant variant = Variant::interior;
};

std::vector<KeySpec> keys();  // the diffusion case file's keys, output section included
Params params(const Config& config);

const char* name(Variant v);
const char* name(Precision p);
const char* name(Layout l);
const char* name(IterationOrder o);

}  // namespace cfd::diffusion
