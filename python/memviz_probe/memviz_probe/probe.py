# SPDX-License-Identifier: MIT
"""The streaming probe's life cycle: connect to memviz, install the hooks (ops.py,
phases.py), send records, and remove every hook again when the script ends or memviz goes
away. One probe per process: `current` below (start() and attach() check it)."""

import atexit
import json
import os
import time

from . import ops, phases, protocol, storages
from .memory import MemoryReader

current = None  # the running Probe, if any


class Probe:
    def __init__(self, torch, address, mode):
        self.torch = torch
        self.address = address
        self.mode = mode
        self.t0 = time.perf_counter_ns()
        self.memory = MemoryReader(torch)
        self.names = ops.OpNames()
        self.phase = "forward"
        self.step_number = 0
        self.stepped_since_backward = False
        self.enabled = False
        self.sender = None
        self.dispatch_mode = None
        self.unpatch = []
        self.warned = False
        self.detach_pending = False  # memviz went away: remove the hooks where that is safe
        self.storages = None  # op mode: storages.StorageTracker
        self.freed = []  # (t, storage id) released since the last record

    def now(self):
        return time.perf_counter_ns() - self.t0

    # Sending ------------------------------------------------------------------------------
    def send(self, line):
        s = self.sender
        if s is None:
            return
        s.add(line)
        if s.broken or time.perf_counter_ns() - s.last_flush > protocol.FLUSH_NS:
            s.flush()
            self.memory.refresh_devices()
            if s.broken:
                self.lost(s.broken)

    def lost(self, error):
        self.enabled = False
        if not self.warned:
            self.warned = True
            # memviz ending the recording (Stop, --duration) closes it too: not the script's problem.
            protocol.warn("lost the connection to memviz (%s); the probe removes its hooks and the script runs on "
                          "without it" % error)
        self.detach_pending = True
        self.try_detach()

    def try_detach(self):
        """Removes every hook once memviz is gone. The dispatch mode can only be popped
        where it is the innermost mode of this thread: not inside its own
        __torch_dispatch__ (PyTorch pops it around that call), so it is retried from the
        hooks that run between operators (module calls, backward, optimizer steps)."""
        global current
        if not self.detach_pending:
            return False
        if self.dispatch_mode is not None:
            from torch.utils._python_dispatch import _get_current_dispatch_mode
            if _get_current_dispatch_mode() is not self.dispatch_mode:
                return False
            self.dispatch_mode.__exit__(None, None, None)
            self.dispatch_mode = None
        self._undo_patches()
        self.detach_pending = False
        if self.sender is not None:
            self.sender.close()
            self.sender = None
        if current is self:
            current = None  # a later start() or attach() begins afresh
        return True

    def _undo_patches(self):
        for undo in reversed(self.unpatch):
            undo()
        self.unpatch.clear()

    def record(self, t, t1, kind, name, before, after, outs=()):
        self.send_freed()
        made = ""
        if outs:
            made = ',"outs":[%s]' % ",".join('[%d,"%s",%d]' % o for o in outs)
        self.send('{"type":"op","t":%d,"dur":%d,"kind":"%s","name":%s,"phase":"%s","step":%d,"mem":{%s}%s}\n'
                  % (t, t1 - t, kind, name, self.phase, self.step_number, self.memory.mem_json(before, after), made))

    def storage_released(self, storage_id):
        """A storage has gone (found so by the tracker, before a reading): sent with the next record."""
        if self.enabled:
            self.freed.append((self.now(), storage_id))

    def send_freed(self):
        if not self.freed:
            return
        freed, self.freed = self.freed, []
        for t, storage_id in freed:
            self.send('{"type":"free","t":%d,"id":%d}\n' % (t, storage_id))

    def set_phase(self, phase):
        if phase == self.phase:
            return
        self.phase = phase
        if self.enabled:
            self.send('{"type":"phase","t":%d,"phase":"%s","step":%d}\n' % (self.now(), phase, self.step_number))

    def next_step(self):
        self.step_number += 1
        if self.enabled and self.sender is not None:
            self.send('{"type":"step","t":%d,"step":%d}\n' % (self.now(), self.step_number))
            self.sender.flush()

    def mark(self, label):
        self.send('{"type":"mark","t":%d,"label":%s}\n' % (self.now(), json.dumps(str(label))))

    def span(self, phase, kind, name, fn, *args, **kwargs):
        """Runs fn in a phase; in module mode the whole call is one record."""
        previous = self.phase
        self.set_phase(phase)
        measured = self.enabled and self.mode == "module"
        if measured:
            t, before = self.now(), self.memory.read()
        try:
            return fn(*args, **kwargs)
        finally:
            if measured and self.enabled:
                self.record(t, self.now(), kind, json.dumps(name), before, self.memory.read())
            self.set_phase(previous)
            if self.detach_pending:
                self.try_detach()

    # Life cycle ---------------------------------------------------------------------------
    def start(self):
        try:
            self.sender = protocol.Sender(self.address, self.now)
        except (OSError, ValueError) as e:
            protocol.warn("memviz is not listening on %s (%s); the script runs without the probe" % (self.address, e))
            return False
        self.enabled = True
        self.memory.refresh_devices()
        t0_wall = time.time_ns() - (time.perf_counter_ns() - self.t0)
        hello = protocol.hello(self.torch.__version__, self.mode, t0_wall, self.torch.cuda.is_available())
        self.sender.add(json.dumps(hello) + "\n")
        self.sender.add('{"type":"phase","t":0,"phase":"forward","step":0}\n')
        self.sender.flush()
        phases.install_phases(self)
        if self.mode == "module":
            ops.install_module_mode(self)
        else:
            self.storages = storages.StorageTracker(self.torch, self.storage_released)
            self.dispatch_mode = ops.install_op_mode(self)
        return True

    def stop(self, exit_code=None, error=None):
        global current
        if current is self:
            current = None
        if self.sender is None:
            return
        if self.dispatch_mode is not None:
            try:
                self.dispatch_mode.__exit__(None, None, None)
            except Exception:  # another mode entered after ours: leave it
                pass
            self.dispatch_mode = None
        self._undo_patches()
        if self.enabled:
            self.send_freed()
            bye = {"type": "bye", "t": self.now(), "exit_code": exit_code}
            if error:
                bye["error"] = error
            self.sender.add(json.dumps(bye) + "\n")
        self.enabled = False
        self.sender.finish(timeout=5.0)
        if self.sender.broken and not self.warned:
            self.warned = True
            protocol.warn("could not send everything to memviz (%s)" % self.sender.broken)
        self.sender = None


def start(address=None, mode=None):
    """Connects to memviz and starts streaming. Returns True when connected. Safe to call
    twice (the second call does nothing)."""
    global current
    if current is not None:
        return current.enabled
    import torch
    mode = mode or os.environ.get("MEMVIZ_PROBE_MODE", "op")
    if mode not in ("op", "module"):
        raise ValueError("mode must be 'op' or 'module', not %r" % mode)
    current = Probe(torch, address or protocol.default_address(), mode)
    connected = current.start()
    if not connected:
        current = None
    return connected


def stop(exit_code=None, error=None):
    """Sends what is left and a goodbye, removes the hooks and disconnects."""
    if current is not None:
        current.stop(exit_code, error)


def mark(label):
    """A labelled point in time on memviz's timeline."""
    if current is not None and current.enabled:
        current.mark(label)


def step():
    """Marks a training-step boundary (the probe finds them by itself where an optimizer
    steps; call this for loops without one)."""
    if current is not None:
        current.next_step()


@atexit.register
def _at_exit():
    if current is not None:
        current.stop()
