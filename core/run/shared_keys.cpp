#include "core/run/shared_keys.hpp"

#include "core/decomposition.hpp"
#include "core/run/run_settings.hpp"
#include "core/snapshot.hpp"

namespace cfd {

void add_shared_keys(std::vector<KeySpec>& keys, int ndim) {
  for (std::vector<KeySpec> part : {output_keys(), run_keys(), parallel_keys(ndim)})
    keys.insert(keys.end(), part.begin(), part.end());
}

void check_end_time(const Config& c, long steps, double end_time, double output_interval) {
  if (steps != 0) return;
  if (!(end_time > 0)) c.reject("time.end_time", "must be positive when time.steps is 0");
  if (output_interval > 0 && end_time / output_interval > max_snapshots)
    c.reject("output.time_interval", "a snapshot every " + format_real(output_interval) + " up to time.end_time " +
                                         format_real(end_time) + " would be more than " +
                                         std::to_string(static_cast<long>(max_snapshots)) +
                                         " snapshots; choose a larger interval");
}

}  // namespace cfd
