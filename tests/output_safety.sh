#!/usr/bin/env bash
# usage: output_safety.sh BIN_DIR CONFIG_DIR CASE
# docs/user-guide.md's guarantees about the output folder and checkpoints
# (#34), each case a class tried with several neighbours:
#   links        links planted under every name cfdrun writes in its folder
#                (.cfdrun.lock, .cfdrun-manifest, <solver>.hst, *.tmp, the
#                XDMF, a snapshot): no file outside the folder is created,
#                changed or removed (a sentinel tree around it is hashed)
#   forged_names a manifest or a checkpoint naming ../ paths: refused, nothing removed
#   special_files only regular files cfdrun created are opened or removed: a
#                named pipe as the manifest (--overwrite waited for ever), a
#                hard link under diffusion.hst (--restart and --overwrite wrote
#                through it), a manifest line naming a user's notes.hst
#                (--overwrite removed it): each refused with status 1
#   user_files   a user's files that carry cfdrun's names are never replaced
#                (diffusion_final.txt without --overwrite; snapshots, checkpoints,
#                the XDMF with --overwrite or --restart); checkpoint_keep's
#                removed names leave the manifest
#   checkpoints  forged counters (NaN time, negative step, series out of order,
#                missing or mis-shaped state) and 40 bit-flipped checkpoints: all
#                exit 2 with a message, never a signal, never a run
#   missing_snapshots  --restart after a snapshot was removed: the XDMF does not list it
#   nothing_to_do a restart with nothing left to do: status 2, no file touched
#   ranks        one rank with a different case, or without its case file, under
#                mpirun: every rank ends with status 2 (no hang; bounded by timeout)
set -uo pipefail
bin=$1 config=$2 case=$3
cfdrun=$bin/cfdrun
py=${PYTHON:-python3}
work=$PWD/output_safety_$case
rm -rf "$work"
mkdir -p "$work"
cd "$work" || exit 1
seed=$config/diffusion_seed.yaml

fail() {
  echo "FAIL: $*"
  exit 1
}
# A sentinel tree around the output folder: its digest before and after.
sentinels() {
  mkdir -p outside/deep
  echo precious > outside/precious.txt
  echo thesis > outside/deep/thesis.tex
}
digest_outside() { (cd outside && find . -type f -o -type l | sort | xargs md5sum) | md5sum; }
# An exit status of the documented ones (0-3), not a signal.
documented() { [ "$1" -ge 0 ] && [ "$1" -le 3 ]; }

# Rewrites the checksum block of a checkpoint after h5py changed it, so
# that the check of the counters is tried, not only the checksum (the same
# digest as core/safe_files.cpp).
restamp() {
  "$py" - "$1" <<'PY'
import sys
path = sys.argv[1]
data = open(path, 'rb').read()
body = data[512:]
M = (1 << 64) - 1
k1, k2, k3 = 0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9
h = 0x27D4EB2F165667C5
def mix(h, w):
    h ^= (w * k1) & M
    h = ((((h << 27) | (h >> 37)) & M) * k2 + k3) & M
    return h
for k in range(0, len(body), 8):
    h = mix(h, int.from_bytes(body[k:k + 8].ljust(8, b'\0'), 'little'))
h = mix(h, len(body))
block = ('cfdrun checksum 1\nlength %d\ndigest %016x\n' % (len(body), h)).encode().ljust(512, b'\0')
open(path, 'r+b').write(block)
PY
}

case $case in
links)
  sentinels
  before=$(digest_outside)
  n=0
  for name in .cfdrun.lock .cfdrun-manifest diffusion.hst diffusion_00000000.h5.tmp diffusion.xdmf.tmp \
    .cfdrun-manifest.tmp checkpoint_00000032.h5.tmp diffusion_final.txt.tmp diffusion.xdmf diffusion_00000032.h5 \
    diffusion_final.txt; do
    for target in ../outside/precious.txt ../outside/new_file.txt ../outside/deep; do
      rm -rf o
      mkdir o
      ln -s "$target" "o/$name"
      out=$("$cfdrun" "$seed" -q --output o --set output.checkpoint_every=16 2>&1)
      status=$?
      documented $status || fail "$name -> $target: status $status: $out"
      [ "$(digest_outside)" = "$before" ] || fail "$name -> $target changed a file outside the folder: $out"
      [ -e outside/new_file.txt ] && fail "$name -> $target created a file outside the folder"
      if [ $status -ne 0 ]; then
        echo "$out" | grep -Eq "symbolic link|no cfdrun run in this folder wrote|holds results" ||
          fail "$name -> $target: the message does not say why: $out"
      fi
      n=$((n + 1))
    done
  done
  # The same with --overwrite over an earlier run, and with --restart.
  "$cfdrun" "$seed" -q --output r --set output.checkpoint_every=16 || fail "the earlier run failed"
  for name in .cfdrun.lock .cfdrun-manifest diffusion.hst diffusion_00000032.h5.tmp checkpoint_00000032.h5.tmp; do
    rm -rf "r/$name"
    ln -s ../outside/precious.txt "r/$name"
    out=$("$cfdrun" "$seed" -q --output r --overwrite --set output.checkpoint_every=16 2>&1)
    documented $? || fail "--overwrite with $name linked: $out"
    out=$("$cfdrun" --restart r/checkpoint_00000016.h5 -q 2>&1)
    documented $? || fail "--restart with $name linked: $out"
    [ "$(digest_outside)" = "$before" ] || fail "--overwrite/--restart through $name changed a file outside: $out"
    n=$((n + 2))
    rm -f "r/$name"
    "$cfdrun" "$seed" -q --output r --overwrite --set output.checkpoint_every=16 >/dev/null 2>&1
  done
  echo "$n runs with links planted in the output folder; nothing outside it changed"
  ;;
forged_names)
  sentinels
  before=$(digest_outside)
  "$cfdrun" "$seed" -q --output o || fail "the first run failed"
  for forged in ../outside/precious.txt ../outside/deep /etc/hostname .. . diffusion.hst/../../outside/precious.txt; do
    cp o/.cfdrun-manifest manifest.good
    echo "$forged" >> o/.cfdrun-manifest
    out=$("$cfdrun" "$seed" -q --output o --overwrite 2>&1)
    status=$?
    [ $status -ne 0 ] || fail "a manifest naming $forged was followed"
    echo "$out" | grep -q "is not the name of a file cfdrun writes" || fail "message for $forged: $out"
    [ "$(digest_outside)" = "$before" ] || fail "a manifest naming $forged changed a file outside"
    cp manifest.good o/.cfdrun-manifest
  done
  # A checkpoint whose kept list names a file outside: refused at --restart.
  "$cfdrun" "$seed" -q --output c --set output.checkpoint_every=8 || fail "the checkpointing run failed"
  for forged in ../outside/precious.txt ../outside/deep/thesis.tex checkpoint_1.h5 "checkpoint_00000008.h5
../outside/precious.txt"; do
    cp c/checkpoint_00000016.h5 forged.h5
    "$py" -c "
import h5py, sys
with h5py.File('forged.h5', 'r+') as f:
    f.attrs['kept_checkpoints'] = sys.argv[1]
" "$forged" || fail "h5py could not forge"
    restamp forged.h5
    cp forged.h5 c/checkpoint_00000016.h5.forged
    mv c/checkpoint_00000016.h5 c/checkpoint_00000016.h5.good
    cp forged.h5 c/checkpoint_00000016.h5
    out=$("$cfdrun" --restart c/checkpoint_00000016.h5 -q --set output.checkpoint_keep=1 2>&1)
    status=$?
    [ $status -eq 2 ] || fail "kept_checkpoints '$forged': status $status: $out"
    echo "$out" | grep -q "is not a checkpoint's name" || fail "kept_checkpoints '$forged': $out"
    mv c/checkpoint_00000016.h5.good c/checkpoint_00000016.h5
    rm -f c/checkpoint_00000016.h5.forged
  done
  [ "$(digest_outside)" = "$before" ] || fail "a forged checkpoint changed a file outside"
  echo "forged manifests and kept-checkpoint lists refused; nothing outside changed"
  ;;
special_files)
  "$cfdrun" "$seed" -q --output o --set output.checkpoint_every=16 || fail "the first run failed"
  # A named pipe as the manifest of an earlier run: refused at once, not read.
  cp -r o p
  rm p/.cfdrun-manifest
  mkfifo p/.cfdrun-manifest || fail "mkfifo"
  # (-k: cfdrun takes SIGTERM as a request to stop at the next step, and
  # one waiting in open never gets there.)
  out=$(timeout -k 5 60 "$cfdrun" "$seed" -q --output p --overwrite 2>&1)
  status=$?
  [ $status -ne 124 ] && [ $status -ne 137 ] || fail "--overwrite waited on a named pipe as the manifest"
  [ $status -eq 1 ] || fail "a pipe as the manifest: status $status: $out"
  echo "$out" | grep -q "is a named pipe (FIFO)" || fail "a pipe as the manifest: $out"
  [ -p p/.cfdrun-manifest ] || fail "the pipe is gone"
  # A hard link under the history's name, its other name outside the folder.
  sentinels
  ln o/diffusion.hst outside/history.hst || fail "ln"
  before=$(digest_outside)
  # refused LABEL WHAT MESSAGE, then cfdrun's arguments: status 1 with MESSAGE.
  refused() {
    local label=$1 what=$2 message=$3
    shift 3
    out=$("$cfdrun" "$@" -q 2>&1)
    status=$?
    [ $status -eq 1 ] || fail "$label with $what: status $status: $out"
    echo "$out" | grep -q "$message" || fail "$label: $out"
  }
  hard_linked() { # label, then cfdrun's arguments
    refused "$1" "diffusion.hst hard-linked" "diffusion.hst: is a hard link" "${@:2}"
    [ "$(digest_outside)" = "$before" ] || fail "$1 wrote through the hard link diffusion.hst"
  }
  hard_linked --restart --restart o/checkpoint_00000016.h5
  hard_linked --overwrite "$seed" --output o --overwrite
  rm outside/history.hst
  # A line naming a user's file added to the manifest.
  echo "my notes" > o/notes.hst
  echo notes.hst >> o/.cfdrun-manifest
  named() { # label, then cfdrun's arguments
    refused "$1" "notes.hst in the manifest" "'notes.hst' is not the name of a file cfdrun writes" "${@:2}"
    [ "$(cat o/notes.hst)" = "my notes" ] || fail "$1 changed or removed notes.hst"
  }
  named --overwrite "$seed" --output o --overwrite
  named --restart --restart o/checkpoint_00000016.h5
  echo "a pipe as the manifest, a hard-linked history and a manifest naming notes.hst: refused, nothing touched"
  ;;
user_files)
  mkdir a
  echo "the original's result" > a/diffusion_final.txt
  out=$("$cfdrun" "$seed" -q --output a 2>&1) && fail "a folder holding diffusion_final.txt was not refused"
  echo "$out" | grep -q "already holds results" || fail "message: $out"
  out=$("$cfdrun" "$seed" -q --output a --overwrite 2>&1) && fail "--overwrite replaced a user's diffusion_final.txt"
  echo "$out" | grep -q "no cfdrun run in this folder wrote it" || fail "message: $out"
  [ "$(cat a/diffusion_final.txt)" = "the original's result" ] || fail "the user's diffusion_final.txt changed"
  for name in diffusion_00000000.h5 checkpoint_00000010.h5 diffusion.xdmf diffusion.hst; do
    rm -rf b
    mkdir b
    echo mine > "b/$name"
    out=$("$cfdrun" "$seed" -q --output b --overwrite --set output.checkpoint_every=10 2>&1) &&
      fail "--overwrite replaced a user's $name"
    [ "$(cat "b/$name")" = mine ] || fail "the user's $name changed"
  done
  # A user's file given a name cfdrun wrote and later removed (checkpoint_keep).
  "$cfdrun" "$seed" -q --output k --set output.checkpoint_every=8 --set output.checkpoint_keep=1 ||
    fail "the keeping run failed"
  grep -q checkpoint_00000008.h5 k/.cfdrun-manifest && fail "a removed checkpoint is still in the manifest"
  echo mine > k/checkpoint_00000008.h5
  out=$("$cfdrun" "$seed" -q --output k --overwrite 2>&1) && fail "--overwrite replaced a user's checkpoint_00000008.h5"
  [ "$(cat k/checkpoint_00000008.h5)" = mine ] || fail "the user's checkpoint_00000008.h5 changed"
  # --restart: a user's file with the name of a snapshot after the checkpoint.
  "$cfdrun" "$seed" -q --output r --set output.checkpoint_every=16 --set output.every=8 || fail "the run failed"
  rm r/diffusion_00000024.h5
  sed -i '/diffusion_00000024.h5/d' r/.cfdrun-manifest
  echo mine > r/diffusion_00000024.h5
  out=$("$cfdrun" --restart r/checkpoint_00000016.h5 -q 2>&1) && fail "--restart replaced a user's snapshot"
  [ "$(cat r/diffusion_00000024.h5)" = mine ] || fail "the user's diffusion_00000024.h5 changed"
  echo "user files with cfdrun's names kept in 8 set-ups"
  ;;
checkpoints)
  "$cfdrun" "$seed" -q --output c --set output.checkpoint_every=16 || fail "the run failed"
  good=c/checkpoint_00000016.h5
  "$cfdrun" --restart $good -q --output c2 >/dev/null 2>&1
  forge() { # attribute-or-dataset python-statement
    cp $good c/forged.h5
    "$py" -c "
import h5py, numpy as np
with h5py.File('c/forged.h5', 'r+') as f:
    $1
" || fail "h5py: $1"
    restamp c/forged.h5
  }
  n=0
  for statement in "f.attrs['time'] = np.nan" "f.attrs['clock.time'] = np.nan" "f.attrs['step'] = -5" \
    "f.attrs['time'] = -1.0" "del f['series/step']; f['series/step'] = np.array([16, 0])" \
    "del f['series/step']; f['series/step'] = np.array([0, 400])" \
    "del f['series/time']; f['series/time'] = np.array([0.0, np.inf])" \
    "f.attrs['outputs_done'] = -3" "f.attrs['history_bytes'] = -7" "f.attrs['history_file'] = '../x.hst'" \
    "f.attrs['series_bytes'] = 3" "del f['state/u']" "d = f['state/u'][:]; del f['state/u']; f['state/u'] = d[:-1]" \
    "d = f['state/u'][:]; del f['state/u']; f['state/u'] = d.ravel()" "f.attrs['state_fields'] = 'u,../v'" \
    "f.attrs['checkpoint_format'] = 7" "f.attrs['global_nx'] = 0" "f.attrs['step'] = 10**18" \
    "f.attrs['clock.step'] = 15.0" "f.attrs['clock.step'] = 16.5" "f.attrs['solver'] = np.bytes_(b'sod')"; do
    forge "$statement"
    out=$(timeout 60 "$cfdrun" --restart c/forged.h5 -q 2>&1)
    status=$?
    [ $status -eq 2 ] || fail "[$statement]: status $status: $out"
    echo "$out" | grep -q "cannot restart from this file" || fail "[$statement]: $out"
    n=$((n + 1))
  done
  # Damage without a new checksum: any flipped byte is found.
  size=$(stat -c %s $good)
  for k in $(seq 1 40); do
    cp $good c/flipped.h5
    offset=$(((k * 2654435761) % size))
    "$py" -c "
import sys
f = open('c/flipped.h5', 'r+b'); f.seek(int(sys.argv[1])); b = f.read(1); f.seek(int(sys.argv[1]))
f.write(bytes([b[0] ^ (1 << (int(sys.argv[2]) % 8))])); f.close()" $offset $k
    out=$(timeout 60 "$cfdrun" --restart c/flipped.h5 -q 2>&1)
    status=$?
    [ $status -eq 2 ] || fail "byte $offset flipped: status $status: $out"
    echo "$out" | grep -q "damaged" || fail "byte $offset flipped: $out"
    n=$((n + 1))
  done
  # Cut short, and grown.
  head -c $((size - 100)) $good > c/short.h5
  cat $good /dev/null > c/long.h5 && echo extra >> c/long.h5
  for f in c/short.h5 c/long.h5; do
    out=$("$cfdrun" --restart $f -q 2>&1)
    [ $? -eq 2 ] || fail "$f: $out"
    n=$((n + 1))
  done
  # Format 1 (an older cfdrun: no user block, no checksum): read with a
  # warning; damaged, it is read first in a guarded child, so that any
  # flipped bit ends with a documented status (0: the damage was in values
  # or unused bytes; 2: refused), never a signal or a hang (the build before
  # crashed on 1 of these 120, by SIGSEGV inside HDF5).
  "$py" -c "
import h5py
with h5py.File('$good', 'r') as a, h5py.File('c/format1.h5', 'w') as b:
    for k, v in a.attrs.items():
        b.attrs[k] = v
    for k in a:
        a.copy(k, b)
    b.attrs['checkpoint_format'] = 1
" || fail "h5py could not write a format-1 checkpoint"
  out=$("$cfdrun" --restart c/format1.h5 -q --output f1 2>&1) || fail "the intact format-1 checkpoint was refused: $out"
  echo "$out" | grep -q "format-1 checkpoint (an older cfdrun) without a checksum" || fail "no format-1 warning: $out"
  size=$(stat -c %s c/format1.h5)
  refused=0
  for k in $(seq 1 120); do
    cp c/format1.h5 c/f1.h5
    offset=$(((k * 2654435761) % size))
    "$py" -c "
import sys
f = open('c/f1.h5', 'r+b'); f.seek(int(sys.argv[1])); b = f.read(1); f.seek(int(sys.argv[1]))
f.write(bytes([b[0] ^ (1 << (int(sys.argv[2]) % 8))])); f.close()" $offset $k
    rm -rf f1x
    out=$(timeout 60 "$cfdrun" --restart c/f1.h5 -q --output f1x 2>&1)
    status=$?
    [ $status -le 3 ] || fail "format 1, byte $offset flipped: status $status: $out"
    [ $status -eq 0 ] || refused=$((refused + 1))
    n=$((n + 1))
  done
  echo "format 1: 120 flipped bits, $refused refused, the rest continued; no signal, no hang"
  # The good one still continues, and h5py reads it (the user block is invisible).
  "$cfdrun" --restart $good -q || fail "the intact checkpoint was refused"
  "$py" -c "import h5py; h5py.File('$good', 'r')['state/u'][:]" || fail "h5py cannot read a checkpoint"
  echo "$n damaged or forged checkpoints refused with status 2; the intact one continues"
  ;;
missing_snapshots)
  "$cfdrun" "$seed" -q --output m --set output.every=8 --set output.checkpoint_every=16 || fail "the run failed"
  rm m/diffusion_00000008.h5
  "$cfdrun" --restart m/checkpoint_00000016.h5 -q || fail "the restart failed"
  grep -q diffusion_00000008.h5 m/diffusion.xdmf && fail "the XDMF lists a snapshot that is not there"
  grep -q diffusion_00000032.h5 m/diffusion.xdmf || fail "the XDMF lacks the last snapshot"
  for f in $(grep -o 'diffusion_[0-9]*\.h5' m/diffusion.xdmf | sort -u); do
    [ -e "m/$f" ] || fail "the XDMF names $f, which is not there"
  done
  echo "the XDMF lists only snapshots that exist: $(grep -o 'diffusion_[0-9]*\.h5' m/diffusion.xdmf | sort -u | tr '\n' ' ')"
  ;;
nothing_to_do)
  # A restart of a finished run, or to an end at or before the checkpoint:
  # status 2, and the history and the final snapshot are left as they were.
  "$cfdrun" "$seed" -q --output s --set output.checkpoint_every=16 || fail "the run failed"
  before=$(cd s && md5sum diffusion.hst diffusion_00000032.h5 diffusion.xdmf .cfdrun-manifest)
  for args in "--restart s/checkpoint_00000032.h5" "--restart s/checkpoint_00000016.h5 --set time.steps=16" \
    "--restart s/checkpoint_00000016.h5 --set time.steps=8"; do
    out=$("$cfdrun" $args -q 2>&1)
    status=$?
    [ $status -eq 2 ] || fail "$args: status $status: $out"
    echo "$out" | grep -q "error: nothing to do: the checkpoint is at step" || fail "$args: $out"
    [ "$(cd s && md5sum diffusion.hst diffusion_00000032.h5 diffusion.xdmf .cfdrun-manifest)" = "$before" ] ||
      fail "$args changed the run's files"
  done
  "$cfdrun" --restart s/checkpoint_00000032.h5 -q --set time.steps=40 || fail "a later end was refused"
  tail -n 1 s/diffusion.hst | grep -q "^40," || fail "the continued history does not end at step 40"
  echo "restarts with nothing to do refused, files untouched; a later end continues: $out"
  ;;
ranks)
  mpiexec=${MPIEXEC:-mpirun}
  command -v "$mpiexec" >/dev/null || { echo "skipped: no mpirun"; exit 77; }
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
  cp "$seed" case_0.yaml
  sed 's/nx: 31/nx: 33/' "$seed" > case_1.yaml
  sed 's/steps: 32/steps: 30/' "$seed" > case_2.yaml
  run_ranks() { # n label command...
    local n=$1 label=$2
    shift 2
    out=$(timeout 120 "$mpiexec" -n "$n" bash -c "$*" 2>&1)
    status=$?
    [ $status -ne 124 ] || fail "$label: hung (timeout)"
    [ $status -eq 2 ] || fail "$label: status $status: $out"
    echo "$label: status 2: $(echo "$out" | grep -m1 error)"
  }
  r='${OMPI_COMM_WORLD_RANK}'
  run_ranks 2 "grid.nx differs on rank 1" "$cfdrun case_$r.yaml -q --output d1 --kokkos-threads=1"
  run_ranks 3 "time.steps differs on rank 2" "$cfdrun case_$r.yaml -q --output d2 --kokkos-threads=1"
  run_ranks 2 "the case file is missing on rank 1" \
    "if [ $r = 0 ]; then c=case_0.yaml; else c=missing.yaml; fi; $cfdrun \$c -q --output d3 --kokkos-threads=1"
  run_ranks 2 "a bad value on rank 0 only" \
    "$cfdrun case_0.yaml -q --output d4 --kokkos-threads=1 \$([ $r = 0 ] && echo --set grid.nx=-4)"
  run_ranks 2 "the output folder differs on rank 1" "$cfdrun case_0.yaml -q --output d5_$r --kokkos-threads=1"
  ;;
*)
  echo "unknown case $case"
  exit 2
  ;;
esac
