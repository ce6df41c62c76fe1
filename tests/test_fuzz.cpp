// Fuzzing the case-file reader: a fixed-seed corpus of mutated and generated
// case files (the shipped cases under config/, mutated line by line and byte
// by byte, and documents built from the solvers' own key tables with valid
// and invalid values), each read as cfdrun reads it: Config::from_string
// and the solver's check. The generator is this file; the corpus is not
// stored. Every input must end in one of two ways:
//   - refused with a ConfigError (cfdrun's exit status 2), never another
//     exception, a crash or a sanitizer report (the debug preset runs this);
//   - accepted, and then used whole: the text is one YAML document, a map
//     of sections, and every key in it is in the resolved configuration with
//     the value written, read back the same (nothing ignored, nothing
//     dropped), and the resolved configuration reads back to itself.
// tests/fuzz_cli.py does the same for command lines through the binary.
#include "core/config.hpp"
#include "physics/solvers.hpp"
#include "tests/test_files.hpp"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <typeinfo>
#include <vector>

namespace {

using Rng = std::mt19937_64;

using cfd::test::slurp;

size_t pick(Rng& rng, size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng); }

// Values a user (or a broken editor) might write for any key.
const std::vector<std::string> odd_values = {"0",
                                             "-1",
                                             "1",
                                             "3",
                                             "7",
                                             "64",
                                             "1e308",
                                             "1e309",
                                             "-1e308",
                                             "1e-320",
                                             "4.9e-324",
                                             "nan",
                                             ".nan",
                                             "inf",
                                             "-.inf",
                                             "0x10",
                                             "1_000",
                                             "010",
                                             "+5",
                                             "5.",
                                             ".5",
                                             "1e3",
                                             "9223372036854775807",
                                             "9223372036854775808",
                                             "-9223372036854775809",
                                             "\"\"",
                                             "''",
                                             "~",
                                             "null",
                                             "true",
                                             "false",
                                             "yes",
                                             "no",
                                             "on",
                                             "[1, 2]",
                                             "{a: 1}",
                                             "[]",
                                             "{}",
                                             "- x",
                                             "&a 5",
                                             "*a",
                                             "!!str 5",
                                             "!!int x",
                                             "\"64\"",
                                             "'fp32'",
                                             "fp32",
                                             "fp64",
                                             "left",
                                             "right",
                                             "keep",
                                             "hllc",
                                             "rk3",
                                             "periodic",
                                             "outflow",
                                             "euler",
                                             "sod",
                                             "diffusion",
                                             "\"a\\tb\"",
                                             "|\n    text",
                                             ">\n    text",
                                             "\"\\u00e9\"",
                                             "é",
                                             "\t",
                                             " ",
                                             "#",
                                             "::",
                                             ": :",
                                             "%YAML 1.2",
                                             "@",
                                             "`",
                                             std::string(300, 'x'),
                                             "1 2",
                                             "0.1.2",
                                             "--",
                                             "00:00:01",
                                             "1:99:00",
                                             "kh.out",
                                             "/dev/null",
                                             "../x"};

// Tokens inserted at random places, YAML's structure characters first.
const std::vector<std::string> odd_tokens = {":",  " ", "-",  "[",   "]",   "{",  "}",    "\"", "'",  "#",
                                             "&",  "*", "!",  "?",   "|",   ">",  "%",    "@",  "`",  "\t",
                                             "\n", ",", "  ", "---", "...", "\r", "\xef", "é",  "\\", "\n  ",
                                             "~",  "0", "x:", ": ",  "? ",  "- ", "<<: ", "=",  ".",  "\x01"};

std::string mutate(const std::string& text, Rng& rng) {
  std::vector<std::string> lines;
  {
    std::stringstream in(text);
    std::string line;
    while (std::getline(in, line)) lines.push_back(line);
  }
  if (lines.empty()) lines.push_back("");
  const int edits = 1 + static_cast<int>(pick(rng, 3));
  for (int e = 0; e < edits; ++e) {
    const size_t at = pick(rng, lines.size());
    std::string& line = lines[at];
    switch (pick(rng, 12)) {
      case 0: lines.erase(lines.begin() + at); break;
      case 1: lines.insert(lines.begin() + at, line); break;              // duplicate
      case 2: std::swap(line, lines[pick(rng, lines.size())]); break;     // swap two
      case 3: line = std::string(pick(rng, 5), ' ') + line; break;        // indent
      case 4: line.erase(0, std::min(line.size(), pick(rng, 4))); break;  // dedent, cut
      case 5: line.insert(pick(rng, line.size() + 1), odd_tokens[pick(rng, odd_tokens.size())]); break;
      case 6:
        if (!line.empty()) line[pick(rng, line.size())] = odd_tokens[pick(rng, odd_tokens.size())][0];
        break;
      case 7: {  // a value replaced
        const auto colon = line.find(':');
        if (colon != std::string::npos)
          line = line.substr(0, colon + 1) + " " + odd_values[pick(rng, odd_values.size())];
        break;
      }
      case 8: lines.insert(lines.begin() + at, pick(rng, 2) ? "---" : "..."); break;
      case 9: lines.resize(at + 1); break;                                // truncated
      case 10: line = line.substr(0, pick(rng, line.size() + 1)); break;  // cut mid-line
      case 11: {                                                          // a key renamed
        const auto colon = line.find(':');
        if (colon != std::string::npos && colon > 0) {
          const auto start = line.find_first_not_of(' ');
          line.replace(start, colon - start, odd_tokens[pick(rng, odd_tokens.size())] + "k");
        }
        break;
      }
    }
    if (lines.empty()) lines.push_back("");
  }
  std::string out;
  for (const auto& l : lines) out += l + "\n";
  return out;
}

// A case built from a solver's key table: some keys with their default,
// some with a value from the key's choices or range, some with an odd value.
std::string generate(Rng& rng) {
  const auto& table = cfd::solvers();
  const cfd::SolverEntry& solver = table[pick(rng, table.size())];
  std::vector<cfd::KeySpec> keys = solver.keys();
  std::string out = "solver: " + std::string(solver.name) + "\n";
  std::string section;
  const int n = static_cast<int>(pick(rng, 8));
  std::vector<std::string> used;
  for (int k = 0; k < n; ++k) {
    const cfd::KeySpec& spec = keys[1 + pick(rng, keys.size() - 1)];
    if (std::find(used.begin(), used.end(), spec.path) != used.end()) continue;
    used.push_back(spec.path);
    const auto dot = spec.path.find('.');
    std::string value;
    switch (pick(rng, 3)) {
      case 0: value = spec.default_value.empty() ? "\"\"" : spec.default_value; break;
      case 1:
        if (spec.type == cfd::KeyType::choice)
          value = spec.choices[pick(rng, spec.choices.size())];
        else if (spec.type == cfd::KeyType::boolean)
          value = pick(rng, 2) ? "true" : "false";
        else if (spec.type == cfd::KeyType::integer)
          value = std::to_string(std::isfinite(spec.min) ? static_cast<long>(spec.min) + static_cast<long>(pick(rng, 9))
                                                         : static_cast<long>(pick(rng, 100)) - 50);
        else
          value =
              cfd::format_real((std::isfinite(spec.min) ? spec.min : -1.0) + 0.25 * static_cast<double>(pick(rng, 9)));
        break;
      default: value = odd_values[pick(rng, odd_values.size())]; break;
    }
    // Flow or block style, sections repeated or not.
    if (pick(rng, 4) == 0) {
      out += spec.path.substr(0, dot) + ": {" + spec.path.substr(dot + 1) + ": " + value + "}\n";
      section.clear();
    } else {
      if (spec.path.substr(0, dot) != section) {
        section = spec.path.substr(0, dot);
        out += section + ":\n";
      }
      out += "  " + spec.path.substr(dot + 1) + ": " + value + "\n";
    }
  }
  return out;
}

// The same number as the config holds, read back from the text written.
bool same_value(const cfd::Config& config, const cfd::KeySpec& spec, const std::string& written) {
  switch (spec.type) {
    case cfd::KeyType::integer: return std::strtol(written.c_str(), nullptr, 10) == config.get_int(spec.path);
    case cfd::KeyType::real: return std::strtod(written.c_str(), nullptr) == config.get_real(spec.path);
    case cfd::KeyType::boolean: {
      std::string w = written;
      for (auto& c : w) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      const bool b = w == "true" || w == "yes" || w == "on";
      return b == config.get_bool(spec.path);
    }
    default: return written == config.get_string(spec.path);
  }
}

struct Outcome {
  long accepted = 0, refused = 0;
};

// Reads one input as cfdrun does and checks the outcome; returns a
// description of what went wrong, or "".
std::string check_one(const std::string& text, Outcome& outcome) {
  cfd::Config config;
  try {
    config = cfd::Config::from_string(text, "fuzz.yaml", {}, cfd::solver_keys);
    for (const auto& s : cfd::solvers())
      if (config.solver() == s.name) s.check(config);
  } catch (const cfd::ConfigError& e) {
    ++outcome.refused;
    const std::string message = e.what();
    if (message.find("error: ") == std::string::npos) return "a refusal without 'error:': " + message;
    return "";
  } catch (const std::exception& e) {
    return std::string("escaped as ") + typeid(e).name() + ": " + e.what();
  }
  ++outcome.accepted;
  // Accepted: the text must be one document whose every key was used.
  std::vector<YAML::Node> docs;
  try {
    docs = YAML::LoadAll(text);
  } catch (const YAML::Exception& e) {
    return std::string("accepted, but yaml-cpp cannot read it: ") + e.what();
  }
  if (docs.size() > 1) return "accepted with " + std::to_string(docs.size()) + " documents";
  const std::vector<cfd::KeySpec> keys = cfd::solver_keys(config.solver());
  // A key under its name or a former spelling (sod.viscosity is viscosity.law).
  auto spec_of = [&](const std::string& path) -> const cfd::KeySpec* {
    for (const auto& k : keys)
      if (k.path == path || std::find(k.former.begin(), k.former.end(), path) != k.former.end()) return &k;
    return nullptr;
  };
  if (!docs.empty() && docs[0].IsMap()) {
    for (auto it = docs[0].begin(); it != docs[0].end(); ++it) {
      const std::string section = it->first.Scalar();
      if (section == "solver") continue;
      if (it->second.IsNull()) continue;
      if (!it->second.IsMap()) return "accepted a section '" + section + "' that is not a map";
      for (auto kt = it->second.begin(); kt != it->second.end(); ++kt) {
        const std::string path = section + "." + kt->first.Scalar();
        const cfd::KeySpec* spec = spec_of(path);
        if (!spec) return "accepted an unknown key '" + path + "'";
        if (!config.given(spec->path)) return "ignored the key '" + path + "'";
        if (!kt->second.IsScalar()) return "accepted a non-scalar value for '" + path + "'";
        if (!same_value(config, *spec, kt->second.Scalar()))
          return "'" + path + "' holds another value than the text's '" + kt->second.Scalar() + "'";
      }
    }
  } else if (!docs.empty() && docs[0].IsDefined() && !docs[0].IsNull()) {
    return "accepted a document that is not a map";
  }
  // The resolved configuration reads back to itself.
  const std::string resolved = config.resolved_yaml();
  try {
    if (cfd::Config::from_string(resolved, "resolved", {}, cfd::solver_keys).resolved_yaml() != resolved)
      return "the resolved configuration does not read back to itself";
  } catch (const std::exception& e) {
    return std::string("the resolved configuration is refused: ") + e.what();
  }
  return "";
}

}  // namespace

TEST(Fuzz, CaseFilesAreUsedWholeOrRefused) {
  const std::string config_dir = CFDRUN_SOURCE_DIR "/config/";
  std::vector<std::string> seeds;
  for (const char* name : {"diffusion.yaml", "diffusion_seed.yaml", "diffusion_benchmark.yaml", "kh.yaml",
                           "kh_seed.yaml", "sod.yaml", "sod_123.yaml", "sod_keep_seed.yaml", "sod_lax.yaml"}) {
    seeds.push_back(slurp(config_dir + name));
    ASSERT_FALSE(seeds.back().empty()) << name;
  }
  Rng rng(20261130);  // fixed: the same corpus every run
  const long count = std::getenv("CFDRUN_FUZZ_CASES") ? std::atol(std::getenv("CFDRUN_FUZZ_CASES")) : 6000;
  const bool trace = std::getenv("CFDRUN_FUZZ_TRACE") != nullptr;  // each input to stderr, to find a crash
  Outcome outcome;
  long failures = 0;
  for (long n = 0; n < count; ++n) {
    std::string text;
    switch (n % 4) {
      case 0:
      case 1: text = mutate(seeds[pick(rng, seeds.size())], rng); break;
      case 2: text = generate(rng); break;
      default: text = mutate(generate(rng), rng); break;
    }
    if (trace) std::fprintf(stderr, "---- input %ld ----\n%s", n, text.c_str());
    const std::string problem = check_one(text, outcome);
    if (!problem.empty() && ++failures <= 10)
      ADD_FAILURE() << "input " << n << ": " << problem << "\n---- input ----\n" << text << "---------------";
  }
  EXPECT_EQ(failures, 0);
  // A corpus that is all refusals (or all acceptances) tests little.
  EXPECT_GT(outcome.accepted, count / 20);
  EXPECT_GT(outcome.refused, count / 4);
  std::printf("%ld case files: %ld accepted and used whole, %ld refused with a message\n", count, outcome.accepted,
              outcome.refused);
}
