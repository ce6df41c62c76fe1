#!/usr/bin/env bash
# usage: fortran.sh HEAT_ORIGINAL BIN_DIR LAUNCH TAG NX NY STEPS ATOL RTOL CASE.yaml [cfdrun options...]
# The held-out comparison with an independent program of the original
# algorithm (tests/reference/heat_original.F90, built FP64 or FP32): it and
# cfdrun run CASE on the same NX x NY grid for STEPS steps, and cfdcompare
# must find cfdrun's diffusion_final.txt equal to the Fortran program's to
# --atol ATOL --rtol RTOL (FP64 1e-12 and 0, FP32 FP32's tolerances), on
# sizes and step counts that no other test uses. LAUNCH is "serial" (cfdrun
# alone) or the launcher in front of cfdrun, e.g. "mpirun -np 3": the
# comparison holds on several ranks too. Works in fortran_TAG under ctest's
# work folder; exit status 0 when the results agree, else not 0.
set -euo pipefail
heat=$1 bin=$2 launch_words=$3 tag=$4 nx=$5 ny=$6 steps=$7 atol=$8 rtol=$9 case_file=${10}
shift 10
source "$(dirname "${BASH_SOURCE[0]}")/test_lib.sh"
launch=()
if [ "$launch_words" != serial ]; then read -r -a launch <<<"$launch_words"; fi
fresh_work "fortran_$tag"

"$heat" "$nx" "$ny" "$steps" "f_$tag.txt" || fail "the Fortran program failed"
"${launch[@]}" "$bin/cfdrun" "$case_file" -q --overwrite --output "c_$tag" --set grid.nx="$nx" --set grid.ny="$ny" \
  --set time.steps="$steps" "$@" || fail "cfdrun failed"
"$bin/cfdcompare" "f_$tag.txt" "c_$tag/diffusion_final.txt" --atol "$atol" --rtol "$rtol"
