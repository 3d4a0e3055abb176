#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Adds an SPDX licence line at the top of every tracked source file that lacks one.

Run it from the repository root: `python3 tools/add_spdx.py .` (test data and the sample's
source are left alone: their line numbers are recorded in committed traces)."""
import subprocess, sys, pathlib
root = pathlib.Path(sys.argv[1])
files = subprocess.run(["git", "-C", str(root), "ls-files"], capture_output=True, text=True, check=True).stdout.split()
changed = 0
for rel in files:
    p = root / rel
    if rel.startswith(("tests/data/", "resources/sample/", "shared/")) or not p.is_file():
        continue
    suffix = p.suffix
    if suffix in (".cpp", ".h", ".hpp", ".c"):
        tag = "// SPDX-License-Identifier: MIT\n"
    elif suffix in (".py", ".sh") or rel.endswith("CMakeLists.txt") or suffix == ".cmake":
        tag = "# SPDX-License-Identifier: MIT\n"
    else:
        continue
    text = p.read_text(encoding="utf-8")
    if "SPDX-License-Identifier" in text[:400]:
        continue
    lines = text.splitlines(keepends=True)
    at = 0
    if lines and lines[0].startswith("#!"):
        at = 1
        if len(lines) > 1 and "coding" in lines[1]:
            at = 2
    lines.insert(at, tag)
    p.write_text("".join(lines), encoding="utf-8")
    changed += 1
print(f"{changed} files given an SPDX line")
