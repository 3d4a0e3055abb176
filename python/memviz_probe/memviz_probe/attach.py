# SPDX-License-Identifier: MIT
"""What memviz runs inside a Python it attaches to (`memviz record --pid PID --probe`):
gdb queues a pending call that puts the folder holding this package on sys.path and calls
memviz_probe.attach(ADDRESS, MODE) on the main thread (memviz's ProbeInjector.cpp writes
that snippet). An attach that cannot record tells memviz why over the connection."""

import json
import os
import sys

from . import probe as _probe_module
from . import protocol

REFUSAL = "the probe did not attach: "  # memviz record --pid --probe looks for this


def attach(address, mode=None):
    """Starts the probe in this process when PyTorch is imported; otherwise tells memviz so
    over the connection. Runs between two bytecodes with the GIL held. Never raises."""
    try:
        torch = sys.modules.get("torch")
        if torch is None:
            protocol.warn("memviz tried to attach, but PyTorch is not imported in this process")
            tell_memviz(address, "PyTorch is not imported in process %d (nothing to record)" % os.getpid())
            return False
        # A pending call can run while the main thread is still inside `import torch`.
        if not all(hasattr(torch, name) for name in ("autograd", "cuda", "nn", "optim", "utils")):
            protocol.warn("memviz tried to attach while PyTorch was still being imported")
            tell_memviz(address, "PyTorch is still being imported in process %d; attach again once it is"
                        % os.getpid())
            return False
        running = _probe_module.current
        if running is not None and running.sender is not None and not running.sender.broken:
            running.sender.check_closed()  # a previous recording that memviz has just stopped
        if running is not None and (running.sender is None or running.sender.broken):
            running.lost(running.sender.broken if running.sender is not None else "closed")  # detaches when it can
        running = _probe_module.current
        if running is not None and running.detach_pending:
            tell_memviz(address, "the probe in process %d is still removing its hooks from the previous "
                        "recording (it does so at the next operator); attach again in a moment" % os.getpid())
            return False
        if running is not None:
            protocol.warn("the probe is already streaming to memviz (%s); not attaching again" % running.address)
            tell_memviz(address, "the probe is already streaming from process %d to %s" % (os.getpid(), running.address))
            return False
        return _probe_module.start(address, mode)
    except Exception as e:  # the target must run on whatever happens here
        protocol.warn("could not attach: %s: %s" % (type(e).__name__, e))
        return False


def tell_memviz(address, error):
    """A hello and a goodbye carrying `error`, for an attach that cannot record."""
    try:
        sender = protocol.Sender(address)
        sender.add(json.dumps(protocol.hello("", "op")) + "\n")
        bye = {"type": "bye", "t": 0, "exit_code": None, "error": REFUSAL + error}
        sender.add(json.dumps(bye) + "\n")
        sender.finish(timeout=2.0)
    except (OSError, ValueError) as e:
        protocol.warn("could not tell memviz either (%s)" % e)
