// Numbers given on the tools' command lines, read whole by the standard
// library's std::from_chars: locale-free, no leading blanks or '+', nothing
// left over, out of range refused. So "3x", " 4", "1e400" and "inf" are not
// numbers here, where strtol/strtod would have read 3, 4, inf and inf.
#pragma once

#include <charconv>
#include <cmath>
#include <optional>
#include <string>
#include <system_error>

namespace cfd {

inline std::optional<long> whole_number(const std::string& text) {
  long value = 0;
  const char* last = text.data() + text.size();
  const auto [end, error] = std::from_chars(text.data(), last, value);
  if (text.empty() || error != std::errc() || end != last) return std::nullopt;
  return value;
}

inline std::optional<double> finite_number(const std::string& text) {
  double value = 0;
  const char* last = text.data() + text.size();
  const auto [end, error] = std::from_chars(text.data(), last, value);
  if (text.empty() || error != std::errc() || end != last || !std::isfinite(value)) return std::nullopt;
  return value;
}

}  // namespace cfd
