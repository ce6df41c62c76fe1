// The formula program (core/formula_program.hpp) against muparser: 1,000
// random formulas over every operator and function, each at 20 random
// points, give muparser's bits (NaN where it gives NaN); on the device the
// same programs run in a kernel and give the host's bits for formulas of
// arithmetic, comparisons and the piecewise functions.
#include "core/expression.hpp"
#include "core/formula_program.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

using cfd::Expression;
using cfd::ExpressionError;
using cfd::FormulaProgram;

namespace {

#ifdef CFDRUN_HAVE_MUPARSER_TESTS
constexpr bool have_muparser = true;
#else
constexpr bool have_muparser = false;
#endif

const std::vector<std::string> variables = {"rho", "p", "vx"};
constexpr int inputs = 4 + 3;

bool same_bits(double a, double b) {
  if (std::isnan(a) && std::isnan(b)) return true;
  return std::memcmp(&a, &b, sizeof a) == 0;
}

// A random formula of about `depth` levels: every binary operator, the
// unary signs, ?:, every function of muparser with one, two or several
// arguments, the coordinates, the variables and constants. `arithmetic`
// keeps to what every backend rounds alike (no transcendental function).
struct FormulaMaker {
  std::mt19937_64 random;
  bool arithmetic = false;
  int pick(int n) { return int(random() % unsigned(n)); }
  std::string leaf() {
    static const char* names[] = {"x", "y", "z", "t", "rho", "p", "vx", "pi", "c1"};
    if (pick(3) == 0) {
      static const char* numbers[] = {"0", "1", "2", "0.5", "3.25", "1e-3", "-0.75", "10", "0.1"};
      return numbers[pick(9)];
    }
    return names[pick(9)];
  }
  std::string make(int depth) {
    if (depth == 0) return leaf();
    static const char* binary[] = {"+", "-", "*", "/", "^", "<", ">", "<=", ">=", "==", "!=", "&&", "||"};
    static const char* unary_any[] = {"sin",  "cos",  "tan",   "asin",  "acos",  "atan", "sinh",
                                      "cosh", "tanh", "asinh", "acosh", "atanh", "log2", "log10",
                                      "log",  "ln",   "exp",   "sqrt",  "sign",  "rint", "abs"};
    static const char* unary_exact[] = {"sqrt", "sign", "rint", "abs"};
    static const char* many[] = {"sum", "avg", "min", "max"};
    switch (pick(7)) {
      case 0:
      case 1: {
        const int n = pick(13);
        const std::string op = binary[n == 4 && arithmetic ? 0 : n];
        return "(" + make(depth - 1) + op + make(depth - 1) + ")";
      }
      case 2: return (pick(2) ? "-" : "+") + make(depth - 1);
      case 3: return make(depth - 1) + " ? " + make(depth - 1) + " : " + make(depth - 1);
      case 4: {
        const std::string f = arithmetic ? unary_exact[pick(4)] : unary_any[pick(21)];
        return f + "(" + make(depth - 1) + ")";
      }
      case 5: {
        if (!arithmetic && pick(4) == 0) return "atan2(" + make(depth - 1) + ", " + make(depth - 1) + ")";
        std::string call = std::string(many[pick(4)]) + "(" + make(depth - 1);
        const int more = pick(4);
        for (int k = 0; k < more; ++k) call += ", " + make(depth - 1);
        return call + ")";
      }
      default: return "(" + make(depth - 1) + "*" + leaf() + " + " + leaf() + ")";
    }
  }
};

// 20 points each: ordinary values, then zeros and negative ones that send
// the functions to their edges (log of 0, sqrt of -1, 0/0).
std::vector<std::vector<double>> points(std::mt19937_64& random) {
  std::uniform_real_distribution<double> u(-2, 2);
  std::vector<std::vector<double>> all;
  for (int n = 0; n < 20; ++n) {
    std::vector<double> in(inputs);
    for (double& v : in) v = n < 15 ? u(random) : (n % 2 ? 0.0 : -1.0);
    all.push_back(in);
  }
  return all;
}

// A formula that nests deeper than a program's stack, or muparser refuses.
bool usable(const std::string& text, Expression** out, std::vector<std::unique_ptr<Expression>>& keep) {
  try {
    keep.push_back(std::make_unique<Expression>(text, std::map<std::string, double>{{"c1", 1.5}}, variables));
    (void)keep.back()->program();
    *out = keep.back().get();
    return true;
  } catch (const ExpressionError&) {
    return false;
  }
}

}  // namespace

TEST(FormulaProgram, ThousandRandomFormulasGiveMuparsersBits) {
  if (!have_muparser) GTEST_SKIP() << "built without muparser";
  FormulaMaker maker{std::mt19937_64(20261207)};
  std::vector<std::unique_ptr<Expression>> keep;
  int formulas = 0, values = 0, finite = 0, refused = 0;
  while (formulas < 1000) {
    const std::string text = maker.make(1 + maker.pick(4));
    Expression* e = nullptr;
    if (!usable(text, &e, keep)) {
      ++refused;
      ASSERT_LT(refused, 1000) << "most random formulas are refused: the maker is wrong";
      continue;
    }
    ++formulas;
    const FormulaProgram program = e->program();
    for (const auto& in : points(maker.random)) {
      const double expected = e->at(in.data()), got = cfd::evaluate(program, in.data());
      ASSERT_TRUE(same_bits(expected, got))
          << text << " at x = " << in[0] << ": muparser " << expected << ", program " << got;
      ++values;
      finite += std::isfinite(expected);
    }
  }
  // The comparison is worth something only if most values are numbers.
  EXPECT_GT(finite, values / 2);
}

TEST(FormulaProgram, VariablesComeInTheirOrder) {
  if (!have_muparser) GTEST_SKIP() << "built without muparser";
  const Expression e("-rho*vx^2 + p/t + x", {}, variables);
  const double in[inputs] = {0.25, 0, 0, 2, 1.5, 3, -2};  // x y z t rho p vx
  EXPECT_EQ(cfd::evaluate(e.program(), in), -1.5 * 4 + 3.0 / 2 + 0.25);
  EXPECT_TRUE(e.uses(0) && e.uses(3) && e.uses(4) && e.uses(5) && e.uses(6));
  EXPECT_FALSE(e.uses(1) || e.uses(2));
  EXPECT_TRUE(e.uses_time());
  // The ternary's jumps: each branch alone.
  const Expression pick("x < 0 ? (y < 0 ? 1 : 2) : (y < 0 ? 3 : 4)", {});
  const FormulaProgram branches = pick.program();
  const double q[4][4] = {{-1, -1, 0, 0}, {-1, 1, 0, 0}, {1, -1, 0, 0}, {1, 1, 0, 0}};
  for (int k = 0; k < 4; ++k) EXPECT_EQ(cfd::evaluate(branches, q[k]), k + 1.0);
}

// The depth is the program's own: a piecewise curve of seven pieces needs
// three values at most (muparser's count, which never takes back a branch
// of ?:, says 17).
TEST(FormulaProgram, APiecewiseCurveIsShallow) {
  if (!have_muparser) GTEST_SKIP() << "built without muparser";
  std::string curve = "0";
  for (int k = 1; k <= 7; ++k) curve += " + (p < " + std::to_string(k) + " ? " + std::to_string(10 * k) + " : 0)";
  const Expression e(curve, {}, variables);
  const FormulaProgram program = e.program();
  const double in[inputs] = {0, 0, 0, 0, 1, 3.5, 0};  // p = 3.5: the pieces 4 to 7
  EXPECT_EQ(cfd::evaluate(program, in), 40.0 + 50 + 60 + 70);
}

TEST(FormulaProgram, ATooLongFormulaIsRefusedSayingWhy) {
  if (!have_muparser) GTEST_SKIP() << "built without muparser";
  std::string text = "x";
  for (int k = 0; k < 40; ++k) text += " + x";
  try {
    (void)Expression(text, {}).program();
    FAIL() << "81 operations were taken";
  } catch (const ExpressionError& e) {
    EXPECT_NE(std::string(e.what()).find("more than 64 operations"), std::string::npos) << e.what();
  }
  std::string deep = "x";
  for (int k = 0; k < 20; ++k) deep = "(x + " + deep + ")";
  try {
    (void)Expression(deep, {}).program();
    FAIL() << "a stack of 21 was taken";
  } catch (const ExpressionError& e) {
    EXPECT_NE(std::string(e.what()).find("deeper than 16"), std::string::npos) << e.what();
  }
}

// Row f of `out`: `program` at every point of `in` (a row of inputs each),
// in a kernel. A free function: CUDA refuses a device lambda inside a
// test's body, a private member of the test's class.
void evaluate_in_a_kernel(const FormulaProgram& program, const Kokkos::View<double**>& in,
                          const Kokkos::View<double**>& out, const int f) {
  Kokkos::parallel_for(
      "formula_program_test", int(in.extent(0)), KOKKOS_LAMBDA(const int n) {
        double v[inputs];
        for (int k = 0; k < inputs; ++k) v[k] = in(n, k);
        out(f, n) = cfd::evaluate(program, v);
      });
}

// The programs of arithmetic formulas evaluated in a kernel (the CUDA build:
// on the GPU) against the host, bit for bit.
TEST(FormulaProgram, AKernelGivesTheHostsBitsForArithmetic) {
  if (!have_muparser) GTEST_SKIP() << "built without muparser";
  FormulaMaker maker{std::mt19937_64(7)};
  maker.arithmetic = true;
  std::vector<std::unique_ptr<Expression>> keep;
  constexpr int count = 200;
  std::vector<FormulaProgram> programs;
  std::vector<std::string> texts;
  while (int(programs.size()) < count) {
    const std::string text = maker.make(1 + maker.pick(4));
    Expression* e = nullptr;
    if (usable(text, &e, keep)) programs.push_back(e->program()), texts.push_back(text);
  }
  const auto pts = points(maker.random);
  Kokkos::View<double**> in("in", pts.size(), inputs), out("out", count, pts.size());
  auto in_host = Kokkos::create_mirror_view(in);
  for (size_t n = 0; n < pts.size(); ++n)
    for (int v = 0; v < inputs; ++v) in_host(n, v) = pts[n][v];
  Kokkos::deep_copy(in, in_host);
  for (int f = 0; f < count; ++f) evaluate_in_a_kernel(programs[f], in, out, f);
  auto out_host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  for (int f = 0; f < count; ++f)
    for (size_t n = 0; n < pts.size(); ++n) {
      const double host = cfd::evaluate(programs[f], pts[n].data());
      ASSERT_TRUE(same_bits(host, out_host(f, n))) << texts[f] << ": host " << host << ", kernel " << out_host(f, n);
    }
}
