// What the solver tests share: one field, by name, of what a solver's
// fields() or state() hands the host.
#pragma once

#include "core/global_file.hpp"

#include <stdexcept>
#include <string>
#include <vector>

namespace cfd::test {

template <class Real>
const std::vector<Real>& field(const std::vector<HostField<Real>>& fields, const std::string& name) {
  for (const auto& f : fields)
    if (f.name == name) return f.values;
  throw std::logic_error("no field " + name);
}
// Not of a temporary (field(s.fields(), "rho")): the reference would outlive
// the fields it points into. Hold them first: const auto f = s.fields().
template <class Real>
const std::vector<Real>& field(std::vector<HostField<Real>>&& fields, const std::string& name) = delete;

}  // namespace cfd::test
