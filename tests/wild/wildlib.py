#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""What the wild-corpus scripts share: the manifest's columns, reading it, the refusing
unpickler, decompression, and telling a memory file's kind and version from its content."""
import gzip
import io
import json
import pickle
import re
import shutil
import subprocess

COLUMNS = ["name", "kind", "repo", "commit", "path", "size", "sha256", "licence", "version", "description"]
SHARED = "(shared)"  # repo column of the rows whose file is in ../shared/fixtures
MAX_UNPACKED = 512 * 1024 * 1024


def read_manifest(path):
    rows = []
    try:
        with open(path) as f:
            lines = f.read().split("\n")
    except FileNotFoundError:
        return rows
    for line in lines[1:]:
        if line.strip() and not line.startswith("#"):
            cells = line.split("\t")
            rows.append(dict(zip(COLUMNS, cells + [""] * (len(COLUMNS) - len(cells)))))
    return rows


class PlainDataOnly(pickle.Unpickler):
    """Pickle reader that refuses every class lookup: only dict/list/str/int/float/... load."""

    def find_class(self, module, name):
        raise pickle.UnpicklingError(f"refusing {module}.{name}")


def safe_unpickle(data):
    return PlainDataOnly(io.BytesIO(data)).load()


def unpack(data):
    """The bytes of a file, gunzipped or unzstd'ed when compressed."""
    if data[:2] == b"\x1f\x8b":
        with gzip.GzipFile(fileobj=io.BytesIO(data)) as g:
            return g.read(MAX_UNPACKED)
    if data[:4] == b"\x28\xb5\x2f\xfd":
        zstd = shutil.which("zstd")
        if not zstd:
            return b""
        return subprocess.run([zstd, "-dc"], input=data, capture_output=True).stdout[:MAX_UNPACKED]
    return data


def snapshot_version(snap):
    """A PyTorch version range told from which keys a snapshot holds (docs/formats-snapshot.md)."""
    if isinstance(snap, list):
        return "<2.0 (segment list)"
    keys = set(snap)
    entries = [e for t in (snap.get("device_traces") or []) for e in (t or [])]
    ekeys = set().union(*[set(e) for e in entries[:2000]]) if entries else set()
    segs = snap.get("segments") or []
    skeys = set().union(*[set(s) for s in segs[:200]]) if segs else set()
    if "external_annotations" in keys or "user_metadata" in ekeys:
        v = ">=2.6"
    elif "allocator_settings" in keys or "compile_context" in ekeys:
        v = ">=2.5"
    elif "time_us" in ekeys:
        v = ">=2.1"
    elif "device_traces" in keys:
        v = "2.0"
    else:
        v = "<2.0"
    extra = []
    if any(s.get("is_expandable") for s in segs):
        extra.append("expandable")
    acts = {e.get("action") for e in entries}
    for a in ("segment_map", "segment_unmap", "oom", "snapshot"):
        if a in acts:
            extra.append(a)
    if snap.get("host_segments") or snap.get("host_traces"):
        extra.append("pinned-host")
    if any(s.get("segment_pool_id") not in (None, (0, 0), [0, 0]) for s in segs):
        extra.append("private-pools")
    if "frames" in skeys or any("frames" in b for s in segs[:50] for b in s.get("blocks", [])):
        extra.append("block-frames")
    return v + (" " + "+".join(extra) if extra else "")


def describe(data, path):
    """(kind, version, description) of a file's bytes, or (None, None, None) when no memory file."""
    lower = path.lower()
    raw = unpack(data)
    if not raw:
        return None, None, None
    if raw[:1] == b"\x80" or lower.endswith((".pickle", ".pkl")):
        try:
            snap = safe_unpickle(raw)
        except Exception:
            return None, None, None
        if isinstance(snap, dict) and ("segments" in snap or "device_traces" in snap):
            n = sum(len(t or []) for t in snap.get("device_traces") or [])
            return ("snapshot", snapshot_version(snap),
                    "%d segments, %d trace entries, %d devices" % (len(snap.get("segments") or []), n,
                                                                   len(snap.get("device_traces") or [])))
        if isinstance(snap, list) and snap and isinstance(snap[0], dict) and "total_size" in snap[0]:
            return "snapshot", snapshot_version(snap), "%d segments, no trace" % len(snap)
        return None, None, None
    if raw.startswith(b"desc:"):
        head = raw[:4000].decode("utf-8", "replace").split("\n")
        cmd = next((h[4:].strip() for h in head if h.startswith("cmd:")), "")
        pages = "pages-as-heap " if b"--pages-as-heap" in raw[:4000] else ""
        snaps = raw.count(b"\nsnapshot=")
        return "massif", "massif", "%s%d snapshots; cmd: %s" % (pages, snaps, cmd[:60])
    if re.match(rb"v [0-9a-f]+ [0-9a-f]+\n", raw[:40]) or ("heaptrack" in lower and raw[:2] in (b"v ", b"X ")):
        first = raw[:200].split(b"\n")[0].decode("ascii", "replace")
        return "heaptrack", "heaptrack " + first, "%d lines" % raw.count(b"\n")
    if lower.endswith((".html", ".html.gz")) and b"<html" in raw[:2000].lower() and b"Memory" in raw:
        if b"data:image/png;base64" in raw and b"GB" in raw[:5000] or b"export_memory_timeline" in raw:
            return "memtimeline", "html", "export_memory_timeline html (an embedded PNG, no numbers)"
        return None, None, None
    stripped = raw.lstrip()[:1]
    if stripped not in (b"{", b"["):
        return None, None, None
    try:
        doc = json.loads(raw)
    except Exception:
        return None, None, None
    if isinstance(doc, dict) and isinstance(doc.get("traceEvents"), list):
        ev = doc["traceEvents"]
        mem = sum(1 for e in ev if isinstance(e, dict) and e.get("name") == "[memory]")
        parts = []
        if "schemaVersion" in doc:
            parts.append("schema %s" % doc["schemaVersion"])
        di = doc.get("distributedInfo")
        if isinstance(di, dict):
            parts.append("rank %s/%s" % (di.get("rank"), di.get("world_size")))
        if "deviceProperties" in doc:
            parts.append("GPU")
        cats = {e.get("cat") for e in ev[:50000] if isinstance(e, dict)}
        if "Operator" in cats:
            parts.append("<=1.10 cats")
        version = ("kineto " + " ".join(parts)) if parts else "kineto"
        return "profiler", version, "%d events, %d [memory]" % (len(ev), mem)
    if isinstance(doc, list) and doc:
        if all(isinstance(r, list) and len(r) == 4 for r in doc[:100]):
            return "memtimeline", "raw", "%d raw rows" % len(doc)
        if len(doc) == 2 and isinstance(doc[0], list) and isinstance(doc[1], list) and doc[1] \
                and isinstance(doc[1][0], list):
            return "memtimeline", "coalesced", "%d steps, %d columns" % (len(doc[0]), len(doc[1][0]))
        if all(isinstance(e, dict) and "ph" in e for e in doc[:50]):
            mem = sum(1 for e in doc if isinstance(e, dict) and e.get("name") == "[memory]")
            return "profiler", "chrome list", "%d events, %d [memory]" % (len(doc), mem)
    return None, None, None
