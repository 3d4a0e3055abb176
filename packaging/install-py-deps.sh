#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Makes the pinned PyTorch 2.x environment of memviz's tests and benchmarks: a venv of a Python
# 3.11 interpreter with exactly packaging/python-requirements.txt. Prints the venv's python on
# the last line of stdout (packaging/dev.sh passes it to CMake as MEMVIZ_TORCH2_PYTHON).
# Installing twice does nothing: the venv remembers the requirements it was made from.
#
# usage: packaging/install-py-deps.sh [VENV_DIR]
#   VENV_DIR  default $MEMVIZ_PY_ENV, else ${XDG_CACHE_HOME:-~/.cache}/memviz/python-torch2
# Environment:
#   MEMVIZ_PYTHON  the interpreter to make the venv from (default: python3.11, else python3 on
#                  PATH; it must be Python 3.10 or newer)
#   pip's own variables (PIP_INDEX_URL, PIP_EXTRA_INDEX_URL, PIP_FIND_LINKS) choose where the
#   wheels come from: point them at PyTorch's CPU wheel index to avoid the CUDA build's size.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
requirements=$root/packaging/python-requirements.txt
venv=${1:-${MEMVIZ_PY_ENV:-${XDG_CACHE_HOME:-$HOME/.cache}/memviz/python-torch2}}
stamp=$venv/memviz-requirements.sha256
want=$(sha256sum "$requirements" | cut -d' ' -f1)

if [ -x "$venv/bin/python" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
  echo "$venv/bin/python"
  exit 0
fi

# One installer at a time (two builds or a build and a benchmark may start it together); the
# second waits and then finds the stamp written.
mkdir -p "$(dirname "$venv")"
exec 9>"$venv.lock"
flock 9
if [ -x "$venv/bin/python" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
  echo "$venv/bin/python"
  exit 0
fi

python=${MEMVIZ_PYTHON:-$(command -v python3.11 || command -v python3 || true)}
if [ -z "$python" ]; then
  echo "memviz: no python3 on PATH to make the PyTorch 2.x environment from (set MEMVIZ_PYTHON)" >&2
  exit 1
fi
if ! "$python" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)'; then
  echo "memviz: $python is $("$python" --version 2>&1); the PyTorch 2.x environment needs Python 3.10 or newer (set MEMVIZ_PYTHON)" >&2
  exit 1
fi
# Debian's own python3 makes venvs only with python3-venv (ensurepip) installed.
if ! "$python" -c 'import ensurepip, venv' 2>/dev/null; then
  echo "memviz: $python cannot make a venv; installing python3-venv" >&2
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends python3-venv >&2
fi

# A changed requirements file updates the venv in place (pip installs what differs), so a run
# that uses the venv meanwhile keeps its torch; a venv without a working python is made anew.
if "$venv/bin/python" -c 'import sys' 2>/dev/null; then
  echo "memviz: updating the PyTorch 2.x environment in $venv to packaging/python-requirements.txt" >&2
else
  echo "memviz: making the PyTorch 2.x environment in $venv (once; a few minutes)" >&2
  rm -rf "$venv"
  "$python" -m venv "$venv" >&2
fi
# torch first and alone: then nothing that follows can ask pip for another build of it.
"$venv/bin/pip" install --quiet --disable-pip-version-check "$(grep -E '^torch==' "$requirements")" >&2
"$venv/bin/pip" install --quiet --disable-pip-version-check -r "$requirements" >&2
"$venv/bin/python" - "$requirements" >&2 <<'PY'
# Every pin is what is installed (a local build tag such as +cpu aside).
import sys
from importlib.metadata import version
bad = []
for line in open(sys.argv[1]):
    line = line.split("#")[0].strip()
    if not line:
        continue
    name, want = line.split("==")
    have = version(name).split("+")[0]
    if have != want:
        bad.append("%s %s (wanted %s)" % (name, have, want))
if bad:
    sys.exit("memviz: the PyTorch 2.x environment has " + ", ".join(bad))
PY
echo "$want" > "$stamp"
echo "$venv/bin/python"
