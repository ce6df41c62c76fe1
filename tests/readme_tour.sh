#!/usr/bin/env bash
# usage: readme_tour.sh SOURCE_DIR BIN_DIR
#
# Runs the README's "one-minute tour" command by command, as a new user
# would after the set-up, in a fresh folder (config/ and apps/ linked from
# the checkout, $B the build's apps), so that the README cannot drift from
# the tools. Shortened so that it takes seconds: the KH lines run on 32 x 32
# cells (--set grid.nx/ny appended), cfdbench on --sizes 256, mpirun with
# --oversubscribe, the checkpoint a restart names is the one the shortened
# run wrote (its step differs from 1632), and the `paraview` line (a GUI) is
# skipped. Every command must exit 0, and the published FP32/FP64 numbers
# must appear where the README quotes them.
set -uo pipefail
src=$(cd "$1" && pwd) bin=$(cd "$2" && pwd)
work=readme_tour
rm -rf "$work"
mkdir -p "$work"
cd "$work" || exit 1
ln -s "$src/config" config
ln -s "$src/apps" apps
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export OMP_NUM_THREADS=1 OMP_PROC_BIND=false
fail() {
  echo "FAIL: $*"
  exit 1
}
tour=$(awk '/^## A one-minute tour/ {on = 1} on && /^```sh/ {inside = 1; next} inside && /^```/ {exit} inside' \
  "$src/README.md")
[ -n "$tour" ] || fail "no tour in README.md"
ran=0
while IFS= read -r line; do
  case $line in "" | "#"*) continue ;; esac
  command=${line%%  #*}  # the comment after two spaces
  case $command in paraview*) echo "skipped (GUI): $command"; continue ;; esac
  if [[ $command == B=* ]]; then
    B=$bin
    continue
  fi
  command=${command//\$B/$bin}
  if [[ $command == *"config/kh.yaml"* ]]; then command="$command --set grid.nx=32 --set grid.ny=32"; fi
  command=${command//--sizes 8192/--sizes 256}
  if [[ $command == *"checkpoint_00001632.h5"* ]]; then
    first=$(ls kh.out/checkpoint_*.h5 | sort | head -n 1)
    command=${command//kh.out\/checkpoint_00001632.h5/$first}
  fi
  command=${command//python3 -c/${PYTHON:-python3} -c}
  command=${command//apps\/cfdplot.py/${PYTHON:-python3} apps/cfdplot.py}
  echo "\$ $command"
  output=$(bash -c "$command" 2>&1 < /dev/null)  # mpirun would read the tour from stdin
  status=$?
  echo "$output" | tail -n 3
  [ $status -eq 0 ] || fail "status $status: $command"$'\n'"$output"
  if [[ $command == *"cfdcompare seed64/diffusion_00000032.h5 seed32/diffusion_00000032.h5"* ]]; then
    for number in 3.949045e-09 1.138846e-07 1.036993e-07; do
      echo "$output" | grep -q "$number" || fail "the README quotes $number; cfdcompare said: $output"
    done
  fi
  ran=$((ran + 1))
done <<< "$tour"
[ $ran -ge 14 ] || fail "only $ran commands in the tour"
[ -s heat/diffusion_00000100.png ] || fail "cfdplot's picture is missing"
echo "README tour: $ran commands ran"
