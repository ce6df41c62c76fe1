#include "core/case_formulas.hpp"

#include <algorithm>

namespace cfd {

KeySpec constants_key(const std::string& used_by) {
  return {"constants.*", KeyType::real, "",
          "constants named by the user (constants: {y0: 0.5, w: 0.02}), for the formulas of " + used_by};
}

std::map<std::string, double> case_constants(const Config& c) {
  std::map<std::string, double> constants;
  for (const auto& name : c.keys_in("constants")) {
    std::string why;
    if (!is_constant_name(name, &why)) c.reject("constants." + name, why);
    constants[name] = c.get_real("constants." + name);
  }
  return constants;
}

Expression case_formula(const Config& c, const std::string& path, const std::map<std::string, double>& constants,
                        const std::vector<std::string>& variables) {
  const std::string& text = c.get_string(path);
  try {
    return Expression(text, constants, variables);
  } catch (const ExpressionError& e) {
    // The formula around the column, at most 60 characters either side, and
    // the message at most 200: a message never echoes a 40 KB formula.
    const size_t column = static_cast<size_t>(e.column > 0 ? e.column - 1 : 0);
    const size_t from = column > 60 ? column - 60 : 0, length = 121;
    const std::string before = from > 0 ? "..." : "", after = from + length < text.size() ? "..." : "";
    std::string why = e.what();
    if (why.size() > 200) why = why.substr(0, 200) + "...";
    c.reject(path, "column " + std::to_string(e.column) + " of the formula: " + why + "\n  " + before +
                       text.substr(std::min(from, text.size()), length) + after + "\n  " +
                       std::string(before.size() + column - from, ' ') + "^");
  }
}

}  // namespace cfd
