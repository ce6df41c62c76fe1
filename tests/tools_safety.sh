#!/usr/bin/env bash
# usage: tools_safety.sh BIN_DIR CONFIG_DIR CASE
# The tools' answers to bad input (issue #34), one CASE at a time:
#   exact_not_finite  cfdcompare --exact fails (status 1) a sod snapshot with a NaN
#                     or Inf in a field or the grid, naming the field and point; two
#                     HDF5 snapshots, one with a NaN, fail too, whichever is the reference
#   exact_no_points   --exact on a snapshot whose field holds no values (or fewer than
#                     the grid's points): status 2 and a message, no crash
#   not_regular       cfdcompare and cfdinfo refuse /dev/zero, a pipe and a folder
#                     (status 2, at once); text fields are read within bounds: a line
#                     with no end, a header the file cannot hold
#   bench_memory      cfdbench: a size whose n x n overflows a 64-bit count is refused
#                     (status 2); one that cannot fit in memory is "out of memory",
#                     status 1, as cfdrun says it; so is an allocation that fails
# $PYTHON (with h5py and numpy) edits snapshots.
set -uo pipefail
bin=$1 config=$2 case=$3
source "$(dirname "${BASH_SOURCE[0]}")/test_lib.sh"
fresh_work tools_safety_$case
py=${PYTHON:-python3}

# expect STATUS REGEX COMMAND...: the command ends with STATUS, within 60 s,
# and its output (stdout and stderr) matches REGEX.
expect() {
  local want=$1 pattern=$2
  shift 2
  out=$(timeout 60 "$@" 2>&1)
  local got=$?
  [ "$got" -eq "$want" ] || fail "$* exited $got, expected $want: $out"
  grep -Eq -- "$pattern" <<<"$out" || fail "$* said '$out', expected /$pattern/"
  echo "ok ($got): $*: $(head -n 1 <<<"$out")"
}
# set_value FILE DATASET INDEX VALUE: one value of a dataset, in place.
set_value() {
  "$py" -c "
import h5py, sys
with h5py.File(sys.argv[1], 'r+') as f:
    d = f[sys.argv[2]]
    v = d[...]
    v.flat[int(sys.argv[3])] = float(sys.argv[4])
    d[...] = v
" "$@" || fail "cannot edit $1"
}
sod() {
  "$bin/cfdrun" "$config/sod.yaml" -q --output sod --overwrite --set grid.nx=40 || fail "the sod run failed"
  snap=$(ls sod/sod_*.h5 | tail -n 1)
}

case $case in
exact_not_finite)
  sod
  expect 0 "L1 density" "$bin/cfdcompare" --exact "$snap"
  for what in "fields/rho 10 nan" "fields/u 0 inf" "fields/p 39 -inf" "grid/x 5 nan"; do
    set -- $what
    cp "$snap" bad.h5
    set_value bad.h5 "$1" "$2" "$3"
    expect 1 "FAIL: $1 holds 1 NaN or Inf value\\(s\\), the first at point $(($2 + 1)) \\(1-based\\) of 40" \
      "$bin/cfdcompare" --exact bad.h5
    expect 1 "FAIL" "$bin/cfdcompare" --exact bad.h5 --max-l1 1e9
    expect 1 "^$" "$bin/cfdcompare" --exact bad.h5 -q
  done
  cp "$snap" nan.h5
  set_value nan.h5 fields/rho 10 nan
  expect 1 "NaN or Inf        0 in the reference, 1 in the candidate.*" "$bin/cfdcompare" "$snap" nan.h5 --field rho
  expect 1 "worst point       i=11 j=1" "$bin/cfdcompare" "$snap" nan.h5 --field rho
  expect 1 "NaN or Inf        1 in the reference, 0 in the candidate" "$bin/cfdcompare" nan.h5 "$snap" --field rho
  expect 1 "NaN or Inf        1 in the reference, 1 in the candidate" "$bin/cfdcompare" nan.h5 nan.h5 --field rho
  ;;
exact_no_points)
  sod
  # fields/rho replaced by an empty dataset, or a shorter one
  for n in 0 7; do
    cp "$snap" short.h5
    "$py" -c "
import h5py, numpy, sys
with h5py.File('short.h5', 'r+') as f:
    del f['fields/rho']
    f['fields/rho'] = numpy.ones(int(sys.argv[1]))
" "$n" || fail "cannot edit short.h5"
    expect 2 "short.h5: fields/rho holds $n values for the 40 points of grid/x" "$bin/cfdcompare" --exact short.h5
  done
  "$py" -c "
import h5py, numpy
with h5py.File('$snap', 'r') as s, h5py.File('empty.h5', 'w') as f:
    for k, v in s.attrs.items():
        f.attrs[k] = v
    for k in ('grid/x', 'fields/rho', 'fields/u', 'fields/p'):
        f[k] = numpy.zeros(0)
" || fail "cannot write empty.h5"
  expect 2 "empty.h5: grid/x holds no points: nothing to compare" "$bin/cfdcompare" --exact empty.h5
  ;;
not_regular)
  printf '2 1\n1.0\n2.0\n' > ok.txt
  mkfifo pipe || fail "mkfifo"
  mkdir folder
  for f in /dev/zero pipe; do
    expect 2 "$f: not a regular file" "$bin/cfdcompare" "$f" ok.txt
    expect 2 "$f: not a regular file" "$bin/cfdcompare" ok.txt "$f"
    expect 2 "$f: not a regular file" "$bin/cfdcompare" --exact "$f"
    expect 2 "$f: not a regular file" "$bin/cfdinfo" "$f"
  done
  expect 2 "folder: this is a folder" "$bin/cfdcompare" folder ok.txt
  expect 2 "nope.txt: no such file" "$bin/cfdcompare" ok.txt nope.txt
  # 8 MB without a newline: refused at the first 4096 characters
  head -c 8000000 /dev/zero | tr '\0' '1' > one_line.txt
  expect 2 "one_line.txt:1: a line longer than 4096 characters" "$bin/cfdcompare" one_line.txt ok.txt
  { printf '2 1\n1.0\n'; head -c 8000000 /dev/zero | tr '\0' '2'; } > long_value.txt
  expect 2 "long_value.txt:3: a line longer than 4096 characters" "$bin/cfdcompare" ok.txt long_value.txt
  # a header asking for 10^12 values in a file of a few bytes
  printf '1000000 1000000\n1.0\n' > big_header.txt
  expect 2 "big_header.txt: expected nx\\*ny = 1000000000000 values, but the 20-byte file cannot hold them" \
    "$bin/cfdcompare" big_header.txt ok.txt
  expect 0 "PASS" "$bin/cfdcompare" ok.txt ok.txt
  ;;
bench_memory)
  b="$bin/cfdbench --steps 1 --repeats 1 --variants contiguous"
  # n x n past 2^63 (3037000500^2 > 9.22e18), and n x n x 5 past 2^62
  expect 2 "size 3037000500: diffusion of 9.223e\\+18 points \\(n x n\\) for 1 steps are more than a 64-bit count holds" \
    $b --sizes 3037000500
  expect 2 "size 1000000000: euler2d of 1e\\+18 points" $b --solver euler2d --variants plm-hlle-rk2 --sizes 1000000000
  expect 2 "size 100000: diffusion of 1e\\+10 points \\(n x n\\) for 1000000000000 steps" \
    $b --sizes 100000 --steps 1000000000000
  # 10^12 points: more memory than any machine this runs on; cfdrun's words
  # and status. (A CPU build refuses it before it starts, a GPU build when
  # the GPU's allocation fails.)
  expect 1 "out of memory: (diffusion fp64 at n = 1000000 needs at least 14901.2 GiB per process; this machine has [0-9.]+ GiB of memory, [0-9.]+ GiB available|cannot allocate 'bench::copy_src' .* memory; the GPU has [0-9.]+ GiB)" \
    $b --sizes 1000000 --precision fp64
  # An allocation that fails (here: a 2 GiB limit on the address space) ends
  # the matrix with cfdrun's message and status, where it aborted before.
  # (CPU builds: a GPU runtime does not start under such a limit.)
  "$bin/cfdrun" --version | grep -Eq "execution spaces: (OpenMP|Serial|Threads)" ||
    { echo "skipped the failed allocation: a GPU build"; exit 0; }
  # AddressSanitizer (the debug preset) reserves terabytes of address space
  # for its shadow memory at start, so no program of it runs under the limit.
  grep -qa "__asan_init" "$bin/cfdbench" && { echo "skipped the failed allocation: an AddressSanitizer build"; exit 0; }
  avail=$(awk '/^MemAvailable:/ { print int($2 / 1048576) }' /proc/meminfo)
  [ "$avail" -ge 4 ] || { echo "skipped the failed allocation: $avail GiB available"; exit 0; }
  expect 1 "out of memory: cannot allocate 'bench::copy_src' \\([0-9.]+ ?[GM]i?B\\) in Host memory; this machine has [0-9.]+ GiB of memory" \
    bash -c "ulimit -v 2000000 && exec $b --sizes 16384 --precision fp64 --kokkos-threads=1"
  ;;
*)
  echo "unknown case $case"
  exit 2
  ;;
esac
