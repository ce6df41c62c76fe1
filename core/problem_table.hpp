// What every solver's table of problems (physics/<solver>/problems/) does
// alike: a table is a std::vector of the solver's Problem, each with a `name`
// (the value of the key that chooses it) and a `summary`; the choice key's
// choices and description, and which problem a key belongs to, are made
// from it here, once for all solvers.
#pragma once

#include "core/config.hpp"

#include <array>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

namespace cfd::problem_table {

// The problem named `name`. Names come from the choice key, which accepts
// only the table's names, so another one is a bug: a logic_error, not a null
// pointer for the caller to dereference.
template <class Problem>
const Problem* find(const std::vector<Problem>& table, const std::string& name) {
  for (const Problem& p : table)
    if (name == p.name) return &p;
  throw std::logic_error("no problem named '" + name + "' in the table");
}

// The choices of the key that picks a problem, in the table's order.
template <class Problem>
std::vector<std::string> names(const std::vector<Problem>& table) {
  std::vector<std::string> out;
  for (const Problem& p : table) out.emplace_back(p.name);
  return out;
}

// Reads the domain of `problem`'s section (<problem>.x_min ... z_max) into
// lo and hi, refusing at the key an upper edge not above the lower one, and
// a width or a volume that overflows (the totals of a run are sums over the
// volume: inf would end the run as a success with mass = inf).
inline void read_domain(const Config& c, const std::string& problem, std::array<double, 3>& lo,
                        std::array<double, 3>& hi) {
  double volume = 1;
  for (int d = 0; d < 3; ++d) {
    const std::string axis(1, "xyz"[d]);
    lo[d] = c.get_real(problem + "." + axis + "_min");
    hi[d] = c.get_real(problem + "." + axis + "_max");
    const std::string upper = problem + "." + axis + "_max";
    if (!(hi[d] > lo[d])) c.reject(upper, "the domain's upper edge must be above its lower one");
    const double width = hi[d] - lo[d];
    if (!std::isfinite(width))
      c.reject(upper, "the domain's width along " + axis + " (" + axis + "_max - " + axis + "_min) overflows; " +
                          "choose edges whose difference is a finite number");
    volume *= width;
    if (!std::isfinite(volume))
      c.reject(upper, "the domain's volume overflows; choose a smaller domain (the run's totals are sums over it)");
  }
}

// "a: what a is; b: what b is": the choice key's description.
template <class Problem>
std::string describe(const std::vector<Problem>& table) {
  std::string text;
  for (const Problem& p : table) text += std::string(text.empty() ? "" : "; ") + p.name + ": " + p.summary;
  return text;
}

// Every problem's own keys (p.keys()), each belonging to `choice`=<its name>:
// given with another problem, refused with its place, and the resolved
// configuration shows the chosen problem's keys only.
template <class Problem>
std::vector<KeySpec> keys(const std::vector<Problem>& table, const std::string& choice) {
  std::vector<KeySpec> out;
  for (const Problem& p : table)
    for (KeySpec& k : p.keys()) {
      k.belongs_to = choice + "=" + p.name;
      out.push_back(std::move(k));
    }
  return out;
}

}  // namespace cfd::problem_table
