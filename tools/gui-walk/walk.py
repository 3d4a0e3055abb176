#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Drive the real memviz window over files, one after another, and take screenshots.

Started by walk.sh (which provides DISPLAY with openbox). For each file:

  1. open it (the first from the command line, the next ones through Ctrl+O, typing the path
     into the file dialog), wait until the window's title names it and the window stopped
     changing (consecutive screenshots equal; no fixed sleeps), save NN-name/1-first.png;
  2. wheel-zoom the timeline (2-zoom.png), drag it sideways (3-pan.png), Shift+drag a time
     window (4-select.png), Esc and Home (5-home.png), and measure how many pixels differ
     between 1-first and 5-home (ImageMagick `compare -metric AE`, status bar left out: it
     shows transient messages);
  3. show every tab in turn (Ctrl+PgDown until the first one is back): tab-K.png;
  4. record `memviz summary --json FILE`'s peaks beside the screenshots, to compare with the
     peak the window labels.

Writes OUT/walk.tsv (one row per file) and OUT/walk.md (the same as a table). Python stdlib only.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time

STATUS_BAR_PX = 34  # left out of the comparisons: "Opened …" and hover texts come and go (and its top edge)
PARK = (1395, 995)  # the pointer waits here, outside the window (Xvfb screen 1400x1000)


def human(n):
    """Binary units, as the window writes them (KiB, MiB, GiB)."""
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if abs(n) < 1024 or unit == "TiB":
            return f"{n:.2f} {unit}" if unit != "B" else f"{n} B"
        n /= 1024


def run(*cmd, check=True, capture=True):
    r = subprocess.run(cmd, stdout=subprocess.PIPE if capture else None, stderr=subprocess.PIPE, text=True)
    if check and r.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: {r.stderr.strip()}")
    return r


def xdo(*args):
    return run("xdotool", *[str(a) for a in args], check=False).stdout.strip()


def windows(pattern):
    out = xdo("search", "--onlyvisible", "--name", pattern)
    return [w for w in out.split() if w]


def title(wid):
    return xdo("getwindowname", wid)


def geometry(wid):
    """The window's inside on the screen. xwininfo, not `xdotool getwindowgeometry`: under a
    reparenting window manager (openbox) the latter adds the frame's offset twice."""
    out = run("xwininfo", "-id", str(wid)).stdout
    get = lambda key: int(re.search(key + r":\s*(-?\d+)", out).group(1))
    return get("Absolute upper-left X"), get("Absolute upper-left Y"), get("Width"), get("Height")


class Walker:
    def __init__(self, memviz, out, files, settle_timeout):
        self.memviz, self.out, self.files, self.settle_timeout = memviz, out, files, settle_timeout
        self.main = None
        self.rows = []

    # --- screenshots -------------------------------------------------------------------------
    def grab(self, path, body_only=False, whole_screen=False):
        """The main window (optionally without its status bar), or the whole screen."""
        if whole_screen or self.main is None:
            run("import", "-window", "root", path)
            return path
        x, y, w, h = geometry(self.main)
        if body_only:
            h -= STATUS_BAR_PX
        run("import", "-window", "root", "-crop", f"{w}x{h}+{x}+{y}", "+repage", path)
        return path

    @staticmethod
    def differing_pixels(a, b):
        r = run("compare", "-metric", "AE", a, b, "null:", check=False)
        text = (r.stderr or r.stdout).strip().split()
        try:
            return int(float(text[0]))
        except (IndexError, ValueError):
            return -1  # sizes differ, or compare failed

    def settle(self, tag):
        """Wait until three screenshots 300 ms apart are equal (the views finished reading)."""
        tmp = os.path.join(self.out, ".settle")
        os.makedirs(tmp, exist_ok=True)
        prev, equal, start = None, 0, time.monotonic()
        i = 0
        while time.monotonic() - start < self.settle_timeout:
            cur = self.grab(os.path.join(tmp, f"{i % 3}.png"), body_only=True)
            if prev is not None and self.differing_pixels(prev, cur) == 0:
                equal += 1
                if equal >= 2:
                    return time.monotonic() - start
            else:
                equal = 0
            prev, i = cur, i + 1
            time.sleep(0.3)
        print(f"  {tag}: the window kept changing for {self.settle_timeout} s", file=sys.stderr)
        return None

    # --- input -------------------------------------------------------------------------------
    def at(self, fx, fy):
        x, y, w, h = geometry(self.main)
        return x + int(w * fx), y + int(h * fy)

    def park(self):
        xdo("mousemove", *PARK)

    def key(self, *keys):
        xdo("windowactivate", "--sync", self.main)
        for k in keys:
            xdo("key", "--clearmodifiers", k)
            time.sleep(0.15)

    def drag(self, fx0, fx1, fy, modifier=None):
        x0, y = self.at(fx0, fy)
        x1, _ = self.at(fx1, fy)
        xdo("mousemove", x0, y)
        time.sleep(0.1)
        if modifier:
            xdo("keydown", modifier)
        xdo("mousedown", 1)
        steps = 12
        for s in range(1, steps + 1):
            xdo("mousemove", x0 + (x1 - x0) * s // steps, y)
            time.sleep(0.03)
        xdo("mouseup", 1)
        if modifier:
            xdo("keyup", modifier)
        self.park()

    def wheel(self, fx, fy, clicks):
        x, y = self.at(fx, fy)
        xdo("mousemove", x, y)
        for _ in range(clicks):
            xdo("click", 4)
            time.sleep(0.05)
        self.park()

    # --- opening -----------------------------------------------------------------------------
    def wait_for_title(self, name, timeout=300):
        """The title says NAME (import done), or an error box came: returns its text or None."""
        start = time.monotonic()
        while time.monotonic() - start < timeout:
            if self.main is None:
                found = windows(r"memviz$")
                if found:
                    self.main = found[0]
            if self.main is not None and title(self.main) == f"{name} – memviz":
                return None
            for box in windows(r"^Cannot open file$"):
                shot = self.grab(os.path.join(self.out, f"error-{name}.png"), whole_screen=True)
                xdo("windowactivate", "--sync", box)
                xdo("key", "Return")
                return f"error box (see {os.path.basename(shot)})"
            time.sleep(0.2)
        return f"not opened after {timeout} s"

    def open_through_dialog(self, path):
        self.key("ctrl+o")
        start = time.monotonic()
        while not windows(r"^Open trace$"):
            if time.monotonic() - start > 20:
                raise RuntimeError("the Open dialog did not appear")
            time.sleep(0.1)
        dialog = windows(r"^Open trace$")[0]
        xdo("windowactivate", "--sync", dialog)
        time.sleep(0.2)
        # The file name box has the focus; select what is there and type the whole path.
        xdo("key", "ctrl+a")
        xdo("type", "--delay", 2, path)
        xdo("key", "Return")

    # --- the walk ----------------------------------------------------------------------------
    def summary_peaks(self, path):
        r = run(self.memviz, "summary", "--json", path, check=False)
        if r.returncode != 0:
            return f"summary failed: {r.stderr.strip()[:200]}"
        s = json.loads(r.stdout)
        devices = s.get("devices", [])
        return "; ".join(f"{d['device']} peak {d['peak_bytes']} B = {human(d['peak_bytes'])}" for d in devices) or "no devices"

    def tabs(self, folder):
        """Every tab in turn: Ctrl+PgDown until the tab row looks like the first one again."""
        shots = [self.grab(os.path.join(folder, "tab-1.png"))]
        for k in range(2, 12):
            self.key("ctrl+Next")
            self.settle(f"tab {k}")
            shot = self.grab(os.path.join(folder, f"tab-{k}.png"))
            if self.differing_pixels(shots[0], shot) == 0:
                os.remove(shot)
                break
            shots.append(shot)
        return len(shots)

    def walk(self):
        env = dict(os.environ)
        home = os.path.join(self.out, "home")
        shutil.rmtree(home, ignore_errors=True)
        os.makedirs(home)
        env["HOME"] = home
        for var in ("XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME"):
            env.pop(var, None)
        env.pop("QT_QPA_PLATFORM", None)
        log = open(os.path.join(self.out, "memviz.log"), "w")
        proc = subprocess.Popen([self.memviz, self.files[0]], env=env, stdout=log, stderr=subprocess.STDOUT)
        try:
            for n, path in enumerate(self.files, 1):
                self.walk_one(n, path)
        finally:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
        self.write_report()

    def walk_one(self, n, path):
        name = os.path.basename(path)
        folder = os.path.join(self.out, f"{n:02d}-{re.sub(r'[^A-Za-z0-9._@-]', '_', name)[:80]}")
        os.makedirs(folder, exist_ok=True)
        print(f"{n:2d} {name}", flush=True)
        row = {"n": n, "file": name, "summary": self.summary_peaks(path)}
        start = time.monotonic()
        if n > 1:
            self.open_through_dialog(os.path.abspath(path))
        error = self.wait_for_title(name)
        if error:
            row.update(outcome=error, open_s="", home_ae="", tabs="")
            self.rows.append(row)
            return
        self.park()
        settled = self.settle("open")
        row["open_s"] = f"{time.monotonic() - start:.1f}"
        first = self.grab(os.path.join(folder, "1-first.png"))
        first_body = self.grab(os.path.join(folder, ".first-body.png"), body_only=True)
        self.wheel(0.5, 0.38, 3)
        self.settle("zoom")
        self.grab(os.path.join(folder, "2-zoom.png"))
        self.drag(0.5, 0.35, 0.38)
        self.settle("pan")
        self.grab(os.path.join(folder, "3-pan.png"))
        self.drag(0.35, 0.6, 0.38, modifier="shift")
        self.settle("select")
        self.grab(os.path.join(folder, "4-select.png"))
        self.key("Escape", "Home")
        self.settle("home")
        self.grab(os.path.join(folder, "5-home.png"))
        home_body = self.grab(os.path.join(folder, ".home-body.png"), body_only=True)
        row["home_ae"] = self.differing_pixels(first_body, home_body)
        if row["home_ae"] != 0:
            run("compare", first_body, home_body, os.path.join(folder, "5-home-diff.png"), check=False)
        row["tabs"] = self.tabs(folder)
        row["outcome"] = "opened" if settled is not None else "opened, never settled"
        self.rows.append(row)
        print(f"   {row['outcome']}, home AE {row['home_ae']}, {row['tabs']} tabs; {row['summary']}", flush=True)

    def write_report(self):
        cols = ["n", "file", "outcome", "open_s", "home_ae", "tabs", "summary"]
        with open(os.path.join(self.out, "walk.tsv"), "w") as f:
            f.write("\t".join(cols) + "\n")
            for r in self.rows:
                f.write("\t".join(str(r.get(c, "")) for c in cols) + "\n")
        with open(os.path.join(self.out, "walk.md"), "w") as f:
            f.write("| " + " | ".join(cols) + " |\n|" + "---|" * len(cols) + "\n")
            for r in self.rows:
                f.write("| " + " | ".join(str(r.get(c, "")) for c in cols) + " |\n")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--memviz", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--settle-timeout", type=float, default=60)
    p.add_argument("files", nargs="+")
    a = p.parse_args()
    missing = [f for f in a.files if not os.path.isfile(f)]
    if missing:
        sys.exit(f"walk.py: no such file: {', '.join(missing)}")
    Walker(a.memviz, a.out, [os.path.abspath(f) for f in a.files], a.settle_timeout).walk()


if __name__ == "__main__":
    main()
