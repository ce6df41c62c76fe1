#include "physics/diffusion/diffusion_params.hpp"

#include "core/decomposition.hpp"
#include "core/job_control.hpp"
#include "core/snapshot.hpp"

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
       "D*dt/dx^2 of the stencil, in the working precision (0.1 in the original; stable up to 0.25)",
       {},
       0,
       0.25},
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
      {"diffusion.text_output", KeyType::boolean, "false",
       "also write the final field in the original's text format (diffusion_final.txt)"},
  };
  for (auto& o : output_keys()) k.push_back(o);
  for (auto& o : run_keys()) k.push_back(o);
  for (auto& o : parallel_keys(2)) k.push_back(o);
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
  return p;
}

const char* name(Variant v) { return v == Variant::baseline ? "baseline" : "interior"; }
const char* name(Precision p) { return p == Precision::fp32 ? "fp32" : "fp64"; }
const char* name(Layout l) { return l == Layout::left ? "left" : "right"; }
const char* name(IterationOrder o) {
  return o == IterationOrder::left ? "left" : o == IterationOrder::right ? "right" : "default";
}

}  // namespace cfd::diffusion
