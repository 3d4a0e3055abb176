# SPDX-License-Identifier: MIT
"""memviz probe: streams a PyTorch script's memory, operator by operator, to memviz.

Run a script under it:

    python3 -m memviz_probe [--connect ADDRESS] [--mode op|module] script.py [args...]

or attach it to a Python that is already running (memviz does this through gdb:
`memviz record --pid PID --probe`; it calls attach() on the main thread), or start it from code:

    import memviz_probe
    memviz_probe.start()            # address and mode as below
    memviz_probe.mark("eval")       # a labelled point on memviz's timeline
    memviz_probe.step()             # a training-step boundary, when the probe cannot tell

memviz listens with "Wait for Probe..." in the window or `memviz record --listen`. ADDRESS is
unix:PATH or 127.0.0.1:PORT; the default is unix:$XDG_RUNTIME_DIR/memviz-probe.sock (the
same default memviz listens on), or $MEMVIZ_PROBE_ADDRESS. The mode (or $MEMVIZ_PROBE_MODE):
"op" records every aten operator (TorchDispatchMode), "module" every nn.Module call (lower
overhead). Memory per record: CUDA's torch.cuda.memory_allocated/reserved per initialised
device; on the CPU glibc's mallinfo2() (uordblks + hblkhd: the heap's bytes in use).

The stream is newline-delimited JSON, protocol version 1 (memviz docs/formats.md, "The
PyTorch probe stream"). Only the standard library and torch are used. When memviz is not
listening, or goes away, the probe warns once on stderr and the script runs on unharmed.

The pytest plugin (memviz_probe.pytest, docs/pytest.md) records each test's memory and
holds tests to memory budgets: `pytest --memviz-record DIR`, `@pytest.mark.memory_budget`.

Modules: protocol (addresses, the connection), memory (what a record reads), ops (the
dispatch-mode and module trackers), phases (backward/optimizer/steps), probe (life cycle),
attach (memviz record --pid --probe), __main__ (python3 -m memviz_probe); for the pytest
plugin: units, allocations, budget, pytest.
"""

__version__ = "0.1.0"

from .attach import attach  # noqa: E402
from .probe import mark, start, step, stop  # noqa: E402
from .protocol import PROTOCOL_VERSION, default_address  # noqa: E402

__all__ = ["attach", "default_address", "mark", "start", "step", "stop", "PROTOCOL_VERSION", "__version__"]
