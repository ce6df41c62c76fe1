#include "physics/euler2d/euler2d_run.hpp"

namespace cfd::euler2d {

int run(const Config& config, const RunContext& context) {
  const Params p = params(config);
  return p.fp32 ? run_case<float>(config, p, context) : run_case<double>(config, p, context);
}

}  // namespace cfd::euler2d
