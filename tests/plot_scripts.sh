#!/usr/bin/env bash
# usage: plot_scripts.sh CHECK PYTHON PROJECT_DIR [BIN_DIR]
# The plotting scripts of apps/ on real input, one CHECK at a time; each must
# write a picture that is not empty:
#   plot_bench BIN_DIR  apps/plot_bench.py on a CSV that cfdbench writes
#                       (sizes 16 and 32, 2 steps), in plot_bench under
#                       ctest's work folder
#   plot_scaling        apps/plot_scaling.py on the measured 2 x H200 CSVs of
#                       docs/data/h200x2, in plot_scaling under the work
#                       folder; it prints the efficiencies that
#                       docs/parallel.md quotes, which the test's
#                       PASS_REGULAR_EXPRESSION checks
#   cfdplot_series      apps/cfdplot.py on khseed's snapshots: one PNG beside
#                       each snapshot (fixture khseed)
#   cfdplot_1d_log_zoom cfdplot's 1D panels with --log and --zoom 40 on
#                       sodseed's last snapshot, into sod_zoom.png in the work
#                       folder (fixture sodseed)
# Run through needs.sh, which skips them (77) without matplotlib (and h5py,
# numpy for cfdplot). Exit status 0 when the picture is there, else not 0.
set -euo pipefail
check=$1 python=$2 project=$3
shift 3
source "$(dirname "${BASH_SOURCE[0]}")/test_lib.sh"

case $check in
plot_bench)
  bin=$1
  fresh_work plot_bench
  "$bin/cfdbench" --sizes 16,32 --steps 2 --repeats 1 --precision fp64 --variants contiguous --csv pb.csv >/dev/null
  "$python" "$project/apps/plot_bench.py" pb.csv --out pb.png
  [ -s pb.png ] || fail "plot_bench.py wrote no pb.png"
  ;;
plot_scaling)
  fresh_work plot_scaling
  data=$project/docs/data/h200x2
  "$python" "$project/apps/plot_scaling.py" "$data/euler_np1.csv" "$data/euler_np2_weak.csv" \
    "$data/euler_np2_strong.csv" --out scaling.png --rank-name GPU
  [ -s scaling.png ] || fail "plot_scaling.py wrote no scaling.png"
  ;;
cfdplot_series)
  rm -f khseed/*.png
  "$python" "$project/apps/cfdplot.py" khseed/euler_000000*.h5
  shopt -s nullglob
  pictures=(khseed/*.png) snapshots=(khseed/euler_*.h5)
  [ ${#pictures[@]} -eq ${#snapshots[@]} ] || fail "${#pictures[@]} pictures of ${#snapshots[@]} snapshots"
  ;;
cfdplot_1d_log_zoom)
  rm -f sod_zoom.png
  "$python" "$project/apps/cfdplot.py" sodseed/sod_00002500.h5 --log --zoom 40 -o sod_zoom.png
  [ -s sod_zoom.png ] || fail "cfdplot wrote no sod_zoom.png"
  ;;
*)
  echo "plot_scripts.sh: unknown check '$check'" >&2
  exit 2
  ;;
esac
