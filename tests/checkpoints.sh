#!/usr/bin/env bash
# usage: checkpoints.sh CHECK BIN_DIR CONFIG_DIR
# Checkpoints and the wall-time limit (docs/user-guide.md, "Long runs"), one
# CHECK at a time, each in a folder of its own under ctest's work folder:
#   change_nothing      checkpoints never change the steps taken: a kh_seed
#                       run that writes them every 3 steps and every 0.013 of
#                       time ends with the bits of one that writes none (every
#                       field of the last snapshot at zero tolerance), and
#                       output.checkpoint_keep=2 leaves the newest two
#   wall_seconds        output.checkpoint_wall_seconds=0.05 on the injected
#                       clock (CFDRUN_TEST_CLOCK=0.01: 0.01 s per reading, one
#                       reading per step and one after each checkpoint) is a
#                       checkpoint every 5 or 6 steps, at steps 4, 9, 15, 20
#                       and 26 of 32 whatever the machine's speed, the same on
#                       1 and 2 threads
#   banner_before_stop  stdout is line-buffered: into a file, the banner comes
#                       before the stop message on stderr, in the order they
#                       happened (--wall-time 2 on the injected clock at 0.1 s
#                       a reading stops the run, status 3)
# Exit status 0 when the check holds, 1 (with "FAIL: ...") when it does not.
set -euo pipefail
check=$1 bin=$2 config=$3
cfdrun=$bin/cfdrun
source "$(dirname "${BASH_SOURCE[0]}")/test_lib.sh"
fresh_work "checkpoints_$check"

case $check in
change_nothing)
  kh_short=(--set grid.nx=48 --set grid.ny=48 --set time.end_time=0.04)
  "$cfdrun" "$config/kh_seed.yaml" -q --output ckpt_off "${kh_short[@]}" --set output.checkpoint_at_end=false ||
    fail "the run without checkpoints failed"
  "$cfdrun" "$config/kh_seed.yaml" -q --output ckpt_on "${kh_short[@]}" --set output.checkpoint_every=3 \
    --set output.checkpoint_interval=0.013 --set output.checkpoint_keep=2 || fail "the run with checkpoints failed"
  # shellcheck disable=SC2010 # cfdrun's own file names
  [ "$(ls ckpt_off | grep -c checkpoint_)" = 0 ] || fail "checkpoints in ckpt_off: $(cd ckpt_off && echo *)"
  # shellcheck disable=SC2010
  [ "$(ls ckpt_on | grep -c checkpoint_)" = 2 ] || fail "not the newest two checkpoints kept: $(cd ckpt_on && echo *)"
  # shellcheck disable=SC2012
  last=$(cd ckpt_off && ls euler_*.h5 | tail -n 1)
  for f in rho vx vy vz p; do
    "$bin/cfdcompare" "ckpt_off/$last" "ckpt_on/$last" --field $f --atol 0 --rtol 0 -q || fail "$last: $f differs"
  done
  ;;
wall_seconds)
  for threads in 1 2; do
    out=ckpt_wall
    [ $threads = 1 ] || out=ckpt_wall$threads
    CFDRUN_TEST_CLOCK=0.01 "$cfdrun" "$config/diffusion_seed.yaml" -q --output $out \
      --set output.checkpoint_wall_seconds=0.05 --set output.checkpoint_at_end=false --kokkos-threads=$threads ||
      fail "the run on $threads threads failed"
  done
  # shellcheck disable=SC2010
  a=$(cd ckpt_wall && ls | grep checkpoint_ | tr '\n' ' ')
  # shellcheck disable=SC2010
  b=$(cd ckpt_wall2 && ls | grep checkpoint_ | tr '\n' ' ')
  echo "checkpoints: $a"
  [ "$a" = "$b" ] || fail "on 2 threads: $b"
  [ "${a% }" = "checkpoint_00000004.h5 checkpoint_00000009.h5 checkpoint_00000015.h5 checkpoint_00000020.h5 checkpoint_00000026.h5" ] ||
    fail "not the checkpoints of steps 4, 9, 15, 20 and 26"
  ;;
banner_before_stop)
  status=0
  CFDRUN_TEST_CLOCK=0.1 "$cfdrun" "$config/diffusion_seed.yaml" --output banner_stop --wall-time 2 >banner_stop.txt 2>&1 ||
    status=$?
  cat banner_stop.txt
  [ $status = 3 ] || fail "exit status $status, expected 3 (stopped by the wall-time limit)"
  head -1 banner_stop.txt | grep -q '^cfdrun diffusion: ' || fail "the first line is not the banner"
  output_line=$(grep -n '^output: ' banner_stop.txt | cut -d: -f1) || fail "no 'output: ' line"
  stop_line=$(grep -n '^cfdrun: stopped by the wall-time limit' banner_stop.txt | cut -d: -f1) || fail "no stop message"
  [ "$output_line" -lt "$stop_line" ] || fail "the banner's 'output: ' line (line $output_line) comes after the stop message (line $stop_line)"
  ;;
*)
  echo "checkpoints.sh: unknown check '$check'" >&2
  exit 2
  ;;
esac
