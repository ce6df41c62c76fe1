#!/usr/bin/env bash
# usage: outside_project.sh CFDRUN_BUILD_DIR SOURCE_DIR CXX_COMPILER VERSION
# The installed CMake package (#29): installs the build into a prefix under
# the working folder (cmake --install), checks that nothing installed points
# back into the build or source tree, configures and builds the outside
# project of tests/outside_project against it (find_package(cfdrun) with
# -Dcfdrun_ROOT=<prefix>, cfdrun::physics) with cfdrun's compiler, runs it
# and checks the numbers it prints: a case parsed from a string, Sod's star
# state from the exact Riemann solver (Toro's 0.30313, 0.92745) and a Kokkos sum.
set -euo pipefail
[ $# -eq 4 ] || {
  echo "usage: outside_project.sh CFDRUN_BUILD_DIR SOURCE_DIR CXX_COMPILER VERSION" >&2
  exit 2
}
build=$1 src=$2 cxx=$3 version=$4
work=$PWD/outside_project
rm -rf "$work"
mkdir -p "$work"
fail() {
  echo "outside_project: FAIL: $*" >&2
  exit 1
}

cmake --install "$build" --prefix "$work/prefix" >"$work/install.log" || {
  cat "$work/install.log"
  fail "cmake --install failed"
}
cfg=$work/prefix/lib/cmake/cfdrun
[ -f "$cfg/cfdrunConfig.cmake" ] || cfg=$(dirname "$(find "$work/prefix" -name cfdrunConfig.cmake | head -1)")
[ -f "$cfg/cfdrunConfig.cmake" ] || fail "no cfdrunConfig.cmake installed"
for lib in libcfdrun_core.a libcfdrun_physics.a; do
  [ -n "$(find "$work/prefix" -name "$lib")" ] || fail "$lib not installed"
done
for h in core/config.hpp core/version.hpp physics/gas/exact_riemann.hpp physics/euler/euler_solver.hpp; do
  [ -f "$work/prefix/include/cfdrun/$h" ] || fail "header $h not installed"
done
# The export must not name the build tree or the sources (BUILD_INTERFACE only).
if grep -n -F -e "$(cd "$build" && pwd)" -e "$(cd "$src" && pwd)/" "$cfg"/*.cmake; then
  fail "the installed package refers to the build or source tree (above)"
fi

cmake -S "$src/tests/outside_project" -B "$work/build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER="$cxx" \
  -Dcfdrun_ROOT="$work/prefix" >"$work/configure.log" 2>&1 || {
  cat "$work/configure.log"
  fail "configuring the outside project failed"
}
cmake --build "$work/build" >"$work/build.log" 2>&1 || {
  cat "$work/build.log"
  fail "building the outside project failed"
}
out=$("$work/build/outside")
echo "$out"
expected="cfdrun $version: diffusion 31 x 27, 32 steps; sod p* = 0.30313, u* = 0.92745; sum 4950"
[ "$out" = "$expected" ] || fail "expected: $expected"
echo "outside_project: OK"
