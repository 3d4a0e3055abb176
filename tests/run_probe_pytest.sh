#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# ctest's probe_pytest: the memviz_probe package's own tests (python/memviz_probe/tests, the
# pytest plugin included) under Debian's /usr/bin/python3 with its PyTorch and pytest, or under
# MEMVIZ_TEST_PYTHON (probe_pytest_torch2: the pinned PyTorch 2.x environment,
# packaging/install-py-deps.sh).
# usage: run_probe_pytest.sh SOURCE_DIR MEMVIZ_BINARY
# Without pytest it skips (exit 77, ctest's SKIP_RETURN_CODE), except with
# MEMVIZ_REQUIRE_ORACLES=1 (CI), where it fails; missing torch or memviz is handled the same
# way inside the tests (conftest.py).
set -euo pipefail
source_dir=$1
export MEMVIZ_BINARY=$2
python=${MEMVIZ_TEST_PYTHON:-/usr/bin/python3}
if ! "$python" -c 'import pytest' 2>/dev/null; then
  echo "pytest is not installed for $python (Debian: apt install python3-pytest, listed in packaging/install-deps.sh; the PyTorch 2.x environment: packaging/install-py-deps.sh)"
  [ "${MEMVIZ_REQUIRE_ORACLES:-0}" = 1 ] && exit 1
  exit 77
fi
export PYTHONPATH=$source_dir/python/memviz_probe${PYTHONPATH:+:$PYTHONPATH}
export PYTHONDONTWRITEBYTECODE=1
cd "$source_dir/python/memviz_probe"
exec "$python" -m pytest -q -p no:cacheprovider -rs tests
