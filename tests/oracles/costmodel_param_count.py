#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Parameter counts of JSON model specs as PyTorch sees them: each spec is built with the
reference builder bench/costmodel/spec_to_torch.py on the meta device (no memory) and
sum(p.numel() for p in model.parameters()) is printed, one "FILE COUNT" line per spec.

Needs torch (Debian's /usr/bin/python3 has 1.13); exits 77 when torch is missing so the
calling test can skip.
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "bench", "costmodel"))

try:
    import spec_to_torch as S
except ImportError as e:  # torch missing
    print(f"torch is not available: {e}", file=sys.stderr)
    sys.exit(77)

for path in sys.argv[1:]:
    with open(path) as f:
        spec = json.load(f)
    S.validate_spec(spec)
    model = S.build_model(spec, "meta")
    print(path, sum(p.numel() for p in model.parameters()))
