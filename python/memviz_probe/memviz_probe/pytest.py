# SPDX-License-Identifier: MIT
"""The memviz pytest plugin (entry point `pytest11`, or `-p memviz_probe.pytest` from a
checkout): records each test's PyTorch memory and holds tests to memory budgets.

    pytest --memviz-record DIR      one memviz allocation log per test in DIR (memviz import)
    pytest --memviz-baseline DIR    the recordings that growth= budgets compare with

    @pytest.mark.memory_budget(peak="2GiB", growth="5%")

What is measured: the test function's call (not its fixtures), through PyTorch's allocator
reports (allocations.py): on each device the most bytes the test's own allocations held at
once, and the operators holding them at that moment. A test over budget fails with a message
naming the biggest operators; a budget that cannot be checked (unknown units, no baseline,
devices that differ) is an error of that test, never a pass. docs/pytest.md says more."""

import hashlib
import os
import re

import pytest

from .budget import Budget, BudgetUsageError, check
from .units import format_bytes

_MARKER = "memory_budget"


def pytest_addoption(parser):
    group = parser.getgroup("memviz", "memviz: PyTorch memory per test (memviz_probe)")
    group.addoption("--memviz-record", metavar="DIR", default=None,
                    help="record each test's PyTorch memory into DIR, one memviz allocation log per test "
                         "(open it with: memviz import DIR/FILE)")
    group.addoption("--memviz-baseline", metavar="DIR", default=None,
                    help="recordings of an earlier --memviz-record run that memory_budget(growth=...) "
                         "compares each test with (matched by test id)")


def pytest_configure(config):
    config.addinivalue_line(
        "markers",
        "memory_budget(peak=None, growth=None): fail the test when its PyTorch memory peak is over "
        "`peak` (a size: 2GiB, 500MB, bytes) or grew by more than `growth` (5% or a size) over its "
        "--memviz-baseline recording (memviz_probe)")
    record = config.getoption("--memviz-record", None)
    if record:
        try:
            os.makedirs(record, exist_ok=True)
        except OSError as e:
            raise pytest.UsageError("--memviz-record %s: cannot create the folder (%s)" % (record, e))
        try:
            import torch  # noqa: F401
        except ImportError as e:
            raise pytest.UsageError("--memviz-record records PyTorch's memory, but PyTorch is not importable (%s)" % e)
    baseline = config.getoption("--memviz-baseline", None)
    if baseline and not os.path.isdir(baseline):
        raise pytest.UsageError("--memviz-baseline %s: no such folder (record one with --memviz-record)" % baseline)
    config._memviz_recorded = []


def recording_name(nodeid):
    """The file of a test's recording: its id made safe for a file name, and a hash of the
    id so that two ids never share a file. The same id gives the same name in every run."""
    safe = re.sub(r"[^A-Za-z0-9._-]+", "_", nodeid).strip("_.")[:120] or "test"
    return "%s-%s.jsonl" % (safe, hashlib.sha1(nodeid.encode("utf-8")).hexdigest()[:8])


def _torch():
    try:
        import torch
        return torch
    except ImportError as e:
        problem = "memviz_probe: PyTorch is needed to record memory (%s)" % e
    pytest.fail(problem, pytrace=False)


def pytest_runtest_setup(item):
    item._memviz_budget = None
    item._memviz_baseline = None
    item._memviz_problem = None
    marker = item.get_closest_marker(_MARKER)
    if marker is None:
        return
    try:
        budget, problem = Budget.from_marker(marker), None
    except BudgetUsageError as e:
        problem = str(e)
    if problem:
        pytest.fail(problem, pytrace=False)
    if budget.growth is not None:
        # Without a baseline the test still runs (and is recorded: that is how baselines are
        # made), then fails as unchecked.
        folder = item.config.getoption("--memviz-baseline", None)
        path = os.path.join(folder, recording_name(item.nodeid)) if folder else None
        if not folder:
            item._memviz_problem = ("memory_budget(growth=%r) needs a baseline: run with --memviz-baseline DIR, "
                                    "a folder that --memviz-record DIR wrote" % (budget.growth_text,))
        elif not os.path.isfile(path):
            item._memviz_problem = ("memory_budget(growth=%r): no baseline recording of %s in %s (expected %s)"
                                    % (budget.growth_text, item.nodeid, folder, os.path.basename(path)))
    if budget.growth is not None and item._memviz_problem is None:
        from .allocations import read_log_peaks
        try:
            item._memviz_baseline, problem = read_log_peaks(path), None
        except (OSError, ValueError) as e:
            problem = "memory_budget: cannot read the baseline recording: %s" % e
        if problem:
            pytest.fail(problem, pytrace=False)
    _torch()
    item._memviz_budget = budget


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    folder = item.config.getoption("--memviz-record", None)
    if not folder and getattr(item, "_memviz_budget", None) is None:
        yield
        return
    from .allocations import CallRecorder
    import torch  # importable: checked at configure (--memviz-record) or setup (a budget)
    recorder = CallRecorder(torch)
    item._memviz_recording = None
    item._memviz_error = None
    try:
        recorder.start()
    except Exception as e:  # e.g. the test runs a profiler of its own
        item._memviz_error = "could not start recording: %s: %s" % (type(e).__name__, e)
        yield
        return
    try:
        yield
    finally:
        try:
            recording = recorder.stop()
        except Exception as e:
            item._memviz_error = "could not read the recording: %s: %s" % (type(e).__name__, e)
        else:
            item._memviz_recording = recording
            if folder:
                path = os.path.join(folder, recording_name(item.nodeid))
                recording.write_log(path, item.nodeid)
                item.config._memviz_recorded.append(path)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if call.when != "call":
        return
    recording = getattr(item, "_memviz_recording", None)
    if recording is not None:
        peaks = ", ".join("%s %s" % (device, format_bytes(peak)) for device, (peak, _) in sorted(recording.peaks.items()))
        report.sections.append(("memviz peak", peaks or "no PyTorch allocations"))
    budget = getattr(item, "_memviz_budget", None)
    if budget is None:
        return
    if getattr(item, "_memviz_problem", None):
        problems = ["memory_budget could not be checked: %s" % item._memviz_problem]
    elif recording is None:
        problems = ["memory_budget could not be checked: %s" % (getattr(item, "_memviz_error", None) or "nothing recorded")]
    else:
        try:
            problems = check(budget, recording, getattr(item, "_memviz_baseline", None))
        except BudgetUsageError as e:
            problems = ["memory_budget could not be checked: %s" % e]
    if not problems:
        return
    text = "\n".join("memory budget exceeded: " + p if not p.startswith("memory_budget could not") else p
                     for p in problems)
    if report.passed:
        report.outcome = "failed"
        report.longrepr = text
    else:
        report.sections.append(("memviz memory budget", text))


def pytest_terminal_summary(terminalreporter, config):
    recorded = getattr(config, "_memviz_recorded", None)
    if recorded:
        terminalreporter.write_line("memviz: recorded %d test(s) into %s (open one with: memviz import FILE)"
                                    % (len(recorded), config.getoption("--memviz-record")))
