#!/usr/bin/env bash
# usage: needs.sh [--python PYTHON [--modules MODULE,...]] [--tools TOOL,...] -- COMMAND [ARGS...]
# Runs COMMAND in place of this script when PYTHON imports every MODULE and
# every TOOL is a program (a name on the PATH, or a path). Otherwise it says
# what is missing and where it comes from, and exits 77: the tests that go
# through it are registered with SKIP_RETURN_CODE 77, so ctest reports them
# as skipped on a machine without them, neither passed nor failed.
set -u
python="" modules="" tools=""
while [ $# -gt 0 ]; do
  case $1 in
  --python) python=$2 && shift 2 ;;
  --modules) modules=$2 && shift 2 ;;
  --tools) tools=$2 && shift 2 ;;
  --) shift && break ;;
  *)
    echo "needs.sh: unknown argument '$1'" >&2
    exit 2
    ;;
  esac
done
[ $# -gt 0 ] || {
  echo "needs.sh: no command after --" >&2
  exit 2
}

# The Debian package that brings a module or a program.
debian_of() {
  case $1 in
  h5py | numpy | matplotlib | paraview | xarray | yt | yaml | jsonschema | setuptools) echo "python3-$1" ;;
  ensurepip | venv) echo python3-venv ;;
  pvbatch | pvpython) echo python3-paraview ;;
  xvfb-run) echo xvfb ;;
  ffmpeg | ffprobe) echo ffmpeg ;;
  *) echo "$1" ;;
  esac
}

missing=() packages=() hint=""
if [ -n "$python" ]; then
  if ! command -v "$python" >/dev/null 2>&1; then
    missing+=("a Python 3 interpreter ($python)")
    packages+=(python3)
  elif [ -n "$modules" ]; then
    # Each module imported on its own: a broken one (built for another numpy, say) counts as missing.
    # shellcheck disable=SC2046
    absent=$("$python" - $(tr ',' ' ' <<<"$modules") <<'EOF' 2>/dev/null
import importlib, sys
for name in sys.argv[1:]:
    try:
        importlib.import_module(name)
    except Exception as e:
        print(f"{name} ({type(e).__name__}: {e})".replace("\n", " "))
EOF
    ) || absent="$(tr ',' ' ' <<<"$modules") (the interpreter did not run)"
    while IFS= read -r line; do
      [ -n "$line" ] || continue
      missing+=("the Python module ${line} in $python")
      hint="; or configure with -DCFDRUN_TEST_PYTHON=/path/to/python3 for a Python that has it"
      packages+=("$(debian_of "${line%% *}")")
    done <<<"$absent"
  fi
fi
IFS=',' read -r -a wanted <<<"$tools"
for tool in "${wanted[@]}"; do
  [ -n "$tool" ] || continue
  if ! command -v "$tool" >/dev/null 2>&1; then
    missing+=("$tool")
    packages+=("$(debian_of "$(basename "$tool")")")
  fi
done

if [ ${#missing[@]} -gt 0 ]; then
  list=$(printf '%s; ' "${missing[@]}")
  debian=$(printf '%s\n' "${packages[@]}" | awk '!seen[$0]++' | tr '\n' ' ')
  echo "SKIPPED: this test needs ${list%; } (Debian: apt-get install ${debian% }${hint})"
  exit 77
fi
exec "$@"
