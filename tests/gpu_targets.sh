#!/usr/bin/env bash
# apps/gpu_targets.sh with --quick on this build (ctest: tools.gpu_targets_quick):
# every step runs and its rows reach the summary (four euler3d rows, the large
# size's time a step, four euler2d rows, the vortex's line); an existing
# output folder is refused with status 2, its file untouched; a large size
# that cannot fit is reported as such with status 0; bad options give 2.
#   bash tests/gpu_targets.sh REPO BIN_DIR
set -euo pipefail
repo=$1
bin=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/gpu_targets.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() {
  echo "FAIL: $*" >&2
  [ -f "$work/out/summary.txt" ] && cat "$work/out/summary.txt" >&2
  exit 1
}

bash "$repo/apps/gpu_targets.sh" "$bin" "$work/out" --quick >"$work/log" 2>&1 || fail "status $? (log: $(cat "$work/log"))"
s=$work/out/summary.txt
count() { grep -cE "$1" "$s" || true; }
[ "$(count '^  plm-hll[ce]-rk2 fp(32|64) 24\^3: [0-9.e+]+ cell-updates/s, [0-9.]+ B/cell$')" = 4 ] || fail "euler3d rows"
[ "$(count '^  [0-9.]+ s a step \([0-9.e+]+ cell-updates/s\), [0-9.]+ B/cell$')" = 1 ] || fail "the large size's row"
[ "$(count '^  plm-hll[ce]-rk2 fp(32|64) 64\^2: [0-9.e+]+ cell-updates/s')" = 4 ] || fail "euler2d rows"
[ "$(count '^Taylor-Green 16\^3, order 6, to t = 0.05: [0-9]+ s .*cell updates [0-9]+, [0-9.e+]+ per second$')" = 1 ] ||
  fail "the vortex's line"
[ -f "$work/out/taylor_green/navier_stokes.hst" ] || fail "no history of the vortex"
! grep -q FAILED "$s" || fail "a step failed"

# An existing folder: refused, nothing written into it.
mkdir "$work/mine" && echo keep >"$work/mine/file"
set +e
bash "$repo/apps/gpu_targets.sh" "$bin" "$work/mine" --quick >"$work/log2" 2>&1
rc=$?
set -e
[ $rc -eq 2 ] || fail "an existing folder gave status $rc, not 2"
grep -q "exists; give a new folder" "$work/log2" || fail "no reason given: $(cat "$work/log2")"
if [ "$(ls "$work/mine")" != file ] || [ "$(cat "$work/mine/file")" != keep ]; then fail "the existing folder was changed"; fi
# A large size the machine cannot hold: "does not fit", cfdbench's words, and
# status 0 (a finding); the other steps still run.
bash "$repo/apps/gpu_targets.sh" "$bin" "$work/big" --quick --large 100000 >"$work/log3" 2>&1 ||
  fail "a size that does not fit gave status $?: $(cat "$work/log3")"
grep -Eq '^euler3d_100000: does not fit: cfdbench: error: out of memory: euler3d fp64 at n = 100000' "$work/big/summary.txt" ||
  fail "no 'does not fit' line: $(cat "$work/big/summary.txt")"
grep -q '^Taylor-Green 16\^3' "$work/big/summary.txt" || fail "the steps after the large size did not run"

# Bad options: status 2, the reason, no folder made.
for bad in "--large 0" "--large" "--large 12x" "--fast"; do
  set +e
  # shellcheck disable=SC2086 # split on purpose: an option and its value
  bash "$repo/apps/gpu_targets.sh" "$bin" "$work/bad" $bad >"$work/log4" 2>&1
  rc=$?
  set -e
  [ $rc -eq 2 ] || fail "'$bad' gave status $rc, not 2"
  grep -Eq "gpu_targets: (--large takes a size|unknown option)" "$work/log4" || fail "'$bad': $(cat "$work/log4")"
  [ ! -e "$work/bad" ] || fail "'$bad' made the output folder"
done
echo "gpu_targets --quick: every step's rows in the summary; an existing folder refused; a size that does not fit is a finding; bad options refused"
