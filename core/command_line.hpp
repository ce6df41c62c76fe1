// The tools' command lines (cfdrun, cfdcompare, cfdinfo, cfdbench): one
// parser, tested (tests/test_command_line.cpp), used by all of them, so that
// every option that takes a value takes it as "--opt value" or "--opt=value",
// flags refuse a value ("--quiet=x"), and every error names the option, with
// a suggestion for a misspelt one (edit distance). The tools exit with
// status 2 on a UsageError.
//
// Why not CLI11 (or another library): the GPU machines build from a CUDA
// image without network access, which has no CLI11 package, and fetched code
// may not be committed to this repository; the few hundred lines here have
// no dependency beyond the standard library.
//
// Numbers given on the tools' command lines are read whole by the standard
// library's std::from_chars: locale-free, no leading blanks or '+', nothing
// left over, out of range refused. So "3x", " 4", "1e400" and "inf" are not
// numbers here, where strtol/strtod would have read 3, 4, inf and inf.
#pragma once

#include <charconv>
#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

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

namespace cli {

// A command line the tool cannot use; what() names the option and what is
// wrong with it (no "error:" prefix, no tool name: the tool adds those).
class UsageError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// Levenshtein distance: insertions, deletions and substitutions.
std::size_t edit_distance(const std::string& a, const std::string& b);

// "a,b,,c" -> {"a", "b", "c"}: the lists of --field, --sizes, ...
std::vector<std::string> split_list(const std::string& text);

// What was given, in command-line order.
struct Arguments {
  struct Given {
    std::string option;  // the option's long name ("--quiet" also for -q)
    std::string value;   // empty for a flag
    bool has_value = false;
  };
  std::vector<Given> options;
  std::vector<std::string> positional;
  std::vector<std::string> passthrough;  // arguments under a passthrough prefix (--kokkos-*), whole
  std::string stopped_at;                // the stop flag (--help, --version) that ended parsing, if any

  bool has(const std::string& option) const;
  // The value of an option (the last one given), or the fallback when not given.
  std::string value(const std::string& option, const std::string& fallback = "") const;
  // Every value of a repeatable option, in order.
  std::vector<std::string> values(const std::string& option) const;
};

class Parser {
 public:
  explicit Parser(std::string tool) : tool_(std::move(tool)) {}

  // --name (and its short alias, "-q"): no value; "--name=x" is refused.
  Parser& flag(const std::string& name, const std::string& alias = "");
  // A flag that ends parsing where it stands (--help, --version): what
  // follows is not looked at, as the tool prints and exits.
  Parser& stop_flag(const std::string& name, const std::string& alias = "");
  // --name VALUE or --name=VALUE; `repeatable` keeps every value (values()),
  // else a later one replaces an earlier one (value()), as scripts that add
  // an option to a command line of defaults expect.
  Parser& option(const std::string& name, bool repeatable = false, const std::string& alias = "");
  // --name [VALUE]: takes the next argument when it does not begin with
  // '-' (or --name=VALUE).
  Parser& optional_value(const std::string& name);
  // Arguments beginning with `prefix` ("--kokkos-") are kept whole for
  // another library, unchecked.
  Parser& passthrough(const std::string& prefix);
  // The hints for AthenaK's habits, for a tool that takes a case file and
  // --set: "-i FILE" and "block/key=value".
  Parser& case_file_hints();

  // Throws UsageError.
  Arguments parse(const std::vector<std::string>& args) const;
  Arguments parse(int argc, char* argv[]) const;

 private:
  enum class Arity { none, one, optional };
  struct Spec {
    std::string name, alias;
    Arity arity = Arity::none;
    bool repeatable = false, stops = false;
  };
  const Spec* find(const std::string& name) const;
  Parser& add(Spec spec);
  std::string unknown(const std::string& arg) const;

  std::string tool_;
  std::vector<Spec> specs_;
  std::vector<std::string> passthrough_;
  bool case_hints_ = false;
};

}  // namespace cli
}  // namespace cfd
