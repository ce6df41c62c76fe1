// Formulas given as keys of a case (expression.rho: "1 + 0.5*tanh(...)")
// with the user's constants (constants: {y0: 0.5}): parsed when the case is
// read, so that an error names the key's place in the case file and the
// column inside the formula. The solvers' own formula keys (euler's
// problem: expression, sod's and diffusion's initial: expression) are
// read through these.
#pragma once

#include "core/config.hpp"
#include "core/expression.hpp"

#include <map>
#include <string>
#include <vector>

namespace cfd {

// The KeySpec of the section constants.*, the user's named constants.
KeySpec constants_key(const std::string& used_by);

// The case's constants.*, each name checked (a coordinate, pi or a
// function's name is refused with its place).
std::map<std::string, double> case_constants(const Config& c);

// The formula of key `path`, parsed with `constants`; a bad one is refused
// (Config::reject) with the column and a caret under it.
// `variables` are read besides x, y, z, t (a source term's rho, vx, ...).
Expression case_formula(const Config& c, const std::string& path, const std::map<std::string, double>& constants,
                        const std::vector<std::string>& variables = {});

}  // namespace cfd
