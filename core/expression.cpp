#include "core/expression.hpp"

#ifdef CFDRUN_HAVE_MUPARSER
#include <muParser.h>
#endif

#include <cctype>

namespace cfd {

namespace {
const char* const reserved[] = {"x",     "y",    "z",     "t",    "pi",   "sin",  "cos",   "tan",
                                "asin",  "acos", "atan",  "sinh", "cosh", "tanh", "asinh", "acosh",
                                "atanh", "log2", "log10", "log",  "ln",   "exp",  "sqrt",  "sign",
                                "rint",  "abs",  "min",   "max",  "sum",  "avg",  "_pi",   "_e"};
}  // namespace

bool is_constant_name(const std::string& name, std::string* why) {
  auto no = [&](const std::string& because) {
    if (why) *why = because;
    return false;
  };
  if (name.empty() || !std::isalpha(static_cast<unsigned char>(name[0])))
    return no("a constant's name starts with a letter");
  for (char c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_')
      return no("a constant's name has only letters, digits and '_'");
  for (const char* r : reserved)
    if (name == r) return no("'" + name + "' is a coordinate, pi or a function of the formulas");
  return true;
}

#ifdef CFDRUN_HAVE_MUPARSER
struct Expression::Parser {
  mu::Parser parser;
  // The variables muparser reads when it evaluates: their addresses are
  // bound once, so they live here, beside the parser.
  double x = 0, y = 0, z = 0, t = 0;
};

Expression::Expression(const std::string& text, const std::map<std::string, double>& constants)
    : text_(text), parser_(std::make_unique<Parser>()) {
  mu::Parser& p = parser_->parser;
  try {
    p.DefineVar("x", &parser_->x);
    p.DefineVar("y", &parser_->y);
    p.DefineVar("z", &parser_->z);
    p.DefineVar("t", &parser_->t);
    p.DefineConst("pi", 3.141592653589793238462643383279502884);
    for (const auto& [name, value] : constants) p.DefineConst(name, value);
    if (text.find_first_not_of(" \t") == std::string::npos) throw ExpressionError("the formula is empty", 1);
    // muparser would take "x = 1" as an assignment to the coordinate: a
    // lone '=' is refused (==, <=, >=, != compare).
    for (size_t k = 0; k < text.size(); ++k)
      if (text[k] == '=' && (k == 0 || std::string("=<>!").find(text[k - 1]) == std::string::npos) &&
          (k + 1 == text.size() || text[k + 1] != '='))
        throw ExpressionError("'=' is not an operator of a formula (compare with ==)", static_cast<int>(k) + 1);
    // Evaluated as written, operation by operation: muparser's optimizer would
    // fold (y - 0.25)/w into y*(1/w) - 0.25/w, other bits than the same
    // formula in C++ (and than the shipped problems' code).
    p.EnableOptimizer(false);
    p.SetExpr(text);
    // Parsing happens at the first evaluation: do it now, so that every
    // error is found before the run starts.
    p.Eval();
    if (p.GetNumResults() != 1)
      throw ExpressionError("one formula, not several separated by ','", static_cast<int>(text.find(',')) + 1);
    uses_time_ = p.GetUsedVar().count("t") > 0;
  } catch (const mu::Parser::exception_type& e) {
    const int pos = e.GetPos();
    std::string why = e.GetMsg();
    // muparser's messages end with the position in its own words; cfdrun
    // names the column itself.
    const auto at = why.find(" at position");
    if (at != std::string::npos) why.erase(at);
    if (!why.empty() && why.back() == '.') why.pop_back();
    const std::string& token = e.GetToken();
    if (e.GetCode() == mu::ecUNASSIGNABLE_TOKEN && !token.empty())
      why = "'" + token + "' is not a constant, a coordinate (x, y, z, t) or a function";
    const int end = static_cast<int>(text.size()) + 1;
    throw ExpressionError(why, pos >= 0 && pos + 1 < end ? pos + 1 : end);
  }
}

#else
// Built without muparser: every formula is refused, saying why.
struct Expression::Parser {};
Expression::Expression(const std::string& text, const std::map<std::string, double>&) : text_(text) {
  throw ExpressionError(
      "this cfdrun was built without muparser (install libmuparser-dev and build again): formulas "
      "are not available",
      1);
}
double Expression::operator()(double, double, double, double) const { return 0; }
#endif

Expression::~Expression() = default;
Expression::Expression(Expression&&) noexcept = default;
Expression& Expression::operator=(Expression&&) noexcept = default;

#ifdef CFDRUN_HAVE_MUPARSER
double Expression::operator()(double x, double y, double z, double t) const {
  parser_->x = x;
  parser_->y = y;
  parser_->z = z;
  parser_->t = t;
  try {
    return parser_->parser.Eval();
  } catch (const mu::Parser::exception_type& e) {
    throw ExpressionError(e.GetMsg(), e.GetPos() + 1);
  }
}
#endif

}  // namespace cfd
