#!/usr/bin/env bash
# usage: reliability.sh BIN_DIR CONFIG_DIR CASE
# One check of docs/user-guide.md's promises about files and failures:
#   foreign_files     --overwrite removes only what an earlier run wrote
#   failed_run_keeps  a run that fails early leaves the earlier results as they were
#   locked            a second cfdrun on the same folder is refused
#   full_disk         a full disk: status 1, "No space left on device", no *.tmp, every file complete
#   full_disk_ranks   the same under mpirun on 2 and 3 ranks: no hang, every rank's message has the cause
#   read_only         a read-only folder: status 1, "Read-only file system"
#   compare_not_finite, compare_subnormal, compare_empty: cfdcompare's answers
# Exits 77 (skipped) where the machine cannot provide the condition (a
# tmpfs mount needs root).
set -uo pipefail
bin=$1 config=$2 case=$3
cfdrun=$bin/cfdrun
source "$(dirname "${BASH_SOURCE[0]}")/test_lib.sh"
fresh_work reliability_$case

# every .h5 opens and every .xdmf is a whole document
all_complete() {
  local d=$1
  if ls "$d" | grep -q '\.tmp$'; then fail "unfinished files left in $d: $(ls "$d" | grep '\.tmp$')"; fi
  for f in "$d"/*.h5; do
    [ -e "$f" ] || continue
    "${PYTHON:-python3}" -c "import h5py, sys; h5py.File(sys.argv[1], 'r').close()" "$f" || fail "$f does not open"
  done
  for f in "$d"/*.xdmf; do
    [ -e "$f" ] || continue
    grep -q '</Xdmf>' "$f" || fail "$f is not a whole XDMF document"
  done
}
seed=$config/diffusion_seed.yaml

case $case in
foreign_files)
  mkdir src && cd src || exit 1
  echo "project(x)" > CMakeLists.txt
  echo "1,2" > data.csv
  echo "mine" > notes.h5  # a file of the user's that looks like a result
  "$cfdrun" "$seed" -q --output . && fail "a folder holding notes.h5 was not refused"
  "$cfdrun" "$seed" -q --output . --overwrite || fail "the first run failed"
  "$cfdrun" "$seed" -q --output . --overwrite --set time.steps=10 || fail "the second run failed"
  for f in CMakeLists.txt data.csv notes.h5; do [ -e "$f" ] || fail "--overwrite removed the user's $f"; done
  [ "$(cat notes.h5)" = mine ] || fail "notes.h5 was changed"
  [ -e diffusion_00000032.h5 ] && fail "the first run's last snapshot outlived --overwrite"
  [ -e diffusion_00000010.h5 ] || fail "the second run's snapshot is missing"
  echo "foreign files kept, the earlier run's files replaced: $(ls | tr '\n' ' ')"
  ;;
failed_run_keeps)
  "$cfdrun" "$seed" -q --output out || fail "the first run failed"
  before=$(cd out && ls -a && md5sum ./*.h5 ./*.xdmf)
  out=$("$cfdrun" "$seed" -q --output out --overwrite --set grid.nx=300000 --set grid.ny=300000 2>&1)
  status=$?
  [ $status -eq 1 ] || fail "the impossible run ended with status $status: $out"
  grep -q "out of memory: cannot allocate 'diffusion::u'" <<<"$out" || fail "message: $out"
  after=$(cd out && ls -a && md5sum ./*.h5 ./*.xdmf)
  [ "$before" = "$after" ] || fail "the failed run changed the earlier results"
  all_complete out
  echo "a run that failed at allocation left the earlier results untouched: $out"
  ;;
locked)
  "$cfdrun" "$config/kh.yaml" -q --output out --set grid.nx=128 --set grid.ny=128 --set time.end_time=100 &
  first=$!
  for _ in $(seq 100); do [ -e out/euler_00000000.h5 ] && break; sleep 0.1; done
  out=$("$cfdrun" "$config/kh.yaml" -q --output out --overwrite 2>&1)
  status=$?
  kill -TERM $first
  wait $first
  [ $status -eq 1 ] || fail "the second run ended with status $status: $out"
  grep -q "another cfdrun is writing to this folder (pid $first" <<<"$out" || fail "message: $out"
  echo "second run refused: $out"
  ;;
full_disk | full_disk_ranks | read_only)
  [ "$(id -u)" = 0 ] || { echo "skipped: mounting a tmpfs needs root"; exit 77; }
  mkdir mnt
  opts=size=400k
  [ $case = read_only ] && opts=ro,size=400k
  mount -t tmpfs -o $opts tmpfs mnt 2>/dev/null || { echo "skipped: cannot mount a tmpfs here"; exit 77; }
  trap 'umount "$PWD/mnt"' EXIT
  if [ $case = read_only ]; then
    out=$("$cfdrun" "$seed" -q --output mnt 2>&1)
    status=$?
    [ $status -eq 1 ] || fail "status $status: $out"
    grep -q "Read-only file system" <<<"$out" || fail "message: $out"
    echo "read-only folder: $out"
    exit 0
  fi
  if [ $case = full_disk_ranks ]; then
    # Parallel HDF5 on a full disk: a rank whose write fails while the others
    # are in another collective call must end them all (2 and 3 ranks once
    # hung in H5Fclose), with the cause on every rank that says anything.
    [ -n "${MPIEXEC:-}" ] || { echo "skipped: no mpirun"; exit 77; }
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1
    for ranks in 2 3; do
      for n in 16 20 32 40 48; do
        rm -rf mnt/k
        out=$(timeout 120 "$MPIEXEC" --oversubscribe -np $ranks "$cfdrun" "$config/kh.yaml" -q --output mnt/k \
          --set grid.nx=$n --set grid.ny=$n --set time.end_time=0.5 --set output.time_interval=0.01 2>&1)
        status=$?
        [ $status -eq 124 ] && fail "$ranks ranks, $n x $n: hung"
        [ $status -eq 1 ] || fail "$ranks ranks, $n x $n: status $status: $out"
        echo "$out" | grep "^cfdrun: error" | grep -qv "No space left on device" &&
          fail "$ranks ranks, $n x $n: a rank's message without its cause: $out"
        grep -q "No space left on device" <<<"$out" || fail "$ranks ranks, $n x $n: message: $out"
        all_complete mnt/k
        echo "$ranks ranks, $n x $n: $(echo "$out" | grep '^cfdrun: error' | head -1)"
      done
    done
    exit 0
  fi
  # Sizes that fill the disk at a snapshot, in the XDMF index, in the history.
  for n in 16 20 28 32 40; do
    rm -rf mnt/k
    out=$("$cfdrun" "$config/kh.yaml" -q --output mnt/k --set grid.nx=$n --set grid.ny=$n --set time.end_time=0.5 \
      --set output.time_interval=0.01 2>&1)
    status=$?
    [ $status -eq 1 ] || fail "$n x $n: status $status: $out"
    grep -q "No space left on device" <<<"$out" || fail "$n x $n: message: $out"
    all_complete mnt/k
    echo "$n x $n: $out"
  done
  ;;
compare_not_finite)
  printf '2 1\n1.0\ninf\n' > ref_inf.txt
  printf '2 1\n1.0\n1.0\n' > ones.txt
  printf '2 1\n1.0\nnan\n' > cand_nan.txt
  out=$("$bin/cfdcompare" ref_inf.txt ones.txt 2>&1)
  [ $? -eq 1 ] || fail "a reference holding Inf passed: $out"
  grep -q "NaN or Inf        1 in the reference" <<<"$out" || fail "$out"
  out=$("$bin/cfdcompare" ones.txt cand_nan.txt 2>&1)
  [ $? -eq 1 ] || fail "a candidate holding NaN passed: $out"
  echo "$out" | grep -Eq "max abs error     -?nan" || fail "max abs error is not NaN: $out"
  grep -q "worst point       i=2 j=1" <<<"$out" || fail "the NaN is not the worst point: $out"
  echo "Inf in the reference and NaN in the candidate both fail"
  ;;
compare_subnormal)
  printf '2 1\n6.5e-322\n1.0e-310\n' > sub.txt
  out=$("$bin/cfdcompare" sub.txt sub.txt --atol 0 --rtol 0 2>&1) || fail "subnormal numbers: $out"
  printf '2 1\n1.0\n1e999\n' > over.txt
  out=$("$bin/cfdcompare" over.txt over.txt 2>&1)
  [ $? -eq 2 ] || fail "an overflowing number was read: $out"
  echo "subnormal numbers read exactly; 1e999 refused: $out"
  ;;
compare_empty)
  "${PYTHON:-python3}" -c "
import h5py, numpy
with h5py.File('empty.h5', 'w') as f:
    f['fields/u'] = numpy.zeros((0, 0))
"
  out=$("$bin/cfdcompare" empty.h5 empty.h5 2>&1)
  [ $? -eq 2 ] || fail "empty datasets compared: $out"
  grep -q "nothing to compare" <<<"$out" || fail "message: $out"
  echo "empty datasets: $out"
  ;;
*)
  echo "unknown case $case"
  exit 2
  ;;
esac
