#!/usr/bin/env bash
# Digests of the final fields of every shipped case, to prove that a change
# which promises unchanged results keeps them: run it with the build before
# the change and with the build after, and compare the two lists (diff).
#
#   bash apps/result_digests.sh BIN_DIR [OUT_FILE] [--quick]
#
# BIN_DIR   a build's apps folder (cfdrun), e.g. build/openmp/apps
# OUT_FILE  where the list goes (default: standard output)
# --quick   shortens the long shipped cases (kh.yaml to t = 0.3,
#           kh_seed.yaml to t = 0.1, diffusion_benchmark.yaml to 40 steps,
#           sedov3d.yaml to 48^3 cells, taylor_green.yaml to 32^3 and
#           t = 0.5, supersonic_taylor_green.yaml to 24^3 and t = 1,
#           viscous_shock_tube.yaml to 96^2 and t = 0.3)
#
# Each line is "case field snapshot sha256", the SHA-256 of the field's values as
# stored (little-endian, x fastest) in the case's final snapshot, so two
# lists are equal exactly when every value is the same bits. The cases are
# every file of config/ at its own settings, and the variants that
# apps/backend_agreement.sh lists (precisions, kernels, schemes, boundaries).
# Needs python3 with h5py ($PYTHON, Debian's /usr/bin/python3 or the PATH's).
set -euo pipefail
[ $# -ge 1 ] || {
  sed -n '2,/^set/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
  exit 2
}
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bin=$(cd "$1" && pwd)
out=${2:-/dev/stdout}
quick=""
for a in "$@"; do [ "$a" = --quick ] && quick=1; done
[ "$out" = --quick ] && out=/dev/stdout
work=$(mktemp -d "${TMPDIR:-/tmp}/result_digests.XXXXXX")
trap 'rm -rf "$work"' EXIT
export OMP_PROC_BIND=${OMP_PROC_BIND:-false}
# A python3 with h5py: $PYTHON, else Debian's, else the one on the PATH.
python=${PYTHON:-}
for p in /usr/bin/python3 python3; do
  [ -z "$python" ] && "$p" -c 'import h5py' 2>/dev/null && python=$p
done
[ -n "$python" ] || {
  echo "result_digests: no python3 with h5py (Debian: apt install python3-h5py; or set PYTHON)" >&2
  exit 2
}

cases=()
for f in "$repo"/config/*.yaml; do
  name=$(basename "$f" .yaml)
  options=""
  if [ -n "$quick" ]; then
    case $name in
      kh) options="--set time.end_time=0.3" ;;
      kh_seed) options="--set time.end_time=0.1" ;;
      diffusion_benchmark) options="--set time.steps=40" ;;
      sedov3d) options="--set grid.nx=48 --set grid.ny=48 --set grid.nz=48" ;;
      taylor_green) options="--set grid.nx=32 --set grid.ny=32 --set grid.nz=32 --set time.end_time=0.5" ;;
      supersonic_taylor_green) options="--set grid.nx=24 --set grid.ny=24 --set grid.nz=24 --set time.end_time=1" ;;
      viscous_shock_tube) options="--set grid.nx=96 --set grid.ny=96 --set time.end_time=0.3" ;;
    esac
  fi
  cases+=("$name|config/$name.yaml|$options")
done
# Variants beyond those: every layout, loop order, scheme, integrator and
# problem the solvers offer.
kh_short="--set grid.nx=64 --set grid.ny=48 --set time.end_time=0.05 --set output.time_interval=0"
for v in "diffusion.variant=baseline" "diffusion.layout=right" "diffusion.iteration=right" \
  "diffusion.iteration=left" "diffusion.problem=sine" "diffusion.fused_steps=5" \
  "diffusion.scheme=backward_euler --set diffusion.alpha=5" \
  "diffusion.scheme=crank_nicolson --set diffusion.alpha=5 --set diffusion.operator=matrix" \
  "diffusion.scheme=crank_nicolson --set diffusion.alpha=5 --set diffusion.preconditioner=gauss_seidel"; do
  cases+=("extra_diffusion_${v//[^a-z0-9]/_}|config/diffusion_seed.yaml|--set $v")
done
for v in "sod.layout=soa" "sod.kernels=fused" "sod.precision=fp32" "viscosity.law=constant" \
  "sod.boundary=outflow" "sod.boundary=reflecting" "sod.units=physical" \
  "sod.kernels=fused --set sod.layout=soa --set sod.fused_steps=4"; do
  cases+=("extra_sod_keep_${v//[^a-z0-9]/_}|config/sod_keep_seed.yaml|--set time.steps=300 --set $v")
done
for v in "sod.reconstruction=constant" "sod.integrator=euler" "sod.limiter=minmod" "sod.limiter=mc" \
  "sod.layout=soa" "sod.precision=fp32" "sod.boundary=reflecting"; do
  cases+=("extra_sod_hllc_${v//[^a-z0-9]/_}|config/sod.yaml|--set $v")
done
for v in "euler.reconstruction=dc" "euler.limiter=minmod" "euler.integrator=euler" \
  "euler.integrator=rk3 --set euler.kernels=split" "euler.riemann=llf --set euler.integrator=rk3" \
  "euler.problem=vortex" "euler.problem=sod_x --set boundary.x_lo=outflow --set boundary.x_hi=outflow" \
  "euler.problem=sod_y --set boundary.y_lo=reflecting --set boundary.y_hi=reflecting" \
  "euler.problem=kh_seed --set euler.kernels=split" "euler.precision=fp32 --set euler.kernels=split" \
  "euler.problem=blast --set gas.gamma=1.4"; do
  cases+=("extra_euler2d_${v//[^a-z0-9]/_}|config/kh.yaml|$kh_short --set $v")
done
while IFS= read -r line; do
  # backend_agreement.sh list: "name file options [fields]"
  line=${line% \[*}
  read -r name file options <<<"$line"
  cases+=("agreement_$name|$file|${options:-}")
done < <(bash "$repo/apps/backend_agreement.sh" list | sed 's/  */ /g')

{
  for c in "${cases[@]}"; do
    IFS='|' read -r name file options <<<"$c"
    read -r -a args <<<"$options"
    # Kokkos Kernels 3.4 colours the Gauss-Seidel graph speculatively: on
    # several threads the colouring, and so the last bits, may change from
    # run to run (docs/user-guide.md). One thread makes it one colouring.
    launch=(env)
    [[ $name == *gauss_seidel* ]] && launch=(env OMP_NUM_THREADS=1)
    if ! "${launch[@]}" "$bin/cfdrun" "$repo/$file" -q --output "$work/$name" ${args[@]+"${args[@]}"} \
      >"$work/$name.log" 2>&1; then
      echo "$name RUN-FAILED $(tail -n 1 "$work/$name.log")"
      continue
    fi
    "$python" - "$work/$name" "$name" <<'EOF'
import glob, hashlib, os, sys
import h5py, numpy as np
folder, name = sys.argv[1], sys.argv[2]
snaps = sorted(f for f in glob.glob(os.path.join(folder, "*.h5"))
               if not os.path.basename(f).startswith(("checkpoint_", "diagnosis_")))
with h5py.File(snaps[-1], "r") as f:
    for field in sorted(f["fields"]):
        a = np.ascontiguousarray(f["fields"][field][...])
        a = a.astype(a.dtype.newbyteorder("<"))
        print(name, field, os.path.basename(snaps[-1]), hashlib.sha256(a.tobytes()).hexdigest())
EOF
  done
} >"$out"
