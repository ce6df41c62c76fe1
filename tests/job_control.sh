#!/usr/bin/env bash
# usage: job_control.sh BIN_DIR NAME MODE RANKS CASE.yaml [cfdrun options...]
#
# MODE signal:SIG  runs CASE once uninterrupted, then again with SIG sent once
#                  the run's second snapshot exists (output.every=JOB_OUTPUT_EVERY,
#                  default 10): that run
#                  must exit with 3 (stopped, restartable) and leave a
#                  checkpoint, and `--restart` from it must end with the
#                  uninterrupted run's final snapshot, bit for bit.
# MODE twice       sends SIGINT twice: the run exits at once (status 130)
#                  and leaves no unfinished (*.tmp) file, every .h5 readable.
# MODE wall:SEC    runs with --wall-time SEC: it must stop before SEC seconds
#                  (plus one for the launcher) with status 3 and a checkpoint
#                  short of the end.
# RANKS 0 runs cfdrun without mpirun; N > 0 under mpirun -np N (which
# forwards the signal to every rank).
set -euo pipefail
bin=$1 name=$2 mode=$3 ranks=$4 case_file=$5
shift 5
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_PROC_BIND=false
export OMPI_MCA_rmaps_base_oversubscribe=1
launch=()
if [ "$ranks" -gt 0 ]; then launch=("${MPIEXEC:-mpirun}" -np "$ranks"); fi
if [ "$ranks" -gt 1 ]; then export OMP_NUM_THREADS=1; fi  # ranks outnumber the cores

every=${JOB_OUTPUT_EVERY:-10}
second=$(printf '_%08d.h5' $((2 * every)))
ref=${name}_whole out=${name}_stopped
rm -rf "$ref" "$out"

# Starts the run in the background; waits until its second snapshot is in
# place (the run is well under way), at most 120 s.
start_and_wait() {
  "${launch[@]}" "$bin/cfdrun" "$case_file" -q --output "$out" --set output.every="$every" "$@" &
  pid=$!
  for _ in $(seq 12000); do
    if compgen -G "$out/*$second" >/dev/null; then return 0; fi
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.01
  done
  echo "the run did not reach step $((2 * every))"
  exit 1
}

final_of() { (cd "$1" && ls -- *.h5 | grep -v -e '^checkpoint_' -e '^diagnosis_' | sort | tail -n 1); }

# Under mpirun the signal reaches cfdrun only if mpirun passes it on to its
# ranks (Open MPI does for SIGUSR1/2, SIGTERM and SIGINT). A probe with a
# plain shell in cfdrun's place says whether this one does; where it does not,
# the test could tell nothing about cfdrun and is skipped (77).
mpirun_forwards() {
  local sig=$1 probe=${name}_probe status=0
  rm -rf "$probe" && mkdir "$probe"
  "${launch[@]}" bash -c "trap 'exit 42' $sig; mktemp $probe/ready.XXXXXX >/dev/null; for _ in \$(seq 100); do sleep 0.1; done" &
  local p=$!
  for _ in $(seq 1000); do
    [ "$(ls "$probe" | wc -l)" -ge "$ranks" ] && break
    sleep 0.01
  done
  kill -"$sig" "$p"
  wait "$p" || status=$?
  rm -rf "$probe"
  local killed=$((128 + $(kill -l "$sig")))
  case $status in
  42) return 0 ;;            # the shells saw the signal
  0 | "$killed") return 1 ;; # they ran to their end, or the launcher died of it: not passed on
  *)
    echo "the probe under ${launch[0]} failed with status $status (not a signal question: the launch itself)"
    exit 1
    ;;
  esac
}

case $mode in
signal:*)
  sig=${mode#signal:}
  if [ "$ranks" -gt 0 ] && ! mpirun_forwards "$sig"; then
    echo "SKIPPED: ${launch[0]} does not pass SIG$sig on to its ranks (a shell under it never saw the signal)"
    exit 77
  fi
  "${launch[@]}" "$bin/cfdrun" "$case_file" -q --output "$ref" --set output.every="$every" "$@"
  start_and_wait "$@"
  kill -"$sig" "$pid"
  status=0
  wait "$pid" || status=$?
  if [ "$status" -ne 3 ]; then
    echo "after SIG$sig: exit status $status, expected 3 (stopped, restartable)"
    exit 1
  fi
  checkpoint=$(cd "$out" && ls -- checkpoint_*.h5 | sort | tail -n 1)
  echo "SIG$sig: exit status 3, left $checkpoint"
  "${launch[@]}" "$bin/cfdrun" --restart "$out/$checkpoint" -q
  a=$(final_of "$ref") b=$(final_of "$out")
  [ "$a" = "$b" ] || { echo "final snapshots $a and $b differ in step"; exit 1; }
  "${PYTHON:-python3}" - "$ref/$a" "$out/$b" <<'EOF'
import sys, h5py
a, b = h5py.File(sys.argv[1], "r"), h5py.File(sys.argv[2], "r")
assert sorted(a["fields"]) == sorted(b["fields"])
for name in a["fields"]:
    if a["fields"][name][()].tobytes() != b["fields"][name][()].tobytes():
        sys.exit(f"field {name} differs")
EOF
  cmp <(ls "$ref" | grep -v '^checkpoint_') <(ls "$out" | grep -v '^checkpoint_')
  echo "${name}: stopped by SIG$sig and continued: $b bit for bit, the same files"
  ;;
twice)
  start_and_wait "$@"
  kill -INT "$pid"
  kill -INT "$pid"
  status=0
  wait "$pid" || status=$?
  # A stop that completed before the second signal arrived is fine too.
  if [ "$status" -ne 130 ] && [ "$status" -ne 3 ]; then
    echo "after two SIGINTs: exit status $status, expected 130 (or 3)"
    exit 1
  fi
  if ls "$out" | grep -q '\.tmp$'; then
    echo "unfinished files left: $(ls "$out" | grep '\.tmp$')"
    exit 1
  fi
  for f in "$out"/*.h5; do "${PYTHON:-python3}" -c "import h5py, sys; h5py.File(sys.argv[1], 'r')" "$f"; done
  echo "${name}: two SIGINTs: exit status $status, no unfinished file, $(ls "$out" | grep -c '\.h5$') complete .h5 files"
  ;;
wall:*)
  limit=${mode#wall:}
  begin=$(date +%s.%N)
  status=0
  "${launch[@]}" "$bin/cfdrun" "$case_file" -q --output "$out" --wall-time "$limit" "$@" || status=$?
  elapsed=$(awk -v a="$(date +%s.%N)" -v b="$begin" 'BEGIN { printf "%.3f", a - b }')
  if [ "$status" -ne 3 ]; then
    echo "with --wall-time $limit: exit status $status after $elapsed s, expected 3"
    exit 1
  fi
  if awk -v e="$elapsed" -v l="$limit" 'BEGIN { exit !(e > l + 1) }'; then
    echo "with --wall-time $limit: stopped only after $elapsed s"
    exit 1
  fi
  checkpoint=$(cd "$out" && ls -- checkpoint_*.h5 | sort | tail -n 1)
  echo "${name}: --wall-time $limit stopped after $elapsed s with exit status 3 and $checkpoint"
  ;;
*)
  echo "unknown mode $mode"
  exit 2
  ;;
esac
