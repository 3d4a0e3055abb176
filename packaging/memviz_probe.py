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
"""

import atexit
import ctypes
import ctypes.util
import functools
import json
import os
import runpy
import socket
import sys
import time
import traceback
import weakref

PROTOCOL_VERSION = 1

_SEND_BUFFER_LIMIT = 16 * 1024 * 1024  # bytes waiting for memviz before records are dropped
_FLUSH_BYTES = 64 * 1024
_FLUSH_NS = 50_000_000

_probe = None


def default_address():
    env = os.environ.get("MEMVIZ_PROBE_ADDRESS")
    if env:
        return env
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime:
        return "unix:" + os.path.join(runtime, "memviz-probe.sock")
    return "unix:/tmp/memviz-probe-%d.sock" % os.getuid()


def _parse_address(text):
    """(family, sockaddr) for unix:PATH, a path, 127.0.0.1:PORT, localhost:PORT or :PORT."""
    if text.startswith("unix:"):
        return socket.AF_UNIX, text[5:]
    if "/" in text:
        return socket.AF_UNIX, text
    rest = text[4:] if text.startswith("tcp:") else text
    host, _, port = rest.rpartition(":")
    if host not in ("", "127.0.0.1", "localhost"):
        raise ValueError("the probe stream is local only: %r" % text)
    return socket.AF_INET, ("127.0.0.1", int(port))


def _job_place():
    """RANK / LOCAL_RANK / WORLD_SIZE from the environment (torchrun, torch.distributed and
    most launchers set them), as hello fields; a missing or non-integer one is left out."""
    place = {}
    for field, name in (("rank", "RANK"), ("local_rank", "LOCAL_RANK"), ("world_size", "WORLD_SIZE")):
        try:
            value = int(os.environ.get(name, ""))
        except ValueError:
            continue
        if 0 <= value <= 1000000:
            place[field] = value
    return place


def _warn(message):
    sys.stderr.write("memviz_probe: %s\n" % message)
    sys.stderr.flush()


class _MallocInfo:
    """The C heap's bytes in use (glibc mallinfo2, or mallinfo before glibc 2.33)."""

    _FIELDS = ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks", "keepcost")

    def __init__(self):
        self.read = None
        try:
            libc = ctypes.CDLL(ctypes.util.find_library("c") or None)
        except OSError:
            return
        if hasattr(libc, "mallinfo2"):
            class Info(ctypes.Structure):
                _fields_ = [(n, ctypes.c_size_t) for n in self._FIELDS]
            fn, mask = libc.mallinfo2, None
        elif hasattr(libc, "mallinfo"):
            class Info(ctypes.Structure):
                _fields_ = [(n, ctypes.c_int) for n in self._FIELDS]
            fn, mask = libc.mallinfo, 0xFFFFFFFF  # int fields wrap past 2 GiB; read them unsigned
        else:
            return
        fn.restype = Info
        fn.argtypes = []
        if mask is None:
            def read():
                m = fn()
                return m.uordblks + m.hblkhd
        else:
            def read():
                m = fn()
                return (m.uordblks & mask) + (m.hblkhd & mask)
        self.read = read


class _ClosedByMemviz(Exception):
    """memviz ended the recording (Stop, --duration): not an error, the probe detaches."""


class _Sender:
    """A non-blocking connection with an outgoing buffer: a slow reader never blocks the
    script; past the buffer limit whole batches are dropped (and counted)."""

    def __init__(self, address):
        family, sockaddr = _parse_address(address)
        self.sock = socket.socket(family, socket.SOCK_STREAM)
        self.sock.settimeout(2.0)
        self.sock.connect(sockaddr)
        self.sock.setblocking(False)
        self.pending = []
        self.pending_bytes = 0
        self.out = bytearray()
        self.dropped = 0
        self.broken = None
        self.last_flush = time.perf_counter_ns()

    def add(self, line):
        self.pending.append(line)
        self.pending_bytes += len(line)
        if self.pending_bytes >= _FLUSH_BYTES:
            self.flush()

    def flush(self):
        if self.broken:
            return
        self.last_flush = time.perf_counter_ns()
        self._check_closed()
        if self.broken:
            return
        if self.pending:
            if len(self.out) > _SEND_BUFFER_LIMIT:
                self.dropped += len(self.pending)
            else:
                if self.dropped:
                    self.out += b'{"type":"dropped","t":%d,"count":%d}\n' % (_probe.now(), self.dropped)
                    self.dropped = 0
                self.out += "".join(self.pending).encode("utf-8", "replace")
            self.pending.clear()
            self.pending_bytes = 0
        while self.out:
            try:
                n = self.sock.send(self.out)
            except (BlockingIOError, InterruptedError):
                return
            except OSError as e:
                self.broken = e
                return
            del self.out[:n]

    def _check_closed(self):
        """memviz never sends anything: a readable end of stream means it stopped recording."""
        try:
            if self.sock.recv(1, socket.MSG_PEEK) == b"":
                self.broken = _ClosedByMemviz("memviz closed the connection")
        except (BlockingIOError, InterruptedError):
            pass
        except OSError as e:
            self.broken = e

    def finish(self, timeout):
        """Sends what is left, waiting at most `timeout` seconds; then closes."""
        self.flush()
        if not self.broken and self.out:
            try:
                self.sock.settimeout(timeout)
                self.sock.sendall(bytes(self.out))
                self.out.clear()
            except OSError as e:
                self.broken = e
        try:
            self.sock.close()
        except OSError:
            pass


class _Probe:
    def __init__(self, torch, address, mode):
        self.torch = torch
        self.address = address
        self.mode = mode
        self.t0 = time.perf_counter_ns()
        self.malloc = _MallocInfo()
        self.cuda_devices = []
        self.phase = "forward"
        self.step_number = 0
        self.stepped_since_backward = False
        self.enabled = False
        self.sender = None
        self.names = {}
        self.module_names = weakref.WeakKeyDictionary()
        self.module_stack = []
        self.dispatch_mode = None
        self.unpatch = []
        self.warned = False
        self.detach_pending = False  # memviz went away: remove the hooks where that is safe

    def now(self):
        return time.perf_counter_ns() - self.t0

    # Memory -------------------------------------------------------------------------------
    def _refresh_devices(self):
        cuda = self.torch.cuda
        if not self.cuda_devices and cuda.is_available() and cuda.is_initialized():
            self.cuda_devices = list(range(cuda.device_count()))

    def memory(self):
        """[cpu bytes or None, (allocated, reserved) per CUDA device ...]"""
        values = [self.malloc.read() if self.malloc.read else None]
        cuda = self.torch.cuda
        for d in self.cuda_devices:
            values.append((cuda.memory_allocated(d), cuda.memory_reserved(d)))
        return values

    def _mem_json(self, before, after):
        parts = []
        if before[0] is not None and after[0] is not None:
            parts.append('"cpu":{"before":%d,"after":%d}' % (before[0], after[0]))
        for i in range(1, min(len(before), len(after))):
            parts.append('"cuda:%d":{"before":%d,"after":%d,"reserved":%d}'
                         % (self.cuda_devices[i - 1], before[i][0], after[i][0], after[i][1]))
        return ",".join(parts)

    # Sending ------------------------------------------------------------------------------
    def send(self, line):
        s = self.sender
        if s is None:
            return
        s.add(line)
        if s.broken or time.perf_counter_ns() - s.last_flush > _FLUSH_NS:
            s.flush()
            self._refresh_devices()
            if s.broken:
                self._lost(s.broken)

    def _lost(self, error):
        self.enabled = False
        if not self.warned:
            self.warned = True
            # memviz ending the recording (Stop, --duration) closes it too: not the script's problem.
            _warn("lost the connection to memviz (%s); the probe removes its hooks and the script runs on "
                  "without it" % error)
        self.detach_pending = True
        self.try_detach()

    def try_detach(self):
        """Removes every hook once memviz is gone. The dispatch mode can only be popped
        where it is the innermost mode of this thread: not inside its own
        __torch_dispatch__ (PyTorch pops it around that call), so it is retried from the
        hooks that run between operators (module calls, backward, optimizer steps)."""
        global _probe
        if not self.detach_pending:
            return False
        if self.dispatch_mode is not None:
            from torch.utils._python_dispatch import _get_current_dispatch_mode
            if _get_current_dispatch_mode() is not self.dispatch_mode:
                return False
            self.dispatch_mode.__exit__(None, None, None)
            self.dispatch_mode = None
        for undo in reversed(self.unpatch):
            undo()
        self.unpatch.clear()
        self.detach_pending = False
        if self.sender is not None:
            try:
                self.sender.sock.close()
            except OSError:
                pass
            self.sender = None
        if _probe is self:
            _probe = None  # a later start() or attach() begins afresh
        return True

    def record(self, t, t1, kind, name, before, after):
        self.send('{"type":"op","t":%d,"dur":%d,"kind":"%s","name":%s,"phase":"%s","step":%d,"mem":{%s}}\n'
                  % (t, t1 - t, kind, name, self.phase, self.step_number, self._mem_json(before, after)))

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

    # Hooks --------------------------------------------------------------------------------
    def op_name(self, func):
        name = self.names.get(func)
        if name is None:
            schema = getattr(func, "_schema", None)
            text = getattr(schema, "name", None) or str(func)
            # The profiler's own bookkeeping ops are not the script's.
            name = "" if text.startswith("profiler::") or text.startswith("profiler.") else json.dumps(text)
            self.names[func] = name
        return name

    def module_name(self, module):
        name = self.module_names.get(module)
        if name is None:
            if not self.module_stack:  # a root: name it and everything under it
                root = type(module).__name__
                for path, sub in module.named_modules():
                    if sub not in self.module_names:
                        self.module_names[sub] = json.dumps(root + ("." + path if path else ""))
                name = self.module_names[module]
            else:
                name = json.dumps(type(module).__name__)
                self.module_names[module] = name
        return name

    def _install_op_mode(self):
        from torch.utils._python_dispatch import TorchDispatchMode
        probe = self

        class MemvizDispatchMode(TorchDispatchMode):
            def __torch_dispatch__(self, func, types, args=(), kwargs=None):
                if not probe.enabled:
                    return func(*args, **(kwargs or {}))
                name = probe.op_name(func)
                if not name:
                    return func(*args, **(kwargs or {}))
                t = probe.now()
                before = probe.memory()
                out = func(*args, **(kwargs or {}))
                after = probe.memory()
                probe.record(t, probe.now(), "op", name, before, after)
                return out

        self.dispatch_mode = MemvizDispatchMode()
        self.dispatch_mode.__enter__()

        # Between operators: where a pending detach can pop the mode (see try_detach).
        def after_module(module, inputs, output):
            if probe.detach_pending:
                probe.try_detach()

        handle = self.torch.nn.modules.module.register_module_forward_hook(after_module)
        self.unpatch.append(handle.remove)

    def _install_module_mode(self):
        hooks = self.torch.nn.modules.module
        probe = self

        def pre(module, inputs):
            if probe.enabled:
                probe.module_stack.append((probe.module_name(module), probe.now(), probe.memory()))

        def post(module, inputs, output):
            if probe.enabled and probe.module_stack:
                name, t, before = probe.module_stack.pop()
                probe.record(t, probe.now(), "module", name, before, probe.memory())

        for handle in (hooks.register_module_forward_pre_hook(pre), hooks.register_module_forward_hook(post)):
            self.unpatch.append(handle.remove)

    def _span(self, phase, kind, name, fn, *args, **kwargs):
        """Runs fn in a phase; in module mode the whole call is one record."""
        previous = self.phase
        self.set_phase(phase)
        measured = self.enabled and self.mode == "module"
        if measured:
            t, before = self.now(), self.memory()
        try:
            return fn(*args, **kwargs)
        finally:
            if measured and self.enabled:
                self.record(t, self.now(), kind, json.dumps(name), before, self.memory())
            self.set_phase(previous)
            if self.detach_pending:
                self.try_detach()

    def _patch(self, owner, attribute, wrapper_factory):
        original = getattr(owner, attribute)
        wrapped = wrapper_factory(original)
        wrapped._memviz_original = original
        setattr(owner, attribute, wrapped)
        self.unpatch.append(lambda: setattr(owner, attribute, original))

    def _install_phases(self):
        torch = self.torch
        probe = self

        def backward_factory(original):
            @functools.wraps(original)
            def backward(*args, **kwargs):
                probe.stepped_since_backward = False
                return probe._span("backward", "backward", "backward", original, *args, **kwargs)
            return backward

        self._patch(torch.autograd, "backward", backward_factory)

        def step_done():
            if not probe.stepped_since_backward:
                probe.stepped_since_backward = True
                probe.next_step()

        import torch.optim.optimizer as optimizer_module
        pre = getattr(optimizer_module, "register_optimizer_step_pre_hook", None)
        post = getattr(optimizer_module, "register_optimizer_step_post_hook", None)
        if pre and post and self.mode == "op":
            # PyTorch 2.0+: global hooks cover every optimizer, even ones made before start().
            state = {}

            def on_pre(optimizer, args, kwargs):
                state[id(optimizer)] = probe.phase
                probe.set_phase("optimizer")

            def on_post(optimizer, args, kwargs):
                probe.set_phase(state.pop(id(optimizer), "forward"))
                step_done()
                if probe.detach_pending:
                    probe.try_detach()

            for handle in (pre(on_pre), post(on_post)):
                self.unpatch.append(handle.remove)
        else:
            # PyTorch 1.13 (or module mode, which times the whole step): wrap each optimizer
            # class's step when an instance is made, and the classes already made.
            def wrap_class(cls):
                if getattr(cls.step, "_memviz_original", None) is not None:
                    return

                def step_factory(original):
                    @functools.wraps(original)
                    def step(self_, *args, **kwargs):
                        try:
                            return probe._span("optimizer", "optimizer", type(self_).__name__ + ".step",
                                               original, self_, *args, **kwargs)
                        finally:
                            step_done()
                            if probe.detach_pending:
                                probe.try_detach()
                    return step

                self._patch(cls, "step", step_factory)

            def all_subclasses(cls):
                for sub in cls.__subclasses__():
                    yield sub
                    yield from all_subclasses(sub)

            for cls in all_subclasses(torch.optim.Optimizer):
                wrap_class(cls)

            def init_factory(original):
                @functools.wraps(original)
                def __init__(self_, *args, **kwargs):
                    original(self_, *args, **kwargs)
                    if type(self_) is not torch.optim.Optimizer:
                        wrap_class(type(self_))
                return __init__

            self._patch(torch.optim.Optimizer, "__init__", init_factory)

        def zero_grad_factory(original):
            @functools.wraps(original)
            def zero_grad(self_, *args, **kwargs):
                return probe._span("optimizer", "optimizer", type(self_).__name__ + ".zero_grad",
                                   original, self_, *args, **kwargs)
            return zero_grad

        self._patch(torch.optim.Optimizer, "zero_grad", zero_grad_factory)

    # Life cycle ---------------------------------------------------------------------------
    def start(self):
        try:
            self.sender = _Sender(self.address)
        except (OSError, ValueError) as e:
            _warn("memviz is not listening on %s (%s); the script runs without the probe" % (self.address, e))
            return False
        self.enabled = True
        self._refresh_devices()
        hello = {
            "type": "hello", "protocol": "memviz-probe", "version": PROTOCOL_VERSION, "pid": os.getpid(),
            "argv": sys.argv, "python": sys.version.split()[0], "torch": self.torch.__version__, "mode": self.mode,
            "t0_wall_ns": time.time_ns() - (time.perf_counter_ns() - self.t0),
            "cuda": bool(self.torch.cuda.is_available()),
        }
        hello.update(_job_place())
        self.sender.add(json.dumps(hello) + "\n")
        self.sender.add('{"type":"phase","t":0,"phase":"forward","step":0}\n')
        self.sender.flush()
        self._install_phases()
        if self.mode == "module":
            self._install_module_mode()
        else:
            self._install_op_mode()
        return True

    def stop(self, exit_code=None, error=None):
        global _probe
        if _probe is self:
            _probe = None
        if self.sender is None:
            return
        if self.dispatch_mode is not None:
            try:
                self.dispatch_mode.__exit__(None, None, None)
            except Exception:  # another mode entered after ours: leave it
                pass
            self.dispatch_mode = None
        for undo in reversed(self.unpatch):
            undo()
        self.unpatch.clear()
        if self.enabled:
            bye = {"type": "bye", "t": self.now(), "exit_code": exit_code}
            if error:
                bye["error"] = error
            self.sender.add(json.dumps(bye) + "\n")
        self.enabled = False
        self.sender.finish(timeout=5.0)
        if self.sender.broken and not self.warned:
            self.warned = True
            _warn("could not send everything to memviz (%s)" % self.sender.broken)
        self.sender = None


def start(address=None, mode=None):
    """Connects to memviz and starts streaming. Returns True when connected. Safe to call
    twice (the second call does nothing)."""
    global _probe
    if _probe is not None:
        return _probe.enabled
    import torch
    mode = mode or os.environ.get("MEMVIZ_PROBE_MODE", "op")
    if mode not in ("op", "module"):
        raise ValueError("mode must be 'op' or 'module', not %r" % mode)
    _probe = _Probe(torch, address or default_address(), mode)
    connected = _probe.start()
    if not connected:
        _probe = None
    return connected


@atexit.register
def _at_exit():
    if _probe is not None:
        _probe.stop()


def attach(address, mode=None):
    """What memviz runs inside a Python it attaches to (through gdb, as a pending call, so on
    the main thread between two bytecodes with the GIL held): starts the probe there when
    PyTorch is imported; otherwise tells memviz so over the connection. Never raises."""
    try:
        torch = sys.modules.get("torch")
        if torch is None:
            _warn("memviz tried to attach, but PyTorch is not imported in this process")
            _tell_memviz(address, "PyTorch is not imported in process %d (nothing to record)" % os.getpid())
            return False
        # A pending call can run while the main thread is still inside `import torch`.
        if not all(hasattr(torch, name) for name in ("autograd", "cuda", "nn", "optim", "utils")):
            _warn("memviz tried to attach while PyTorch was still being imported")
            _tell_memviz(address, "PyTorch is still being imported in process %d; attach again once it is"
                         % os.getpid())
            return False
        if _probe is not None and _probe.sender is not None and not _probe.sender.broken:
            _probe.sender._check_closed()  # a previous recording that memviz has just stopped
        if _probe is not None and (_probe.sender is None or _probe.sender.broken):
            _probe._lost(_probe.sender.broken if _probe.sender is not None else "closed")  # detaches when it can
        if _probe is not None and _probe.detach_pending:
            _tell_memviz(address, "the probe in process %d is still removing its hooks from the previous "
                         "recording (it does so at the next operator); attach again in a moment" % os.getpid())
            return False
        if _probe is not None:
            _warn("the probe is already streaming to memviz (%s); not attaching again" % _probe.address)
            _tell_memviz(address, "the probe is already streaming from process %d to %s" % (os.getpid(), _probe.address))
            return False
        return start(address, mode)
    except Exception as e:  # the target must run on whatever happens here
        _warn("could not attach: %s: %s" % (type(e).__name__, e))
        return False


_REFUSAL = "the probe did not attach: "  # memviz record --pid --probe looks for this


def _tell_memviz(address, error):
    """A hello and a goodbye carrying `error`, for an attach that cannot record."""
    try:
        sender = _Sender(address)
        hello = {"type": "hello", "protocol": "memviz-probe", "version": PROTOCOL_VERSION, "pid": os.getpid(),
                 "argv": sys.argv, "python": sys.version.split()[0], "torch": "", "mode": "op"}
        hello.update(_job_place())
        sender.add(json.dumps(hello) + "\n")
        bye = {"type": "bye", "t": 0, "exit_code": None, "error": _REFUSAL + error}
        sender.add(json.dumps(bye) + "\n")
        sender.finish(timeout=2.0)
    except (OSError, ValueError) as e:
        _warn("could not tell memviz either (%s)" % e)


def stop(exit_code=None, error=None):
    """Sends what is left and a goodbye, removes the hooks and disconnects."""
    global _probe
    if _probe is not None:
        _probe.stop(exit_code, error)


def mark(label):
    """A labelled point in time on memviz's timeline."""
    if _probe is not None and _probe.enabled:
        _probe.send('{"type":"mark","t":%d,"label":%s}\n' % (_probe.now(), json.dumps(str(label))))


def step():
    """Marks a training-step boundary (the probe finds them by itself where an optimizer
    steps; call this for loops without one)."""
    if _probe is not None:
        _probe.next_step()


def _main(argv):
    usage = "usage: python3 -m memviz_probe [--connect ADDRESS] [--mode op|module] script.py [args...]"
    address, mode = None, None
    while argv and argv[0].startswith("-"):
        option = argv.pop(0)
        if option in ("-h", "--help"):
            print(usage)
            print(__doc__.split("\n\n")[0])
            return 0
        if option in ("--connect", "--mode") and argv:
            value = argv.pop(0)
            if option == "--connect":
                address = value
            else:
                mode = value
        elif option.startswith("--connect="):
            address = option.split("=", 1)[1]
        elif option.startswith("--mode="):
            mode = option.split("=", 1)[1]
        else:
            sys.stderr.write(usage + "\n")
            return 2
    if not argv:
        sys.stderr.write(usage + "\n")
        return 2
    script = argv[0]
    sys.argv = argv
    # Run as -m, this file is __main__: let the script's `import memviz_probe` find this
    # very module (and its connection) instead of loading a second, unconnected copy.
    sys.modules.setdefault("memviz_probe", sys.modules[__name__])
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
    start(address, mode)
    code, error = 0, None
    try:
        runpy.run_path(script, run_name="__main__")
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
        if e.code is not None and not isinstance(e.code, int):
            sys.stderr.write("%s\n" % e.code)
    except BaseException as e:
        traceback.print_exc()
        code, error = 1, "%s: %s" % (type(e).__name__, e)
    stop(code, error)
    return code


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
