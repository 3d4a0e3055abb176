# SPDX-License-Identifier: MIT
"""Budgets checked against recordings built by hand (no PyTorch): every budget kind can
fail, and the cases that cannot be checked are errors, never passes."""

import pytest

from memviz_probe.allocations import Allocation, Recording
from memviz_probe.budget import Budget, BudgetUsageError, check


def recording(*allocations):
    """Allocations (device, size, op chain) made one after another, none freed."""
    events = [(i, "alloc", Allocation(i, size, device, chain, 0x1000 + 64 * i))
              for i, (device, size, chain) in enumerate(allocations)]
    return Recording(events)


class Marker:
    def __init__(self, *args, **kwargs):
        self.args, self.kwargs = args, kwargs


def test_peak_over_budget_names_the_biggest_operators_first():
    r = recording(("cpu", 300, ("aten::randn", "aten::empty")), ("cpu", 1000, ("aten::matmul", "aten::mm")),
                  ("cpu", 100, ("aten::relu",)), ("cpu", 50, ("aten::add",)))
    assert r.peaks["cpu"][0] == 1450
    problems = check(Budget(peak="1000B"), r)
    assert len(problems) == 1
    text = problems[0]
    assert "1.42 KiB on cpu" in text  # 1450 / 1024
    top = text.split("biggest operators at the peak: ")[1]
    assert top == "aten::mm (in aten::matmul) 1000 B, aten::empty (in aten::randn) 300 B, aten::relu 100 B"
    assert check(Budget(peak=1450), r) == []  # at the budget is within it


def test_the_peak_is_the_most_held_at_once_not_the_total_allocated():
    a = Allocation(0, 600, "cpu", ("aten::ones",), 0x10)
    b = Allocation(1, 500, "cpu", ("aten::zeros",), 0x20)
    r = Recording([(0, "alloc", a), (1, "free", a), (2, "alloc", b)])
    assert r.peaks["cpu"][0] == 600
    assert r.top_ops["cpu"] == [("aten::ones", 600)]
    assert check(Budget(peak="600B"), r) == []


def test_growth_against_a_baseline():
    r = recording(("cpu", 1100, ("aten::mm",)))
    assert check(Budget(growth="10%"), r, {"cpu": 1000}) == []
    assert check(Budget(growth="100B"), r, {"cpu": 1000}) == []
    over = check(Budget(growth="5%"), r, {"cpu": 1000})
    assert len(over) == 1 and "grew by 100 B (+10.0%)" in over[0] and "aten::mm" in over[0]
    assert len(check(Budget(growth="99B"), r, {"cpu": 1000})) == 1


def test_growth_without_a_baseline_or_with_other_devices_is_an_error():
    r = recording(("cuda:0", 1000, ("aten::mm",)))
    with pytest.raises(BudgetUsageError, match="needs a baseline"):
        check(Budget(growth="5%"), r, None)
    with pytest.raises(BudgetUsageError, match="cuda:0, which its baseline recording never did"):
        check(Budget(growth="5%"), r, {"cpu": 1000})


@pytest.mark.parametrize("marker, words", [
    (Marker(peak="2XB"), "unknown size unit 'XB'"),
    (Marker(growth="five percent"), "growth"),
    (Marker(), "needs peak= and/or growth="),
    (Marker("2GiB"), "keywords only"),
    (Marker(peak="2GiB", leaks=0), "unknown keyword leaks"),
])
def test_bad_markers_are_usage_errors(marker, words):
    with pytest.raises(BudgetUsageError, match=words):
        Budget.from_marker(marker)


def test_statistics_only_peak_counts_without_a_breakdown():
    # CUDA: torch.cuda.max_memory_allocated saw more than the allocator reports did.
    r = Recording([], {"cuda:0": 4096})
    assert r.peaks["cuda:0"] == (4096, None)
    problems = check(Budget(peak="1KiB"), r)
    assert len(problems) == 1 and "no operator breakdown" in problems[0]
