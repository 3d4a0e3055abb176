#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Harvest memory files from a local git mirror of a repository (git clone --mirror URL).

  harvest.py GITDIR OWNER/NAME [--cache DIR] [--manifest tests/wild/MANIFEST.tsv] [--all-history]

Walks the mirror's HEAD tree (and, with --all-history, every blob any commit ever had at a
path that looks like a memory file), classifies each candidate by content (snapshot pickle,
profiler trace, memory-timeline export, heaptrack, massif), copies the ones that are memory
files into the cache as `<owner>__<repo>__<path with / as __>` and appends a manifest row
(see tests/wild/README.md for the columns). Rows already in the manifest are not repeated.
Pickles are read with a find_class that refuses every class: nothing in a file runs.
"""
import argparse
import gzip
import hashlib
import io
import json
import os
import pickle
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from wildlib import COLUMNS, read_manifest, describe  # noqa: E402

CANDIDATE = re.compile(
    r"(\.pickle$|\.pkl$|\.pt\.trace\.json(\.gz)?$|trace.*\.json(\.gz)?$|\.json\.gz$|timeline.*\.(json|html)(\.gz)?$|"
    r"memory.*\.(json|html)(\.gz)?$|(^|/)massif\.out|(^|/)heaptrack\.[^/]*\.(gz|zst)$|(^|/)heaptrack\.[^/]*$|\.(gz|zst)$)",
    re.IGNORECASE)
MAX_BYTES = 4 * 1024 * 1024


def git(gitdir, *args, binary=False):
    out = subprocess.run(["git", "--git-dir", gitdir, *args], capture_output=True, check=True).stdout
    return out if binary else out.decode("utf-8", "replace")


def licence_of(gitdir):
    names = [n for n in git(gitdir, "ls-tree", "--name-only", "HEAD").split("\n")
             if re.match(r"(?i)(licen[cs]e|copying)(\.md|\.txt)?$", n)]
    if not names:
        return "unknown"
    text = git(gitdir, "show", "HEAD:" + names[0])[:3000]
    for pattern, name in ((r"MIT License|Permission is hereby granted, free of charge", "MIT"),
                          (r"Apache License", "Apache-2.0"),
                          (r"BSD 3-Clause|Redistribution and use.*Neither the name", "BSD-3-Clause"),
                          (r"Redistribution and use", "BSD"),
                          (r"GNU GENERAL PUBLIC LICENSE\s+Version 3", "GPL-3.0"),
                          (r"GNU GENERAL PUBLIC LICENSE\s+Version 2", "GPL-2.0"),
                          (r"GNU LESSER", "LGPL"), (r"Mozilla Public", "MPL-2.0"),
                          (r"unlicense|public domain", "Unlicense"), (r"Creative Commons", "CC")):
        if re.search(pattern, text, re.IGNORECASE | re.DOTALL):
            return name
    return "other (" + names[0] + ")"


def candidates(gitdir, all_history):
    """(commit, path, blob) for every candidate path; the newest commit holding each blob."""
    found = {}
    head = git(gitdir, "rev-parse", "HEAD").strip()
    for line in git(gitdir, "ls-tree", "-r", "-l", "HEAD").split("\n"):
        m = re.match(r"\d+ blob ([0-9a-f]+)\s+(\d+|-)\t(.*)$", line)
        if m and CANDIDATE.search(m.group(3)):
            found[m.group(1)] = (head, m.group(3))
    if all_history:
        log = git(gitdir, "log", "--all", "--format=C %H", "--raw", "--no-abbrev", "--no-renames")
        commit = None
        for line in log.split("\n"):
            if line.startswith("C "):
                commit = line[2:].strip()
            elif line.startswith(":"):
                meta, path = line.split("\t", 1)
                blob = meta.split()[3]
                if CANDIDATE.search(path) and not set(blob) <= {"0"} and blob not in found:
                    found[blob] = (commit, path)
    return [(c, p, b) for b, (c, p) in found.items()]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("gitdir")
    ap.add_argument("repo")
    ap.add_argument("--cache", default=os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "memviz", "wild"))
    ap.add_argument("--manifest", default=os.path.join(HERE, "MANIFEST.tsv"))
    ap.add_argument("--all-history", action="store_true")
    ap.add_argument("--max-per-repo", type=int, default=12)
    args = ap.parse_args()
    rows = read_manifest(args.manifest)
    known = {r["sha256"] for r in rows}
    names = {r["name"] for r in rows}
    licence = licence_of(args.gitdir)
    added = 0
    for commit, path, blob in sorted(candidates(args.gitdir, args.all_history), key=lambda x: x[1]):
        if added >= args.max_per_repo:
            break
        try:
            size = int(git(args.gitdir, "cat-file", "-s", blob).strip())
        except subprocess.CalledProcessError:
            continue  # the snapshot lacks it (4 MiB and more)
        if size == 0 or size > MAX_BYTES:
            continue
        data = git(args.gitdir, "cat-file", "blob", blob, binary=True)
        if data.startswith(b"version https://git-lfs"):
            continue
        kind, version, what = describe(data, path)
        if not kind:
            continue
        sha = hashlib.sha256(data).hexdigest()
        if sha in known:
            continue
        name = args.repo.replace("/", "__") + "__" + path.replace("/", "__")
        if name in names:
            name = name + "@" + commit[:8]
        names.add(name)
        known.add(sha)
        os.makedirs(args.cache, exist_ok=True)
        with open(os.path.join(args.cache, name), "wb") as f:
            f.write(data)
        row = {"name": name, "kind": kind, "repo": args.repo, "commit": commit, "path": path, "size": str(size),
               "sha256": sha, "licence": licence, "version": version, "description": what}
        with open(args.manifest, "a") as f:
            if os.path.getsize(args.manifest) == 0:
                f.write("\t".join(COLUMNS) + "\n")
            f.write("\t".join(row[c].replace("\t", " ") for c in COLUMNS) + "\n")
        print(kind, name, version, what)
        added += 1


if __name__ == "__main__":
    main()
