// Case files: YAML read into a validated, fully resolved set of keys.
//
// Every key a solver understands is declared once as a KeySpec (type, default,
// range, meaning). The same declarations validate case files, fill defaults,
// print `cfdrun --list-keys` and generate the table in docs/user-guide.md.
#pragma once

#include <limits>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace cfd {

enum class KeyType { integer, real, boolean, string, choice };

// What `cfdrun --restart` may do with a key given by --set: the one list of
// what can change when a run continues (--help, the error for a fixed key
// and the user guide's table are made from it).
enum class OnRestart {
  fixed,      // grid, physics, precision, initial state: the checkpoint's state means nothing otherwise
  same_bits,  // cadence, limits, kernel shapes, rank count, folder: the run goes on as if never stopped
  branches,   // numerics that may change mid-run (cfl, Riemann solver, ...): the results then differ from an
              // unbranched run from the checkpoint's step on
};
const char* on_restart_name(OnRestart r);

struct KeySpec {
  std::string path;  // "section.key"; "section.*" declares a section of user-named keys of one type
  KeyType type;
  std::string default_value;  // as written in YAML; empty means required
  std::string help;
  std::vector<std::string> choices = {};                  // for KeyType::choice
  double min = -std::numeric_limits<double>::infinity();  // inclusive bounds
  double max = std::numeric_limits<double>::infinity();
  // "key=value": the key belongs to that choice (a problem's constants go
  // with euler.problem=blast); the resolved configuration lists it only
  // then, or when it is given.
  std::string belongs_to = {};
  // Given where it has no effect: a warning (Config::warnings) rather than
  // an error. For numerics a --set of the other key may make moot (a case
  // file's limiter, then --set euler.reconstruction=dc), not for keys that
  // are plainly another choice's (another problem's constants).
  bool only_warn = false;
  OnRestart on_restart = OnRestart::fixed;
  // The key's former spellings ("euler2d.riemann" for euler.riemann;
  // "euler.gamma" and "euler2d.gamma" for gas.gamma), still read from case
  // files, --set and stored configurations of checkpoints, with a note
  // naming the new one; empty: none.
  std::vector<std::string> former = {};
  // A former boolean key that became this choice: its true and false read
  // as these choices ("euler2d.fused_stage: false" is "euler.kernels: split").
  std::string former_true = {}, former_false = {};
};

// Gives the key `path` the former spelling `before` (a key renamed or moved
// to another section), besides any it has.
void mark_former(std::vector<KeySpec>& keys, const std::string& path, const std::string& before);

// Gives every key of section `now` ("euler") the former spelling in
// section `before` ("euler2d"), for a section renamed. A key that moved out
// of the section before (euler.gamma, now gas.gamma) is given its spelling
// in `before` too (euler2d.gamma).
void mark_former_section(std::vector<KeySpec>& keys, const std::string& now, const std::string& before);

// Marks the keys of `paths` (exact, or "section.*" for a whole section) as
// `how` may change on --restart.
void mark_on_restart(std::vector<KeySpec>& keys, const std::vector<std::string>& paths, OnRestart how);

// A bad case file or override. The message already names where and which key.
struct ConfigError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

const char* type_name(KeyType type);

// The keys of one solver, given its name; throws ConfigError for an unknown one.
using SchemaLookup = std::vector<KeySpec> (*)(const std::string& solver);

// Case files are small; a larger file is not one (and /dev/zero is refused
// without reading it all).
constexpr size_t max_case_bytes = 1 << 20;

class Config {
 public:
  // `overrides` are "section.key=value" strings from --set; they win over the file.
  static Config from_file(const std::string& path, const std::vector<std::string>& overrides, SchemaLookup schema);
  static Config from_string(const std::string& text, const std::string& source_name,
                            const std::vector<std::string>& overrides, SchemaLookup schema);

  long get_int(const std::string& path) const;
  double get_real(const std::string& path) const;
  bool get_bool(const std::string& path) const;
  const std::string& get_string(const std::string& path) const;  // string and choice keys
  bool given(const std::string& path) const;                     // set in the file or by --set
  // The keys given in `section`, in the order given ("constants": the
  // names of a wildcard section, declared as the KeySpec "constants.*").
  std::vector<std::string> keys_in(const std::string& section) const;
  // Where the value of `path` came from: "file:line:column", the --set, or
  // the case file for a default.
  const std::string& location(const std::string& path) const;
  // What the case gives that has no effect ("file:line:col: warning: ..."),
  // for cfdrun to print.
  const std::vector<std::string>& warnings() const { return warnings_; }

  const std::string& solver() const { return get_string("solver"); }
  const std::string& source() const { return source_; }
  // Rejects a combination of values the key specs alone cannot rule out,
  // in the same "<where>: error: '<key>': <why>" form as every config error,
  // where is the value's file:line:column or its --set.
  [[noreturn]] void reject(const std::string& path, const std::string& why) const;
  // Every key, defaults included, as YAML grouped by section.
  std::string resolved_yaml() const;

 private:
  struct Value {
    KeySpec spec;
    std::string text;
    long i = 0;
    double r = 0;
    bool b = false;
    bool given = false;
    std::string location;  // "file:line:column" or "command line (--set key)" of a given value
  };
  const Value& find(const std::string& path, KeyType expected) const;
  bool belongs(const KeySpec& spec) const;  // KeySpec::belongs_to holds (or is empty)

  std::string source_;
  std::vector<std::string> order_;
  std::map<std::string, Value> values_;
  std::vector<std::string> warnings_;
};

// Shortest decimal text that reads back as the same double.
std::string format_real(double value);

// "a.b=c" -> {"a.b", "c"}; throws ConfigError on a malformed override.
std::pair<std::string, std::string> split_override(const std::string& text);

// Markdown table of the keys (docs/user-guide.md embeds it verbatim).
std::string keys_markdown(const std::vector<KeySpec>& keys);

}  // namespace cfd
