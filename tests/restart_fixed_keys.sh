#!/usr/bin/env bash
# usage: restart_fixed_keys.sh BIN_DIR CONFIG_DIR
# Every key of every solver that --list-keys does not mark as changeable on
# --restart ("[--restart: same bits]" or "[--restart: branches]") reaches
# the numerics, the grid or the initial state: `cfdrun --restart CHECKPOINT
# --set KEY=...` must refuse it with status 2 ("'KEY' cannot change"),
# whatever the value, and create nothing. A user-named key of a section
# (constants.*) as its section. A key that a solver adds without marking it
# is thereby fixed, never silently changeable.
set -uo pipefail
bin=$1 config=$2
cfdrun=$bin/cfdrun
source "$(dirname "${BASH_SOURCE[0]}")/test_lib.sh"
fresh_work restart_fixed_keys
export OMP_NUM_THREADS=1
declare -A case_of=(
  [diffusion]="$config/diffusion_seed.yaml --set output.checkpoint_every=16"
  [sod]="$config/sod_keep_seed.yaml --set time.steps=20 --set output.checkpoint_every=10"
  [euler]="$config/kh.yaml --set grid.nx=16 --set grid.ny=16 --set time.end_time=0.05 --set output.checkpoint_interval=0.02"
  [navier_stokes]="$config/taylor_green_2d.yaml --set grid.nx=8 --set grid.ny=8 --set time.steps=6 --set output.checkpoint_every=3"
)
total=0
for solver in diffusion sod euler navier_stokes; do
  # shellcheck disable=SC2086 # the case's words
  "$cfdrun" ${case_of[$solver]} -q --output "$solver" || fail "the $solver run failed"
  checkpoint=$(ls "$solver"/checkpoint_*.h5 | sort | head -n 1)
  [ -n "$checkpoint" ] || fail "$solver wrote no checkpoint"
  fixed=$("$cfdrun" --list-keys "$solver" | grep -v "\[--restart: " | sed -n 's/^  \([^ ]*\) .*/\1/p')
  n=0
  for key in $fixed; do
    [ "$key" = solver ] && continue
    set_key=${key/%.\*/.zz}  # constants.* -> constants.zz
    out=$("$cfdrun" --restart "$checkpoint" -q --output "changed_$n" --set "$set_key=1" 2>&1)
    status=$?
    [ $status -eq 2 ] || fail "$solver: --set $set_key on --restart: status $status: $out"
    echo "$out" | grep -q "'$set_key' cannot change" || fail "$solver: --set $set_key: $out"
    [ ! -e "changed_$n" ] || fail "$solver: a refused --set $set_key created its folder"
    n=$((n + 1))
  done
  [ $n -gt 10 ] || fail "$solver: only $n fixed keys listed"
  echo "$solver: $n fixed keys refused on --restart"
  total=$((total + n))
done
echo "restart: $total fixed keys refused"
