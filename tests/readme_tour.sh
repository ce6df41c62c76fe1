#!/usr/bin/env bash
# usage: readme_tour.sh SOURCE_DIR BIN_DIR
#
# Runs the README's "one-minute tour" command by command, as a new user
# would after the set-up, in a fresh folder (config/ and apps/ linked from
# the checkout, $B the build's apps), so that the README cannot drift from
# the tools. Every line as written: no grid, size or file name is changed
# (ctest gives it 5 minutes on the 2-core CI machine, beside other tests).
# `python3` is the tests' Python (a python3 in front on the PATH), as on
# Debian where it is /usr/bin/python3. Every command must exit 0, and the
# published FP32/FP64 numbers must appear where the README quotes them.
set -uo pipefail
src=$(cd "$1" && pwd) bin=$(cd "$2" && pwd)
work=readme_tour
rm -rf "$work"
mkdir -p "$work"
cd "$work" || exit 1
ln -s "$src/config" config
ln -s "$src/apps" apps
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1  # ctest may run as root
if [ -n "${PYTHON:-}" ]; then
  mkdir -p python_on_path
  ln -s "$PYTHON" python_on_path/python3
  export PATH="$PWD/python_on_path:$PATH"
fi
fail() {
  echo "FAIL: $*"
  exit 1
}
tour=$(awk '/^## A one-minute tour/ {on = 1} on && /^```sh/ {inside = 1; next} inside && /^```/ {exit} inside' \
  "$src/README.md")
[ -n "$tour" ] || fail "no tour in README.md"
ran=0
while IFS= read -r line; do
  case $line in "" | "#"*) continue ;; esac
  command=${line%%  #*}  # the comment after two spaces
  if [[ $command == B=* ]]; then
    B=$bin
    continue
  fi
  command=${command//\$B/$bin}
  echo "\$ $command"
  output=$(bash -c "$command" 2>&1 < /dev/null)  # mpirun would read the tour from stdin
  status=$?
  echo "$output" | tail -n 3
  [ $status -eq 0 ] || fail "status $status: $command"$'\n'"$output"
  if [[ $command == *"cfdcompare seed64/diffusion_00000032.h5 seed32/diffusion_00000032.h5"* ]]; then
    for number in 3.949045e-09 1.138846e-07 1.036993e-07; do
      echo "$output" | grep -q "$number" || fail "the README quotes $number; cfdcompare said: $output"
    done
  fi
  ran=$((ran + 1))
done <<< "$tour"
[ $ran -ge 14 ] || fail "only $ran commands in the tour"
[ -s heat/diffusion_00000100.png ] || fail "cfdplot's picture is missing"
[ -n "$(ls kh_llf/euler_*.h5 2> /dev/null)" ] || fail "the branch (kh_llf) wrote no snapshot"
echo "README tour: $ran commands ran in ${SECONDS} s"
