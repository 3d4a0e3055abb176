# SPDX-License-Identifier: MIT
"""Shared setup of the probe package's tests: the package is imported from this checkout,
pytester runs inner pytest sessions in subprocesses, and missing tools skip here but fail
with MEMVIZ_REQUIRE_ORACLES=1 (as in CI, like tests/TestSupport.h's MEMVIZ_SKIP_OR_FAIL)."""

import os
import shutil
import sys

import pytest

PACKAGE_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPO_ROOT = os.path.dirname(os.path.dirname(PACKAGE_ROOT))
if PACKAGE_ROOT not in sys.path:
    sys.path.insert(0, PACKAGE_ROOT)
os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (PACKAGE_ROOT, os.environ.get("PYTHONPATH")) if p)

pytest_plugins = ["pytester"]

# Imported once here: pytester restores sys.modules after each test, and PyTorch cannot be
# imported a second time into one interpreter.
try:
    import torch as _torch
    _torch_error = None
except ImportError as e:
    _torch, _torch_error = None, e


def skip_or_fail(why):
    if os.environ.get("MEMVIZ_REQUIRE_ORACLES") == "1":
        pytest.fail("%s (MEMVIZ_REQUIRE_ORACLES=1: CI must have it)" % why, pytrace=False)
    pytest.skip(why)


@pytest.fixture
def torch():
    if _torch is None:
        skip_or_fail("PyTorch is not importable by %s: %s" % (sys.executable, _torch_error))
    return _torch


@pytest.fixture
def memviz():
    """The memviz binary: $MEMVIZ_BINARY (ctest sets it), else memviz on PATH."""
    path = os.environ.get("MEMVIZ_BINARY") or shutil.which("memviz")
    if not path or not os.access(path, os.X_OK):
        skip_or_fail("no memviz binary (set MEMVIZ_BINARY)")
    return path
