#!/usr/bin/env bash
# usage: ranks.sh BIN_DIR NAME "FIELDS" "RANKS" CASE.yaml [cfdrun options...]
# Runs CASE once on each rank count of RANKS (the first is the reference,
# normally 1) under mpirun, and passes when the final snapshot of every
# other run equals the reference's bit for bit in every field of FIELDS
# (cfdcompare at zero tolerance), holds the rank count in its attributes,
# and any text output (*_final.txt) is byte for byte the same. The reference
# run drops the options that fix a process grid (--set parallel.*).
# Environment: RANKS_TOLERANCE (cfdcompare options, default "--atol 0 --rtol 0")
# for results that agree to a solver tolerance rather than bit for bit, and
# RANKS_SAME_COLUMN, a column of the history file (<solver>.hst) that must be
# the same on every rank count (e.g. the implicit solver's cg_iterations).
set -euo pipefail
bin=$1 name=$2 fields=$3 ranks=$4 case_file=$5
shift 5
# Open MPI refuses root without these (CI runs as root); one OpenMP thread a
# rank, since ranks outnumber the cores.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1 OMP_PROC_BIND=false
export OMPI_MCA_rmaps_base_oversubscribe=1

all_args=("$@") reference_args=()
while [ $# -gt 0 ]; do
  if [ "$1" = --set ] && [ $# -gt 1 ] && [[ $2 == parallel.* ]]; then
    shift 2
    continue
  fi
  reference_args+=("$1")
  shift
done

reference=""
for n in $ranks; do
  out=${name}_np$n
  rm -rf "$out"
  if [ -z "$reference" ]; then
    args=("${reference_args[@]}")
  else
    args=("${all_args[@]}")
  fi
  "${MPIEXEC:-mpirun}" -np "$n" "$bin/cfdrun" "$case_file" -q --output "$out" "${args[@]}"
  final=$(cd "$out" && ls -- *.h5 | sort | tail -n 1)
  if [ -z "$reference" ]; then
    reference=$out ref_final=$final
    continue
  fi
  if [ "$final" != "$ref_final" ]; then
    echo "$n ranks: last snapshot $final, 1 rank: $ref_final (different step counts)"
    exit 1
  fi
  for field in $fields; do
    # shellcheck disable=SC2086 # the tolerance is several options
    if ! "$bin/cfdcompare" "$reference/$final" "$out/$final" --field "$field" ${RANKS_TOLERANCE:---atol 0 --rtol 0} -q; then
      echo "$n ranks: field $field of $final differs from the reference:"
      # shellcheck disable=SC2086
      "$bin/cfdcompare" "$reference/$final" "$out/$final" --field "$field" ${RANKS_TOLERANCE:---atol 0 --rtol 0} || true
      exit 1
    fi
  done
  if [ -n "${RANKS_SAME_COLUMN:-}" ]; then
    column() {
      awk -F, -v name="$RANKS_SAME_COLUMN" '/^#/ { next } !c { for (k = 1; k <= NF; k++) if ($k == name) c = k; next }
        { print $c }' "$1"/*.hst
    }
    if [ -z "$(column "$reference")" ] || [ "$(column "$reference")" != "$(column "$out")" ]; then
      echo "$n ranks: history column $RANKS_SAME_COLUMN differs from the reference (or is missing):"
      paste -d' ' <(column "$reference") <(column "$out") | head -n 20
      exit 1
    fi
    echo "$n ranks: history column $RANKS_SAME_COLUMN the same: $(column "$out" | paste -sd' ' | cut -c1-80)"
  fi
  for text in "$reference"/*_final.txt; do
    [ -z "${RANKS_TOLERANCE:-}" ] || break # text in print precision: only bit-for-bit runs match byte for byte
    [ -e "$text" ] || continue
    cmp "$text" "$out/$(basename "$text")"
  done
  writer=$("${PYTHON:-python3}" - "$out/$final" "$n" <<'EOF'
import sys, h5py
f = h5py.File(sys.argv[1], "r")
assert int(f.attrs["ranks"]) == int(sys.argv[2]), (f.attrs["ranks"], sys.argv[2])
w = f.attrs["writer"]
print(w.decode() if isinstance(w, bytes) else w)
EOF
  )
  echo "$n ranks: $final agrees (${RANKS_TOLERANCE:-bit for bit}; $fields), written by $writer"
done
echo "${name}: all rank counts agree"
