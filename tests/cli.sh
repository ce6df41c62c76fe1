#!/usr/bin/env bash
# usage: cli.sh CHECK BIN_DIR CONFIG_DIR [ARG]
# The tools end to end where one command and one expected output (expect.sh)
# do not say it all, one CHECK at a time, in ctest's work folder:
#   fused_steps_same_files  diffusion.fused_steps=8 writes the files of the
#                     one-step run (=1): passes end at every snapshot (every
#                     10 steps) and history row (every 3), the last pass is
#                     short (45 steps); the same file names, the same history
#                     byte for byte, every snapshot at zero tolerance
#   sod_text_export   prints the line count of sodseed/sod_final.txt and the
#                     word count of its first line: the test's regex wants
#                     4096 rows of 4 columns, the text export users read;
#                     fixture sodseed
#   bench_smoke [PYTHON]  cfdbench runs each solver's matrix and writes --json (a JSON
#                     document PYTHON parses)
#                     and --csv (the test's regex checks the rows; no timing)
#   blast_cfl1 INTEGRATOR  a blast at cfl 1 is a non-physical state at step
#                     1 (status 1, the cell said), the state is kept in
#                     blast_INTEGRATOR/diagnosis_00000001.h5 and no snapshot
#                     of the failed step is written; the folder stays in the
#                     work folder for cli.cfdinfo_json
#   cfdinfo_config_reruns  the configuration cfdinfo --config gives back for
#                     khseed validates again as the kh_seed problem (an output
#                     folder is enough to run its case again); fixture khseed
#   cfdinfo_json PYTHON  cfdinfo --json of blast_rk2's diagnosis file parses
#                     and counts its NaN (after cli.blast_cfl1_rk2)
# Exit status 0 when the check holds, 1 (with "FAIL: ...") when it does not.
set -euo pipefail
check=$1 bin=$2 config=$3
shift 3
here=$(dirname "${BASH_SOURCE[0]}")
source "$here/test_lib.sh"

case $check in
fused_steps_same_files)
  fresh_work cli_fused_steps
  for k in 1 8; do
    "$bin/cfdrun" "$config/diffusion_seed.yaml" -q --output "fused$k" --set grid.nx=101 --set grid.ny=67 \
      --set time.steps=45 --set output.every=10 --set output.history_every=3 --set diffusion.fused_steps=$k ||
      fail "the run with diffusion.fused_steps=$k failed"
  done
  cmp fused1/diffusion.hst fused8/diffusion.hst || fail "the histories differ"
  [ "$(ls fused1)" = "$(ls fused8)" ] || fail "different files: $(cd fused1 && echo *) / $(cd fused8 && echo *)"
  for f in fused1/diffusion_*.h5; do
    "$bin/cfdcompare" "$f" "fused8/${f#fused1/}" --atol 0 --rtol 0 -q || fail "${f#fused1/} differs"
  done
  ls fused8
  ;;
sod_text_export)
  # Nothing else may be printed: the test's regex is the whole output.
  wc -l <sodseed/sod_final.txt
  head -n 1 sodseed/sod_final.txt | wc -w
  ;;
bench_smoke)
  fresh_work cli_bench_smoke
  if ! "$bin/cfdbench" --sizes 16 --steps 2 --repeats 1 --precision fp64 --json b.json 2> json.err; then
    # A build without nlohmann-json (a GPU image) refuses --json, and says so.
    grep -q "needs a cfdbench built with nlohmann-json" json.err || fail "cfdbench --json: $(cat json.err)"
    "$bin/cfdbench" --sizes 16 --steps 2 --repeats 1 --precision fp64
    echo "b.json: not written (built without nlohmann-json)"
  else
    # A real JSON document: every row, the numbers as numbers.
    "${1:-python3}" -c '
import json, sys
d = json.load(open("b.json"))
rows = d["rows"]
assert len(rows) == 3 and {r["variant"] for r in rows} == {"baseline", "contiguous", "strided"}, rows
assert all(r["n"] == 16 and r["steps"] == 2 and r["loop_s"] > 0 and r["precision"] == "fp64" for r in rows), rows
print("b.json:", len(rows), "rows")' || fail "b.json is not the JSON of the three rows"
  fi
  "$bin/cfdbench" --solver sod --sizes 64 --steps 2 --repeats 1 --csv b.csv
  "$bin/cfdbench" --solver euler2d --sizes 16 --steps 2 --repeats 1 --precision fp32
  ;;
blast_cfl1)
  integrator=$1 out=blast_$1
  rm -rf "$out"
  bash "$here/expect.sh" 1 "non-physical state at step 1, t = [0-9.e-]+: cell [(]i, j[)] = [(][0-9]+, [0-9]+[)] \
has density [-0-9.ena]+ and pressure (-[0-9.e]+|-?nan)" -- \
    "$bin/cfdrun" "$config/kh_seed.yaml" --output "$out" --set euler.problem=blast --set time.cfl=1 \
    --set time.steps=1 --set time.end_time=0 --set euler.integrator="$integrator" --set boundary.x_lo=outflow \
    --set boundary.x_hi=outflow --set boundary.y_lo=outflow --set boundary.y_hi=outflow
  [ -s "$out/diagnosis_00000001.h5" ] || fail "no diagnosis file $out/diagnosis_00000001.h5"
  [ ! -e "$out/euler_00000001.h5" ] || fail "the failed step's state was written as a snapshot, $out/euler_00000001.h5"
  ;;
cfdinfo_config_reruns)
  "$bin/cfdinfo" khseed --config >khseed_again.yaml || fail "cfdinfo khseed --config failed"
  # What is checked is the configuration --validate prints (as when this was
  # a pipe into grep -q), not its exit status.
  grep -q 'problem: kh_seed' <<<"$("$bin/cfdrun" khseed_again.yaml --validate)" ||
    fail "khseed_again.yaml does not validate as problem kh_seed"
  ;;
cfdinfo_json)
  python=$1
  "$bin/cfdinfo" blast_rk2/diagnosis_00000001.h5 --json | "$python" -c '
import json, sys
d = json.load(sys.stdin)["file"]
print(d["kind"], [(f["name"], f["not_finite"]) for f in d["fields"]])
assert d["kind"] == "diagnosis" and d["solver"] == "euler" and sum(f["not_finite"] for f in d["fields"]) > 0'
  ;;
*)
  echo "cli.sh: unknown check '$check'" >&2
  exit 2
  ;;
esac
