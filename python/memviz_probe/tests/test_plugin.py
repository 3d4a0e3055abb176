# SPDX-License-Identifier: MIT
"""The pytest plugin end to end: inner pytest sessions (pytester, in subprocesses with
Debian's PyTorch) whose tests allocate tensors of sizes worked out by hand, checked for their
outcome, their messages, and recordings that memviz itself imports."""

import json
import os
import subprocess

import pytest

from memviz_probe.allocations import read_log_peaks
from memviz_probe.pytest import recording_name

# float32 tensors: a (2048 x 64) and b (64 x 2048) are 2048 * 64 * 4 = 524288 bytes each,
# a @ b (2048 x 2048) is 2048 * 2048 * 4 = 16777216 bytes. PyTorch's CPU allocator reports
# exactly the bytes a tensor asks for (c10::alloc_cpu: no rounding), so while all three live
# the test holds 524288 + 524288 + 16777216 = 17825792 bytes = 17 MiB exactly.
A_BYTES = 2048 * 64 * 4
C_BYTES = 2048 * 2048 * 4
MATMUL_PEAK = 2 * A_BYTES + C_BYTES
assert MATMUL_PEAK == 17 * 1024 * 1024

MATMUL_TEST = """
import pytest, torch

@pytest.mark.memory_budget(peak=%r)
def test_matmul():
    a = torch.randn(2048, 64)
    b = torch.randn(64, 2048)
    c = a @ b
    assert c.shape == (2048, 2048)
"""


def run(pytester, *args):
    return pytester.runpytest_subprocess("-p", "memviz_probe.pytest", "-p", "no:cacheprovider", *args)


def test_over_budget_fails_naming_the_biggest_operator(pytester, torch):
    pytester.makepyfile(test_mm=MATMUL_TEST % ("17825791B",))  # one byte under the peak
    result = run(pytester)
    result.assert_outcomes(failed=1)
    text = result.stdout.str()
    assert "memory budget exceeded: peak 17.00 MiB on cpu is over the budget peak='17825791B'" in text
    # The matmul's output is the biggest block; the two inputs come from aten::randn.
    top = text.split("biggest operators at the peak: ")[1].splitlines()[0]
    assert top.startswith("aten::mm (in aten::matmul) 16.00 MiB, "), top
    assert "aten::empty (in aten::randn) 1.00 MiB" in top


@pytest.mark.parametrize("budget", ["17MiB", "17825792", "18MB", "1GiB"])
def test_at_or_under_budget_passes(pytester, torch, budget):
    pytester.makepyfile(test_mm=MATMUL_TEST % (budget,))
    run(pytester).assert_outcomes(passed=1)


def test_bad_units_and_missing_baselines_are_errors_not_passes(pytester, torch):
    pytester.makepyfile(test_bad="""
import pytest

@pytest.mark.memory_budget(peak="2XB")
def test_unknown_unit():
    pass

@pytest.mark.memory_budget(growth="5%")
def test_growth_without_baseline():
    pass

@pytest.mark.memory_budget(peak="1GiB", colour="red")
def test_unknown_keyword():
    pass
""")
    result = run(pytester)
    result.assert_outcomes(errors=2, failed=1)
    text = result.stdout.str()
    assert "unknown size unit 'XB' in '2XB' (use B, KiB, MiB, GiB, TiB, KB, MB, GB or TB)" in text
    assert ("memory_budget could not be checked: memory_budget(growth='5%') needs a baseline: "
            "run with --memviz-baseline DIR") in text
    assert "unknown keyword colour" in text


def test_a_missing_baseline_folder_is_a_usage_error(pytester, torch):
    pytester.makepyfile(test_mm=MATMUL_TEST % ("1GiB",))
    result = run(pytester, "--memviz-baseline", str(pytester.path / "nowhere"))
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "--memviz-baseline" in result.stderr.str() and "no such folder" in result.stderr.str()


GROWTH_TEST = """
import pytest, torch

@pytest.mark.memory_budget(growth=%r)
def test_grows():
    x = torch.ones(%d, 256)
"""


def test_growth_over_the_baseline_fails(pytester, torch):
    baseline = pytester.path / "baseline"
    pytester.makepyfile(test_g=GROWTH_TEST % ("5%", 1024))  # 1024 * 256 * 4 = 1 MiB
    # Recording the baseline: the test runs and is recorded, but its growth budget has
    # nothing to compare with yet, so it is not a pass.
    run(pytester, "--memviz-record", str(baseline)).assert_outcomes(failed=1)
    assert read_log_peaks(str(baseline / recording_name("test_g.py::test_grows"))) == {"cpu": 1024 * 256 * 4}
    # 1100 * 256 * 4 = 1126400 bytes: 7.4% more than 1048576.
    pytester.makepyfile(test_g=GROWTH_TEST % ("5%", 1100))
    result = run(pytester, "--memviz-baseline", str(baseline))
    result.assert_outcomes(failed=1)
    assert "grew by 76.00 KiB (+7.4%) over the baseline's 1.00 MiB, more than growth='5%'" in result.stdout.str()
    assert "aten::ones" in result.stdout.str()
    pytester.makepyfile(test_g=GROWTH_TEST % ("10%", 1100))
    run(pytester, "--memviz-baseline", str(baseline)).assert_outcomes(passed=1)
    # A test the baseline never recorded: an error, not a pass.
    pytester.makepyfile(test_other=GROWTH_TEST.replace("test_grows", "test_new") % ("10%", 1))
    result = run(pytester, "--memviz-baseline", str(baseline), "test_other.py")
    result.assert_outcomes(failed=1)
    assert "no baseline recording of test_other.py::test_new" in result.stdout.str()


def test_recordings_are_one_file_per_test_that_memviz_imports(pytester, torch, memviz):
    pytester.makepyfile(test_rec="""
import torch

def test_matmul():
    a = torch.randn(2048, 64)
    b = torch.randn(64, 2048)
    c = a @ b

def test_nothing():
    pass

def test_freed_before_the_next():
    x = torch.zeros(1000, 1000, dtype=torch.float64)  # 8000000 bytes
    del x
    y = torch.zeros(500, 1000, dtype=torch.float64)   # 4000000 bytes
""")
    folder = pytester.path / "rec"
    result = run(pytester, "--memviz-record", str(folder))
    result.assert_outcomes(passed=3)
    assert "memviz: recorded 3 test(s) into" in result.stdout.str()
    expected = {"test_rec.py::test_matmul": MATMUL_PEAK, "test_rec.py::test_nothing": None,
                "test_rec.py::test_freed_before_the_next": 8000000}
    assert sorted(os.listdir(folder)) == sorted(recording_name(test) for test in expected)
    for test, peak in expected.items():
        path = folder / recording_name(test)
        with open(path) as f:
            header = json.loads(f.readline())
        assert header["test"] == test
        imported = subprocess.run([memviz, "import", str(path), "--db", str(pytester.path / "r.memviz"), "--json"],
                                  capture_output=True, text=True)
        assert imported.returncode == 0, imported.stderr
        summary = json.loads(imported.stdout)
        peaks = {d["device"]: d["peak_bytes"] for d in summary["devices"]}
        assert peaks == ({"cpu": peak} if peak else {}), (test, summary)


def test_without_pytorch_budgets_and_recording_say_so(pytester, monkeypatch):
    # A torch that cannot be imported, ahead of the real one on the path.
    fake = pytester.mkdir("no_torch")
    (fake / "torch").mkdir()
    (fake / "torch" / "__init__.py").write_text("raise ImportError('torch is broken here')\n")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(fake), os.environ["PYTHONPATH"]]))
    pytester.makepyfile(test_plain="""
import pytest

@pytest.mark.memory_budget(peak="1GiB")
def test_budget():
    pass

def test_plain():
    pass
""")
    result = run(pytester)
    result.assert_outcomes(passed=1, errors=1)
    assert "memviz_probe: PyTorch is needed to record memory (torch is broken here)" in result.stdout.str()
    result = run(pytester, "--memviz-record", str(pytester.path / "rec"))
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "--memviz-record records PyTorch's memory, but PyTorch is not importable (torch is broken here)" in result.stderr.str()


def test_a_baseline_that_is_not_a_recording_is_an_error(pytester, torch):
    baseline = pytester.mkdir("baseline")
    (baseline / recording_name("test_g.py::test_grows")).write_text("not a recording\n")
    pytester.makepyfile(test_g=GROWTH_TEST % ("5%", 16))
    result = run(pytester, "--memviz-baseline", str(baseline))
    result.assert_outcomes(errors=1)
    assert "memory_budget: cannot read the baseline recording: " in result.stdout.str()
    assert "line 1: not JSON" in result.stdout.str()
