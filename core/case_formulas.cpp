#include "core/case_formulas.hpp"

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

Expression case_formula(const Config& c, const std::string& path, const std::map<std::string, double>& constants) {
  const std::string& text = c.get_string(path);
  try {
    return Expression(text, constants);
  } catch (const ExpressionError& e) {
    c.reject(path, "column " + std::to_string(e.column) + " of the formula: " + e.what() + "\n  " + text + "\n  " +
                       std::string(static_cast<size_t>(e.column - 1), ' ') + "^");
  }
}

}  // namespace cfd
