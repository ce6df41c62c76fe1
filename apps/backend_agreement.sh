#!/usr/bin/env bash
# Same bits on two builds: runs a fixed set of small cases of every solver and
# compares each final snapshot with one recorded by another build (the CPU's,
# normally) at zero tolerance, field by field.
#
#   bash apps/backend_agreement.sh record  BIN_DIR REF_DIR
#   bash apps/backend_agreement.sh compare BIN_DIR REF_DIR [RANKS]
#   bash apps/backend_agreement.sh list
#
# BIN_DIR  a build's apps folder (holding cfdrun, cfdcompare, cfdinfo), e.g.
#          build/openmp/apps or ~/.cache/cfdrun/cuda/build/apps
# REF_DIR  record: where the reference snapshots go (one folder per case);
#          compare: a folder written by record, on this or another machine
# RANKS    rank counts to compare, e.g. "1 2" (default "1"); more than one
#          rank runs under mpirun (MPIEXEC), which needs an MPI build (each
#          run's snapshot must say it was written on that many ranks)
#
# The GPU's results are the CPU's bit for bit because neither build contracts
# multiply-adds and the kernels do the same operations in the same order
# (docs/data/diary.md, "Agreement with the CPU"); this script is how that is
# checked. The cases are small (a few seconds each on 2 CPU cores) and cover
# each solver's precisions, schemes, fused and split kernels, tiles cut by the
# block's edge and physical boundaries. Equal means equal values at zero
# tolerance in every written field (cfdcompare: -0 and +0 are equal). Exit
# status: 0 when every field of every case is equal, 1 when one differs or a
# run fails, 2 for bad usage.
set -euo pipefail

# name | case file | options (split on blanks) | fields
cases=(
  "diffusion_seed_fp64|config/diffusion_seed.yaml||u"
  "diffusion_seed_fp32|config/diffusion_seed.yaml|--set diffusion.precision=fp32|u"
  "diffusion_512|config/diffusion.yaml|--set grid.nx=512 --set grid.ny=384 --set time.steps=200 --set output.every=0|u"
  "diffusion_fused8_fp32|config/diffusion.yaml|--set grid.nx=300 --set grid.ny=200 --set time.steps=64 --set output.every=0 --set diffusion.fused_steps=8 --set diffusion.precision=fp32|u"
  "sod_keep_seed|config/sod_keep_seed.yaml||rho u p"
  "sod_keep_fused8|config/sod_keep_seed.yaml|--set sod.kernels=fused --set sod.fused_steps=8|rho u p"
  "sod_plm_hllc|config/sod.yaml||rho u p"
  "kh_hllc|config/kh.yaml|--set grid.nx=128 --set grid.ny=96 --set time.end_time=0.1 --set output.time_interval=0|rho vx vy vz p"
  "kh_hlle_mc_rk3|config/kh.yaml|--set grid.nx=128 --set grid.ny=96 --set time.end_time=0.1 --set output.time_interval=0 --set euler.riemann=hlle --set euler.limiter=mc --set euler.integrator=rk3|rho vx vy vz p"
  "kh_hlle_fp32|config/kh.yaml|--set grid.nx=128 --set grid.ny=96 --set time.end_time=0.1 --set output.time_interval=0 --set euler.riemann=hlle --set euler.precision=fp32|rho vx vy vz p"
  "kh_hllc_fp32|config/kh.yaml|--set grid.nx=128 --set grid.ny=96 --set time.end_time=0.1 --set output.time_interval=0 --set euler.precision=fp32|rho vx vy vz p"
  "kh_llf_split|config/kh.yaml|--set grid.nx=128 --set grid.ny=96 --set time.end_time=0.1 --set output.time_interval=0 --set euler.riemann=llf --set euler.kernels=split|rho vx vy vz p"
  "kh_partial_tiles|config/kh.yaml|--set grid.nx=100 --set grid.ny=70 --set time.end_time=0.05 --set output.time_interval=0|rho vx vy vz p"
  "blast_reflecting|config/kh.yaml|--set euler.problem=blast --set grid.nx=96 --set grid.ny=80 --set time.end_time=0.05 --set output.time_interval=0 --set boundary.x_lo=reflecting --set boundary.x_hi=outflow --set boundary.y_lo=reflecting --set boundary.y_hi=outflow|rho vx vy vz p"
  "kh_seed|config/kh_seed.yaml|--set grid.nx=128 --set grid.ny=128 --set time.end_time=0.05 --set output.time_interval=0|rho vx vy vz p"
  "blast3d_hllc|config/blast3d.yaml|--set grid.nx=40 --set grid.ny=36 --set grid.nz=30 --set time.end_time=0.1 --set output.time_interval=0|rho vx vy vz p"
  "blast3d_hlle_mc_rk3_fp32|config/blast3d.yaml|--set grid.nx=36 --set grid.ny=30 --set grid.nz=40 --set time.end_time=0.1 --set output.time_interval=0 --set euler.riemann=hlle --set euler.limiter=mc --set euler.integrator=rk3 --set euler.precision=fp32 --set boundary.x_lo=reflecting --set boundary.z_lo=periodic --set boundary.z_hi=periodic|rho vx vy vz p"
  "blast3d_long_x|config/blast3d.yaml|--set grid.nx=200 --set grid.ny=6 --set grid.nz=5 --set time.end_time=0.02 --set output.time_interval=0|rho vx vy vz p"
  "blast3d_split_gravity|config/blast3d.yaml|--set grid.nx=30 --set grid.ny=28 --set grid.nz=26 --set time.end_time=0.05 --set output.time_interval=0 --set euler.kernels=split --set gravity.x=0.5 --set gravity.y=-1 --set gravity.z=0.75 --set boundary.z_lo=reflecting --set boundary.z_hi=reflecting|rho vx vy vz p"
  "kh_viscous_sutherland|config/kh.yaml|--set grid.nx=96 --set grid.ny=80 --set time.end_time=0.1 --set output.time_interval=0 --set viscosity.law=sutherland --set viscosity.mu=0.002 --set boundary.y_lo=reflecting --set boundary.y_hi=reflecting|rho vx vy vz p"
  "blast3d_viscous|config/blast3d.yaml|--set grid.nx=30 --set grid.ny=28 --set grid.nz=26 --set time.end_time=0.05 --set output.time_interval=0 --set viscosity.law=constant --set viscosity.mu=0.005|rho vx vy vz p"
  "ns_taylor_green_long_x|config/taylor_green.yaml|--set grid.nx=136 --set grid.ny=8 --set grid.nz=6 --set time.end_time=0.05 --set output.time_interval=0|rho vx vy vz p T"
  "ns_taylor_green|config/taylor_green.yaml|--set grid.nx=32 --set grid.ny=32 --set grid.nz=32 --set time.end_time=0.5 --set output.time_interval=0|rho vx vy vz p T"
  "ns_taylor_green_o6_rk3|config/taylor_green.yaml|--set grid.nx=24 --set grid.ny=20 --set grid.nz=18 --set navier_stokes.order=6 --set navier_stokes.integrator=rk3 --set time.end_time=0.3 --set output.time_interval=0|rho vx vy vz p T"
  "ns_taylor_green_2d|config/taylor_green_2d.yaml||rho vx vy p T"
  "ns_couette|config/couette.yaml|--set time.end_time=1|rho vx vy p T"
  "ns_density_wave|config/density_wave.yaml||rho vx vy p T"
  "ns_viscous_shock_tube_hybrid|config/viscous_shock_tube.yaml|--set grid.nx=96 --set grid.ny=96 --set time.end_time=0.3 --set output.time_interval=0|rho vx vy p T shock_sensor"
  "ns_supersonic_taylor_green_hybrid|config/supersonic_taylor_green.yaml|--set grid.nx=24 --set grid.ny=24 --set grid.nz=24 --set time.end_time=1 --set output.time_interval=0|rho vx vy vz p T shock_sensor"
  "kh_sources|config/kh.yaml|--set grid.nx=96 --set grid.ny=80 --set time.end_time=0.1 --set output.time_interval=0 --set sources.momentum_y=-0.5*rho --set sources.energy=-0.5*rho*vy+(x<0.5?0.25*t:-0.1*p) --set sources.dt_bound=0.002+0*x|rho vx vy vz p"
  "blast3d_sources_cooling|config/blast3d.yaml|--set grid.nx=30 --set grid.ny=28 --set grid.nz=26 --set time.end_time=0.05 --set output.time_interval=0 --set sources.energy=-0.05*rho*rho*sqrt(p/rho)*(p>0.2) --set sources.momentum_z=0.3*rho*(z>0.5)|rho vx vy vz p"
  "ns_taylor_green_sources|config/taylor_green.yaml|--set grid.nx=24 --set grid.ny=20 --set grid.nz=18 --set time.end_time=0.3 --set output.time_interval=0 --set sources.momentum_x=0.1*rho*(y>3)-0.05*vx|rho vx vy vz p T"
)

usage() {
  # The comment at the top, up to the first command.
  awk 'NR > 1 && !/^#/ { exit } NR > 1' "$0" | sed 's/^# \{0,1\}//' >&2
  exit "${1:-2}"
}

mode=${1:-}
case "$mode" in -h | --help) usage 0 ;; esac
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [ "$mode" = list ]; then
  for c in "${cases[@]}"; do
    IFS='|' read -r name file options fields <<<"$c"
    printf '%-20s %s %s  [%s]\n' "$name" "$file" "$options" "$fields"
  done
  exit 0
fi
case "$mode" in record | compare) ;; *) usage ;; esac
[ $# -ge 3 ] || usage
bin=$(cd "$2" 2>/dev/null && pwd) || {
  echo "backend_agreement: BIN_DIR '$2' does not exist" >&2
  exit 2
}
ref=$3
ranks=${4:-1}
counts=0
for n in $ranks; do
  case $n in '' | *[!0-9]* | 0*) echo "backend_agreement: RANKS must be positive rank counts, got '$ranks'" >&2 && exit 2 ;; esac
  counts=$((counts + 1))
done
[ $counts -gt 0 ] || {
  echo "backend_agreement: RANKS names no rank count" >&2
  exit 2
}
for tool in cfdrun cfdcompare cfdinfo; do
  [ -x "$bin/$tool" ] || {
    echo "backend_agreement: $bin has no $tool" >&2
    exit 2
  }
done
if [ "$mode" = compare ] && [ ! -d "$ref" ]; then
  echo "backend_agreement: reference folder '$ref' does not exist (make it with: record BIN_DIR $ref)" >&2
  exit 2
fi
mkdir -p "$ref"
ref=$(cd "$ref" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/backend_agreement.XXXXXX")
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1

# The last snapshot of a run folder (file names carry the step, zero-padded).
# Empty when there is none (or no folder).
final_of() { (cd "$1" 2>/dev/null && ls -- *.h5 2>/dev/null | grep -v '^checkpoint_' | sort | tail -n 1) || true; }

failed=0
for c in "${cases[@]}"; do
  IFS='|' read -r name file options fields <<<"$c"
  read -r -a args <<<"$options"
  if [ "$mode" = record ]; then
    # Only the final snapshot is kept: it is what compare reads.
    "$bin/cfdrun" "$repo/$file" -q --output "$work/$name" ${args[@]+"${args[@]}"} || {
      echo "backend_agreement: $name: cfdrun failed; nothing recorded for it" >&2
      exit 1
    }
    final=$(final_of "$work/$name")
    [ -n "$final" ] || {
      echo "backend_agreement: $name: cfdrun wrote no snapshot; nothing recorded for it" >&2
      exit 1
    }
    rm -rf "${ref:?}/$name"
    mkdir -p "$ref/$name"
    cp "$work/$name/$final" "$ref/$name/"
    printf '%-20s recorded %s\n' "$name" "$final"
    continue
  fi
  expected=$(final_of "$ref/$name")
  if [ -z "$expected" ]; then
    printf '%-20s MISSING in %s\n' "$name" "$ref"
    failed=1
    continue
  fi
  for n in $ranks; do
    out=$work/${name}_np$n
    status=0
    if [ "$n" = 1 ]; then
      "$bin/cfdrun" "$repo/$file" -q --output "$out" ${args[@]+"${args[@]}"} || status=$?
    else
      "${MPIEXEC:-mpirun}" -np "$n" "$bin/cfdrun" "$repo/$file" -q --output "$out" ${args[@]+"${args[@]}"} || status=$?
    fi
    got=$(final_of "$out")
    verdict="bit for bit"
    if [ $status != 0 ]; then
      verdict="RUN FAILED (cfdrun exit status $status)"
      failed=1
    elif [ -z "$got" ]; then
      verdict="RUN FAILED (no snapshot written)"
      failed=1
    elif [[ $("$bin/cfdinfo" "$out/$got" || true) != *"written on $n rank(s)"* ]]; then
      # mpirun of a build without MPI runs n one-rank copies, which agree trivially.
      verdict="NOT RUN ON $n RANKS (a build without MPI?)"
      failed=1
    elif [ "$got" != "$expected" ]; then
      verdict="DIFFERENT final snapshot: $got, reference $expected"
      failed=1
    else
      for field in $fields; do
        if ! "$bin/cfdcompare" "$ref/$name/$expected" "$out/$got" --field "$field" --atol 0 --rtol 0 -q; then
          verdict="DIFFERS in $field:"$'\n'$("$bin/cfdcompare" "$ref/$name/$expected" "$out/$got" --field "$field" --atol 0 --rtol 0 || true)
          failed=1
          break
        fi
      done
    fi
    printf '%-20s %d rank(s) %-24s %s\n' "$name" "$n" "$got" "$verdict"
  done
done
[ "$mode" = record ] || { [ $failed = 0 ] && echo "backend_agreement: every case bit for bit" || echo "backend_agreement: some cases differ"; }
exit $failed
