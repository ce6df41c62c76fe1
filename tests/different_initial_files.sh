#!/usr/bin/env bash
# usage: different_initial_files.sh MPIEXEC BIN_DIR CONFIG_DIR
# Ranks that read different copies of a case's initial-state file (two
# folders standing for two nodes without a shared disk, the same case file
# and file name in each) would start a mixed state: every rank ends at once
# with status 2, saying the ranks resolved different cases.
set -uo pipefail
mpiexec=$1 bin=$2 config=$3
source "$(dirname "${BASH_SOURCE[0]}")/test_lib.sh"
fresh_work ranks_initial_files
# Two states of the same tube: a cfdrun snapshot is an initial file.
for t in 0.01 0.02; do
  "$bin/cfdrun" "$config/sod.yaml" -q --output "s$t" --set grid.nx=64 --set time.end_time=$t || fail "the sod run to $t"
done
mkdir -p a b
for d in a b; do
  printf 'solver: sod\ngrid: {nx: 64}\ntime: {steps: 4}\nsod: {problem: file, scheme: hllc}\nviscosity: {law: none}\nfile: {path: init.h5}\n' \
    > $d/case.yaml
done
cp "$(ls s0.01/sod_*.h5 | sort | tail -n 1)" a/init.h5
cp "$(ls s0.02/sod_*.h5 | sort | tail -n 1)" b/init.h5
cmp -s a/init.h5 b/init.h5 && fail "the two initial files are the same"
out=$(timeout 120 "$mpiexec" -np 1 -wdir a "$bin/cfdrun" case.yaml -q --output run : -np 1 -wdir b "$bin/cfdrun" \
  case.yaml -q --output run 2>&1)
status=$?
[ $status -eq 2 ] || fail "ranks with different initial files: status $status: $out"
echo "$out" | grep -q "1 of 2 ranks resolved a case different from rank 0's" || fail "message: $out"
[ ! -e a/run ] && [ ! -e b/run ] || fail "a refused run created its folder"
echo "different initial files on two ranks: refused on every rank"
