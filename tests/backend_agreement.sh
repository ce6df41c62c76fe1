#!/usr/bin/env bash
# usage: backend_agreement.sh PROJECT_DIR BIN_DIR
# apps/backend_agreement.sh, the check of the GPU's bits against the CPU's,
# here on one build against itself: a reference it records must be met bit
# for bit by every case on 1 and 2 ranks (two "bit for bit" lines a case); a
# reference with kh_hllc's snapshot swapped for kh_hlle_mc_rk3's must be
# reported ("kh_hllc ... DIFFERS in rho") and fail; and RANKS that name no
# rank count are bad usage, exit status 2. Works in backend_agreement under
# ctest's work folder; needs MPIEXEC (an MPI build) for the 2-rank runs.
set -euo pipefail
project=$1 bin=$2
agreement=(bash "$project/apps/backend_agreement.sh")
source "$(dirname "${BASH_SOURCE[0]}")/test_lib.sh"
fresh_work backend_agreement

"${agreement[@]}" record "$bin" agree_ref >/dev/null || fail "record failed"
"${agreement[@]}" compare "$bin" agree_ref '1 2' | tee agree.txt || fail "compare on 1 and 2 ranks failed"
cases=$("${agreement[@]}" list | wc -l)
equal=$(grep -c 'rank(s) .* bit for bit$' agree.txt || true)
[ "$equal" -eq $((2 * cases)) ] || fail "$equal runs bit for bit, expected 2 for each of the $cases cases"

cp -r agree_ref agree_bad
swapped=(agree_bad/kh_hllc/*.h5)
[ -e "${swapped[0]}" ] || fail "agree_ref holds no snapshot of kh_hllc"
cp agree_ref/kh_hlle_mc_rk3/*.h5 "${swapped[@]}"
if "${agreement[@]}" compare "$bin" agree_bad 1 >bad.txt; then
  fail "a reference with kh_hllc's snapshot swapped for another case's passed: $(cat bad.txt)"
fi
grep -q '^kh_hllc .*DIFFERS in rho' bad.txt || fail "the swapped snapshot is not reported: $(cat bad.txt)"

status=0
"${agreement[@]}" compare "$bin" agree_ref ' ' 2>none.txt || status=$?
[ $status -eq 2 ] || fail "RANKS ' ' ended with status $status, expected 2: $(cat none.txt)"
grep -q 'RANKS names no rank count' none.txt || fail "RANKS ' ' said: $(cat none.txt)"
echo "backend_agreement.sh: $cases cases bit for bit on 1 and 2 ranks, a swapped snapshot found, RANKS ' ' refused"
