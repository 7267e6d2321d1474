#!/usr/bin/env bash
# Idempotent installer for the pyai-abalone opponent (AlphaZero-style Abalone agent, MIT, PyPI).
#
# Usage: setup-pyai-abalone.sh [VENV_DIR]
#   VENV_DIR defaults to ../peers/pyai-venv relative to the repository this script lives in
#   (git top-level of the script's folder; the script's folder itself when not in a git repo).
#   Environment: PYTHON=/path/to/python3.11 to choose the interpreter.
#
# pyai-abalone 1.0.2 requires Python >=3.11 and tensorflow==2.12 (cp311 manylinux wheels exist;
# on x86_64 Linux without CUDA libraries it runs on the CPU). Tested set (pip resolved on
# Python 3.11.7, x86_64): pyai-abalone 1.0.2, tensorflow 2.12.0, keras 2.12.0, numpy 1.23.5,
# protobuf 4.25.9, h5py 3.16.0, jax/jaxlib 0.4.30, ml_dtypes 0.5.4, pygame 2.6.1, colorama 0.4.6.
# Downloads about 700 MB; the venv is about 2.3 GB.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(git -C "$here" rev-parse --show-toplevel 2>/dev/null || echo "$here")"
venv="${1:-$repo/../peers/pyai-venv}"

py="${PYTHON:-}"
if [ -z "$py" ]; then
  for c in python3.11 python3; do
    if command -v "$c" >/dev/null 2>&1 &&
       "$c" -c 'import sys; sys.exit(0 if sys.version_info[:2] == (3, 11) else 1)'; then
      py="$c"; break
    fi
  done
fi
if [ -z "$py" ]; then
  echo "setup-pyai-abalone: Python 3.11 not found (set PYTHON=...)" >&2
  exit 1
fi

check() {
  "$venv/bin/python" - <<'PY' 2>/dev/null
import importlib.metadata as m, sys
ok = (m.version("pyai-abalone") == "1.0.2"
      and m.version("tensorflow").startswith("2.12."))
sys.exit(0 if ok else 1)
PY
}

if [ -x "$venv/bin/python" ] && check; then
  echo "setup-pyai-abalone: $venv already has pyai-abalone 1.0.2 with tensorflow 2.12" >&2
  exit 0
fi

[ -x "$venv/bin/python" ] || "$py" -m venv "$venv"

constraints="$(mktemp)"
trap 'rm -f "$constraints"' EXIT
cat >"$constraints" <<'PINS'
tensorflow==2.12.0
keras==2.12.0
tensorflow-estimator==2.12.0
tensorboard==2.12.3
numpy==1.23.5
protobuf==4.25.9
h5py==3.16.0
jax==0.4.30
jaxlib==0.4.30
ml_dtypes==0.5.4
pygame==2.6.1
colorama==0.4.6
PINS

"$venv/bin/python" -m pip install --quiet --upgrade pip
"$venv/bin/python" -m pip install -c "$constraints" "pyai-abalone==1.0.2" "tensorflow==2.12.0"
"$venv/bin/python" -m pip check
check || { echo "setup-pyai-abalone: install check failed" >&2; exit 1; }
echo "setup-pyai-abalone: installed into $venv" >&2
