#!/usr/bin/env bash
# The GPU measurements behind the targets for 3D Euler and navier_stokes
# (docs/performance.md; their history: docs/data/diary.md, "Targets"), in one run, with a summary that sets each number beside its
# target:
#
#   bash apps/gpu_targets.sh BIN_DIR OUT_DIR [--quick] [--large N]
#
# BIN_DIR  a build's apps folder (cfdrun, cfdbench, cfdcompare, cfdinfo); on a
#          GPU, BUILD_ROOT/build/apps of apps/build_cuda.sh
# OUT_DIR  a new folder (refused if it exists): the CSV files, every log, the
#          agreement record (agreement/: compare it on the CPU with
#          `bash apps/backend_agreement.sh compare build/openmp/apps OUT_DIR/agreement`),
#          the vortex's history (taylor_green/navier_stokes.hst) and summary.txt
# --quick  tiny sizes and no agreement record: a check of this script on any
#          build (the CPU's in ctest, tools.gpu_targets_quick); its numbers
#          mean nothing
# --large N  the large euler3d size of step 3 (default 1024; --quick: 32)
#
# What it runs, in this order (on one GPU about 13 minutes, 9 of them the
# vortex):
#   1. apps/backend_agreement.sh record (25 small cases of every solver)
#   2. cfdbench --solver euler3d --sizes 512 --steps 20 --repeats 3, FP64 and
#      FP32, plm + hlle and plm + hllc with rk2 (targets 3.0e9, 2.8e9 and 5e9
#      cell-updates/s; at most 130 bytes a cell in FP64)
#   3. the same at 1024^3, FP64, hlle, 10 steps, 2 repeats: whether 1024^3
#      fits the card and its time a step (it needs about 87 GB)
#   4. cfdbench --solver euler2d --sizes 4096 --steps 50 --repeats 3 (the 2D
#      rate, not to fall below 4.4e9)
#   5. the Re 1600 Taylor-Green vortex at 256^3, order 6, CFL 2.5, to t = 20
#      (target: 10 minutes), checked by apps/verify_taylor_green.py (the
#      dissipation peak within 3% and 0.2 of 0.0127 at t = 9)
# A step that fails is reported in the summary and the others still run; the
# exit status is 1 when one failed, 2 for bad usage, else 0 (a number below
# its target, or a size the card cannot hold, is a finding, not a failure of
# the script).
set -uo pipefail

usage() {
  sed -n '2,/^set/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
  exit 2
}
[ $# -ge 2 ] || usage
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bin_arg=$1 out_arg=$2
shift 2
quick="" large=""
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick=1 ;;
    --large)
      large=${2:-}
      [[ "$large" =~ ^[1-9][0-9]{0,5}$ ]] || {
        echo "gpu_targets: --large takes a size, 1 to 999999 cells a side (got '$large')" >&2
        exit 2
      }
      shift
      ;;
    *) echo "gpu_targets: unknown option $1" >&2 && usage ;;
  esac
  shift
done
if [ ! -x "$bin_arg/cfdrun" ] || [ ! -x "$bin_arg/cfdbench" ]; then
  echo "gpu_targets: $bin_arg holds no cfdrun and cfdbench (a build's apps folder)" >&2
  exit 2
fi
bin=$(cd "$bin_arg" && pwd)
[ ! -e "$out_arg" ] || {
  echo "gpu_targets: $out_arg exists; give a new folder" >&2
  exit 2
}
mkdir -p "$out_arg" || exit 2
out=$(cd "$out_arg" && pwd)
python=${PYTHON:-/usr/bin/python3}
[ -x "$python" ] || python=python3

failed=0
summary=$out/summary.txt
note() { printf '%s\n' "$*" | tee -a "$summary"; }
# run NAME COMMAND...: the command's output in NAME.log, its status noted.
run() {
  local name=$1
  shift
  local t0=$SECONDS
  "$@" >"$out/$name.log" 2>&1
  local rc=$?
  if [ $rc -ne 0 ] && grep -q "out of memory" "$out/$name.log"; then
    # A size the card cannot hold is a finding (1024^3 FP64 on an 80 GB card).
    note "$name: does not fit: $(grep -m 1 "out of memory" "$out/$name.log")"
  elif [ $rc -ne 0 ]; then
    failed=1
    note "$name: FAILED (exit status $rc; $out/$name.log)"
  fi
  echo "[gpu_targets] $name: $((SECONDS - t0)) s" >&2
  return $rc
}
# rates CSV DIM: "variant precision n^DIM: rate cell-updates/s, B/cell" for each row.
rates() {
  awk -F, -v d="$2" 'NR > 1 { printf "  %s %s %s^%s: %.3g cell-updates/s, %.1f B/cell\n", $2, $3, $4, d, $8, $11 }' "$1" |
    tee -a "$summary"
}

if [ -n "$quick" ]; then
  n3=24 n3big=${large:-32} n2=64 tg_n=16 tg_end=0.05
else
  n3=512 n3big=${large:-1024} n2=4096 tg_n=256 tg_end=20
fi
note "gpu_targets: $("$bin/cfdrun" --version 2>&1 | head -n 1); $(date -u +%Y-%m-%dT%H:%MZ)${quick:+ (--quick: sizes for a check of the script)}"
command -v nvidia-smi >/dev/null &&
  note "card: $(nvidia-smi --query-gpu=name,memory.total --format=csv,noheader 2>/dev/null | head -n 1)"

if [ -z "$quick" ]; then
  run agreement bash "$repo/apps/backend_agreement.sh" record "$bin" "$out/agreement" &&
    note "agreement: recorded in $out/agreement (compare it on the CPU)"
fi

run euler3d_$n3 "$bin/cfdbench" --solver euler3d --sizes $n3 --steps 20 --repeats 3 --precision fp64,fp32 \
  --variants plm-hlle-rk2,plm-hllc-rk2 --csv "$out/euler3d_$n3.csv" &&
  note "euler3d $n3^3 (targets: hlle FP64 >= 3.0e9, hllc FP64 >= 2.8e9, FP32 >= 5e9; <= 130 B/cell FP64):" &&
  rates "$out/euler3d_$n3.csv" 3

run "euler3d_$n3big" "$bin/cfdbench" --solver euler3d --sizes "$n3big" --steps 10 --repeats 2 --precision fp64 \
  --variants plm-hlle-rk2 --csv "$out/euler3d_$n3big.csv" &&
  note "euler3d $n3big^3 FP64 (must fit one H200):" &&
  awk -F, 'NR > 1 { printf "  %.3f s a step (%.3g cell-updates/s), %.1f B/cell\n", $7 / $5, $8, $11 }' \
    "$out/euler3d_$n3big.csv" | tee -a "$summary"

run euler2d_$n2 "$bin/cfdbench" --solver euler2d --sizes $n2 --steps 50 --repeats 3 --precision fp64,fp32 \
  --variants plm-hlle-rk2,plm-hllc-rk2 --csv "$out/euler2d_$n2.csv" &&
  note "euler2d $n2^2 (not below 4.4e9 FP64 hlle):" && rates "$out/euler2d_$n2.csv" 2

t0=$SECONDS
if run taylor_green "$bin/cfdrun" "$repo/config/taylor_green.yaml" --set grid.nx=$tg_n --set grid.ny=$tg_n \
  --set grid.nz=$tg_n --set navier_stokes.order=6 --set time.cfl=2.5 --set time.end_time=$tg_end \
  --set output.time_interval=0 --set output.history_every=25 --output "$out/taylor_green"; then
  note "Taylor-Green $tg_n^3, order 6, to t = $tg_end: $((SECONDS - t0)) s (target: 600 s at 256^3 to t = 20);" \
    "$(grep -o 'cell updates [0-9]*, [0-9.e+]* per second' "$out/taylor_green.log")"
  if [ -z "$quick" ]; then
    "$python" "$repo/apps/verify_taylor_green.py" "$out/taylor_green" >"$out/verify_taylor_green.log" 2>&1
    note "  $(tail -n 1 "$out/verify_taylor_green.log")"
  fi
fi
note "gpu_targets: done; $summary"
exit $failed
