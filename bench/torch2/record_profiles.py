#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Real PyTorch 2.x profiler files for memviz's tests (issue 54): a few training steps of a
small CNN with AdamW on the CPU, recorded by torch.profiler with profile_memory=True,
record_shapes=True and with_stack=True, written as

  <name>.pt.trace.json.gz        export_chrome_trace (kineto's Chrome trace, gzip)
  <name>.key_averages.json       PyTorch's own key_averages(): per operator name its calls,
                                 cpu_memory_usage and self_cpu_memory_usage (memviz's ops table
                                 is held to these numbers)
  <name>.timeline.raw.json.gz    export_memory_timeline(... .raw.json.gz)
  <name>.timeline.json           export_memory_timeline(... .json), the coalesced form
  <name>.timeline.html           export_memory_timeline(... .html): matplotlib's picture of the
                                 same timeline as one base64 PNG in an <img> (no data; memviz
                                 does not read it, docs/formats.md); needs matplotlib

Run it with the pinned PyTorch 2.x environment (packaging/install-py-deps.sh):
    "$(bash packaging/install-py-deps.sh)" bench/torch2/record_profiles.py [--out DIR]
DIR defaults to tests/data/profiler-torch2 in this checkout. Deterministic model and data
(seeded); the files differ between runs only in times and addresses.
"""
import argparse
import gzip
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_OUT = os.path.join(HERE, "..", "..", "tests", "data", "profiler-torch2")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=DEFAULT_OUT, help="output folder (default: tests/data/profiler-torch2)")
    ap.add_argument("--steps", type=int, default=3, help="training steps recorded (default 3)")
    args = ap.parse_args()

    import torch
    from torch.profiler import ProfilerActivity, profile, record_function
    if int(torch.__version__.split(".")[0]) < 2:
        sys.exit("PyTorch %s: this script records PyTorch 2.x's profiler (use the pinned environment)" % torch.__version__)
    torch.manual_seed(0)
    torch.set_num_threads(1)
    model = torch.nn.Sequential(
        torch.nn.Conv2d(3, 16, 3, padding=1), torch.nn.BatchNorm2d(16), torch.nn.ReLU(), torch.nn.MaxPool2d(2),
        torch.nn.Conv2d(16, 32, 3, padding=1), torch.nn.ReLU(), torch.nn.AdaptiveAvgPool2d(1), torch.nn.Flatten(),
        torch.nn.Linear(32, 10))
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    x = torch.randn(16, 3, 32, 32)
    y = torch.randint(0, 10, (16,))

    with profile(activities=[ProfilerActivity.CPU], profile_memory=True, record_shapes=True, with_stack=True) as prof:
        for step in range(args.steps):
            with record_function("train_step"):
                opt.zero_grad(set_to_none=True)
                loss = torch.nn.functional.cross_entropy(model(x), y)
                loss.backward()
                opt.step()
            prof.step()

    os.makedirs(args.out, exist_ok=True)
    name = os.path.join(args.out, "cnn_adamw_cpu")
    plain = name + ".pt.trace.json"
    prof.export_chrome_trace(plain)
    with open(plain, "rb") as src:
        text = src.read()
    # with_stack's Python frames and traceName name folders of the recording machine: the
    # checkout and the environment's site-packages become relative names, the host a word.
    site = os.path.dirname(os.path.dirname(os.path.abspath(torch.__file__)))
    checkout = os.path.abspath(os.path.join(HERE, "..", ".."))
    for folder, word in ((site, "site-packages"), (checkout, ".")):
        text = text.replace(json.dumps(folder)[1:-1].encode() + b"/", word.encode() + b"/")
    text = text.replace(json.dumps(os.path.abspath(plain))[1:-1].encode(), os.path.basename(plain).encode())
    doc = json.loads(text)
    doc["host_name"] = "recorder"
    doc["traceName"] = os.path.basename(plain)
    with gzip.open(plain + ".gz", "wb", compresslevel=9) as dst:
        dst.write(json.dumps(doc).encode())
    os.remove(plain)
    rows = {}
    for e in prof.key_averages():
        rows[e.key] = {"calls": e.count, "cpu_memory_usage": e.cpu_memory_usage,
                       "self_cpu_memory_usage": e.self_cpu_memory_usage}
    with open(name + ".key_averages.json", "w") as f:
        json.dump({"torch": torch.__version__, "ops": rows}, f, indent=1, sort_keys=True)
        f.write("\n")
    prof.export_memory_timeline(name + ".timeline.raw.json.gz", device="cpu")
    prof.export_memory_timeline(name + ".timeline.json", device="cpu")
    prof.export_memory_timeline(name + ".timeline.html", device="cpu")
    for suffix in (".pt.trace.json.gz", ".key_averages.json", ".timeline.raw.json.gz", ".timeline.json",
                   ".timeline.html"):
        print("%-60s %9d bytes" % (os.path.relpath(name + suffix), os.path.getsize(name + suffix)))


if __name__ == "__main__":
    main()
