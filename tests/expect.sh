#!/usr/bin/env bash
# usage: expect.sh EXIT_STATUS REGEX -- COMMAND [ARGS...]
# Runs COMMAND and passes when it exits with EXIT_STATUS and its output
# (stdout and stderr together) matches the extended regular expression REGEX.
set -u
want=$1 pattern=$2
shift 3
output=$("$@" 2>&1)
got=$?
if [ "$got" -ne "$want" ]; then
  printf 'expected exit status %s, got %s; output:\n%s\n' "$want" "$got" "$output"
  exit 1
fi
if ! grep -Ezq -- "$pattern" <<<"$output"; then
  printf 'output does not match /%s/:\n%s\n' "$pattern" "$output"
  exit 1
fi
exit 0
