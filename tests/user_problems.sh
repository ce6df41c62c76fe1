#!/usr/bin/env bash
# usage: user_problems.sh BIN_DIR CONFIG_DIR CASE
# Problems without recompiling (#30):
#   sod_x_as_formulas   problem: expression with sod_x's state as formulas gives
#                       sod_x's final fields bit for bit
#   kh_as_formulas      the same for McNally's Kelvin-Helmholtz (exp, sin, ?:)
#   constants_change    a problem's constants as keys: blast.radius 0.2 holds more
#                       mass than 0.1 by the area of the ring times the density jump
#   not_physical        a formula that gives a non-positive density or NaN: exit 2
#                       naming the cell, its position and value (1 and 3 ranks)
set -uo pipefail
bin=$1 config=$2 case=$3
cfdrun=$bin/cfdrun
cmp=$bin/cfdcompare
source "$(dirname "${BASH_SOURCE[0]}")/test_lib.sh"
fresh_work user_problems_$case
kh="$config/kh.yaml"
small=(--set grid.nx=32 --set grid.ny=32 --set time.end_time=0.05 -q --kokkos-threads=1)
same_fields() { # a b
  local a b
  a=$(ls "$1"/euler2d_*.h5 | tail -n 1)
  b=$(ls "$2"/euler2d_*.h5 | tail -n 1)
  [ "$(basename "$a")" = "$(basename "$b")" ] || fail "different last snapshots: $a $b"
  for f in rho vx vy p; do
    "$cmp" "$a" "$b" --field $f --atol 0 --rtol 0 -q || fail "field $f differs between $a and $b"
  done
}
case $case in
sod_x_as_formulas)
  sides=(--set boundary.x_lo=outflow --set boundary.x_hi=outflow)
  "$cfdrun" "$kh" "${small[@]}" "${sides[@]}" --output a --set euler2d.problem=sod_x || fail "sod_x"
  "$cfdrun" "$kh" "${small[@]}" "${sides[@]}" --output b --set euler2d.problem=expression \
    --set "expression.rho=x < 0.5 ? 1 : 0.125" --set "expression.p=x < 0.5 ? 1 : 0.1" || fail "formulas"
  same_fields a b
  echo "sod_x as formulas: the same bits"
  ;;
kh_as_formulas)
  cat > kh_formulas.yaml <<'YAML'
solver: euler2d
euler2d: {problem: expression, riemann: hllc}
constants: {r1: 1, r2: 2, rm: -0.5, u1: 0.5, u2: -0.5, um: 0.5, L: 0.025}
expression:
  rho: "y < 0.25 ? r1 - rm*exp((y - 0.25)/L) : (y < 0.5 ? r2 + rm*exp((0.25 - y)/L) : (y < 0.75 ? r2 + rm*exp((y - 0.75)/L) : r1 - rm*exp((0.75 - y)/L)))"
  vx: "y < 0.25 ? u1 - um*exp((y - 0.25)/L) : (y < 0.5 ? u2 + um*exp((0.25 - y)/L) : (y < 0.75 ? u2 + um*exp((y - 0.75)/L) : u1 - um*exp((0.75 - y)/L)))"
  vy: "0.01*sin(4*pi*x)"
  p: "2.5"
YAML
  "$cfdrun" "$kh" "${small[@]}" --output a --set euler2d.problem=kh_mcnally || fail "kh_mcnally"
  "$cfdrun" kh_formulas.yaml "${small[@]}" --output b || fail "formulas"
  same_fields a b
  echo "McNally's KH as formulas: the same bits"
  ;;
constants_change)
  mass() { "${PYTHON:-python3}" -c "
import h5py, sys
f = h5py.File(sys.argv[1], 'r'); print(repr(float(f['fields/rho'][:].sum() / f['fields/rho'].size)))" "$1"; }
  out=(--set euler2d.problem=blast --set grid.nx=128 --set grid.ny=128 --set time.end_time=0.01 -q)
  "$cfdrun" "$kh" "${out[@]}" --output r1 || fail "radius 0.1"
  "$cfdrun" "$kh" "${out[@]}" --output r2 --set blast.radius=0.2 || fail "radius 0.2"
  m1=$(mass r1/euler2d_00000000.h5)
  m2=$(mass r2/euler2d_00000000.h5)
  # Periodic box of area 1: the mean density grows by (1 - 0.125) times the
  # ring's area pi (0.2^2 - 0.1^2), to the cells' resolution of the circle.
  "${PYTHON:-python3}" -c "
import math, sys
m1, m2 = float(sys.argv[1]), float(sys.argv[2])
want = 0.875 * math.pi * (0.2**2 - 0.1**2)
print('mass difference %.6f, disc area times jump %.6f' % (m2 - m1, want))
sys.exit(0 if abs((m2 - m1) - want) < 0.01 * want else 1)" "$m1" "$m2" || fail "blast.radius did not act"
  out=$("$cfdrun" "$kh" --validate --set blast.radius=0.2 2>&1)
  [ $? -eq 2 ] || fail "blast.radius with kh_mcnally was accepted"
  echo "$out" | grep -q "has no effect with euler2d.problem: kh_mcnally" || fail "$out"
  ;;
not_physical)
  for ranks in 1 3; do
    launch=()
    if [ $ranks -gt 1 ]; then
      [ -n "${MPIEXEC:-}" ] || continue
      export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
      launch=("$MPIEXEC" -n $ranks)
    fi
    out=$(timeout 120 "${launch[@]}" "$cfdrun" "$kh" -q --output np$ranks --set euler2d.problem=expression \
      --set grid.nx=16 --set grid.ny=16 --set "expression.rho=y > 0.8 ? -1 : 1" --kokkos-threads=1 2>&1)
    status=$?
    [ $status -eq 2 ] || fail "$ranks ranks: status $status: $out"
    echo "$out" | grep -q "cell (i, j) = (1, 14) at (x, y) = (0.03125, 0.84375) has density -1.0 (from the formulas" ||
      fail "$ranks ranks: $out"
    out=$(timeout 120 "${launch[@]}" "$cfdrun" "$kh" -q --output nan$ranks --set euler2d.problem=expression \
      --set grid.nx=16 --set grid.ny=16 --set "expression.p=sqrt(0.5 - x)" --kokkos-threads=1 2>&1)
    [ $? -eq 2 ] || fail "$ranks ranks: NaN accepted: $out"
    echo "$out" | grep -q "cell (i, j) = (9, 1) at (x, y) = (0.53125, 0.03125) has pressure -nan\|has pressure nan" ||
      fail "$ranks ranks: $out"
    echo "$ranks rank(s): $(echo "$out" | head -n 1)"
  done
  ;;
*)
  echo "unknown case $case"
  exit 2
  ;;
esac
