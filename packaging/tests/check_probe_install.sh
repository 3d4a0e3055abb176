#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The probe package as `cmake --install` (and so the .deb) lays it out, checked without root:
# installed into a scratch prefix, the package and its .dist-info are where Debian's python3
# looks, Python's importlib.metadata reads the version and the pytest11 entry point, pytest
# loads the plugin through that entry point alone (no -p), python3 -m memviz_probe runs, and
# the copy for `memviz record --pid --probe` holds the same modules.
# usage: check_probe_install.sh BUILD_DIR VERSION
set -euo pipefail
build=$1 version=$2
python=/usr/bin/python3
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cmake --install "$build" --prefix "$scratch/usr" >"$scratch/install.log" 2>&1 || { cat "$scratch/install.log"; exit 1; }
site=$scratch/usr/lib/python3/dist-packages
failures=0
check() { local what=$1; shift; if "$@" >"$scratch/out" 2>&1; then echo "ok    $what"; else echo "FAIL  $what"; sed 's/^/      /' "$scratch/out"; failures=$((failures + 1)); fi; }

check "the package in dist-packages" test -s "$site/memviz_probe/__init__.py"
check "its .dist-info: METADATA, entry_points.txt" test -s "$site/memviz_probe-$version.dist-info/METADATA" -a -s "$site/memviz_probe-$version.dist-info/entry_points.txt"
check "the attach copy holds the same modules" diff <(cd "$site/memviz_probe" && ls *.py) <(cd "$scratch/usr/share/memviz/python/memviz_probe" && ls *.py)
check "no other folder in the attach copy's sys.path entry" test "$(ls "$scratch/usr/share/memviz/python")" = memviz_probe
cd "$scratch"
export PYTHONPATH=$site PYTHONDONTWRITEBYTECODE=1
check "importlib.metadata: memviz-probe $version with the pytest11 entry point" "$python" -c "
import importlib.metadata as m, sys
d = m.distribution('memviz-probe')
eps = [(e.name, e.value) for e in d.entry_points if e.group == 'pytest11']
print(d.version, eps)
sys.exit(0 if d.version == '$version' and eps == [('memviz_probe.pytest', 'memviz_probe.pytest')] else 1)"
check "python3 -m memviz_probe --help" bash -c "'$python' -m memviz_probe --help | grep -q 'usage: python3 -m memviz_probe'"
if "$python" -c 'import pytest' 2>/dev/null; then
  check "pytest --help lists the plugin's options through its entry point" bash -c \
    "'$python' -m pytest -p no:cacheprovider --help | grep -q -- '--memviz-record=DIR'"
elif [ "${MEMVIZ_REQUIRE_ORACLES:-0}" = 1 ]; then
  echo "FAIL  pytest is not installed (python3-pytest)"; failures=$((failures + 1))
else
  echo "skip  pytest is not installed (python3-pytest)"
fi
echo "== $failures failure(s)"
[ "$failures" -eq 0 ]
