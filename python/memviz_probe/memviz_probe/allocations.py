# SPDX-License-Identifier: MIT
"""One test's PyTorch allocations, for the pytest plugin: recorded through the allocators'
own reports (PyTorch's CPU allocator and CUDA caching allocator report every allocation and
free while the profiler runs with profile_memory=True), attributed to the operator that was
running, written as a memviz allocation log (JSON Lines, docs/formats.md) that `memviz
import` reads, and summarised: the peak per device and the operators holding the most bytes
at that peak. On CUDA the peak also takes torch.cuda.max_memory_allocated into account.

Each report carries the block's pointer (the profiler's event tree, PyTorch 1.13 and newer), so
a free is paired with its allocation exactly. Memory allocated before the test and freed during
it is not reported by PyTorch (it is not the test's), so the peak counts the test's own
allocations: the most bytes they held at once."""

import json
from collections import defaultdict

LOG_VERSION = 1


class Allocation:
    __slots__ = ("time_ns", "size", "device", "chain", "address")

    def __init__(self, time_ns, size, device, chain, address):
        self.time_ns, self.size, self.device, self.chain, self.address = time_ns, size, device, chain, address


class Recording:
    """events: [(time_ns, "alloc"|"free", Allocation)] in time order; peaks: device ->
    (bytes, time_ns); top_ops: device -> [(label, bytes)] at the peak, biggest first."""

    def __init__(self, events, stats_peaks=None):
        self.events = events
        self.peaks = {}
        peak_index = {}
        live = defaultdict(int)
        for i, (t, action, a) in enumerate(events):
            live[a.device] += a.size if action == "alloc" else -a.size
            if live[a.device] > self.peaks.get(a.device, (0, 0))[0]:
                self.peaks[a.device] = (live[a.device], t)
                peak_index[a.device] = i
        for device, peak in (stats_peaks or {}).items():
            if peak > self.peaks.get(device, (0, 0))[0]:
                self.peaks[device] = (peak, None)  # seen by the allocator's statistics only
                peak_index.pop(device, None)
        self.top_ops = {device: self._ops_at(device, peak_index.get(device)) for device in self.peaks}

    def _ops_at(self, device, last):
        """Live bytes per operator when `device` first reached its peak (after event `last`)."""
        if last is None:
            return []
        live = {}
        for t, action, a in self.events[:last + 1]:
            if a.device != device:
                continue
            if action == "alloc":
                live[a.address] = a
            else:
                live.pop(a.address, None)
        by_op = defaultdict(int)
        for a in live.values():
            by_op[operator_label(a.chain)] += a.size
        return sorted(by_op.items(), key=lambda item: (-item[1], item[0]))

    def write_log(self, path, test_id):
        """The memviz allocation log (JSON Lines); times in nanoseconds from the first."""
        t0 = self.events[0][0] if self.events else 0
        with open(path, "w", encoding="utf-8") as f:
            f.write(json.dumps({"memviz_alloc_log": LOG_VERSION, "time_unit": "ns", "test": test_id,
                                "recorded_by": "memviz_probe.pytest"}) + "\n")
            for t, action, a in self.events:
                record = {"time": t - t0, "action": action, "address": "0x%x" % a.address, "device": a.device}
                if action == "alloc":
                    record["size"] = a.size
                    if a.chain:
                        record["op"] = a.chain[-1]
                        record["stack"] = ";".join(a.chain)
                f.write(json.dumps(record) + "\n")


def operator_label(chain):
    """"aten::mm (in aten::matmul)": the innermost operator, and the outermost one that
    called it when they differ; "(no operator)" outside any."""
    if not chain:
        return "(no operator)"
    if len(chain) == 1 or chain[0] == chain[-1]:
        return chain[-1]
    return "%s (in %s)" % (chain[-1], chain[0])


def _device_name(device):
    kind = getattr(device, "type", None) or str(device)
    if kind == "cpu":
        return "cpu"
    index = getattr(device, "index", None)
    return "%s:%d" % (kind, index if index is not None and index >= 0 else 0)


def _allocation_nodes(roots):
    """(time_ns, id, node, chain) for every allocator report in the profiler's event tree,
    with the names of the operators it happened in, outermost first."""
    found = []
    todo = [(root, ()) for root in reversed(roots)]
    while todo:
        node, chain = todo.pop()
        if hasattr(node.extra_fields, "alloc_size"):
            found.append((node.start_time_ns, len(found), node, chain))
            continue
        inner = chain + (node.name,)
        todo.extend((child, inner) for child in reversed(node.children))
    found.sort(key=lambda item: (item[0], item[1]))
    return found


def events_from_tree(roots):
    """Allocation events from the profiler's event tree (PyTorch 1.13+: its allocator
    reports carry the pointer, the size, +allocated or -freed, and the device). A free pairs
    with the live allocation at its pointer; a free of memory allocated before the test is
    left out, as PyTorch leaves out those it does not know."""
    events = []
    live = {}
    for t, _, node, chain in _allocation_nodes(roots):
        fields = node.extra_fields
        size, device = fields.alloc_size, _device_name(fields.device)
        key = (device, fields.ptr)
        if size > 0:
            earlier = live.pop(key, None)
            if earlier is not None:  # a free the profiler did not see: the block was reused
                events.append((t, "free", earlier))
            a = Allocation(t, size, device, chain, fields.ptr)
            live[key] = a
            events.append((t, "alloc", a))
        elif size < 0:
            a = live.pop(key, None)
            if a is not None:
                events.append((t, "free", a))
    return events


def read_log_peaks(path):
    """Peak bytes per device of a memviz allocation log in JSON Lines (the plugin's own
    recordings, for --memviz-baseline), with the log format's rules: a free releases the live
    allocation at its address; a free with none changes nothing. Raises ValueError naming the
    line for what is not such a log."""
    peaks, live_bytes, live = {}, defaultdict(int), {}
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except ValueError as e:
                raise ValueError("%s: line %d: not JSON (%s)" % (path, number, e))
            if not isinstance(record, dict):
                raise ValueError("%s: line %d: not a JSON object" % (path, number))
            if number == 1:
                if record.get("memviz_alloc_log") != LOG_VERSION:
                    raise ValueError("%s: line 1: not a memviz allocation log (no \"memviz_alloc_log\": 1 header)" % path)
                continue
            device = record.get("device") or "cpu"
            key = (device, record.get("address"))
            if record.get("action") == "alloc":
                size = record.get("size")
                if not isinstance(size, int) or size < 0:
                    raise ValueError("%s: line %d: an alloc without a size in bytes" % (path, number))
                live_bytes[device] -= live.pop(key, 0)
                live[key] = size
                live_bytes[device] += size
                peaks[device] = max(peaks.get(device, 0), live_bytes[device])
            elif record.get("action") == "free":
                live_bytes[device] -= live.pop(key, 0)
            else:
                raise ValueError("%s: line %d: action must be alloc or free" % (path, number))
    return peaks


class CallRecorder:
    """Records one test's call: start() before it, stop() after (returns a Recording)."""

    def __init__(self, torch):
        self.torch = torch
        self.profiler = None
        self.cuda_start = {}

    def start(self):
        cuda = self.torch.cuda
        if cuda.is_available() and cuda.is_initialized():
            for d in range(cuda.device_count()):
                cuda.reset_peak_memory_stats(d)
                self.cuda_start[d] = cuda.memory_allocated(d)
        from torch.profiler import ProfilerActivity, profile
        self.profiler = profile(activities=[ProfilerActivity.CPU], profile_memory=True)
        self.profiler.__enter__()

    def stop(self):
        profiler, self.profiler = self.profiler, None
        profiler.__exit__(None, None, None)
        events = events_from_tree(profiler.profiler.kineto_results.experimental_event_tree())
        stats = {}
        cuda = self.torch.cuda
        if cuda.is_available() and cuda.is_initialized():
            for d in range(cuda.device_count()):
                # A device first used by this test started at 0 bytes and a fresh peak.
                stats["cuda:%d" % d] = cuda.max_memory_allocated(d) - self.cuda_start.get(d, 0)
        return Recording(events, stats)
