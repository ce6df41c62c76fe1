#include "core/run/shared_keys.hpp"

#include "core/decomposition.hpp"
#include "core/run/run_settings.hpp"
#include "core/snapshot.hpp"

namespace cfd {

void add_shared_keys(std::vector<KeySpec>& keys, int ndim) {
  for (std::vector<KeySpec> part : {output_keys(), run_keys(), parallel_keys(ndim)})
    keys.insert(keys.end(), part.begin(), part.end());
}

}  // namespace cfd
