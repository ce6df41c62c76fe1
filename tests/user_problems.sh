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
#   rayleigh_taylor     config/rayleigh_taylor.yaml (gravity): mass, mirror
#                       symmetry, the bubble and spikes moving, the early
#                       growth rate within 10% of linear theory; 1 and 3 ranks
#   initial_file        problem: file from an h5py file gives sod_x bit for bit
#                       (1 and 3 ranks), a snapshot works, bad files exit 2;
#                       a 3D file (nz, ny, nx) gives sod_z bit for bit
#   hydrostatic         an isothermal atmosphere under gravity between inflow
#                       sides at its own state: at rest to truncation error,
#                       converging at second order
#   initial_file_sod_diffusion  sod.problem: file (hllc cells, keep nodes) and
#                       diffusion.problem: file give the built-in states' bits;
#                       a snapshot as the file; bad files exit 2
#   kh_mixing           kh.yaml with a passive scalar marking the middle band:
#                       its total conserved, its mixed fraction growing as
#                       the billows roll up; 1 and 3 ranks the same bits
#   double_mach         config/double_mach.yaml (inflow sides from formulas, the
#                       top one moving with t): the shock on the top row where
#                       it is exactly, the Mach stem where Woodward & Colella
#                       have it; the fused stage and the split kernels the same bits
#   inflow_sides        sod_x with inflow ends at the tube's end states gives
#                       outflow's bits (fused and split); a side's `where`
#                       and `elsewhere` act; a state that is not physical and
#                       keys without an inflow side exit 2 with the key
set -uo pipefail
bin=$1 config=$2 case=$3
cfdrun=$bin/cfdrun
cmp=$bin/cfdcompare
source "$(dirname "${BASH_SOURCE[0]}")/test_lib.sh"
fresh_work user_problems_$case
kh="$config/kh.yaml"
small=(--set grid.nx=32 --set grid.ny=32 --set time.end_time=0.05 -q --kokkos-threads=1)
same_fields() { # a b [fields]
  local a b
  a=$(ls "$1"/euler_*.h5 | tail -n 1)
  b=$(ls "$2"/euler_*.h5 | tail -n 1)
  [ "$(basename "$a")" = "$(basename "$b")" ] || fail "different last snapshots: $a $b"
  for f in ${3:-rho vx vy p}; do
    "$cmp" "$a" "$b" --field $f --atol 0 --rtol 0 -q || fail "field $f differs between $a and $b"
  done
}
case $case in
sod_x_as_formulas)
  sides=(--set boundary.x_lo=outflow --set boundary.x_hi=outflow)
  "$cfdrun" "$kh" "${small[@]}" "${sides[@]}" --output a --set euler.problem=sod_x || fail "sod_x"
  "$cfdrun" "$kh" "${small[@]}" "${sides[@]}" --output b --set euler.problem=expression \
    --set "expression.rho=x < 0.5 ? 1 : 0.125" --set "expression.p=x < 0.5 ? 1 : 0.1" || fail "formulas"
  same_fields a b
  echo "sod_x as formulas: the same bits"
  ;;
kh_as_formulas)
  cat > kh_formulas.yaml <<'YAML'
solver: euler
euler: {problem: expression, riemann: hllc}
constants: {r1: 1, r2: 2, rm: -0.5, u1: 0.5, u2: -0.5, um: 0.5, L: 0.025}
expression:
  rho: "y < 0.25 ? r1 - rm*exp((y - 0.25)/L) : (y < 0.5 ? r2 + rm*exp((0.25 - y)/L) : (y < 0.75 ? r2 + rm*exp((y - 0.75)/L) : r1 - rm*exp((0.75 - y)/L)))"
  vx: "y < 0.25 ? u1 - um*exp((y - 0.25)/L) : (y < 0.5 ? u2 + um*exp((0.25 - y)/L) : (y < 0.75 ? u2 + um*exp((y - 0.75)/L) : u1 - um*exp((0.75 - y)/L)))"
  vy: "0.01*sin(4*pi*x)"
  p: "2.5"
YAML
  "$cfdrun" "$kh" "${small[@]}" --output a --set euler.problem=kh_mcnally || fail "kh_mcnally"
  "$cfdrun" kh_formulas.yaml "${small[@]}" --output b || fail "formulas"
  same_fields a b
  echo "McNally's KH as formulas: the same bits"
  ;;
constants_change)
  mass() { "${PYTHON:-python3}" -c "
import h5py, sys
f = h5py.File(sys.argv[1], 'r'); print(repr(float(f['fields/rho'][:].sum() / f['fields/rho'].size)))" "$1"; }
  out=(--set euler.problem=blast --set grid.nx=128 --set grid.ny=128 --set time.end_time=0.01 -q)
  "$cfdrun" "$kh" "${out[@]}" --output r1 || fail "radius 0.1"
  "$cfdrun" "$kh" "${out[@]}" --output r2 --set blast.radius=0.2 || fail "radius 0.2"
  m1=$(mass r1/euler_00000000.h5)
  m2=$(mass r2/euler_00000000.h5)
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
  echo "$out" | grep -q "has no effect with euler.problem: kh_mcnally" || fail "$out"
  ;;
not_physical)
  for ranks in 1 3; do
    launch=()
    if [ $ranks -gt 1 ]; then
      [ -n "${MPIEXEC:-}" ] || continue
      export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
      launch=("$MPIEXEC" -n $ranks)
    fi
    out=$(timeout 120 "${launch[@]}" "$cfdrun" "$kh" -q --output np$ranks --set euler.problem=expression \
      --set grid.nx=16 --set grid.ny=16 --set "expression.rho=y > 0.8 ? -1 : 1" --kokkos-threads=1 2>&1)
    status=$?
    [ $status -eq 2 ] || fail "$ranks ranks: status $status: $out"
    echo "$out" | grep -q "cell (i, j) = (1, 14) at (x, y) = (0.03125, 0.84375) has density -1.0 (from the formulas" ||
      fail "$ranks ranks: $out"
    out=$(timeout 120 "${launch[@]}" "$cfdrun" "$kh" -q --output nan$ranks --set euler.problem=expression \
      --set grid.nx=16 --set grid.ny=16 --set "expression.p=sqrt(0.5 - x)" --kokkos-threads=1 2>&1)
    [ $? -eq 2 ] || fail "$ranks ranks: NaN accepted: $out"
    echo "$out" | grep -q "cell (i, j) = (9, 1) at (x, y) = (0.53125, 0.03125) has pressure -nan\|has pressure nan" ||
      fail "$ranks ranks: $out"
    echo "$ranks rank(s): $(echo "$out" | head -n 1)"
  done
  ;;
rayleigh_taylor)
  # config/rayleigh_taylor.yaml (gravity, a hydrostatic state from formulas)
  # at 32 x 96 to t = 6: mass conserved to round-off, the mode mirror-
  # symmetric about x = 0, the light gas risen in the middle and the heavy
  # fallen at the sides by more than two cells; 3 ranks the same bits.
  rt=(--set grid.nx=32 --set grid.ny=96 --set time.end_time=6 --set output.time_interval=3 -q --kokkos-threads=1)
  "$cfdrun" "$config/rayleigh_taylor.yaml" "${rt[@]}" --output rt1 || fail "rayleigh_taylor"
  "${PYTHON:-python3}" - rt1 <<'PY' || fail "the Rayleigh-Taylor run"
import glob, sys
import h5py, numpy as np
out = sys.argv[1]
rows = np.loadtxt(out + "/euler.hst", delimiter=",", comments="#", skiprows=2)
mass = rows[:, 3]
drift = abs(mass[-1] - mass[0]) / mass[0]
last = sorted(glob.glob(out + "/euler_*.h5"))[-1]
with h5py.File(last, "r") as f:
    rho, y, t = f["fields/rho"][:], f["grid/y"][:], f.attrs["time"]
nx = rho.shape[1]
mirror = np.abs(rho - rho[:, ::-1]).max()
middle = 0.5 * (rho[:, nx // 2 - 1] + rho[:, nx // 2])   # the columns beside x = 0
sides = 0.5 * (rho[:, 0] + rho[:, -1])                  # beside x = -0.25 = 0.25
bubble, spike = y[np.where(middle < 1.5)[0].max()], y[np.where(sides > 1.5)[0].min()]
print("t = %g: mass drift %.1e, mirror asymmetry %.1e, bubble top y = %.3f, spike bottom y = %.3f"
      % (t, drift, mirror, bubble, spike))
ok = t == 6 and drift < 1e-13 and mirror < 1e-12 and bubble > 0.04 and spike < -0.04
sys.exit(0 if ok else 1)
PY
  # The early growth against linear theory: the interface's cos(k x) mode,
  # from the mass moved across y = 0 in each column, seeded by a velocity
  # kick, grows as eta(t) = (v0/sigma) sinh(sigma t) with sigma = sqrt(A k g)
  # (incompressible, sharp interface, deep layers; Chandrasekhar 1961):
  # A = 1/3, k = 4 pi, g = 0.1, sigma = 0.6472. Fitted over t in [0.5, 3.5]
  # (k eta < 0.3, linear) at 64 x 192.
  "$cfdrun" "$config/rayleigh_taylor.yaml" -q --kokkos-threads=2 --set time.end_time=3.5 \
    --set output.time_interval=0.25 --output rt_growth || fail "rayleigh_taylor to t = 3.5"
  "${PYTHON:-python3}" - rt_growth <<'PY' || fail "the growth rate"
import glob, sys
import h5py, numpy as np
k, A, g = 2 * np.pi / 0.5, 1 / 3, 0.1
sigma = np.sqrt(A * k * g)
ts, eta = [], []
for name in sorted(glob.glob(sys.argv[1] + "/euler_*.h5")):
    with h5py.File(name, "r") as f:
        rho, x, y, t = f["fields/rho"][:], f["grid/x"][:], f["grid/y"][:], f.attrs["time"]
    ref = np.where(y < 0, 1.0, 2.0)[:, None]  # light below, heavy above
    h = -((rho - ref) * (y[1] - y[0])).sum(axis=0) / (2.0 - 1.0)
    ts.append(t), eta.append(2 * abs((h * np.cos(k * x)).mean()))
ts, eta = np.array(ts), np.array(eta)
m = (ts >= 0.5) & (ts <= 3.5)
def misfit(s):  # log eta - log sinh(s t), less its mean (the amplitude)
    r = np.log(eta[m]) - np.log(np.sinh(s * ts[m]))
    return ((r - r.mean()) ** 2).sum()
fit = min(np.linspace(0.3, 1.0, 701), key=misfit)
print("growth rate %.4f, linear theory sqrt(A k g) = %.4f: ratio %.3f (k eta at t = 3.5: %.2f)"
      % (fit, sigma, fit / sigma, k * eta[-1]))
sys.exit(0 if abs(fit / sigma - 1) < 0.1 else 1)
PY
  if [ -n "${MPIEXEC:-}" ]; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
    timeout 300 "$MPIEXEC" -n 3 "$cfdrun" "$config/rayleigh_taylor.yaml" "${rt[@]}" --output rt3 || fail "3 ranks"
    same_fields rt1 rt3
    echo "3 ranks: the same bits"
  fi
  ;;
initial_file)
  # The state of sod_x written by h5py at the cells of a 32 x 24 grid, read
  # back by problem: file, gives sod_x's run bit for bit, on 1 and 3 ranks.
  "${PYTHON:-python3}" - <<'PY' || fail "h5py could not write the state"
import h5py, numpy as np
nx, ny = 32, 24
x = (np.arange(nx) + 0.5) / nx                  # the cell centres of [0, 1]
rho = np.where(x < 0.5, 1.0, 0.125)[None, :].repeat(ny, axis=0)
p = np.where(x < 0.5, 1.0, 0.1)[None, :].repeat(ny, axis=0)
with h5py.File("state.h5", "w") as f:           # (ny, nx): a[j, i], x fastest
    f["rho"] = rho
    f["p"] = p
    f["vx"] = np.zeros((ny, nx), np.float32)    # any floating type: read as double
    f["small"] = rho[:8, :8]
PY
  cat > from_file.yaml <<'YAML'
solver: euler
grid: {nx: 32, ny: 24}
time: {end_time: 0.05}
euler: {problem: file, riemann: hllc}  # as config/kh.yaml
file: {path: state.h5}
boundary: {x_lo: outflow, x_hi: outflow}
YAML
  sides=(--set boundary.x_lo=outflow --set boundary.x_hi=outflow --set grid.nx=32 --set grid.ny=24)
  "$cfdrun" "$kh" -q --kokkos-threads=1 --set time.end_time=0.05 "${sides[@]}" --output a \
    --set euler.problem=sod_x || fail "sod_x"
  "$cfdrun" from_file.yaml -q --kokkos-threads=1 --output b || fail "from the file"
  same_fields a b
  if [ -n "${MPIEXEC:-}" ]; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
    timeout 120 "$MPIEXEC" -n 3 "$cfdrun" from_file.yaml -q --kokkos-threads=1 --output c || fail "3 ranks"
    same_fields a c
  fi
  echo "sod_x from an h5py file: the same bits (1 and 3 ranks)"
  # A cfdrun snapshot of the same grid as the file: the run starts from its
  # primitives (through the conserved state and back: within 2 ulps).
  last=$(ls a/euler_*.h5 | tail -n 1)
  "$cfdrun" from_file.yaml -q --kokkos-threads=1 --output d --set "file.path=$PWD/$last" || fail "from a snapshot"
  for f in rho vx p; do
    "$cmp" "$last" d/euler_00000000.h5 --field $f --atol 1e-15 --rtol 5e-16 -q || fail "snapshot field $f"
  done
  echo "from a snapshot: its fields to 5e-16"
  # What is wrong with the file is named: shape, missing dataset, no file.
  expect_refusal() { # pattern args...
    local pattern=$1 out status
    shift
    out=$("$cfdrun" from_file.yaml -q --kokkos-threads=1 --output bad "$@" 2>&1)
    status=$?
    [ $status -eq 2 ] || fail "status $status for $*: $out"
    echo "$out" | grep -q -- "$pattern" || fail "no '$pattern' in: $out"
    [ ! -e bad ] || [ -z "$(ls bad)" ] || fail "a refused case wrote into its output folder: $(ls bad)"
  }
  "${PYTHON:-python3}" -c "
import h5py, numpy as np
with h5py.File('small.h5', 'w') as f: f['rho'] = np.ones((8, 8)); f['p'] = np.ones((8, 8))
with h5py.File('no_p.h5', 'w') as f: f['rho'] = np.ones((24, 32))" || fail "h5py"
  expect_refusal "dataset rho has shape (8, 8); the grid needs (ny, nx) = (24, 32)" --set file.path=small.h5
  expect_refusal "no_p.h5: no dataset p" --set file.path=no_p.h5
  expect_refusal "nope.h5: no such file, or not an HDF5 file" --set file.path=nope.h5
  expect_refusal "from_file.yaml: no such file, or not an HDF5 file" --set file.path=from_file.yaml
  echo "bad files refused with exit 2 and the reason"
  # 3D: Sod's tube along z written as (nz, ny, nx) arrays, vz given, gives
  # sod_z's run bit for bit on 1 and 3 ranks; a 2D-shaped file is refused.
  "${PYTHON:-python3}" - <<'PY' || fail "h5py could not write the 3D state"
import h5py, numpy as np
nx, ny, nz = 4, 5, 32
z = (np.arange(nz) + 0.5) / nz
shape = lambda a: np.broadcast_to(a[:, None, None], (nz, ny, nx))
with h5py.File("state3d.h5", "w") as f:          # (nz, ny, nx): a[k, j, i], x fastest
    f["rho"] = shape(np.where(z < 0.5, 1.0, 0.125))
    f["p"] = shape(np.where(z < 0.5, 1.0, 0.1))
    f["vz"] = np.zeros((nz, ny, nx), np.float32)
PY
  tube=(--set grid.nx=4 --set grid.ny=5 --set grid.nz=32 --set time.end_time=0.05 --set time.cfl=0.3
    --set boundary.z_lo=outflow --set boundary.z_hi=outflow --set euler.riemann=hllc -q --kokkos-threads=1)
  "$cfdrun" "$kh" "${tube[@]}" --output a3 --set euler.problem=sod_z || fail "sod_z"
  "$cfdrun" "$kh" "${tube[@]}" --output b3 --set euler.problem=file --set "file.path=$PWD/state3d.h5" ||
    fail "from the 3D file"
  same_fields a3 b3
  if [ -n "${MPIEXEC:-}" ]; then
    timeout 120 "$MPIEXEC" -n 3 "$cfdrun" "$kh" "${tube[@]}" --output c3 --set euler.problem=file \
      --set "file.path=$PWD/state3d.h5" || fail "3D, 3 ranks"
    same_fields a3 c3
  fi
  out=$("$cfdrun" "$kh" "${tube[@]}" --output bad3 --set euler.problem=file --set "file.path=$PWD/state.h5" 2>&1)
  [ $? -eq 2 ] || fail "a 2D file on a 3D grid was not refused: $out"
  echo "$out" | grep -q "the grid needs (nz, ny, nx) = (32, 5, 4)" || fail "no shape in: $out"
  echo "sod_z from a 3D h5py file: the same bits (1 and 3 ranks); a 2D file on a 3D grid refused"
  # A state that varies along x, y and z, every velocity component given
  # (dyadic values, no cell centre near a step: numpy and the formulas give
  # the same doubles), on a grid of three different sizes: the file's run is
  # problem: expression's, bit for bit, all five fields.
  "${PYTHON:-python3}" - <<'PY' || fail "h5py could not write the 3D state"
import h5py, numpy as np
nx, ny, nz = 6, 5, 8
c = lambda n: (np.arange(n) + 0.5) / n
z, y, x = np.meshgrid(c(nz), c(ny), c(nx), indexing="ij")   # (nz, ny, nx)
with h5py.File("mixed3d.h5", "w") as f:
    f["rho"] = 1 + 0.25 * (x < 0.5) + 0.5 * (y < 0.4) + 0.125 * (z < 0.7)
    f["vx"] = 0.5 * (y < 0.45)
    f["vy"] = -0.25 * (z < 0.5)
    f["vz"] = 0.25 * (x < 0.3) - 0.5 * (z > 0.5)
    f["p"] = 1 + 0.5 * (x > 0.6) + 0.25 * (z < 0.2)
PY
  box=(--set grid.nx=6 --set grid.ny=5 --set grid.nz=8 --set time.end_time=0.03 --set time.cfl=0.3 -q
    --kokkos-threads=1)
  "$cfdrun" "$kh" "${box[@]}" --output e3 --set euler.problem=expression \
    --set "expression.rho=1 + 0.25 * (x < 0.5) + 0.5 * (y < 0.4) + 0.125 * (z < 0.7)" \
    --set "expression.vx=0.5 * (y < 0.45)" --set "expression.vy=-0.25 * (z < 0.5)" \
    --set "expression.vz=0.25 * (x < 0.3) - 0.5 * (z > 0.5)" \
    --set "expression.p=1 + 0.5 * (x > 0.6) + 0.25 * (z < 0.2)" || fail "the 3D state as formulas"
  "$cfdrun" "$kh" "${box[@]}" --output f3 --set euler.problem=file --set "file.path=$PWD/mixed3d.h5" ||
    fail "the 3D state from the file"
  same_fields e3 f3 "rho vx vy vz p"
  echo "a 3D state varying along x, y and z with vz, from a file: the formulas' bits, all five fields"
  ;;
hydrostatic)
  # An isothermal atmosphere, rho = exp(-y), p = exp(-y), under gravity -1
  # (H = p/(rho g) = 1), held by inflow sides at its own state below and
  # above: the scheme is not well balanced, so it moves at truncation error,
  # which falls at second order (three grids, ratio >= 3.6 per doubling).
  cat > hydrostatic.yaml <<'YAML'
solver: euler
grid: {nx: 4, ny: 16}
time: {end_time: 1}
euler: {problem: expression, riemann: hllc}
gas: {gamma: 1.4}
gravity: {y: -1}
constants: {g: -1, H: 1}
expression: {rho: "exp(g*y/H)", p: "H*exp(g*y/H)"}
boundary: {x_lo: periodic, x_hi: periodic, y_lo: inflow, y_hi: inflow}
inflow_y_lo: {rho: "exp(g*y/H)", p: "H*exp(g*y/H)"}
inflow_y_hi: {rho: "exp(g*y/H)", p: "H*exp(g*y/H)"}
YAML
  for n in 16 32 64; do
    "$cfdrun" hydrostatic.yaml -q --kokkos-threads=1 --set grid.ny=$n --output hs$n || fail "ny = $n"
  done
  "${PYTHON:-python3}" - <<'PY' || fail "the hydrostatic atmosphere"
import glob, sys
import h5py, numpy as np
errors = []
for n in (16, 32, 64):
    with h5py.File(sorted(glob.glob("hs%d/euler_*.h5" % n))[-1], "r") as f:
        vy, rho, y, t = f["fields/vy"][:], f["fields/rho"][:], f["grid/y"][:], f.attrs["time"]
    errors.append((np.abs(vy).mean(), np.abs(vy).max(), np.abs(rho - np.exp(-y)[:, None]).mean()))
    print("ny = %d, t = %g: L1 |vy| %.3e, max |vy| %.3e, L1 rho error %.3e" % ((n, t) + errors[-1]))
ratios = [[a[q] / b[q] for q in range(3)] for a, b in zip(errors, errors[1:])]
print("ratios per doubling:", " ".join("%.2f" % r for pair in ratios for r in pair))
sys.exit(0 if min(min(r) for r in ratios) >= 3.6 and errors[0][1] < 1e-3 else 1)
PY
  ;;
initial_file_sod_diffusion)
  # sod.problem: file and diffusion.problem: file: the tube's states per
  # cell (hllc) and per node (keep), and the original's spike per point,
  # written by h5py, give the built-in states' runs bit for bit.
  "${PYTHON:-python3}" - <<'PY' || fail "h5py could not write the states"
import h5py, numpy as np
for name, x in (("hllc", (np.arange(101) + 0.5) / 101), ("keep", np.arange(101) / 100.0)):
    with h5py.File("tube_%s.h5" % name, "w") as f:
        f["rho"] = np.where(x < 0.5, 1.0, 0.125)
        f["u"] = np.zeros_like(x)
        f["p"] = np.where(x < 0.5, 1.0, 0.1)
u = np.zeros((27, 31)); u[13, 15] = 1
with h5py.File("spike.h5", "w") as f:
    f["u"] = u
with h5py.File("wrong.h5", "w") as f:
    f["u"] = np.zeros((26, 31))
PY
  last() { ls "$1"/"$2"_*.h5 | grep -v checkpoint | tail -n 1; }
  tube=(--set grid.nx=101 --set time.end_time=0.1 -q --kokkos-threads=1)
  "$cfdrun" "$config/sod.yaml" "${tube[@]}" --output tube || fail "sod tube"
  "$cfdrun" "$config/sod.yaml" "${tube[@]}" --output tube_file --set sod.problem=file \
    --set file.path="$PWD/tube_hllc.h5" || fail "sod from a file"
  keep=(--set grid.nx=101 --set time.steps=50 -q --kokkos-threads=1)
  "$cfdrun" "$config/sod_keep_seed.yaml" "${keep[@]}" --output keep || fail "sod keep"
  "$cfdrun" "$config/sod_keep_seed.yaml" "${keep[@]}" --output keep_file --set sod.problem=file \
    --set file.path="$PWD/tube_keep.h5" || fail "sod keep from a file"
  for pair in "tube tube_file" "keep keep_file"; do
    set -- $pair
    for f in rho u p; do
      "$cmp" "$(last $1 sod)" "$(last $2 sod)" --field $f --atol 0 --rtol 0 -q || fail "sod $1: field $f differs"
    done
  done
  echo "sod from files (hllc cells, keep nodes): the tube's bits"
  "$cfdrun" "$config/diffusion_seed.yaml" -q --kokkos-threads=1 --output spike || fail "diffusion"
  "$cfdrun" "$config/diffusion_seed.yaml" -q --kokkos-threads=1 --output spike_file --set diffusion.problem=file \
    --set file.path="$PWD/spike.h5" || fail "diffusion from a file"
  "$cmp" "$(last spike diffusion)" "$(last spike_file diffusion)" --field u --atol 0 --rtol 0 -q ||
    fail "diffusion: u differs"
  # A snapshot as the file: the run continues from its field.
  "$cfdrun" "$config/diffusion_seed.yaml" -q --kokkos-threads=1 --output from_snapshot --set diffusion.problem=file \
    --set file.path="$PWD/$(last spike diffusion)" || fail "diffusion from a snapshot"
  if [ -n "${MPIEXEC:-}" ]; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
    timeout 300 "$MPIEXEC" -n 3 "$cfdrun" "$config/diffusion_seed.yaml" -q --kokkos-threads=1 --output spike_file3 \
      --set diffusion.problem=file --set file.path="$PWD/spike.h5" || fail "diffusion from a file on 3 ranks"
    "$cmp" "$(last spike diffusion)" "$(last spike_file3 diffusion)" --field u --atol 0 --rtol 0 -q ||
      fail "diffusion on 3 ranks: u differs"
    timeout 300 "$MPIEXEC" -n 3 "$cfdrun" "$config/sod.yaml" "${tube[@]}" --output tube_file3 --set sod.problem=file \
      --set file.path="$PWD/tube_hllc.h5" || fail "sod from a file on 3 ranks"
    for f in rho u p; do
      "$cmp" "$(last tube sod)" "$(last tube_file3 sod)" --field $f --atol 0 --rtol 0 -q || fail "sod 3 ranks: $f"
    done
    echo "3 ranks: the same bits"
  fi
  echo "diffusion from a file: the spike's bits; a snapshot works as the file"
  out=$("$cfdrun" "$config/diffusion_seed.yaml" -q --output bad --set diffusion.problem=file \
    --set file.path="$PWD/wrong.h5" 2>&1)
  status=$?
  [ $status -eq 2 ] || fail "status $status for a file of the wrong shape: $out"
  echo "$out" | grep -q "wrong.h5: dataset u has shape (26, 31); the grid needs (ny, nx) = (27, 31)" || fail "message: $out"
  out=$("$cfdrun" "$config/sod.yaml" -q --output bad --set sod.problem=file --set file.path="$PWD/spike.h5" 2>&1)
  [ $? -eq 2 ] && echo "$out" | grep -q "spike.h5: no dataset rho" || fail "a file without rho: $out"
  [ ! -e bad ] || [ -z "$(ls bad)" ] || fail "a refused case wrote into its output folder: $(ls bad)"
  out=$("$cmp" --exact "$(last tube_file sod)" 2>&1)
  [ $? -ne 0 ] && echo "$out" | grep -q "this run starts from a file" || fail "cfdcompare --exact took a run from a file: $out"
  echo "bad files refused with exit 2 and the reason"
  ;;
kh_mixing)
  # The middle band marked by s1 = 1 (0 outside): as the billows roll up the
  # gas mixes, and the mixed fraction, the integral of rho s1 (1 - s1) over
  # that of rho s1, grows; the total of rho s1 stays put.
  mix=(--set grid.nx=64 --set grid.ny=64 --set time.end_time=1.5 --set output.time_interval=0.5 --set euler.scalars=1
    --set "scalars.s1=abs(y - 0.5) < 0.25 ? 1 : 0" --set output.history_every=10 -q --kokkos-threads=1)
  "$cfdrun" "$kh" "${mix[@]}" --output mix1 || fail "kh with a scalar"
  "${PYTHON:-python3}" - mix1 <<'PY' || fail "the mixing"
import glob, sys
import h5py, numpy as np
out = sys.argv[1]
rows = np.loadtxt(out + "/euler.hst", delimiter=",", comments="#", skiprows=2)
header = open(out + "/euler.hst").read().split("\n")[1].split(",")
total = rows[:, header.index("scalar_1")]
drift = abs(total[-1] - total[0]) / total[0]
mixed = []
for name in sorted(glob.glob(out + "/euler_*.h5")):
    with h5py.File(name, "r") as f:
        rho, s, t = f["fields/rho"][:], f["fields/s1"][:], f.attrs["time"]
    mixed.append((t, (rho * s * (1 - s)).sum() / (rho * s).sum()))
print("scalar total drift %.1e; mixed fraction " % drift + ", ".join("t = %g: %.4f" % m for m in mixed))
grows = all(b[1] > a[1] for a, b in zip(mixed, mixed[1:]))
sys.exit(0 if drift < 1e-13 and grows and mixed[-1][1] > 2 * mixed[1][1] and mixed[-1][1] > 0.02 else 1)
PY
  if [ -n "${MPIEXEC:-}" ]; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
    timeout 300 "$MPIEXEC" -n 3 "$cfdrun" "$kh" "${mix[@]}" --output mix3 || fail "3 ranks"
    same_fields mix1 mix3
    for f in s1; do
      "$cmp" "$(ls mix1/euler_*.h5 | tail -n 1)" "$(ls mix3/euler_*.h5 | tail -n 1)" --field $f --atol 0 --rtol 0 -q ||
        fail "field $f differs on 3 ranks"
    done
    echo "3 ranks: the same bits"
  fi
  # In 3D the history names the scalar's column too (its header once lacked
  # it, so that every row had a column more than the header), and in a
  # periodic box the total of rho s1 stays put.
  "$cfdrun" "$config/blast3d.yaml" --set grid.nx=12 --set grid.ny=12 --set grid.nz=12 --set time.steps=4 \
    --set euler.scalars=1 --set "scalars.s1=x < 0.5 ? 1 : 0" --set output.history_every=1 -q --kokkos-threads=1 \
    $(for s in x y z; do echo "--set boundary.${s}_lo=periodic --set boundary.${s}_hi=periodic"; done) \
    --output mix3d || fail "blast3d with a scalar"
  "${PYTHON:-python3}" - mix3d <<'PY' || fail "the 3D history's scalar column"
import sys
import numpy as np
name = sys.argv[1] + "/euler.hst"
header = open(name).read().split("\n")[1].split(",")
rows = np.loadtxt(name, delimiter=",", comments="#", skiprows=2, ndmin=2)
total = rows[:, header.index("scalar_1")]
print("3D history: %d columns named, %d in each row; scalar_1 drift %.1e" % (len(header), rows.shape[1], abs(total[-1] - total[0]) / total[0]))
sys.exit(0 if header[-2:] == ["kh_mode_amplitude", "scalar_1"] and rows.shape[1] == len(header) and len(total) == 5
         and abs(total[-1] - total[0]) < 1e-13 * total[0] else 1)
PY
  ;;
double_mach)
  dm=(--set grid.nx=240 --set grid.ny=60 -q --kokkos-threads=1)
  "$cfdrun" "$config/double_mach.yaml" "${dm[@]}" --output fused || fail "double_mach"
  "$cfdrun" "$config/double_mach.yaml" "${dm[@]}" --output split --set euler.kernels=split || fail "split"
  same_fields fused split
  echo "the fused stage and the split kernels: the same bits"
  "${PYTHON:-python3}" - fused <<'PY' || fail "the double Mach reflection"
import glob, sys
import h5py, numpy as np
last = sorted(glob.glob(sys.argv[1] + "/euler_*.h5"))[-1]
with h5py.File(last, "r") as f:
    rho, x, t = f["fields/rho"][:], f["grid/x"][:], f.attrs["time"]
dx = x[1] - x[0]
half = 0.5 * (8 + 1.4)
# The top row: the shock where the inflow side holds it, x_s(t) = 1/6 + (1 + 20 t)/sqrt(3).
top = x[np.where(rho[-1] > half)[0].max()] + dx / 2
exact = 1 / 6 + (1 + 20 * t) / np.sqrt(3)
# The bottom row: the Mach stem, at x = 2.75 at t = 0.2 in Woodward & Colella's figure 4.
stem = x[np.where(rho[0] > half)[0].max()] + dx / 2
print("t = %g: top shock at x = %.4f (exact %.4f, dx %.4f), Mach stem at x = %.4f; rho in [%.3f, %.3f]"
      % (t, top, exact, dx, stem, rho.min(), rho.max()))
ok = t == 0.2 and abs(top - exact) < 2 * dx and abs(stem - 2.75) < 0.05 and rho.min() > 1.3 and rho.max() < 25
sys.exit(0 if ok else 1)
PY
  ;;
inflow_sides)
  # The tube's end states held by inflow sides: before the waves reach the
  # ends, what outflow copies there is the same state, so the same bits.
  tube=(--set euler.problem=sod_x --set boundary.y_lo=outflow --set boundary.y_hi=outflow)
  ends=(--set boundary.x_lo=inflow --set boundary.x_hi=inflow --set inflow_x_hi.rho=0.125 --set inflow_x_hi.p=0.1)
  for kernels in fused split; do
    "$cfdrun" "$kh" "${small[@]}" "${tube[@]}" --set euler.kernels=$kernels --output out_$kernels \
      --set boundary.x_lo=outflow --set boundary.x_hi=outflow || fail "outflow"
    "$cfdrun" "$kh" "${small[@]}" "${tube[@]}" --set euler.kernels=$kernels --output in_$kernels "${ends[@]}" ||
      fail "inflow"
    same_fields out_$kernels in_$kernels
  done
  echo "inflow ends at the tube's states: outflow's bits (fused stage and split kernels)"
  # A wall that is inflow nowhere (where: 0) is the reflecting wall; one
  # that is inflow everywhere at a moving state differs from it.
  walls=(--set euler.problem=blast --set boundary.x_lo=reflecting --set boundary.x_hi=reflecting)
  "$cfdrun" "$kh" "${small[@]}" "${walls[@]}" --set boundary.y_lo=reflecting --set boundary.y_hi=reflecting \
    --output walls || fail "walls"
  "$cfdrun" "$kh" "${small[@]}" "${walls[@]}" --set boundary.y_lo=inflow --set boundary.y_hi=inflow \
    --set inflow_y_lo.where=0 --set inflow_y_lo.elsewhere=reflecting --set inflow_y_hi.where="x > 2" \
    --set inflow_y_hi.elsewhere=reflecting --output nowhere || fail "where 0"
  same_fields walls nowhere
  "$cfdrun" "$kh" "${small[@]}" "${walls[@]}" --set boundary.y_lo=inflow --set boundary.y_hi=reflecting \
    --set inflow_y_lo.vy="0.5*t" --set inflow_y_lo.rho=2 --output moving || fail "a moving inflow"
  "${PYTHON:-python3}" - walls moving <<'PY' || fail "an inflow side changed nothing"
import glob, sys
import h5py, numpy as np
a, b = (h5py.File(sorted(glob.glob(d + "/euler_*.h5"))[-1], "r")["fields/rho"][:] for d in sys.argv[1:])
print("the moving inflow side changes rho by up to %.3f" % np.abs(a - b).max())
sys.exit(0 if np.abs(a - b).max() > 1e-3 else 1)
PY
  echo "where: 0 is the side's elsewhere kind, bit for bit; an inflow state acts"
  refused() { # pattern args...
    local pattern=$1 out status
    shift
    out=$("$cfdrun" "$kh" "${small[@]}" --output bad "$@" 2>&1)
    status=$?
    [ $status -eq 2 ] || fail "status $status for $*: $out"
    echo "$out" | grep -q -- "$pattern" || fail "no '$pattern' in: $out"
    [ ! -e bad ] || [ -z "$(ls bad)" ] || fail "a refused case wrote into its output folder: $(ls bad)"
  }
  side=(--set boundary.x_lo=inflow --set boundary.x_hi=outflow --set boundary.y_lo=outflow --set boundary.y_hi=outflow)
  refused "inflow state of boundary.x_lo (inflow_x_lo.rho) is not physical: the ghost cell at (x, y) = (-0.015625, -0.046875) at t = 0.0 has density -1.0" \
    "${side[@]}" --set inflow_x_lo.rho=-1
  refused "(inflow_x_lo.p) is not physical" "${side[@]}" --set inflow_x_lo.p="y > 0.5 ? 1 : 0"
  refused "column 4 of the formula: Unexpected end of expression" "${side[@]}" --set inflow_x_lo.vx="1 +"
  refused "'inflow_y_lo.rho': has no effect with boundary.y_lo: periodic" --set inflow_y_lo.rho=2
  echo "refused with exit 2 and the key: a state that is not physical, a bad formula, keys without an inflow side"
  ;;
*)
  echo "unknown case $case"
  exit 2
  ;;
esac
