# SPDX-License-Identifier: MIT
"""The streaming probe as a package: `python3 -m memviz_probe` (help, bad arguments, a real
run streaming to a socket this test listens on) and the attach path that `memviz record
--pid PID --probe` runs through gdb (the folder on sys.path, then memviz_probe.attach)."""

import json
import os
import socket
import subprocess
import sys
import threading

from conftest import PACKAGE_ROOT

# The interpreter running these tests: Debian's with PyTorch 1.13 (probe_pytest) or the pinned
# PyTorch 2.x environment's (probe_pytest_torch2).
PYTHON = sys.executable


def probe(*args, cwd=None):
    env = dict(os.environ, PYTHONPATH=PACKAGE_ROOT)
    return subprocess.run([PYTHON, "-m", "memviz_probe", *args], capture_output=True, text=True, env=env,
                          cwd=cwd, timeout=300)


def test_help_and_bad_arguments():
    shown = probe("--help")
    assert shown.returncode == 0
    assert shown.stdout.startswith("usage: python3 -m memviz_probe [--connect ADDRESS] [--mode op|module] script.py")
    for args, words in ((["--bogus", "x.py"], "unknown option '--bogus'"), ([], "no script to run"),
                        (["--mode", "fast", "x.py"], "--mode must be op or module, not 'fast'"),
                        (["/nonexistent/x.py"], "/nonexistent/x.py: no such file")):
        r = probe(*args)
        assert r.returncode == 2, (args, r.stderr)
        assert words in r.stderr, (args, r.stderr)


class Listener:
    """A unix socket that collects the lines of one connection, as memviz record --listen."""

    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.bind(path)
        self.sock.listen(1)
        self.sock.settimeout(300)
        self.data = b""
        self.thread = threading.Thread(target=self._read)
        self.thread.start()

    def _read(self):
        conn, _ = self.sock.accept()
        with conn:
            while True:
                chunk = conn.recv(65536)
                if not chunk:
                    break
                self.data += chunk

    def lines(self):
        self.thread.join(300)
        self.sock.close()
        return [json.loads(line) for line in self.data.decode().splitlines()]


def test_a_script_streams_its_operators(tmp_path, torch):
    address = str(tmp_path / "p.sock")
    listener = Listener(address)
    script = tmp_path / "train.py"
    script.write_text("import torch, memviz_probe\n"
                      "a = torch.ones(256, 256)\n"
                      "b = a @ a\n"
                      "memviz_probe.mark('after mm')\n"
                      "raise SystemExit(3)\n")
    r = probe("--connect", "unix:" + address, str(script), cwd=str(tmp_path))
    assert r.returncode == 3, r.stderr
    assert "memviz_probe:" not in r.stderr
    lines = listener.lines()
    hello = lines[0]
    assert (hello["type"], hello["protocol"], hello["version"], hello["mode"]) == ("hello", "memviz-probe", 1, "op")
    assert hello["argv"] == [str(script)] and hello["pid"] > 0
    ops = [line for line in lines if line["type"] == "op"]
    assert any(op["name"] == "aten::mm" for op in ops), [op["name"] for op in ops]
    assert all("cpu" in op["mem"] for op in ops)
    # the script's `import memviz_probe` is the running probe (its mark arrived)
    assert {"type": "mark", "label": "after mm"}.items() <= next(l for l in lines if l["type"] == "mark").items()
    assert lines[-1]["type"] == "bye" and lines[-1]["exit_code"] == 3


def test_attach_path_as_memviz_injects_it(tmp_path):
    """What ProbeInjector.cpp's snippet runs (folder on sys.path, import, attach) in a Python
    without PyTorch: the probe refuses and says why over the connection, and never raises."""
    address = str(tmp_path / "a.sock")
    listener = Listener(address)
    snippet = ("import sys\n"
               "sys.path.insert(0, %r)\n"
               "import memviz_probe\n"
               "print(memviz_probe.attach(%r, 'op'))\n" % (PACKAGE_ROOT, "unix:" + address))
    r = subprocess.run([PYTHON, "-S", "-c", snippet], capture_output=True, text=True, timeout=120,
                       env={"PATH": os.environ.get("PATH", "")}, cwd="/")
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "False"
    assert "memviz tried to attach, but PyTorch is not imported in this process" in r.stderr
    hello, bye = listener.lines()
    assert hello["type"] == "hello" and hello["protocol"] == "memviz-probe"
    assert bye["type"] == "bye"
    assert bye["error"] == "the probe did not attach: PyTorch is not imported in process %d (nothing to record)" % hello["pid"]
