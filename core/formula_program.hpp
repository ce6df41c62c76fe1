// A user's formula as a program a kernel runs per cell: the operations of
// muparser's bytecode (core/expression.cpp translates them, one operation
// per bytecode token, in muparser's order), held by value in a plain struct
// so that a kernel captures it like any number, and evaluated by a small
// stack machine with no function pointers, no virtual calls and no heap.
//
// Why muparser's own bytecode and not a second parser: the formula is read
// once, by the parser whose error columns users already get, and the
// program does the operations muparser does in the order it does them (the
// optimizer is off, so nothing is folded or reordered). On the host, + - * /,
// comparisons, the logical operators, ?:, abs, sign, rint, min, max, sum and
// avg give muparser's bits exactly; so do sqrt, exp, log and the trigonometric
// functions, which call the same C library. On a GPU those library functions
// are CUDA's (correctly rounded for sqrt and /, within 1-2 ulp of glibc for
// the others): a formula made of the first group gives the CPU's bits on the
// GPU, one with a transcendental function may differ in the last bits.
#pragma once

#include "core/kokkos_compat.hpp"

#include <cstdint>

namespace cfd {

enum class FormulaOp : std::int32_t {
  constant,  // push value
  variable,  // push input[arg]
  add,       // the binary operators pop two, push one
  subtract,
  multiply,
  divide,
  power,
  less,
  greater,
  less_equal,
  greater_equal,
  equal,
  not_equal,
  logical_and,
  logical_or,
  jump_if_zero,  // pop; if it was 0, skip arg operations (muparser's "?")
  jump,          // skip arg operations (muparser's ":")
  end_if,        // nothing (keeps the jumps' distances those of muparser)
  negate,        // the unary functions replace the top
  unary_plus,
  sin,
  cos,
  tan,
  asin,
  acos,
  atan,
  sinh,
  cosh,
  tanh,
  asinh,
  acosh,
  atanh,
  log2,
  log10,
  log,
  exp,
  sqrt,
  sign,
  rint,
  abs,
  atan2,  // binary, a function
  sum,    // arg values replaced by one
  avg,
  min,
  max,
};

struct FormulaProgram {
  // A formula of more operations (or deeper nesting) is refused when the
  // case is read, naming the limit: a program is copied into every kernel
  // that evaluates it, so its size is fixed.
  static constexpr int max_operations = 64;
  static constexpr int max_stack = 16;
  struct Operation {
    FormulaOp op;
    std::int32_t arg;
    double value;
  };
  Operation operation[max_operations];
  int size = 0;
};

namespace formula_detail {
// muparser's MathImpl<double>, function by function (muParserTemplateMagic.h,
// 2.3.3): asinh, acosh and atanh are its logarithms, not the C library's.
KOKKOS_INLINE_FUNCTION double muparser_min(double a, double b) { return b < a ? b : a; }  // std::min
KOKKOS_INLINE_FUNCTION double muparser_max(double a, double b) { return a < b ? b : a; }  // std::max
}  // namespace formula_detail

// The formula's value for `input` (x, y, z, t, then the variables the
// program was made with, in their order).
KOKKOS_INLINE_FUNCTION double evaluate(const FormulaProgram& program, const double* input) {
  using namespace formula_detail;
  double s[FormulaProgram::max_stack];
  int top = -1;
  for (int n = 0; n < program.size; ++n) {
    const FormulaProgram::Operation& o = program.operation[n];
    switch (o.op) {
      case FormulaOp::constant: s[++top] = o.value; break;
      case FormulaOp::variable: s[++top] = input[o.arg]; break;
      case FormulaOp::add: --top, s[top] = s[top] + s[top + 1]; break;
      case FormulaOp::subtract: --top, s[top] = s[top] - s[top + 1]; break;
      case FormulaOp::multiply: --top, s[top] = mul_unfused(s[top], s[top + 1]); break;
      case FormulaOp::divide: --top, s[top] = s[top] / s[top + 1]; break;
      case FormulaOp::power: --top, s[top] = kmath::pow(s[top], s[top + 1]); break;
      case FormulaOp::less: --top, s[top] = s[top] < s[top + 1]; break;
      case FormulaOp::greater: --top, s[top] = s[top] > s[top + 1]; break;
      case FormulaOp::less_equal: --top, s[top] = s[top] <= s[top + 1]; break;
      case FormulaOp::greater_equal: --top, s[top] = s[top] >= s[top + 1]; break;
      case FormulaOp::equal: --top, s[top] = s[top] == s[top + 1]; break;
      case FormulaOp::not_equal: --top, s[top] = s[top] != s[top + 1]; break;
      case FormulaOp::logical_and: --top, s[top] = s[top] != 0 && s[top + 1] != 0; break;
      case FormulaOp::logical_or: --top, s[top] = s[top] != 0 || s[top + 1] != 0; break;
      case FormulaOp::jump_if_zero:
        if (s[top--] == 0) n += o.arg;
        break;
      case FormulaOp::jump: n += o.arg; break;
      case FormulaOp::end_if: break;
      case FormulaOp::negate: s[top] = -s[top]; break;
      case FormulaOp::unary_plus: break;
      case FormulaOp::sin: s[top] = kmath::sin(s[top]); break;
      case FormulaOp::cos: s[top] = kmath::cos(s[top]); break;
      case FormulaOp::tan: s[top] = kmath::tan(s[top]); break;
      case FormulaOp::asin: s[top] = kmath::asin(s[top]); break;
      case FormulaOp::acos: s[top] = kmath::acos(s[top]); break;
      case FormulaOp::atan: s[top] = kmath::atan(s[top]); break;
      case FormulaOp::sinh: s[top] = kmath::sinh(s[top]); break;
      case FormulaOp::cosh: s[top] = kmath::cosh(s[top]); break;
      case FormulaOp::tanh: s[top] = kmath::tanh(s[top]); break;
      case FormulaOp::asinh: {
        const double v = s[top];
        s[top] = kmath::log(v + kmath::sqrt(mul_unfused(v, v) + 1));
        break;
      }
      case FormulaOp::acosh: {
        const double v = s[top];
        s[top] = kmath::log(v + kmath::sqrt(mul_unfused(v, v) - 1));
        break;
      }
      case FormulaOp::atanh: {
        const double v = s[top];
        s[top] = mul_unfused(0.5, kmath::log((1 + v) / (1 - v)));
        break;
      }
      // muparser divides by log(2) computed at run time; this is its value.
      case FormulaOp::log2: s[top] = kmath::log(s[top]) / 0.69314718055994530942; break;
      case FormulaOp::log10: s[top] = kmath::log10(s[top]); break;
      case FormulaOp::log: s[top] = kmath::log(s[top]); break;
      case FormulaOp::exp: s[top] = kmath::exp(s[top]); break;
      case FormulaOp::sqrt: s[top] = kmath::sqrt(s[top]); break;
      case FormulaOp::sign: s[top] = s[top] < 0 ? -1.0 : s[top] > 0 ? 1.0 : 0.0; break;
      case FormulaOp::rint: s[top] = kmath::floor(s[top] + 0.5); break;
      case FormulaOp::abs: s[top] = s[top] >= 0 ? s[top] : -s[top]; break;
      case FormulaOp::atan2: --top, s[top] = kmath::atan2(s[top], s[top + 1]); break;
      // The variadic functions as muparser's: the sum from 0, in order; the
      // average that sum divided by the count; min and max as std::min and
      // std::max from the first value (which decide NaN's fate).
      case FormulaOp::sum:
      case FormulaOp::avg: {
        const int first = top - o.arg + 1;
        double total = 0;
        for (int k = first; k <= top; ++k) total = total + s[k];
        s[first] = o.op == FormulaOp::avg ? total / double(o.arg) : total;
        top = first;
        break;
      }
      case FormulaOp::min:
      case FormulaOp::max: {
        const int first = top - o.arg + 1;
        double best = s[first];
        for (int k = first; k <= top; ++k)
          best = o.op == FormulaOp::min ? muparser_min(best, s[k]) : muparser_max(best, s[k]);
        s[first] = best;
        top = first;
        break;
      }
    }
  }
  return s[0];
}

}  // namespace cfd
