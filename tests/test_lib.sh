# What the shell tests share (sourced): `fail MESSAGE` ends the test with
# status 1; `fresh_work DIR` makes DIR afresh under the working folder and
# enters it.
fail() {
  echo "FAIL: $*"
  exit 1
}
fresh_work() {
  rm -rf "$1"
  mkdir -p "$1"
  cd "$1" || exit 1
}
