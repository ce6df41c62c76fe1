#include "core/config.hpp"

#include "core/command_line.hpp"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace cfd {

const char* type_name(KeyType type) {
  switch (type) {
    case KeyType::integer: return "integer";
    case KeyType::real: return "real";
    case KeyType::boolean: return "boolean";
    case KeyType::string: return "string";
    case KeyType::choice: return "choice";
  }
  return "?";
}

namespace {
// Why a number in a form other readers take is refused here.
std::string number_hint(const std::string& s) {
  if (!s.empty() && s[0] == '+') return " (write it without '+')";
  if (s.size() > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
    return " (hexadecimal numbers are not read; write it in decimal)";
  return "";
}
}  // namespace

const char* on_restart_name(OnRestart r) {
  switch (r) {
    case OnRestart::fixed: return "fixed";
    case OnRestart::same_bits: return "same bits";
    case OnRestart::branches: return "branches";
  }
  return "?";
}

void mark_on_restart(std::vector<KeySpec>& keys, const std::vector<std::string>& paths, OnRestart how) {
  for (const auto& path : paths) {
    const bool section = path.size() > 2 && path.compare(path.size() - 2, 2, ".*") == 0;
    bool found = false;
    for (auto& spec : keys) {
      if (section ? spec.path.compare(0, path.size() - 1, path, 0, path.size() - 1) == 0 : spec.path == path) {
        spec.on_restart = how;
        found = true;
      }
    }
    if (!found) throw std::logic_error("mark_on_restart: no key " + path);  // a typo in a solver's table
  }
}

std::string format_real(double value) {
  char buf[64];
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*g", digits, value);
    if (std::strtod(buf, nullptr) == value) break;
  }
  std::string text = buf;
  // Whole numbers as people write them: 20.0 rather than %g's 2e+01.
  if (std::isfinite(value) && value == std::trunc(value) && std::fabs(value) < 1e7) {
    std::snprintf(buf, sizeof buf, "%.1f", value);
    text = buf;
  }
  // Keep it recognisably real in YAML ("1" would read back as an integer).
  if (text.find_first_of(".eEn") == std::string::npos) text += ".0";
  return text;
}

void mark_former_section(std::vector<KeySpec>& keys, const std::string& now, const std::string& before) {
  for (auto& spec : keys) {
    if (spec.path.rfind(now + ".", 0) == 0) spec.former.push_back(before + spec.path.substr(now.size()));
    const size_t n = spec.former.size();
    for (size_t i = 0; i < n; ++i)
      if (spec.former[i].rfind(now + ".", 0) == 0) spec.former.push_back(before + spec.former[i].substr(now.size()));
  }
}

void mark_former(std::vector<KeySpec>& keys, const std::string& path, const std::string& before) {
  for (auto& spec : keys)
    if (spec.path == path) {
      spec.former.push_back(before);
      return;
    }
  throw std::logic_error("mark_former: no key " + path);  // a typo in a solver's table
}

std::pair<std::string, std::string> split_override(const std::string& text) {
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0)
    throw ConfigError("--set " + text + ": expected section.key=value (for example --set grid.nx=512)");
  const std::string path = text.substr(0, eq);
  const auto dot = path.find('.');
  if (path != "solver" &&
      (dot == std::string::npos || dot == 0 || dot + 1 == path.size() || path.find('.', dot + 1) != std::string::npos))
    throw ConfigError("--set " + text + ": '" + path +
                      "' is not a key; expected section.key=value (for example --set grid.nx=512)");
  return {path, text.substr(eq + 1)};
}

namespace {
// "constants.*": the spec of a section of user-named keys.
bool is_wildcard(const std::string& path) { return path.size() >= 2 && path.compare(path.size() - 2, 2, ".*") == 0; }
}  // namespace

namespace {

std::string join(const std::vector<std::string>& items, const std::string& sep) {
  std::string out;
  for (size_t k = 0; k < items.size(); ++k) out += (k ? sep : "") + items[k];
  return out;
}

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diag = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] != b[j - 1])});
      diag = up;
    }
  }
  return row[b.size()];
}

std::string suggestion(const std::string& word, const std::vector<std::string>& known) {
  std::string best;
  std::size_t best_distance = 3;  // suggest only near misses
  // Letters' case is no distance: HLLC is hllc.
  const auto lower = [](std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
  };
  for (const auto& k : known) {
    const std::size_t d = edit_distance(lower(word), lower(k));
    if (d < best_distance) best_distance = d, best = k;
  }
  return best.empty() ? "" : " (did you mean '" + best + "'?)";
}

const char* node_kind(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Map: return "a map";
    case YAML::NodeType::Sequence: return "a list";
    case YAML::NodeType::Null: return "nothing";
    default: return "a scalar";
  }
}

// Where a key came from: file:line:column, or the --set that gave it.
class Locator {
 public:
  Locator(std::string source, std::set<std::string> overridden)
      : source_(std::move(source)), overridden_(std::move(overridden)) {}
  std::string at(const YAML::Mark& mark) const {
    if (mark.is_null()) return source_;
    return source_ + ":" + std::to_string(mark.line + 1) + ":" + std::to_string(mark.column + 1);
  }
  std::string at(const YAML::Node& node, const std::string& path) const {
    if (overridden_.count(path)) return "command line (--set " + path + ")";
    return at(node.Mark());
  }

 private:
  std::string source_;
  std::set<std::string> overridden_;
};

// Where each document of a YAML stream begins: the first event's mark.
struct DocumentMarks : YAML::EventHandler {
  std::vector<YAML::Mark> starts;
  bool started = false;
  void first(const YAML::Mark& mark) {
    if (!started) starts.push_back(mark);
    started = true;
  }
  void OnDocumentStart(const YAML::Mark&) override { started = false; }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& mark, YAML::anchor_t) override { first(mark); }
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t) override { first(mark); }
  void OnScalar(const YAML::Mark& mark, const std::string&, YAML::anchor_t, const std::string&) override {
    first(mark);
  }
  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    first(mark);
  }
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    first(mark);
  }
  void OnMapEnd() override {}
};

[[noreturn]] void fail(const std::string& where, const std::string& path, const std::string& what) {
  throw ConfigError(where + ": error: " + (path.empty() ? "" : "'" + path + "': ") + what);
}

bool parse_bool(std::string text, bool& out) {
  std::transform(text.begin(), text.end(), text.begin(), ::tolower);
  if (text == "true" || text == "yes" || text == "on") return out = true, true;
  if (text == "false" || text == "no" || text == "off") return out = false, true;
  return false;
}

}  // namespace

Config Config::from_file(const std::string& path, const std::vector<std::string>& overrides, SchemaLookup schema) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw ConfigError(path + ": error: this is a folder; give the case file (a .yaml file), e.g. config/kh.yaml");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ConfigError(path + ": error: cannot open the case file (" + std::strerror(errno) + ")");
  // Read at most max_case_bytes: a case file is small, and /dev/zero or a
  // wrong path to a large data file must not fill the memory.
  std::string text;
  char chunk[65536];
  while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
    text.append(chunk, static_cast<size_t>(in.gcount()));
    // UTF-16 and UTF-32 (with a byte order mark) hold NUL bytes too: say
    // what the file is rather than "binary".
    const auto starts = [&](const char* mark, size_t n) {
      return text.size() >= n && text.compare(0, n, mark, n) == 0;
    };
    if (starts("\xFF\xFE\0\0", 4) || starts("\0\0\xFE\xFF", 4))
      throw ConfigError(path + ": error: the case file is UTF-32 (it starts with a byte order mark); save it as UTF-8");
    if (starts("\xFF\xFE", 2) || starts("\xFE\xFF", 2))
      throw ConfigError(path + ": error: the case file is UTF-16 (it starts with a byte order mark); save it as UTF-8");
    if (text.find('\0') != std::string::npos)
      throw ConfigError(path + ": error: not a case file: it holds binary data (a NUL byte)");
    if (text.size() > max_case_bytes)
      throw ConfigError(path + ": error: not a case file: more than " + std::to_string(max_case_bytes / 1024) +
                        " KiB (case files are a few hundred bytes of YAML)");
  }
  if (in.bad()) throw ConfigError(path + ": error: cannot read the case file");
  // Valid UTF-8 only: yaml-cpp would store a stray byte as U+FFFD, and the
  // configuration kept in the output would then differ from the file.
  {
    long line = 1, column = 1;
    for (size_t k = 0; k < text.size();) {
      const auto c = static_cast<unsigned char>(text[k]);
      const int n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
      bool ok = n > 0 && k + n <= text.size();
      for (int m = 1; ok && m < n; ++m) ok = (static_cast<unsigned char>(text[k + m]) >> 6) == 0x2;
      if (ok && n == 2) ok = c >= 0xC2;  // no overlong forms
      if (ok && n >= 3) {
        // No overlong forms, no UTF-16 surrogates (ED A0-BF: a lone one is
        // no character), nothing beyond U+10FFFF.
        const auto c1 = static_cast<unsigned char>(text[k + 1]);
        ok = !(c == 0xE0 && c1 < 0xA0) && !(c == 0xED && c1 >= 0xA0) && !(c == 0xF0 && c1 < 0x90) &&
             !(c == 0xF4 && c1 >= 0x90) && c <= 0xF4;
      }
      if (!ok)
        throw ConfigError(path + ":" + std::to_string(line) + ":" + std::to_string(column) +
                          ": error: not UTF-8 text (byte 0x" + "0123456789ABCDEF"[c >> 4] + "0123456789ABCDEF"[c & 15] +
                          "); save the case file as UTF-8");
      if (c == '\n') line += 1, column = 0;
      k += static_cast<size_t>(n);
      column += 1;
    }
  }
  // Line ends of classic Mac OS (a lone CR): YAML counts them as line
  // breaks, yaml-cpp 0.7 does not (the whole file would be one comment
  // line); as LF, lines and columns in messages are the editor's.
  for (size_t k = 0; k < text.size(); ++k)
    if (text[k] == '\r' && (k + 1 == text.size() || text[k + 1] != '\n')) text[k] = '\n';
  // So are NEL (U+0085) and the line and paragraph separators (U+2028,
  // U+2029), which YAML 1.1 counts as line breaks and yaml-cpp does not
  // (a case file with them read as one line: "'solver': missing").
  for (const char* mark : {"\xC2\x85", "\xE2\x80\xA8", "\xE2\x80\xA9"})
    for (size_t k = text.find(mark); k != std::string::npos; k = text.find(mark, k + 1))
      text.replace(k, std::strlen(mark), "\n");
  return from_string(text, path, overrides, schema);
}

Config Config::from_string(const std::string& text, const std::string& source_name,
                           const std::vector<std::string>& overrides, SchemaLookup schema) {
  // A line that starts with '%' is a YAML directive, which yaml-cpp drops
  // without a word when it does not know it; case files have none.
  {
    std::istringstream lines(text);
    std::string line;
    for (long number = 1; std::getline(lines, line); ++number) {
      if (!line.empty() && line[0] == '%')
        throw ConfigError(source_name + ":" + std::to_string(number) +
                          ":1: error: a line that starts with '%' is a YAML directive; case files have none (quote "
                          "a value that starts with '%')");
    }
  }
  YAML::Node root;
  try {
    // A second document is refused rather than ignored. (Not with
    // YAML::LoadAll: yaml-cpp up to 0.8 loops for ever, allocating, on a
    // document that begins with ',', returning empty documents that
    // consume nothing; yaml-cpp#1040, fixed upstream in #1319.)
    std::istringstream stream(text);
    YAML::Parser parser(stream);
    DocumentMarks marks;
    if (parser.HandleNextDocument(marks) && parser.HandleNextDocument(marks)) {
      const YAML::Mark m = marks.starts.back();
      if (marks.starts.size() == 2 && m.pos == marks.starts.front().pos)
        throw ConfigError(source_name + ":" + std::to_string(m.line + 1) + ":" + std::to_string(m.column + 1) +
                          ": error: YAML syntax: this cannot begin a case file (a stray ',' or ']'?)");
      throw ConfigError(source_name + ":" + std::to_string(m.line + 1) +
                        ": error: a second YAML document begins here; a case file is one document (remove the '---' "
                        "or '...' line, or the indentation of the first line, which makes the rest a new document)");
    }
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    // yaml-cpp's depth guard (YAML::DeepRecursion, at 500 levels) says only
    // "bad file": we never give it a file, so that message means nesting.
    const std::string why = e.msg == "bad file"
                                ? "nested too deeply ([ ] or { } inside each other hundreds of times); the sections of "
                                  "a case file are one or two levels deep"
                                : e.msg;
    // A tab that indents, on the line yaml-cpp stopped at or before it, is
    // what went wrong ("illegal map value" says nothing of it). Only when
    // parsing failed: YAML allows tabs inside block scalars and values.
    std::istringstream lines(text);
    std::string line;
    for (long number = 1; std::getline(lines, line) && number <= e.mark.line + 1; ++number) {
      const size_t content = line.find_first_not_of(" \t"), tab = line.find('\t');
      if (content != std::string::npos && tab < content && line[content] != '#')
        throw ConfigError(source_name + ":" + std::to_string(number) + ":" + std::to_string(tab + 1) +
                          ": error: a tab in the indentation; YAML indents with spaces only");
    }
    throw ConfigError(source_name + ":" + std::to_string(e.mark.line + 1) + ":" + std::to_string(e.mark.column + 1) +
                      ": error: YAML syntax: " + why);
  }
  if (!root.IsDefined() || root.IsNull()) root = YAML::Node(YAML::NodeType::Map);
  if (!root.IsMap())
    throw ConfigError(source_name + ": error: a case file is a YAML map of sections, got " + node_kind(root));

  std::set<std::string> overridden;
  for (const auto& o : overrides) {
    const auto [path, value] = split_override(o);
    const auto dot = path.find('.');
    // The value as typed, not as YAML: '--output "run # 2"' is the folder
    // 'run # 2', and '~' or '- x' are text like any other.
    const YAML::Node value_node(value);
    if (dot == std::string::npos) {
      if (path != "solver") throw ConfigError("--set " + o + ": error: expected section.key=value");
      root[path] = value_node;
    } else {
      const std::string section = path.substr(0, dot), key = path.substr(dot + 1);
      if (key.empty() || key.find('.') != std::string::npos)
        throw ConfigError("--set " + o + ": error: expected section.key=value");
      YAML::Node sec = root[section];
      if (sec.IsDefined() && !sec.IsNull() && !sec.IsMap())
        throw ConfigError("--set " + o + ": error: '" + section + "' is not a section in the case file");
      sec[key] = value_node;
    }
    overridden.insert(path);
  }
  const Locator where(source_name, overridden);

  YAML::Node solver_node = root["solver"];
  if (!solver_node.IsDefined() || solver_node.IsNull())
    fail(source_name, "solver", "missing; every case names its solver (for example 'solver: diffusion')");
  if (!solver_node.IsScalar())
    fail(where.at(solver_node, "solver"), "solver", std::string("expected a string, got ") + node_kind(solver_node));
  std::vector<KeySpec> keys;
  try {
    keys = schema(solver_node.Scalar());
  } catch (const ConfigError& e) {
    fail(where.at(solver_node, "solver"), "solver", e.what());
  }
  // Keys read under a former spelling: each maps to its key (KeySpec::former).
  // A renamed section (euler2d) and its present name: the section most of
  // its keys kept their names in (euler2d.riemann is euler.riemann; only
  // euler2d.gamma moved on, to gas.gamma).
  std::map<std::string, std::string> former_path, section_now_of;
  std::map<std::string, std::map<std::string, int>> kept_names_in;
  std::set<std::string> former_sections;
  for (const auto& spec : keys)
    for (const auto& f : spec.former) {
      former_path[f] = spec.path;
      const auto dot = f.find('.');
      former_sections.insert(f.substr(0, dot));
      const auto path_dot = spec.path.find('.');
      if (dot != std::string::npos && path_dot != std::string::npos && f.substr(dot) == spec.path.substr(path_dot))
        ++kept_names_in[f.substr(0, dot)][spec.path.substr(0, path_dot)];
    }
  for (const auto& [before, counts] : kept_names_in)
    section_now_of[before] = std::max_element(counts.begin(), counts.end(), [](const auto& a, const auto& b) {
                               return a.second < b.second;
                             })->first;
  // A --set wins over the file under any spelling: the others are dropped
  // from the file's keys.
  for (const auto& p : overridden) {
    const std::string path = former_path.count(p) ? former_path.at(p) : p;
    std::vector<std::string> others = {path};
    for (const auto& spec : keys)
      if (spec.path == path) others.insert(others.end(), spec.former.begin(), spec.former.end());
    for (const auto& other : others) {
      const auto dot = other.find('.');
      if (other == p || dot == std::string::npos) continue;
      // Two --set of one key under two spellings: which one was meant?
      if (overridden.count(other))
        fail("command line (--set " + p + ")", path,
             "given twice, as '" + other + "' and as '" + p + "' (one of them a former name); keep one");
      YAML::Node sec = root[other.substr(0, dot)];
      if (sec.IsDefined() && sec.IsMap() && sec[other.substr(dot + 1)].IsDefined()) sec.remove(other.substr(dot + 1));
    }
  }

  Config config;
  config.source_ = source_name;
  std::vector<std::string> sections;
  for (const auto& spec : keys) {
    config.order_.push_back(spec.path);
    config.values_[spec.path].spec = spec;
    const auto dot = spec.path.find('.');
    if (dot != std::string::npos) {
      const std::string section = spec.path.substr(0, dot);
      if (std::find(sections.begin(), sections.end(), section) == sections.end()) sections.push_back(section);
    }
  }

  // `written`: the key as the case wrote it (a former spelling, or path).
  auto check_value = [&](const std::string& path, const YAML::Node& node, const std::string& written = "") {
    Value& v = config.values_.at(path);
    const KeySpec& spec = v.spec;
    const std::string loc = where.at(node, written.empty() ? path : written);
    if (!node.IsScalar())
      fail(loc, path,
           std::string("expected ") +
               (spec.type == KeyType::choice ? "one of " + join(spec.choices, "|") : type_name(spec.type)) + ", got " +
               node_kind(node));
    std::string s = node.Scalar();
    // A former boolean key that is now a choice: its value in the new terms.
    if (!written.empty() && written != path && !spec.former_true.empty()) {
      bool b = false;
      if (!parse_bool(s, b)) fail(loc, written, "expected true or false, got '" + s + "'");
      s = b ? spec.former_true : spec.former_false;
    }
    v.text = s;
    v.given = true;
    v.location = loc;
    auto range_text = [&] {
      auto bound = [&](double b) {
        return spec.type == KeyType::integer ? std::to_string(static_cast<long>(b)) : format_real(b);
      };
      const bool lo = std::isfinite(spec.min), hi = std::isfinite(spec.max);
      if (lo && hi) return "between " + bound(spec.min) + " and " + bound(spec.max);
      return lo ? "at least " + bound(spec.min) : "at most " + bound(spec.max);
    };
    switch (spec.type) {
      // Numbers are read as the tools read theirs (core/command_line.hpp,
      // std::from_chars): whole, decimal, no '+', nothing around them.
      case KeyType::integer: {
        const auto n = whole_number(s);
        if (!n) fail(loc, path, "expected an integer, got '" + s + "'" + number_hint(s));
        v.i = *n;
        if (v.i < spec.min || v.i > spec.max) fail(loc, path, "must be " + range_text() + ", got " + s);
        v.text = std::to_string(v.i);
        break;
      }
      case KeyType::real: {
        const auto x = finite_number(s);
        if (!x) fail(loc, path, "expected a finite real number, got '" + s + "'" + number_hint(s));
        v.r = *x;
        if (v.r < spec.min || v.r > spec.max) fail(loc, path, "must be " + range_text() + ", got " + s);
        v.text = format_real(v.r);
        break;
      }
      case KeyType::boolean:
        if (!parse_bool(s, v.b)) fail(loc, path, "expected true or false, got '" + s + "'");
        v.text = v.b ? "true" : "false";
        break;
      case KeyType::choice:
        if (std::find(spec.choices.begin(), spec.choices.end(), s) == spec.choices.end())
          fail(loc, path,
               "expected one of " + join(spec.choices, "|") + ", got '" + s + "'" + suggestion(s, spec.choices));
        break;
      case KeyType::string: break;
    }
  };

  // Keys must be plain words: '? [a, b]' or '[1, 2]: 3' name nothing.
  auto key_name = [&](const YAML::Node& key, const std::string& in) {
    if (!key.IsScalar())
      fail(where.at(key.Mark()), "", std::string("a key must be a name, got ") + node_kind(key) + in);
    return key.Scalar();
  };
  std::set<std::string> seen_sections;
  std::map<std::string, std::string> given_as;  // each key given: as the case wrote it
  for (auto it = root.begin(); it != root.end(); ++it) {
    const std::string name = key_name(it->first, "");
    if (!seen_sections.insert(name).second) fail(where.at(it->first.Mark()), name, "duplicate section");
    if (name == "solver") {
      // A solver's former name (SolverEntry::former_name) runs that solver.
      const std::vector<std::string>& names = config.values_.at("solver").spec.choices;
      const std::string& given = it->second.IsScalar() ? it->second.Scalar() : name;
      if (!names.empty() && std::find(names.begin(), names.end(), given) == names.end()) {
        Value& v = config.values_.at("solver");
        v.text = names.front();
        v.given = true;
        v.location = where.at(it->second, "solver");
        config.warnings_.push_back(v.location + ": note: solver '" + given + "' is now called '" + v.text +
                                   "'; it runs as before (write 'solver: " + v.text + "')");
        continue;
      }
      check_value("solver", it->second);
      continue;
    }
    const bool former_section =
        std::find(sections.begin(), sections.end(), name) == sections.end() && former_sections.count(name) > 0;
    if (!former_section && std::find(sections.begin(), sections.end(), name) == sections.end())
      fail(where.at(it->first.Mark()), name,
           "unknown section for solver '" + solver_node.Scalar() + "'" + suggestion(name, sections) +
               "; its sections are: " + join(sections, ", "));
    const YAML::Node section = it->second;
    if (section.IsNull()) continue;
    if (!section.IsMap())
      fail(where.at(section, name), name, std::string("expected a map of keys, got ") + node_kind(section));
    // The section's keys under its present name (a former section's too).
    const std::string section_now = former_section && section_now_of.count(name) ? section_now_of.at(name) : name;
    std::vector<std::string> section_keys;
    for (const auto& spec : keys)
      if (spec.path.rfind(section_now + ".", 0) == 0) section_keys.push_back(spec.path.substr(section_now.size() + 1));
    if (former_section)
      config.warnings_.push_back(where.at(it->first.Mark()) + ": note: section '" + name + "' is now '" + section_now +
                                 "'; its keys are read as before (rename it)");
    std::set<std::string> seen;
    for (auto kt = section.begin(); kt != section.end(); ++kt) {
      const std::string key = key_name(kt->first, " in section '" + name + "'");
      const std::string written = name + "." + key;
      std::string path = written;
      if (!config.values_.count(path) && former_path.count(path)) {
        path = former_path.at(path);
        // In a renamed section the section's note says it for the keys
        // that kept their names.
        if (!former_section || path != section_now + "." + key)
          config.warnings_.push_back(where.at(kt->first, written) + ": note: '" + written + "' is now '" + path +
                                     "'; it is read as before (rename it)");
      }
      if (!seen.insert(key).second) fail(where.at(kt->first.Mark()), path, "duplicate key");
      // The same key under its name and its former one.
      const auto earlier = given_as.emplace(path, written);
      if (!earlier.second)
        fail(where.at(kt->first, written), path,
             "given twice, as '" + earlier.first->second + "' and as '" + written + "' (its former name); keep one");
      // A section of user-named keys ("constants.*"): each key given
      // becomes a key of the wildcard's type.
      if (!config.values_.count(path) && config.values_.count(name + ".*")) {
        Value& v = config.values_[path];
        v.spec = config.values_.at(name + ".*").spec;
        v.spec.path = path;
        config.order_.push_back(path);
      }
      if (!config.values_.count(path))
        fail(where.at(kt->first, path), path,
             "unknown key" + suggestion(key, section_keys) + "; keys of '" + section_now +
                 "' are: " + join(section_keys, ", "));
      check_value(path, kt->second, written);
    }
  }

  for (const auto& path : config.order_) {
    Value& v = config.values_.at(path);
    if (v.given || is_wildcard(path)) continue;
    if (v.spec.default_value.empty() && v.spec.type != KeyType::string)
      fail(source_name, path, "missing required key (" + v.spec.help + ")");
    check_value(path, YAML::Node(v.spec.default_value));
    v.given = false;
  }
  // A key given where it has no effect (a limiter without reconstruction,
  // another problem's constant) is refused rather than silently ignored.
  for (const auto& path : config.order_) {
    const Value& v = config.values_.at(path);
    if (!v.given || config.belongs(v.spec)) continue;
    const auto eq = v.spec.belongs_to.find('=');
    const std::string key = v.spec.belongs_to.substr(0, eq), values = v.spec.belongs_to.substr(eq + 1);
    const std::string why = "has no effect with " + key + ": " + config.values_.at(key).text + " (it applies with " +
                            key + ": " + values + ")";
    if (v.spec.only_warn)
      config.warnings_.push_back(v.location + ": warning: '" + path + "': " + why + "; it is ignored");
    else
      fail(v.location, path, why + "; remove it, or set " + key);
  }
  return config;
}

bool Config::belongs(const KeySpec& spec) const {
  if (spec.belongs_to.empty()) return true;
  const auto eq = spec.belongs_to.find('=');
  auto it = values_.find(spec.belongs_to.substr(0, eq));
  if (it == values_.end()) return false;
  // "key=a|b": any of the values.
  std::stringstream values(spec.belongs_to.substr(eq + 1));
  std::string value;
  while (std::getline(values, value, '|'))
    if (it->second.text == value) return true;
  return false;
}

std::vector<std::string> Config::keys_in(const std::string& section) const {
  std::vector<std::string> out;
  for (const auto& path : order_)
    if (path.rfind(section + ".", 0) == 0 && !is_wildcard(path)) out.push_back(path.substr(section.size() + 1));
  return out;
}

const std::string& Config::location(const std::string& path) const {
  auto it = values_.find(path);
  return it != values_.end() && it->second.given ? it->second.location : source_;
}

const Config::Value& Config::find(const std::string& path, KeyType expected) const {
  auto it = values_.find(path);
  if (it == values_.end()) throw std::logic_error("cfdrun: no configuration key '" + path + "'");
  const KeyType t = it->second.spec.type;
  const bool ok = t == expected || (expected == KeyType::string && t == KeyType::choice);
  if (!ok) throw std::logic_error("cfdrun: configuration key '" + path + "' is a " + type_name(t));
  return it->second;
}

void Config::reject(const std::string& path, const std::string& why) const {
  // Where the value came from: its line in the case file or its --set.
  auto it = values_.find(path);
  if (it != values_.end() && it->second.given)
    throw ConfigError(it->second.location + ": error: '" + path + "': " + why);
  // A key the user did not write: said at the key that made it matter (the
  // choice it belongs to, e.g. euler.problem: file for file.path) when the
  // user wrote that one, so that the message points at a line of theirs.
  if (it != values_.end() && !it->second.spec.belongs_to.empty()) {
    const std::string& belongs = it->second.spec.belongs_to;
    const std::string chooser = belongs.substr(0, belongs.find('='));
    auto c = values_.find(chooser);
    if (c != values_.end() && c->second.given)
      throw ConfigError(c->second.location + ": error: '" + chooser + "' asks for '" + path +
                        "', which the case does not give: " + why);
  }
  throw ConfigError(source_ + ": error: '" + path + "': " + why);
}

long Config::get_int(const std::string& path) const { return find(path, KeyType::integer).i; }
double Config::get_real(const std::string& path) const { return find(path, KeyType::real).r; }
bool Config::get_bool(const std::string& path) const { return find(path, KeyType::boolean).b; }
const std::string& Config::get_string(const std::string& path) const { return find(path, KeyType::string).text; }
bool Config::given(const std::string& path) const {
  auto it = values_.find(path);
  return it != values_.end() && it->second.given;
}

std::string Config::resolved_yaml() const {
  // Sections in order of first appearance, each with all of its keys.
  std::vector<std::string> sections;
  for (const auto& path : order_) {
    const auto dot = path.find('.');
    const std::string section = dot == std::string::npos ? "" : path.substr(0, dot);
    if (std::find(sections.begin(), sections.end(), section) == sections.end()) sections.push_back(section);
  }
  YAML::Emitter out;
  out << YAML::BeginMap;
  for (const auto& section : sections) {
    // A wildcard section with no keys given, or the section of another choice.
    bool shown = false;
    for (const auto& path : order_)
      if (path.rfind(section + ".", 0) == 0 && !is_wildcard(path))
        shown = shown || values_.at(path).given || belongs(values_.at(path).spec);
    if (!section.empty() && !shown) continue;
    if (!section.empty()) out << YAML::Key << section << YAML::Value << YAML::BeginMap;
    for (const auto& path : order_) {
      const auto dot = path.find('.');
      if ((dot == std::string::npos ? "" : path.substr(0, dot)) != section || is_wildcard(path)) continue;
      const Value& v = values_.at(path);
      if (!v.given && !belongs(v.spec)) continue;
      out << YAML::Key << (section.empty() ? path : path.substr(dot + 1)) << YAML::Value;
      if (v.spec.type == KeyType::string) out << YAML::DoubleQuoted;
      out << v.text;
    }
    if (!section.empty()) out << YAML::EndMap;
  }
  out << YAML::EndMap;
  return std::string(out.c_str()) + "\n";
}

std::string keys_markdown(const std::vector<KeySpec>& keys) {
  std::string out = "| key | type | default | on --restart | meaning |\n|---|---|---|---|---|\n";
  for (const auto& k : keys) {
    std::string type = type_name(k.type);
    if (k.type == KeyType::choice) type = "`" + join(k.choices, "` \\| `") + "`";
    auto bound = [&](double b) {
      return k.type == KeyType::integer ? std::to_string(static_cast<long>(b)) : format_real(b);
    };
    if (std::isfinite(k.min) && std::isfinite(k.max))
      type += ", " + bound(k.min) + " to " + bound(k.max);
    else if (std::isfinite(k.min))
      type += ", >= " + bound(k.min);
    else if (std::isfinite(k.max))
      type += ", <= " + bound(k.max);
    const std::string def =
        k.default_value.empty() ? (k.type == KeyType::string ? "\"\"" : "required") : "`" + k.default_value + "`";
    std::string help = k.help;
    if (!k.belongs_to.empty()) {
      const auto eq = k.belongs_to.find('=');
      std::string values = k.belongs_to.substr(eq + 1);
      for (auto& c : values)
        if (c == '|') c = '/';
      help += " (only with `" + k.belongs_to.substr(0, eq) + ": " + values + "`" +
              (k.only_warn ? "; ignored otherwise" : "") + ")";
    }
    out += "| `" + k.path + "` | " + type + " | " + def + " | " + on_restart_name(k.on_restart) + " | " + help + " |\n";
  }
  return out;
}

}  // namespace cfd
