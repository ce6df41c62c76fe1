// Formulas that users write in case files ("1 + 0.5*tanh((y - y0)/w)"):
// parsed once by muparser (Debian's libmuparser-dev 2.3: standard math
// functions, bytecode evaluation, the position of an error), evaluated on
// the host (initial states, inflow sides) or, as the FormulaProgram that
// program() makes of muparser's bytecode, in a kernel (source terms).
//
// A formula may use the coordinates and time (x, y, z, t), the variables its
// user names (the primitives of a source term: rho, vx, ...), the user's
// named constants, pi, and muparser's functions and operators (sin, exp,
// tanh, sqrt, abs, min, max, ^, <, ?:, ...).
#pragma once

#include "core/formula_program.hpp"

#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace cfd {

// A formula that cannot be parsed: `column` is 1-based within the formula.
struct ExpressionError : std::runtime_error {
  ExpressionError(const std::string& message, int column) : std::runtime_error(message), column(column) {}
  int column;
};

class Expression {
 public:
  // Parses `text` with the variables x, y, z, t, then `variables`, and
  // `constants`; throws ExpressionError naming what is wrong and where (a
  // column in `text`).
  Expression(const std::string& text, const std::map<std::string, double>& constants,
             const std::vector<std::string>& variables = {});
  ~Expression();
  Expression(Expression&&) noexcept;
  Expression& operator=(Expression&&) noexcept;
  Expression(const Expression&) = delete;
  Expression& operator=(const Expression&) = delete;

  double operator()(double x, double y = 0, double z = 0, double t = 0) const;
  // The value for input = {x, y, z, t, the variables in their order}.
  double at(const double* input) const;
  // The formula as a program a kernel evaluates (evaluate(program, input)
  // with the same input); throws ExpressionError if it is longer than a
  // program holds.
  FormulaProgram program() const;
  // Whether the formula reads the variable input[k].
  bool uses(int k) const;
  const std::string& text() const { return text_; }
  // Whether the formula reads the time t (a boundary value that does not is
  // computed once).
  bool uses_time() const { return uses_time_; }

 private:
  struct Parser;
  std::string text_;
  bool uses_time_ = false;
  std::unique_ptr<Parser> parser_;
};

// Whether `name` may name a user's constant: a letter, then letters, digits
// or '_', and not x, y, z, t, pi or one of muparser's function names.
bool is_constant_name(const std::string& name, std::string* why = nullptr);

}  // namespace cfd
