#include "core/run/run_settings.hpp"

#include <cmath>

namespace cfd {

double parse_wall_time(const std::string& text) {
  const std::string forms = "'" + text + "': expected HH:MM:SS, MM:SS or seconds (e.g. 01:30:00, 90:00 or 5400)";
  double parts[3] = {0, 0, 0};
  int count = 0;
  size_t start = 0;
  while (true) {
    const size_t colon = text.find(':', start);
    const std::string part = text.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
    if (count == 3 || part.empty() || part.find_first_not_of("0123456789.") != std::string::npos)
      throw std::invalid_argument(forms);
    size_t used = 0;
    double v = 0;
    try {
      v = std::stod(part, &used);
    } catch (const std::exception&) {
      throw std::invalid_argument(forms);
    }
    if (used != part.size() || !std::isfinite(v)) throw std::invalid_argument(forms);
    parts[count++] = v;
    if (colon == std::string::npos) break;
    start = colon + 1;
  }
  double seconds = 0;
  for (int k = 0; k < count; ++k) {
    if (k > 0 && parts[k] >= 60) throw std::invalid_argument(forms + "; minutes and seconds must be below 60");
    seconds = seconds * 60 + parts[k];
  }
  if (!(seconds > 0)) throw std::invalid_argument(forms + "; it must be positive");
  return seconds;
}

std::vector<KeySpec> run_keys() {
  std::vector<KeySpec> k = {
      {"run.wall_time", KeyType::string, "",
       "stop before this much wall-clock time (HH:MM:SS, MM:SS or seconds) has passed since cfdrun started, "
       "leaving a checkpoint (same as --wall-time); empty: no limit"},
      {"run.check_every",
       KeyType::integer,
       "0",
       "check the whole state for NaN, Inf and non-positive density or pressure every this many steps (0: the "
       "solver's choice; it is also checked before every checkpoint and the final snapshot)",
       {},
       0},
      {"run.dt_floor",
       KeyType::real,
       "1e-8",
       "stop with an error when the stable time step falls below this fraction of the first step's (0: never)",
       {},
       0,
       1},
  };
  k.push_back({"run.continued_from", KeyType::string, "",
               "set by cfdrun --restart CHECKPOINT --output NEW: the checkpoint (and its step) this run continues "
               "from, stored with its results; empty for a run from its initial state"});
  mark_on_restart(k, {"run.*"}, OnRestart::same_bits);  // limits and checks: no effect on a result
  return k;
}

RunSettings run_settings(const Config& config) {
  RunSettings s;
  const std::string wall = config.get_string("run.wall_time");
  if (!wall.empty()) {
    try {
      s.wall_time = parse_wall_time(wall);
    } catch (const std::invalid_argument& e) {
      config.reject("run.wall_time", e.what());
    }
  }
  s.check_every = config.get_int("run.check_every");
  s.dt_floor = config.get_real("run.dt_floor");
  return s;
}

}  // namespace cfd
