# SPDX-License-Identifier: MIT
"""The probe's side of the stream protocol (memviz docs/formats.md, "The PyTorch probe
stream"): where memviz listens, and a non-blocking connection that sends newline-delimited
JSON without ever blocking the script."""

import os
import socket
import sys
import time

PROTOCOL_VERSION = 1
PROTOCOL_NAME = "memviz-probe"

SEND_BUFFER_LIMIT = 16 * 1024 * 1024  # bytes waiting for memviz before records are dropped
FLUSH_BYTES = 64 * 1024
FLUSH_NS = 50_000_000


def default_address():
    env = os.environ.get("MEMVIZ_PROBE_ADDRESS")
    if env:
        return env
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime:
        return "unix:" + os.path.join(runtime, "memviz-probe.sock")
    return "unix:/tmp/memviz-probe-%d.sock" % os.getuid()


def parse_address(text):
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


def job_place():
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


def hello(torch_version, mode, t0_wall_ns=None, cuda=False):
    """The first line's fields."""
    fields = {
        "type": "hello", "protocol": PROTOCOL_NAME, "version": PROTOCOL_VERSION, "pid": os.getpid(),
        "argv": sys.argv, "python": sys.version.split()[0], "torch": torch_version, "mode": mode,
    }
    if t0_wall_ns is not None:
        fields["t0_wall_ns"] = t0_wall_ns
        fields["cuda"] = bool(cuda)
    fields.update(job_place())
    return fields


def warn(message):
    sys.stderr.write("memviz_probe: %s\n" % message)
    sys.stderr.flush()


class ClosedByMemviz(Exception):
    """memviz ended the recording (Stop, --duration): not an error, the probe detaches."""


class Sender:
    """A non-blocking connection with an outgoing buffer: a slow reader never blocks the
    script; past the buffer limit whole batches are dropped (and counted). `clock` gives the
    probe's time for the `dropped` line."""

    def __init__(self, address, clock=None):
        family, sockaddr = parse_address(address)
        self.clock = clock or (lambda: 0)
        self.sock = socket.socket(family, socket.SOCK_STREAM)
        self.sock.settimeout(2.0)
        try:
            self.sock.connect(sockaddr)
        except OSError:
            self.sock.close()
            raise
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
        if self.pending_bytes >= FLUSH_BYTES:
            self.flush()

    def flush(self):
        if self.broken:
            return
        self.last_flush = time.perf_counter_ns()
        self.check_closed()
        if self.broken:
            return
        if self.pending:
            if len(self.out) > SEND_BUFFER_LIMIT:
                self.dropped += len(self.pending)
            else:
                if self.dropped:
                    self.out += b'{"type":"dropped","t":%d,"count":%d}\n' % (self.clock(), self.dropped)
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

    def check_closed(self):
        """memviz never sends anything: a readable end of stream means it stopped recording."""
        try:
            if self.sock.recv(1, socket.MSG_PEEK) == b"":
                self.broken = ClosedByMemviz("memviz closed the connection")
        except (BlockingIOError, InterruptedError):
            pass
        except OSError as e:
            self.broken = e

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass

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
        self.close()
