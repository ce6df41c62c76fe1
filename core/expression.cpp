#include "core/expression.hpp"

#ifdef CFDRUN_HAVE_MUPARSER
#include <muParser.h>
#endif

#include <algorithm>
#include <cctype>
#include <cstring>
#include <map>

namespace cfd {

namespace {
const char* const reserved[] = {"x",     "y",    "z",    "t",    "pi",   "sin",   "cos",   "tan",   "asin",
                                "acos",  "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "log2",
                                "log10", "log",  "ln",   "exp",  "sqrt", "sign",  "rint",  "abs",   "min",
                                "max",   "sum",  "avg",  "_pi",  "_e",   "atan2"};
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
namespace {
// The unary operators are muparser's, defined again so that their bytecode
// names a function this file knows (muparser's own are templates of its
// library, whose addresses a program cannot compare).
double negate(double v) { return -v; }
double unary_plus(double v) { return v; }
}  // namespace

struct Expression::Parser {
  explicit Parser(size_t n) : input(n, 0.0) {}
  mu::Parser parser;
  // The variables muparser reads when it evaluates (x, y, z, t, then the
  // user's): their addresses are bound once, so they live here, beside the
  // parser, and never move.
  std::vector<double> input;
};

Expression::Expression(const std::string& text, const std::map<std::string, double>& constants,
                       const std::vector<std::string>& variables)
    : text_(text), parser_(std::make_unique<Parser>(4 + variables.size())) {
  mu::Parser& p = parser_->parser;
  try {
    const char* coordinates[] = {"x", "y", "z", "t"};
    for (int k = 0; k < 4; ++k) p.DefineVar(coordinates[k], &parser_->input[k]);
    for (size_t k = 0; k < variables.size(); ++k) p.DefineVar(variables[k], &parser_->input[4 + k]);
    p.DefineInfixOprt("-", negate);
    p.DefineInfixOprt("+", unary_plus);
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
    uses_time_ = uses(3);
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
Expression::Expression(const std::string& text, const std::map<std::string, double>&, const std::vector<std::string>&)
    : text_(text) {
  throw ExpressionError(
      "this cfdrun was built without muparser (install libmuparser-dev and build again): formulas "
      "are not available",
      1);
}
double Expression::operator()(double, double, double, double) const { return 0; }
double Expression::at(const double*) const { return 0; }
bool Expression::uses(int) const { return false; }
FormulaProgram Expression::program() const { return {}; }
#endif

Expression::~Expression() = default;
Expression::Expression(Expression&&) noexcept = default;
Expression& Expression::operator=(Expression&&) noexcept = default;

#ifdef CFDRUN_HAVE_MUPARSER
double Expression::operator()(double x, double y, double z, double t) const {
  const double xyzt[4] = {x, y, z, t};
  std::copy(xyzt, xyzt + 4, parser_->input.begin());
  try {
    return parser_->parser.Eval();
  } catch (const mu::Parser::exception_type& e) {
    throw ExpressionError(e.GetMsg(), e.GetPos() + 1);
  }
}

double Expression::at(const double* input) const {
  std::copy(input, input + parser_->input.size(), parser_->input.begin());
  try {
    return parser_->parser.Eval();
  } catch (const mu::Parser::exception_type& e) {
    throw ExpressionError(e.GetMsg(), e.GetPos() + 1);
  }
}

bool Expression::uses(int k) const {
  for (const auto& [name, address] : parser_->parser.GetUsedVar())
    if (address == &parser_->input[k]) return true;
  return false;
}

FormulaProgram Expression::program() const {
  const mu::Parser& p = parser_->parser;
  // Which operation each of muparser's functions is, by its address in the
  // parser's own table of functions.
  static const std::pair<const char*, FormulaOp> functions[] = {
      {"sin", FormulaOp::sin},     {"cos", FormulaOp::cos},   {"tan", FormulaOp::tan},     {"asin", FormulaOp::asin},
      {"acos", FormulaOp::acos},   {"atan", FormulaOp::atan}, {"atan2", FormulaOp::atan2}, {"sinh", FormulaOp::sinh},
      {"cosh", FormulaOp::cosh},   {"tanh", FormulaOp::tanh}, {"asinh", FormulaOp::asinh}, {"acosh", FormulaOp::acosh},
      {"atanh", FormulaOp::atanh}, {"log2", FormulaOp::log2}, {"log10", FormulaOp::log10}, {"log", FormulaOp::log},
      {"ln", FormulaOp::log},      {"exp", FormulaOp::exp},   {"sqrt", FormulaOp::sqrt},   {"sign", FormulaOp::sign},
      {"rint", FormulaOp::rint},   {"abs", FormulaOp::abs},   {"sum", FormulaOp::sum},     {"avg", FormulaOp::avg},
      {"min", FormulaOp::min},     {"max", FormulaOp::max}};
  std::map<void*, FormulaOp> by_address{{reinterpret_cast<void*>(negate), FormulaOp::negate},
                                        {reinterpret_cast<void*>(unary_plus), FormulaOp::unary_plus}};
  const auto& table = p.GetFunDef();
  for (const auto& [name, op] : functions) {
    const auto found = table.find(name);
    if (found != table.end()) by_address[found->second.GetAddr()] = op;
  }
  const auto too_long = [&](const std::string& what) {
    return ExpressionError("the formula is too long to run in a kernel (" + what + ")", 1);
  };
  FormulaProgram program;
  const double* input = parser_->input.data();
  for (const mu::SToken* token = p.GetByteCode().GetBase(); token->Cmd != mu::cmEND; ++token) {
    if (program.size == FormulaProgram::max_operations)
      throw too_long("it has more than " + std::to_string(FormulaProgram::max_operations) + " operations");
    FormulaProgram::Operation& o = program.operation[program.size++];
    o = {FormulaOp::end_if, 0, 0.0};
    switch (token->Cmd) {
      case mu::cmVAL: o.op = FormulaOp::constant, o.value = token->Val.data2; break;
      case mu::cmVAR: o.op = FormulaOp::variable, o.arg = int(token->Val.ptr - input); break;
      case mu::cmADD: o.op = FormulaOp::add; break;
      case mu::cmSUB: o.op = FormulaOp::subtract; break;
      case mu::cmMUL: o.op = FormulaOp::multiply; break;
      case mu::cmDIV: o.op = FormulaOp::divide; break;
      case mu::cmPOW: o.op = FormulaOp::power; break;
      case mu::cmLT: o.op = FormulaOp::less; break;
      case mu::cmGT: o.op = FormulaOp::greater; break;
      case mu::cmLE: o.op = FormulaOp::less_equal; break;
      case mu::cmGE: o.op = FormulaOp::greater_equal; break;
      case mu::cmEQ: o.op = FormulaOp::equal; break;
      case mu::cmNEQ: o.op = FormulaOp::not_equal; break;
      case mu::cmLAND: o.op = FormulaOp::logical_and; break;
      case mu::cmLOR: o.op = FormulaOp::logical_or; break;
      case mu::cmIF: o.op = FormulaOp::jump_if_zero, o.arg = token->Oprt.offset; break;
      case mu::cmELSE: o.op = FormulaOp::jump, o.arg = token->Oprt.offset; break;
      case mu::cmENDIF: o.op = FormulaOp::end_if; break;
      case mu::cmFUNC: {
        const auto found = by_address.find(reinterpret_cast<void*>(token->Fun.cb._pRawFun));
        if (found == by_address.end() || token->Fun.cb._pUserData != nullptr)
          throw ExpressionError("a function of this formula cannot run in a kernel", 1);
        o.op = found->second;
        // A function of any number of arguments holds minus their count.
        o.arg = token->Fun.argc < 0 ? -token->Fun.argc : token->Fun.argc;
        break;
      }
      default:
        // The optimizer's tokens (off here), strings, bulk functions and
        // assignments, none of which a case's formula has.
        throw ExpressionError("a part of this formula cannot run in a kernel", 1);
    }
  }
  // The stack's depth, walked through the program: muparser's own count
  // (GetMaxStackSize) never takes back a branch of ?:, so it refuses a
  // short piecewise formula. A branch starts from the depth after its
  // condition; both leave one value.
  int depth = 0, deepest = 0;
  std::vector<int> branch;  // the depth at each open ?:'s branches
  for (int n = 0; n < program.size; ++n) {
    const FormulaProgram::Operation& o = program.operation[n];
    switch (o.op) {
      case FormulaOp::constant:
      case FormulaOp::variable: ++depth; break;
      case FormulaOp::jump_if_zero: branch.push_back(--depth); break;
      case FormulaOp::jump: depth = branch.back(); break;
      case FormulaOp::end_if:
        depth = branch.back() + 1;
        branch.pop_back();
        break;
      case FormulaOp::sum:
      case FormulaOp::avg:
      case FormulaOp::min:
      case FormulaOp::max: depth -= o.arg - 1; break;
      case FormulaOp::negate:
      case FormulaOp::unary_plus:
      case FormulaOp::sin:
      case FormulaOp::cos:
      case FormulaOp::tan:
      case FormulaOp::asin:
      case FormulaOp::acos:
      case FormulaOp::atan:
      case FormulaOp::sinh:
      case FormulaOp::cosh:
      case FormulaOp::tanh:
      case FormulaOp::asinh:
      case FormulaOp::acosh:
      case FormulaOp::atanh:
      case FormulaOp::log2:
      case FormulaOp::log10:
      case FormulaOp::log:
      case FormulaOp::exp:
      case FormulaOp::sqrt:
      case FormulaOp::sign:
      case FormulaOp::rint:
      case FormulaOp::abs: break;
      default: --depth; break;  // the binary operators and atan2
    }
    deepest = std::max(deepest, depth);
  }
  if (deepest > FormulaProgram::max_stack)
    throw too_long("it nests deeper than " + std::to_string(FormulaProgram::max_stack) + " values");
  return program;
}
#endif

}  // namespace cfd
