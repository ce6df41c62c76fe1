// What the tests of a solver's configuration share: the message with which
// the solver refuses a case.
#pragma once

#include "core/config.hpp"
#include "physics/solvers.hpp"

#include <string>

namespace cfd::test {

// The message with which `read` (a solver's params()) refuses the case
// `text`, read as the file `name`; "" when it takes it.
template <class Read>
std::string config_error(Read read, const std::string& text, const std::string& name) {
  try {
    read(Config::from_string(text, name, {}, solver_keys));
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

}  // namespace cfd::test
