#include "core/command_line.hpp"

#include <algorithm>
#include <cctype>

namespace cfd::cli {

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> items;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    if (comma > start) items.push_back(text.substr(start, comma - start));
    start = comma + 1;
  }
  return items;
}

bool Arguments::has(const std::string& option) const {
  return std::any_of(options.begin(), options.end(), [&](const Given& g) { return g.option == option; });
}

std::string Arguments::value(const std::string& option, const std::string& fallback) const {
  for (auto g = options.rbegin(); g != options.rend(); ++g)
    if (g->option == option) return g->value;
  return fallback;
}

std::vector<std::string> Arguments::values(const std::string& option) const {
  std::vector<std::string> all;
  for (const auto& g : options)
    if (g.option == option) all.push_back(g.value);
  return all;
}

Parser& Parser::add(Spec spec) {
  specs_.push_back(std::move(spec));
  return *this;
}

Parser& Parser::flag(const std::string& name, const std::string& alias) {
  return add({name, alias, Arity::none, true, false});
}

Parser& Parser::stop_flag(const std::string& name, const std::string& alias) {
  return add({name, alias, Arity::none, true, true});
}

Parser& Parser::option(const std::string& name, bool repeatable, const std::string& alias) {
  return add({name, alias, Arity::one, repeatable, false});
}

Parser& Parser::optional_value(const std::string& name) { return add({name, "", Arity::optional, false, false}); }

Parser& Parser::passthrough(const std::string& prefix) {
  passthrough_.push_back(prefix);
  return *this;
}

Parser& Parser::case_file_hints() {
  case_hints_ = true;
  return *this;
}

const Parser::Spec* Parser::find(const std::string& name) const {
  for (const auto& s : specs_)
    if (name == s.name || (!s.alias.empty() && name == s.alias)) return &s;
  return nullptr;
}

namespace {

bool is_word(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isalnum(c) || c == '_'; });
}

// AthenaK's "block/key=value" (mesh/nx1=64): the key before the '=' is a
// word, a slash, a word.
bool athenak_assignment(const std::string& arg, std::string* dotted) {
  const auto eq = arg.find('=');
  if (eq == std::string::npos) return false;
  const std::string key = arg.substr(0, eq);
  const auto slash = key.find('/');
  if (slash == std::string::npos || !is_word(key.substr(0, slash)) || !is_word(key.substr(slash + 1))) return false;
  *dotted = key.substr(0, slash) + "." + key.substr(slash + 1) + arg.substr(eq);
  return true;
}

std::string quoted_list(const std::vector<std::string>& names) {
  std::string s;
  for (std::size_t i = 0; i < names.size(); ++i)
    s += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + ("'" + names[i] + "'");
  return s;
}

}  // namespace

// "unknown option '--tol'; did you mean '--tolerance'?": the options the
// name begins (--tol: --tolerance), else the nearest by edit distance.
std::string Parser::unknown(const std::string& arg) const {
  const std::string name = arg.substr(0, arg.find('='));
  std::string message = "unknown option '" + arg + "'";
  std::vector<std::string> prefixed, nearest;
  std::size_t best = std::string::npos;
  for (const auto& s : specs_) {
    if (name.size() >= 4 && s.name.compare(0, name.size(), name) == 0) prefixed.push_back(s.name);
    const std::size_t d = edit_distance(name, s.name);
    if (d < best) best = d, nearest.clear();
    if (d == best) nearest.push_back(s.name);
  }
  const auto& suggestions = !prefixed.empty() ? prefixed : nearest;
  const bool near = !prefixed.empty() || (best != std::string::npos && (best <= 2 || best <= name.size() / 3));
  if (near && !suggestions.empty() && suggestions.size() <= 3)
    message += "; did you mean " + quoted_list(suggestions) + "?";
  return message;
}

Arguments Parser::parse(const std::vector<std::string>& args) const {
  Arguments out;
  bool only_positional = false;
  for (std::size_t k = 0; k < args.size(); ++k) {
    const std::string& a = args[k];
    if (only_positional || a.size() < 2 || a[0] != '-') {
      std::string dotted;
      if (case_hints_ && !only_positional && athenak_assignment(a, &dotted))
        throw UsageError("'" + a + "' is AthenaK's block/key=value form: use --set " + dotted);
      out.positional.push_back(a);
      continue;
    }
    if (a == "--") {
      only_positional = true;
      continue;
    }
    if (std::any_of(passthrough_.begin(), passthrough_.end(),
                    [&](const std::string& p) { return a.compare(0, p.size(), p) == 0; })) {
      out.passthrough.push_back(a);
      continue;
    }
    const auto eq = a.find('=');
    const std::string name = a.substr(0, eq);
    const Spec* spec = find(name);
    if (!spec) {
      if (case_hints_ && a == "-i" && k + 1 < args.size() && args[k + 1].rfind('-', 0) != 0)
        throw UsageError("unknown option '-i': " + tool_ + " takes the case file as its first argument: " + tool_ +
                         " case.yaml (AthenaK's -i is not needed)");
      throw UsageError(unknown(a));
    }
    Arguments::Given given{spec->name, "", false};
    if (eq != std::string::npos) {
      if (spec->arity == Arity::none) throw UsageError(spec->name + " takes no value (got '" + a + "')");
      given.value = a.substr(eq + 1);
      given.has_value = true;
    } else if (spec->arity == Arity::one) {
      if (k + 1 >= args.size()) throw UsageError(spec->name + " needs a value");
      // "--output --overwrite": the option's value is missing, not "--overwrite".
      const std::string& next = args[k + 1];
      if (next.size() > 1 && next[0] == '-' && find(next.substr(0, next.find('='))))
        throw UsageError(spec->name + " needs a value (got the option '" + next + "')");
      given.value = args[++k];
      given.has_value = true;
    } else if (spec->arity == Arity::optional && k + 1 < args.size() && !args[k + 1].empty() && args[k + 1][0] != '-') {
      given.value = args[++k];
      given.has_value = true;
    }
    out.options.push_back(given);
    if (spec->stops) {
      out.stopped_at = spec->name;
      break;
    }
  }
  return out;
}

Arguments Parser::parse(int argc, char* argv[]) const {
  return parse(std::vector<std::string>(argv + std::min(argc, 1), argv + std::max(argc, 1)));
}

}  // namespace cfd::cli
