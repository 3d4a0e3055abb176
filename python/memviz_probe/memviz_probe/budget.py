# SPDX-License-Identifier: MIT
"""Memory budgets for the pytest plugin: `@pytest.mark.memory_budget(peak="2GiB",
growth="5%")` read into a Budget, and a test's Recording checked against it (and against the
same test's baseline recording for `growth`). Plain Python: the plugin and its tests call it."""

from .units import UnitError, format_bytes, parse_growth, parse_size

TOP_OPERATORS = 3


class BudgetUsageError(Exception):
    """A budget that cannot be checked (unknown units, an unknown keyword, no baseline for a
    growth budget, devices that do not match the baseline): an error, never a pass."""


class Budget:
    def __init__(self, peak=None, growth=None):
        self.peak_text, self.growth_text = peak, growth
        self.peak = None
        self.growth = None
        try:
            if peak is not None:
                self.peak = parse_size(peak)
            if growth is not None:
                self.growth = parse_growth(growth)
        except UnitError as e:
            raise BudgetUsageError("memory_budget: %s" % e) from None
        if self.peak is None and self.growth is None:
            raise BudgetUsageError("memory_budget needs peak= and/or growth=, e.g. "
                                   "@pytest.mark.memory_budget(peak=\"2GiB\", growth=\"5%\")")

    @classmethod
    def from_marker(cls, marker):
        if marker.args:
            raise BudgetUsageError("memory_budget takes keywords only (peak=..., growth=...), not %r"
                                   % (marker.args,))
        unknown = sorted(set(marker.kwargs) - {"peak", "growth"})
        if unknown:
            raise BudgetUsageError("memory_budget: unknown keyword %s (use peak= and growth=)" % ", ".join(unknown))
        return cls(marker.kwargs.get("peak"), marker.kwargs.get("growth"))

    def __repr__(self):
        words = []
        if self.peak_text is not None:
            words.append("peak=%r" % (self.peak_text,))
        if self.growth_text is not None:
            words.append("growth=%r" % (self.growth_text,))
        return "memory_budget(%s)" % ", ".join(words)


def top_operators(recording, device, count=TOP_OPERATORS):
    """"aten::mm (in aten::matmul) 4.00 MiB, ...": the operators holding the most bytes on
    `device` at its peak."""
    ops = recording.top_ops.get(device) or []
    if not ops:
        return "no operator breakdown (the peak was seen only by the allocator's statistics)"
    return ", ".join("%s %s" % (label, format_bytes(size)) for label, size in ops[:count])


def check(budget, recording, baseline_peaks=None):
    """The budget's violations, one message per device and kind; empty when within budget.
    Raises BudgetUsageError when a growth budget has no baseline or the devices differ."""
    problems = []
    peaks = {device: peak for device, (peak, _) in recording.peaks.items()}
    if budget.peak is not None:
        for device in sorted(peaks):
            if peaks[device] > budget.peak:
                problems.append("peak %s on %s is over the budget peak=%r (%s); biggest operators at the peak: %s"
                                % (format_bytes(peaks[device]), device, budget.peak_text, format_bytes(budget.peak),
                                   top_operators(recording, device)))
    if budget.growth is not None:
        if baseline_peaks is None:
            raise BudgetUsageError("memory_budget(growth=%r) needs a baseline recording of this test "
                                   "(--memviz-baseline DIR, written by an earlier --memviz-record DIR)"
                                   % (budget.growth_text,))
        new_devices = sorted(d for d in peaks if d not in baseline_peaks and peaks[d] > 0)
        if new_devices:
            raise BudgetUsageError("memory_budget(growth=%r): the test allocated on %s, which its baseline "
                                   "recording never did (baseline devices: %s): the devices do not match"
                                   % (budget.growth_text, ", ".join(new_devices),
                                      ", ".join(sorted(baseline_peaks)) or "none"))
        kind, amount = budget.growth
        for device in sorted(peaks):
            base = baseline_peaks[device] if device in baseline_peaks else 0
            allowed = base * (1 + amount) if kind == "percent" else base + amount
            if peaks[device] > allowed:
                change = peaks[device] - base
                relative = " (+%.1f%%)" % (100.0 * change / base) if base else ""
                problems.append("peak %s on %s grew by %s%s over the baseline's %s, more than growth=%r; "
                                "biggest operators at the peak: %s"
                                % (format_bytes(peaks[device]), device, format_bytes(change), relative,
                                   format_bytes(base), budget.growth_text, top_operators(recording, device)))
    return problems
