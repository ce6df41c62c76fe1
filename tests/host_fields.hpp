// What the solver tests share: one field, by name, of what a solver's
// fields() or state() hands the host, and a run to a time.
#pragma once

#include "core/global_file.hpp"

#include <gtest/gtest.h>

#include <algorithm>
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

// Steps of the solver's allowed dt (each asserted positive), the last one
// shortened to land on `end`.
template <class Solver>
void run_to(Solver& s, double end) {
  while (s.time() < end * (1 - 1e-14)) {
    const double dt = s.allowed_dt();
    ASSERT_GT(dt, 0);
    s.advance(std::min(dt, end - s.time()));
  }
}

}  // namespace cfd::test
