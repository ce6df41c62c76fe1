#!/usr/bin/env bash
# usage: tools_cli.sh BIN_DIR CONFIG_DIR CASE
# One command-line style for the four tools (issue #29), one CASE at a time:
#   version       --version of cfdrun, cfdcompare, cfdinfo and cfdbench: "<tool>
#                 <version> (git <rev>)", and the Kokkos line where the tool runs Kokkos
#   opt_equals    --opt=value on each tool, the same as --opt value; flags refuse a
#                 value; a missing value and a misspelt option are named (status 2)
#   hints         AthenaK's "-i FILE" and "block/key=value" get a hint, status 2
#   all_fields    cfdcompare without --field compares every field of two euler
#                 snapshots, one line each: the same run passes; another end time
#                 fails naming the fields; another grid.nx is "grids differ" naming
#                 the field; a missing field lists those the file has; checkpoints
#                 compare their state/ datasets
#   folders       two output folders snapshot by snapshot: the same run passes; a
#                 shorter run's folder lacks snapshots, which are named (status 1)
set -uo pipefail
bin=$1 config=$2 case=$3
source "$(dirname "${BASH_SOURCE[0]}")/test_lib.sh"
fresh_work tools_cli_$case

# expect STATUS REGEX COMMAND...: the command ends with STATUS, within 120 s,
# and its output (stdout and stderr) matches the extended REGEX (across lines).
expect() {
  local want=$1 pattern=$2
  shift 2
  out=$(timeout 120 "$@" 2>&1)
  local got=$?
  [ "$got" -eq "$want" ] || fail "$* exited $got, expected $want: $out"
  grep -Ezq -- "$pattern" <<<"$out" || fail "$* said '$out', expected /$pattern/"
  echo "ok ($got): $*: $(head -n 1 <<<"$out")"
}
# silent STATUS COMMAND...: the command ends with STATUS and prints nothing.
silent() {
  local want=$1
  shift
  out=$(timeout 120 "$@" 2>&1)
  local got=$?
  [ "$got" -eq "$want" ] && [ -z "$out" ] || fail "$* exited $got (expected $want, silent): $out"
  echo "ok ($got, silent): $*"
}
# kh OUT [--set ...]: a small euler run (24 x 24 cells to t = 0.03, a snapshot every 0.01).
kh() {
  local out=$1
  shift
  "$bin/cfdrun" "$config/kh_seed.yaml" -q --output "$out" --overwrite --set grid.nx=24 --set grid.ny=24 \
    --set time.end_time=0.03 "$@" || fail "the euler run $out failed"
}
last() { (cd "$1" && ls "$2"_*.h5 | grep -v checkpoint_ | tail -n 1); }

case $case in
version)
  for tool in cfdrun cfdcompare cfdbench; do
    expect 0 "^$tool [0-9]+\\.[0-9]+\\.[0-9]+ \\(git [^)]+\\).Kokkos [34]\\.[0-9]+\\.[0-9]+, execution spaces: [A-Za-z]+" "$bin/$tool" --version
  done
  # cfdinfo runs no Kokkos: one line.
  expect 0 "^cfdinfo [0-9]+\\.[0-9]+\\.[0-9]+ \\(git [^)]+\\)[[:space:]]*$" "$bin/cfdinfo" --version
  # Every tool's version is the same build's.
  v=$("$bin/cfdrun" --version | head -n 1 | cut -d' ' -f2-)
  for tool in cfdcompare cfdinfo cfdbench; do
    [ "$("$bin/$tool" --version | head -n 1 | cut -d' ' -f2-)" = "$v" ] || fail "$tool --version is not '$v'"
  done
  # --help says both forms work and names --version.
  for tool in cfdrun cfdcompare cfdinfo cfdbench; do
    expect 0 "--option=VALUE.*--version|--version.*--option=VALUE" "$bin/$tool" --help
  done
  ;;
opt_equals)
  # cfdrun: --output=DIR and --set=KEY=VALUE as --output DIR and --set KEY=VALUE
  expect 0 "nx: 40.*dir: \"?eq\"?" "$bin/cfdrun" "$config/diffusion_seed.yaml" --validate --set=grid.nx=40 --output=eq
  "$bin/cfdrun" "$config/diffusion_seed.yaml" --validate --set=grid.nx=40 --output=eq > a.txt 2>&1
  "$bin/cfdrun" "$config/diffusion_seed.yaml" --validate --set grid.nx=40 --output eq > b.txt 2>&1
  cmp a.txt b.txt || fail "cfdrun: --opt=value differs from --opt value"
  expect 0 "wall_time: \"?00:10:00\"?" "$bin/cfdrun" "$config/diffusion_seed.yaml" --validate --wall-time=00:10:00
  expect 0 "solver diffusion:.*diffusion.precision" "$bin/cfdrun" --list-keys=diffusion
  expect 2 "cfdrun: error: --overwrite takes no value \\(got '--overwrite=yes'\\)" \
    "$bin/cfdrun" "$config/diffusion_seed.yaml" --overwrite=yes
  expect 2 "cfdrun: error: --output needs a value.Run" "$bin/cfdrun" "$config/diffusion_seed.yaml" --output
  expect 2 "--output needs a value \\(got the option '--overwrite'\\)" \
    "$bin/cfdrun" "$config/diffusion_seed.yaml" --output --overwrite
  expect 2 "unknown option '--ouput'; did you mean '--output'\\?" "$bin/cfdrun" "$config/diffusion_seed.yaml" --ouput x
  expect 2 "unknown option '--valid'; did you mean '--validate'\\?" "$bin/cfdrun" "$config/diffusion_seed.yaml" --valid
  expect 0 "dir: \"?b\"?" "$bin/cfdrun" "$config/diffusion_seed.yaml" --validate --output a --output=b
  # cfdcompare: --atol=0 --rtol=0 --field=u as --atol 0 --rtol 0 --field u
  printf '2 1\n1.0\n2.0\n' > one.txt
  printf '2 1\n1.0\n2.5\n' > two.txt
  expect 1 "failures +1 +\\(atol 0, rtol 0\\).*FAIL" "$bin/cfdcompare" one.txt two.txt --atol=0 --rtol=0
  expect 0 "failures +0 +\\(atol 1, rtol 0\\).*PASS" "$bin/cfdcompare" one.txt two.txt --atol=1 --rtol 0
  expect 2 "cfdcompare: error: --atol needs a value" "$bin/cfdcompare" one.txt two.txt --atol
  expect 2 "--atol needs a non-negative number, got 'x'" "$bin/cfdcompare" one.txt two.txt --atol=x
  expect 2 "unknown option '--tol'; did you mean '--atol' or '--rtol'\\?" "$bin/cfdcompare" one.txt two.txt --tol 0
  expect 2 "--quiet takes no value" "$bin/cfdcompare" one.txt two.txt --quiet=1
  silent 0 "$bin/cfdcompare" one.txt one.txt -q
  # cfdinfo's options are flags: --json=x is refused, --json works
  "$bin/cfdrun" "$config/diffusion_seed.yaml" -q --output=d --set=grid.nx=12 --set=grid.ny=8 --set=time.steps=2 ||
    fail "diffusion run"
  expect 0 "\"kind\": \"snapshot\"" "$bin/cfdinfo" d/diffusion_00000002.h5 --json
  expect 2 "cfdinfo: error: --json takes no value \\(got '--json=x'\\)" "$bin/cfdinfo" d --json=x
  expect 2 "unknown option '--jsn'; did you mean '--json'\\?" "$bin/cfdinfo" d --jsn
  # cfdbench: --steps=2 --sizes=16 ... as --steps 2 --sizes 16
  expect 0 "diffusion +contiguous +fp64 +16 " "$bin/cfdbench" --sizes=16 --steps=2 --repeats=1 --precision=fp64 \
    --variants=contiguous --csv=bench.csv
  test -s bench.csv || fail "cfdbench --csv=bench.csv wrote nothing"
  expect 2 "--steps expects a positive whole number, got '3x'" "$bin/cfdbench" --steps=3x
  expect 2 "cfdbench: error: --steps needs a value" "$bin/cfdbench" --steps
  expect 2 "unknown option '--size'; did you mean '--sizes'\\?" "$bin/cfdbench" --size 16
  expect 2 "--per-rank takes no value" "$bin/cfdbench" --per-rank=1
  ;;
hints)
  expect 2 "cfdrun: error: unknown option '-i': cfdrun takes the case file as its first argument: cfdrun case.yaml \\(AthenaK's -i is not needed\\)" \
    "$bin/cfdrun" -i kh.athinput
  expect 2 "cfdrun: error: 'mesh/nx1=64' is AthenaK's block/key=value form: use --set mesh.nx1=64" \
    "$bin/cfdrun" "$config/kh_seed.yaml" mesh/nx1=64
  expect 2 "use --set grid.nx=64" "$bin/cfdrun" "$config/kh_seed.yaml" --validate grid/nx=64
  # the hint's advice works
  expect 0 "nx: 64" "$bin/cfdrun" "$config/kh_seed.yaml" --validate --set grid.nx=64
  ;;
all_fields)
  kh a
  kh b
  kh short --set time.end_time=0.02
  kh wide --set grid.nx=32
  f=$(last a euler)
  [ "$(last b euler)" = "$f" ] || fail "the same run wrote $(last b euler), not $f"
  expect 0 "p .*PASS.*rho .*PASS.*vx .*PASS.*vy .*PASS.*vz .*PASS.*PASS: 5 fields agree" \
    "$bin/cfdcompare" "a/$f" "b/$f" --atol 0 --rtol 0
  # another end time: the fields differ, and the times are noted
  g=$(last short euler)
  expect 1 "note: the files are at different step [0-9]+ and [0-9]+, time 0.03 and 0.02.*rho .* FAIL.*FAIL: [0-9] of 5 fields differ beyond the tolerance: .*rho" \
    "$bin/cfdcompare" "a/$f" "short/$g"
  silent 1 "$bin/cfdcompare" "a/$f" "short/$g" -q
  # another grid: status 2, the field named
  h=$(last wide euler)
  expect 2 "cfdcompare: error: grids differ in field p: a/$f is 24 x 24, wide/$h is 32 x 24" \
    "$bin/cfdcompare" "a/$f" "wide/$h"
  # one field in full, a list, a repeated option
  expect 0 "field +rho.*max abs error +0\\.0+e\\+00.*PASS" "$bin/cfdcompare" "a/$f" "b/$f" --field rho
  expect 1 "rho .*FAIL.*p .*FAIL.*FAIL: 2 of 2 fields" "$bin/cfdcompare" "a/$f" "short/$g" --field rho,p
  expect 1 "rho .*FAIL.*p .*FAIL.*FAIL: 2 of 2 fields" "$bin/cfdcompare" "a/$f" "short/$g" --field=rho --field p
  # a field the file does not hold: its fields are listed
  expect 2 "a/$f: no dataset fields/u; its fields: p, rho, vx, vy, vz" "$bin/cfdcompare" "a/$f" "b/$f" --field u
  printf '2 1\n1.0\n2.0\n' > one.txt
  expect 2 "no dataset fields/u; its fields: p, rho, vx, vy, vz" "$bin/cfdcompare" one.txt "a/$f"
  # the CSV: one row per field
  "$bin/cfdcompare" "a/$f" "b/$f" -q --csv rows.csv || fail "cfdcompare --csv"
  [ "$(wc -l < rows.csv)" -eq 6 ] || fail "rows.csv: $(cat rows.csv)"
  grep -q ",field$" rows.csv && grep -q ",rho$" rows.csv || fail "rows.csv names no field: $(cat rows.csv)"
  # checkpoints: their state/ datasets
  c=$(cd a && ls checkpoint_*.h5 | tail -n 1)
  expect 0 "PASS: [0-9]+ fields agree" "$bin/cfdcompare" "a/$c" "b/$c"
  ;;
folders)
  kh a
  kh b
  kh short --set time.end_time=0.02
  n=$(ls a | grep -c '^euler_[0-9]*\.h5$')
  expect 0 "reference +a \\($n snapshots\\).*euler_00000000.h5 +p .*PASS.*PASS: $n snapshots in both folders, every field agrees" \
    "$bin/cfdcompare" a b --atol=0 --rtol=0
  f=$(last a euler)
  expect 1 "missing: $f only in a.*FAIL: [0-9]+ of [0-9]+ snapshots in both folders differ, [0-9]+ in one folder only" \
    "$bin/cfdcompare" a short
  silent 1 "$bin/cfdcompare" a short -q
  expect 0 "rho .*PASS" "$bin/cfdcompare" a b --field rho
  # Runs of different steps (CFL 0.2 against the case's) write the same
  # output times under other step numbers: matched by time, not name.
  kh a_times
  kh b_times --set time.cfl=0.2
  [ "$(ls a_times | grep '^euler_[0-9]*\.h5$')" != "$(ls b_times | grep '^euler_[0-9]*\.h5$')" ] ||
    fail "the two runs should name their snapshots differently"
  n=$(ls a_times | grep -c '^euler_[0-9]*\.h5$')
  expect 0 "note: matched by time, t = 0.01: euler_[0-9]+\.h5.*note: matched by time, t = 0.03: .*PASS: $n snapshots in both folders" \
    "$bin/cfdcompare" a_times b_times --atol 1 --rtol 0
  # a folder and a file: refused
  expect 2 "a: this is a folder; give two files or two output folders" "$bin/cfdcompare" a "b/$f"
  mkdir empty
  expect 2 "empty: no cfdrun snapshot" "$bin/cfdcompare" a empty
  ;;
list_keys_terminal)
  # On a terminal (a pseudo-terminal of 90 columns, util-linux' script),
  # --list-keys wraps each key's meaning beneath it; through a pipe one
  # line per key, which scripts read.
  command -v script > /dev/null || { echo "no script (Debian: bsdutils)"; exit 77; }
  script -qec "stty cols 90; '$bin/cfdrun' --list-keys euler" /dev/null | tr -d '\r' > wrapped.txt
  longest=$(awk '{ if (length($0) > m) m = length($0) } END { print m }' wrapped.txt)
  [ "$longest" -le 90 ] || fail "a line of $longest characters on a 90-column terminal: $(awk 'length($0) > 90' wrapped.txt | head -n 2)"
  grep -q " $" wrapped.txt && fail "lines end in spaces: $(grep -c ' $' wrapped.txt)"
  grep -Eq "^  time.cfl +real +default 0.4$" wrapped.txt || fail "no time.cfl line: $(grep time.cfl wrapped.txt)"
  grep -Eq "^  euler.problem +choice +default kh_mcnally$" wrapped.txt || fail "no euler.problem line: $(head -n 5 wrapped.txt)"
  grep -Eq "^      kh_mcnally: McNally et al. 2012" wrapped.txt || fail "euler.problem's meaning is not beneath it"
  # every key, and every word of its meaning, is still there
  piped=$("$bin/cfdrun" --list-keys euler)
  [ "$(echo "$piped" | grep -c '^  [a-z]')" = "$(grep -c '^  [a-z]' wrapped.txt)" ] || fail "keys lost in wrapping"
  [ "$(echo "$piped" | tr -s ' |\n' '\n\n\n' | grep -c .)" = "$(tr -s ' |\n' '\n\n\n' < wrapped.txt | grep -c .)" ] ||
    fail "words lost in wrapping"
  echo "$piped" | grep -Eq "^  euler.problem +choice +default kh_mcnally +kh_mcnally: McNally" || fail "the piped listing was wrapped"
  echo "wrapped to $longest columns"
  ;;
*)
  echo "unknown case $case"
  exit 2
  ;;
esac
