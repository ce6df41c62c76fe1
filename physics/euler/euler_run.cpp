#include "physics/euler/euler_run.hpp"

namespace cfd::euler {

int run(const Config& config, const RunContext& context) {
  const Params p = params(config);
  if (p.three_d()) return p.fp32 ? run_case<float, 3>(config, p, context) : run_case<double, 3>(config, p, context);
  return p.fp32 ? run_case<float, 2>(config, p, context) : run_case<double, 2>(config, p, context);
}

}  // namespace cfd::euler
